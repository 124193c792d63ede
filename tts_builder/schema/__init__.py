"""JSON Schemas shipped with tts-builder (``tts_save.schema.json``: Tabletop Simulator saves)."""
