"""Card art: game data + layouts (``art_src/<game>/art.json``) -> Pillow -> TTS sheets.

Modules by concern:

* :mod:`~tts_builder.art.source` reads and checks an art source and the component rows it names;
* :mod:`~tts_builder.art.render` draws one row with one layout;
* :mod:`~tts_builder.art.cache` keeps the drawn pictures at the sizes the outputs use;
* :mod:`~tts_builder.art.sheets` plans and composes TTS deck sheets (10 x 7, 4096 px, hidden cell);
* :mod:`~tts_builder.art.pipeline` runs it all and writes the images and the manifest.
"""

from tts_builder.art.pipeline import (ArtManifest, CardSlot, DeckArt, FileRecord, SheetArt, StandaloneArt,
                                      images_dir, load_manifest, render_game_art, render_sheets_command)
from tts_builder.art.render import RENDERER_VERSION, FittedText, ResolvedCard, fit_text, render_card, resolve_card
from tts_builder.art.sheets import MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, SheetPlan, compose_sheet, plan_sheets
from tts_builder.art.source import ArtSource, ComponentRow, known_art_games, load_art_source, load_rules_data

__all__ = [
    "ArtManifest", "CardSlot", "DeckArt", "FileRecord", "SheetArt", "StandaloneArt", "images_dir", "load_manifest",
    "render_game_art", "render_sheets_command", "RENDERER_VERSION", "FittedText", "ResolvedCard", "fit_text",
    "render_card", "resolve_card",
    "MAX_COLUMNS", "MAX_ROWS", "MAX_SHEET_PX", "SheetPlan", "compose_sheet", "plan_sheets", "ArtSource",
    "ComponentRow", "known_art_games", "load_art_source", "load_rules_data",
]
