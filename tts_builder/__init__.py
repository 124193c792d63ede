"""tts-builder: board game rules and components into a Tabletop Simulator mod."""

__version__ = "0.1.0"
