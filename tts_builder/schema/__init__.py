"""JSON Schemas shipped as package data and loaded with ``importlib.resources``.

``tts_save.schema.json`` describes Tabletop Simulator saves (used by ``tts_builder.savecheck``).
"""
