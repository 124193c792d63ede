"""Per-game art sources: where the component rows come from and how each kind is laid out.

An art source is data, not code: ``art_src/<game-id>/art.json`` (shipped as the
resource package ``art_src``). Everything is checked when loaded: an
unknown key, a bad colour, a missing layout or a row that belongs to no deck is an
:class:`~tts_builder.errors.InputError` naming the file and the field.

Format 1 (every ``comment`` key is ignored)::

    format      1
    components  {"package": "rules.<pkg>", "data": "<id>", "rows": "cards", "key": "key"}  rows of
                rules/<pkg>/<id>.json (``data`` defaults to the game id: name another file of the package,
                e.g. a deck list, with it), or {"file": "data.json", "rows": "cards"}  a file beside art.json
                (tests, games without rules). Each row: its key (unique, file-safe) in the field named by
                ``key`` (default "key"), "kind", optional "quantity" (>= 1, default 1), any other fields
                for the templates.
    context     top-level keys of the data file exposed to templates as ``game.<key>``
    tables      {"name": {"package": "rules.<pkg>", "data": "<id>"} or {"file": "x.json"},
                          "index": {"<list field>": "<id field>"}}  further data files (a roster beside a
                deck list), each exposed to templates whole as ``tables.<name>``; every list named in
                ``index`` is exposed as a mapping id -> entry instead (a missing or duplicate id is an
                error), so a template looks an entry up as ``tables.roster.warriors[warrior_id]``
                (Jinja2 tries attributes first: a key that is also a dict method, such as ``items``,
                ``keys`` or ``values``, must be written ``tables.roster['items']``)
    fonts       {"body": "DejaVuSansCondensed.ttf", "bold": ...}  TrueType fonts by name, files of the shared
                ``art_src/fonts/`` folder (licences beside them). A text layer's ``font`` picks one (default
                "body", which must then exist); the thumbnail title, the play mat, boards and pieces use them too
                ("bold" for titles and labels when the source names one). A file missing from the fonts folder
                of another art root is looked up in the shipped one. Without ``fonts`` text falls back to
                Pillow's built-in font.
    dpi         render resolution of the physical sizes (default 300); supersample 1-4 (default 1)
    palette     {"name": "#rrggbb" | CSS colour}; any colour field (a layout's background too) takes a
                palette name or a colour, or a template giving one: ``"{{ side }}_bg"`` picks a
                per-side palette entry
    shapes      {"name": {"aspect": w/h (optional), "layers": [primitive layers in unit coordinates]}}
    layouts     {"name": {"extends": parent, "size_mm": [w, h], "bleed_mm", "safe_mm", "background",
                          "vars": {...}, "let": {...}, "layers": [...]}}
                (extends: parent layers first, vars and let merged, the parent's names first)
                ``let`` maps names to Jinja2 expressions evaluated once per card, in order (each sees
                the ones before), and exposed to the layers under those names: lookups and per-side
                data computed once instead of in every layer. A name may shadow a row field, not a
                reserved name; an expression that yields an undefined value is an error.
    kinds       {"row kind": "layout name"}
    decks       [{"key", "name", "kinds": [...], "where": Jinja2 expression over the row (optional),
                  "back": layout, "hidden": layout (optional, default back), "back_is_hidden", "unique_back"}]
    standalone  [{"kinds": [...], "where", "back"}]  components drawn as their own image (boards, tokens)
    tts         {"dpi": sheet resolution, "max_sheet_px": <= 4096, "empty_cell": colour}
    thumbnail   {"background", "cards": [keys], "title": template, "title_color", "title_font"}

Layers (geometry in mm from the cut box's top-left; a box is [x, y, w, h] or "cut" / "safe" /
"bleed"; inside a shape, coordinates are fractions of the shape's box; widths stay in mm):

    rect     box, fill, outline, width_mm, radius_mm
    ellipse  box, fill, outline, width_mm
    polygon  points [[x, y], ...], fill, outline, width_mm
    line     points, color, width_mm
    hatch    box, color, width_mm, spacing_mm, radius_mm  (diagonal lines clipped to a rounded box)
    shape    box, name  (a shape of the library, drawn in the box)
    text     box, text, size_pt, min_size_pt (shrink until it fits), color, align left|center|right,
             valign top|middle|bottom, rotate (degrees counter-clockwise), wrap, line_spacing, stroke_mm,
             font (a name of ``fonts``)
    image    box, src (a file under <game>/assets/), fit contain|cover|stretch
    every layer: when (a Jinja2 expression), repeat {"count": n, "step_mm": [dx, dy]} (``i`` = 0..n-1)

Any string field containing ``{{`` or ``{%`` is a Jinja2 template (strict: an unknown name is an
error; immutable sandbox: templates cannot change the data) over the row's fields plus ``row``,
``game``, ``tables``, ``vars``, ``deck``, ``i`` and the layout's ``let`` names.

Caching: a card picture is keyed by its *resolved* drawing (every template rendered, every ``when``
and ``repeat`` applied, colours turned into RGB; see :func:`tts_builder.art.render.resolve_card`),
not by its inputs, so editing a table entry redraws exactly the cards whose drawing shows it.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from PIL import ImageColor, ImageFont

from tts_builder.errors import InputError
from tts_builder.fileio import parse_json_text

ART_FILE = "art.json"
#: Names every template sees; a ``let`` name may not take one of them.
RESERVED_NAMES = frozenset({"row", "game", "tables", "vars", "deck", "i"})
ASSETS_DIR = "assets"
#: The shared folder of TrueType fonts beside the game folders (``art_src/fonts/``).
FONTS_DIR = "fonts"
#: The font a text layer uses when it names none.
DEFAULT_FONT = "body"
MM_PER_INCH = 25.4
_KEY_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

RGB = tuple[int, int, int]


# --------------------------------------------------------------------------- roots and data


def art_root() -> Traversable:
    """The folder holding one art source per game: the ``art_src`` package
    (the top-level ``art_src/`` folder, installed as a package of its own)."""
    return importlib.resources.files("art_src")


def known_art_games(root: Traversable | Path | None = None) -> list[str]:
    """Game ids that have an art source under ``root`` (default :func:`art_root`)."""
    base = art_root() if root is None else root
    return sorted(p.name for p in base.iterdir() if p.is_dir() and (p / ART_FILE).is_file())


def load_rules_data(package: str, data_id: str) -> dict[str, Any]:
    """Load a game's component data ``rules/<package>/<data_id>.json``.

    ``package`` is the dotted package (``"rules.two_and_two"``); the file is read
    through :mod:`importlib.resources`, so it works from a checkout or an install.
    """
    if not re.fullmatch(r"rules(\.[a-z_][a-z0-9_]*)+", package):
        raise InputError(f"components.package {package!r}: expected 'rules.<game_package>'")
    try:
        resource = importlib.resources.files(package) / f"{data_id}.json"
    except ModuleNotFoundError:
        raise InputError(f"components.package {package!r}: no such package") from None
    if not resource.is_file():
        raise InputError(f"{package}/{data_id}.json: no such file")
    data = parse_json_text(resource.read_text(encoding="utf-8"), f"{package}/{data_id}.json")
    if not isinstance(data, dict):
        raise InputError(f"{package}/{data_id}.json: expected a JSON object")
    return data


# --------------------------------------------------------------------------- model


@dataclass(frozen=True)
class ComponentRow:
    """One component design (one row of the game's data file)."""

    key: str
    kind: str
    quantity: int
    fields: Mapping[str, Any]

    @property
    def ids(self) -> list[str]:
        """Physical ids: ``key`` for a single copy, else ``key-1`` … ``key-n``."""
        if self.quantity == 1:
            return [self.key]
        return [f"{self.key}-{n}" for n in range(1, self.quantity + 1)]


@dataclass(frozen=True)
class Layout:
    """A resolved layout (``extends`` applied). Geometry in mm, fonts in pt."""

    name: str
    size_mm: tuple[float, float]
    bleed_mm: float
    safe_mm: float
    background: str
    vars: Mapping[str, Any]
    layers: tuple[Mapping[str, Any], ...]
    let: Mapping[str, str] = field(default_factory=dict)

    def spec(self) -> dict[str, Any]:
        """The layout as written (``extends`` applied)."""
        return {
            "size_mm": list(self.size_mm),
            "bleed_mm": self.bleed_mm,
            "safe_mm": self.safe_mm,
            "background": self.background,
            "vars": dict(self.vars),
            "let": dict(self.let),
            "layers": [dict(layer) for layer in self.layers],
        }


@dataclass(frozen=True)
class DeckSpec:
    key: str
    name: str
    kinds: tuple[str, ...]
    where: str | None
    back: str
    hidden: str | None
    back_is_hidden: bool
    unique_back: bool


@dataclass(frozen=True)
class StandaloneSpec:
    """Components drawn as their own image (boards, tokens, tiles), not on a sheet."""

    kinds: tuple[str, ...]
    where: str | None
    back: str | None


@dataclass(frozen=True)
class TtsProfile:
    dpi: float
    max_sheet_px: int
    empty_cell: str


@dataclass(frozen=True)
class ThumbnailSpec:
    background: str
    cards: tuple[str, ...]
    title: str | None
    title_color: str
    title_font: str | None = None


@dataclass(frozen=True)
class FontFile:
    """A TrueType font an art source names: its name there, the file (for messages) and its bytes.

    Equality and hashing go by name and digest, so a font can key caches."""

    name: str
    file: str  # "art_src/fonts/<file>"
    sha256: str
    data: bytes = field(repr=False, compare=False)


@dataclass(frozen=True)
class ArtSource:
    game_id: str
    origin: str  # "art_src/<game>/art.json", for messages
    root: Traversable
    components: str  # where the rows came from, for messages
    game: Mapping[str, Any]  # top-level data keys exposed to templates as ``game``
    tables: Mapping[str, Any]  # further data files exposed to templates as ``tables``
    rows: tuple[ComponentRow, ...]
    dpi: float
    supersample: int
    palette: Mapping[str, str]
    shapes: Mapping[str, Mapping[str, Any]]
    layouts: Mapping[str, Layout]
    kinds: Mapping[str, str]  # row kind -> layout name
    decks: tuple[DeckSpec, ...]
    standalone: tuple[StandaloneSpec, ...]
    tts: TtsProfile
    thumbnail: ThumbnailSpec | None
    assets_digest: str = field(default="")
    fonts: Mapping[str, FontFile] = field(default_factory=dict)

    def font(self, name: str | None = None) -> FontFile | None:
        """The font called ``name`` (default :data:`DEFAULT_FONT`); None when the source names no fonts
        (Pillow's built-in font is used)."""
        if not self.fonts:
            return None
        return self.fonts[name or DEFAULT_FONT]

    def title_font(self) -> FontFile | None:
        """The font for titles and labels: "bold" when the source names one, else the body font."""
        return self.font("bold" if "bold" in self.fonts else None)

    def row(self, key: str) -> ComponentRow:
        for r in self.rows:
            if r.key == key:
                return r
        raise InputError(f"{self.origin}: no component row with key {key!r}")

    def layout_for(self, row: ComponentRow) -> Layout:
        return self.layouts[self.kinds[row.kind]]

    def color(self, value: str, where: str) -> RGB:
        """Resolve a palette name or a CSS colour to RGB."""
        text = self.palette.get(value, value)
        try:
            rgb = ImageColor.getrgb(text)
        except ValueError:
            raise InputError(f"{self.origin}: {where}: {value!r} is neither a palette name nor a colour") from None
        return (rgb[0], rgb[1], rgb[2])


def mm_to_px(mm: float, dpi: float) -> int:
    return int(round(mm * dpi / MM_PER_INCH))


# --------------------------------------------------------------------------- strict reading

_TOP_KEYS = {"format", "name", "components", "context", "tables", "fonts", "dpi", "supersample", "palette", "shapes",
             "layouts", "kinds", "decks", "standalone", "tts", "thumbnail", "table", "comment"}
_LAYOUT_KEYS = {"extends", "size_mm", "bleed_mm", "safe_mm", "background", "vars", "let", "layers", "comment"}
_COMMON_LAYER_KEYS = {"type", "when", "repeat", "comment"}
LAYER_KEYS: dict[str, set[str]] = {
    "rect": {"box", "fill", "outline", "width_mm", "radius_mm"},
    "ellipse": {"box", "fill", "outline", "width_mm"},
    "polygon": {"points", "fill", "outline", "width_mm"},
    "line": {"points", "color", "width_mm"},
    "hatch": {"box", "color", "width_mm", "spacing_mm", "radius_mm"},
    "shape": {"box", "name"},
    "text": {"box", "text", "size_pt", "min_size_pt", "color", "align", "valign", "rotate", "wrap",
             "line_spacing", "stroke_mm", "font"},
    "image": {"box", "src", "fit"},
}
_PRIMITIVES = {"rect", "ellipse", "polygon", "line", "hatch"}


def _obj(value: Any, where: str, origin: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{origin}: {where}: expected an object")
    return value


def _keys(value: Mapping[str, Any], allowed: set[str], where: str, origin: str) -> None:
    extra = sorted(set(value) - allowed)
    if extra:
        raise InputError(f"{origin}: {where}: unknown field {extra[0]!r} (allowed: {', '.join(sorted(allowed))})")


def _num(value: Any, where: str, origin: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{origin}: {where}: expected a number, got {value!r}")
    if positive and value <= 0:
        raise InputError(f"{origin}: {where}: must be > 0, got {value!r}")
    return float(value)


def _str(value: Any, where: str, origin: str) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(f"{origin}: {where}: expected a non-empty string, got {value!r}")
    return value


def _str_list(value: Any, where: str, origin: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InputError(f"{origin}: {where}: expected a list of strings")
    return tuple(value)


def _check_box(value: Any, where: str, origin: str) -> None:
    if isinstance(value, str):
        if value not in ("cut", "safe", "bleed"):
            raise InputError(f"{origin}: {where}: box must be [x, y, w, h] or 'cut', 'safe', 'bleed'")
        return
    if not (isinstance(value, list) and len(value) == 4):
        raise InputError(f"{origin}: {where}: box must be [x, y, w, h]")
    for n, v in enumerate(value):
        _num(v, f"{where}[{n}]", origin)


def _check_points(value: Any, where: str, origin: str) -> None:
    if not (isinstance(value, list) and len(value) >= 2):
        raise InputError(f"{origin}: {where}: expected a list of at least two [x, y] points")
    for n, p in enumerate(value):
        if not (isinstance(p, list) and len(p) == 2):
            raise InputError(f"{origin}: {where}[{n}]: expected [x, y]")
        for v in p:
            _num(v, f"{where}[{n}]", origin)


def _check_layer(layer: Any, where: str, origin: str, *, primitive_only: bool = False) -> None:
    layer = _obj(layer, where, origin)
    kind = layer.get("type")
    allowed_types = _PRIMITIVES if primitive_only else set(LAYER_KEYS)
    if kind not in allowed_types:
        raise InputError(f"{origin}: {where}.type: {kind!r} is not one of {', '.join(sorted(allowed_types))}")
    _keys(layer, _COMMON_LAYER_KEYS | LAYER_KEYS[kind], where, origin)
    if "box" in LAYER_KEYS[kind]:
        if "box" not in layer:
            raise InputError(f"{origin}: {where}: missing 'box'")
        _check_box(layer["box"], f"{where}.box", origin)
    if "points" in LAYER_KEYS[kind]:
        _check_points(layer.get("points"), f"{where}.points", origin)
    for name in ("width_mm", "radius_mm", "spacing_mm", "stroke_mm", "line_spacing"):
        if name in layer:
            _num(layer[name], f"{where}.{name}", origin)
    if kind == "text":
        if not isinstance(layer.get("text"), str):
            raise InputError(f"{origin}: {where}.text: expected a string (a Jinja2 template)")
        _num(layer.get("size_pt"), f"{where}.size_pt", origin, positive=True)
        if "min_size_pt" in layer:
            _num(layer["min_size_pt"], f"{where}.min_size_pt", origin, positive=True)
        if layer.get("align", "center") not in ("left", "center", "right"):
            raise InputError(f"{origin}: {where}.align: expected left, center or right")
        if layer.get("valign", "middle") not in ("top", "middle", "bottom"):
            raise InputError(f"{origin}: {where}.valign: expected top, middle or bottom")
        if "rotate" in layer:
            _num(layer["rotate"], f"{where}.rotate", origin)
        if "wrap" in layer and not isinstance(layer["wrap"], bool):
            raise InputError(f"{origin}: {where}.wrap: expected true or false")
        if "font" in layer:
            _str(layer["font"], f"{where}.font", origin)
    if kind == "shape":
        _str(layer.get("name"), f"{where}.name", origin)
    if kind == "image":
        _str(layer.get("src"), f"{where}.src", origin)
        if layer.get("fit", "contain") not in ("contain", "cover", "stretch"):
            raise InputError(f"{origin}: {where}.fit: expected contain, cover or stretch")
    if "repeat" in layer:
        rep = _obj(layer["repeat"], f"{where}.repeat", origin)
        _keys(rep, {"count", "step_mm"}, f"{where}.repeat", origin)
        count = rep.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InputError(f"{origin}: {where}.repeat.count: expected an integer >= 1")
        step = rep.get("step_mm", [0, 0])
        if not (isinstance(step, list) and len(step) == 2):
            raise InputError(f"{origin}: {where}.repeat.step_mm: expected [dx, dy]")
        for v in step:
            _num(v, f"{where}.repeat.step_mm", origin)
    if "when" in layer:
        _str(layer["when"], f"{where}.when", origin)


def _resolve_layouts(raw: Mapping[str, Any], origin: str) -> dict[str, Layout]:
    resolved: dict[str, dict[str, Any]] = {}

    def resolve(name: str, chain: tuple[str, ...]) -> dict[str, Any]:
        if name in resolved:
            return resolved[name]
        if name in chain:
            raise InputError(f"{origin}: layouts.{name}: 'extends' loops ({' -> '.join(chain + (name,))})")
        spec = _obj(raw.get(name), f"layouts.{name}", origin)
        _keys(spec, _LAYOUT_KEYS, f"layouts.{name}", origin)
        parent_name = spec.get("extends")
        merged: dict[str, Any] = {"vars": {}, "let": {}, "layers": []}
        if parent_name is not None:
            if parent_name not in raw:
                raise InputError(f"{origin}: layouts.{name}.extends: no layout {parent_name!r}")
            parent = resolve(parent_name, chain + (name,))
            merged = {**parent, "vars": dict(parent["vars"]), "let": dict(parent["let"]),
                      "layers": list(parent["layers"])}
        for key in ("size_mm", "bleed_mm", "safe_mm", "background"):
            if key in spec:
                merged[key] = spec[key]
        merged["vars"].update(_obj(spec.get("vars", {}), f"layouts.{name}.vars", origin))
        for let_name, expression in _obj(spec.get("let", {}), f"layouts.{name}.let", origin).items():
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", let_name) or let_name in RESERVED_NAMES:
                raise InputError(f"{origin}: layouts.{name}.let.{let_name}: not a usable name "
                                 f"(an identifier other than {', '.join(sorted(RESERVED_NAMES))})")
            merged["let"][let_name] = _str(expression, f"layouts.{name}.let.{let_name}", origin)
        layers = spec.get("layers", [])
        if not isinstance(layers, list):
            raise InputError(f"{origin}: layouts.{name}.layers: expected a list")
        for n, layer in enumerate(layers):
            _check_layer(layer, f"layouts.{name}.layers[{n}]", origin)
        merged["layers"] = merged["layers"] + layers
        resolved[name] = merged
        return merged

    layouts: dict[str, Layout] = {}
    for name in raw:
        spec = resolve(name, ())
        where = f"layouts.{name}"
        size = spec.get("size_mm")
        if not (isinstance(size, list) and len(size) == 2):
            raise InputError(f"{origin}: {where}.size_mm: expected [width, height] (directly or through 'extends')")
        w = _num(size[0], f"{where}.size_mm[0]", origin, positive=True)
        h = _num(size[1], f"{where}.size_mm[1]", origin, positive=True)
        bleed = _num(spec.get("bleed_mm", 0), f"{where}.bleed_mm", origin)
        safe = _num(spec.get("safe_mm", 0), f"{where}.safe_mm", origin)
        if bleed < 0 or safe < 0 or 2 * safe >= min(w, h):
            raise InputError(f"{origin}: {where}: bleed_mm and safe_mm must be >= 0 and the safe box non-empty")
        layouts[name] = Layout(
            name=name,
            size_mm=(w, h),
            bleed_mm=bleed,
            safe_mm=safe,
            background=_str(spec.get("background", "#ffffff"), f"{where}.background", origin),
            vars=spec["vars"],
            layers=tuple(spec["layers"]),
            let=spec["let"],
        )
    return layouts


def _read_rows(data: Mapping[str, Any], rows_field: str, components: str, origin: str,
               key_field: str = "key") -> tuple[ComponentRow, ...]:
    raw_rows = data.get(rows_field)
    if not isinstance(raw_rows, list):  # empty is fine: a board game may have no cards at all
        raise InputError(f"{components}: field {rows_field!r} must be a list of rows")
    rows: list[ComponentRow] = []
    seen: set[str] = set()
    for n, raw in enumerate(raw_rows):
        where = f"{components}: {rows_field}[{n}]"
        if not isinstance(raw, dict):
            raise InputError(f"{where}: expected an object")
        key = raw.get(key_field)
        if not isinstance(key, str) or not _KEY_RE.match(key):
            raise InputError(f"{where}.{key_field}: expected letters, digits, '_', '-' or '.', got {key!r}")
        if key in seen:
            raise InputError(f"{where}.{key_field}: duplicate key {key!r}")
        seen.add(key)
        kind = raw.get("kind")
        if not isinstance(kind, str) or not kind:
            raise InputError(f"{where}.kind: expected a non-empty string")
        qty = raw.get("quantity", 1)
        if isinstance(qty, bool) or not isinstance(qty, int) or qty < 1:
            raise InputError(f"{where}.quantity: expected an integer >= 1, got {qty!r}")
        rows.append(ComponentRow(key=key, kind=kind, quantity=qty, fields=raw))
    return tuple(rows)


def _digest_assets(root: Traversable) -> str:
    assets = root / ASSETS_DIR
    h = hashlib.sha256()
    if assets.is_dir():
        def walk(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
            for item in sorted(folder.iterdir(), key=lambda t: t.name):
                if item.is_dir():
                    yield from walk(item, f"{prefix}{item.name}/")
                else:
                    yield f"{prefix}{item.name}", item
        for name, item in walk(assets, ""):
            h.update(name.encode() + b"\0" + hashlib.sha256(item.read_bytes()).digest())
    return h.hexdigest()


def _load_data_ref(ref: Mapping[str, Any], where: str, folder: Traversable, game_id: str,
                   origin: str) -> tuple[dict[str, Any], str]:
    """The JSON object a ``{"package", "data"}`` or ``{"file"}`` reference names, and its label."""
    if ("package" in ref) == ("file" in ref):
        raise InputError(f"{origin}: {where}: give either 'package' + 'data' or 'file'")
    if "package" in ref:
        package = _str(ref["package"], f"{where}.package", origin)
        data_id = _str(ref.get("data", game_id), f"{where}.data", origin)
        return load_rules_data(package, data_id), f"{package.replace('.', '/')}/{data_id}.json"
    rel = _str(ref["file"], f"{where}.file", origin)
    if any(part in ("", ".", "..") for part in rel.split("/")):
        raise InputError(f"{origin}: {where}.file: {rel!r} must be a plain path inside art_src/{game_id}/")
    data_file = folder
    for part in rel.split("/"):
        data_file = data_file / part
    label = f"art_src/{game_id}/{rel}"
    if not data_file.is_file():
        raise InputError(f"{label}: no such file (from {origin} {where}.file)")
    return _obj(parse_json_text(data_file.read_text(encoding="utf-8"), label), "top level", label), label


def _load_tables(raw: Mapping[str, Any], folder: Traversable, game_id: str, origin: str) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for name, ref in raw.items():
        where = f"tables.{name}"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise InputError(f"{origin}: {where}: a table name is an identifier")
        ref = _obj(ref, where, origin)
        _keys(ref, {"package", "data", "file", "index", "comment"}, where, origin)
        data, label = _load_data_ref(ref, where, folder, game_id, origin)
        table = dict(data)
        for list_field, id_field in _obj(ref.get("index", {}), f"{where}.index", origin).items():
            id_field = _str(id_field, f"{where}.index.{list_field}", origin)
            entries = data.get(list_field)
            if not isinstance(entries, list):
                raise InputError(f"{label}: {list_field!r} must be a list to be indexed (from {origin} {where}.index)")
            by_id: dict[str, Any] = {}
            for n, entry in enumerate(entries):
                ident = entry.get(id_field) if isinstance(entry, dict) else None
                if not isinstance(ident, str) or not ident:
                    raise InputError(f"{label}: {list_field}[{n}].{id_field}: expected a non-empty string id")
                if ident in by_id:
                    raise InputError(f"{label}: {list_field}[{n}].{id_field}: duplicate id {ident!r}")
                by_id[ident] = entry
            table[list_field] = by_id
        tables[name] = table
    return tables


def _load_fonts(raw: Any, base: Traversable | Path, origin: str) -> dict[str, FontFile]:
    """The ``fonts`` map: each name -> a TrueType file of ``<art root>/fonts/``, read and checked."""
    fonts: dict[str, FontFile] = {}
    for name, rel in _obj(raw, "fonts", origin).items():
        where = f"fonts.{name}"
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", name):
            raise InputError(f"{origin}: {where}: a font name is letters, digits, '_' or '-'")
        rel = _str(rel, where, origin)
        if "/" in rel or "\\" in rel or rel in (".", "..") or not rel.lower().endswith((".ttf", ".otf")):
            raise InputError(f"{origin}: {where}: {rel!r} must be the name of a .ttf or .otf file in art_src/{FONTS_DIR}/")
        resource = base / FONTS_DIR / rel
        if not resource.is_file():  # an art root of its own (tests, other projects) may use the shipped fonts
            resource = art_root() / FONTS_DIR / rel
        label = f"art_src/{FONTS_DIR}/{rel}"
        if not resource.is_file():
            raise InputError(f"{origin}: {where}: no font file {label}")
        data = resource.read_bytes()
        try:
            ImageFont.truetype(io.BytesIO(data), 12)
        except OSError as exc:
            raise InputError(f"{origin}: {where}: {label} is not a font FreeType can read ({exc})") from None
        fonts[name] = FontFile(name, label, hashlib.sha256(data).hexdigest(), data)
    if fonts and DEFAULT_FONT not in fonts:
        raise InputError(f"{origin}: fonts: name a {DEFAULT_FONT!r} font (the one text layers use by default)")
    return fonts


def load_fonts(game_id: str, *, root: Traversable | Path | None = None) -> dict[str, FontFile]:
    """The fonts ``art_src/<game_id>/art.json`` names (empty when the game has no art source or names
    none): the play mat, boards and pieces of the game are drawn with them."""
    base = art_root() if root is None else root
    art_file = base / game_id / ART_FILE
    if not _KEY_RE.match(game_id) or not art_file.is_file():
        return {}
    origin = f"art_src/{game_id}/{ART_FILE}"
    spec = _obj(parse_json_text(art_file.read_text(encoding="utf-8"), origin), "top level", origin)
    return _load_fonts(spec.get("fonts", {}), base, origin)


@dataclass(frozen=True)
class BoardArt:
    """How the table kit draws one board (art.json ``table.boards.<name>``): what the cells say
    (``ids``, ``numbers`` 1.. read left to right from the top row, or ``none``), a caption the mat
    prints above the board, and an outline and round caps for its edges (bridges)."""

    cell_labels: str = ""  # "": ids when table.json's board has labels, else none
    caption: str | None = None
    edge_outline: str | None = None
    round_caps: bool = False


@dataclass(frozen=True)
class TableArt:
    """The drawing choices of the table kit (art.json ``table``): per board a :class:`BoardArt`, and
    ``face_symbols``: a piece face's label -> the art source shape drawn on it (an animal)."""

    boards: Mapping[str, BoardArt] = field(default_factory=dict)
    face_symbols: Mapping[str, str] = field(default_factory=dict)
    #: ``face_note``: a note (``text``) drawn small on the face of every component row for which
    #: ``when`` (an expression over the row, as a layer's ``when``) holds; a row's face is the one
    #: labelled with the row's key in capitals (Two by Two: "placeholder" on the assumed species).
    face_note: Mapping[str, str] = field(default_factory=dict)

    def board(self, name: str) -> BoardArt:
        return self.boards.get(name, BoardArt())


_CELL_LABELS = ("ids", "numbers", "none")


def _table_art(raw: Any, origin: str, shapes: Mapping[str, Any] | None) -> TableArt:
    t = _obj(raw, "table", origin)
    _keys(t, {"boards", "face_symbols", "face_note", "comment"}, "table", origin)
    boards: dict[str, BoardArt] = {}
    for name, b in _obj(t.get("boards", {}), "table.boards", origin).items():
        where = f"table.boards.{name}"
        b = _obj(b, where, origin)
        _keys(b, {"cell_labels", "caption", "edge_outline", "edge_caps", "comment"}, where, origin)
        labels = _str(b["cell_labels"], f"{where}.cell_labels", origin) if "cell_labels" in b else ""
        if labels and labels not in _CELL_LABELS:
            raise InputError(f"{origin}: {where}.cell_labels: expected one of {', '.join(_CELL_LABELS)}")
        caps = _str(b.get("edge_caps", "square"), f"{where}.edge_caps", origin)
        if caps not in ("square", "round"):
            raise InputError(f"{origin}: {where}.edge_caps: expected square or round")
        outline = _str(b["edge_outline"], f"{where}.edge_outline", origin) if "edge_outline" in b else None
        if outline is not None:
            try:
                ImageColor.getrgb(outline)
            except ValueError:
                raise InputError(f"{origin}: {where}.edge_outline: {outline!r} is not a colour") from None
        boards[name] = BoardArt(labels, _str(b["caption"], f"{where}.caption", origin) if "caption" in b else None,
                                outline, caps == "round")
    symbols: dict[str, str] = {}
    for label, shape in _obj(t.get("face_symbols", {}), "table.face_symbols", origin).items():
        name = _str(shape, f"table.face_symbols.{label}", origin)
        if shapes is not None and name not in shapes:
            raise InputError(f"{origin}: table.face_symbols.{label}: no shape {name!r} in 'shapes'")
        symbols[label] = name
    note: dict[str, str] = {}
    if "face_note" in t:
        raw_note = _obj(t["face_note"], "table.face_note", origin)
        _keys(raw_note, {"text", "when", "comment"}, "table.face_note", origin)
        for key in ("text", "when"):
            if key not in raw_note:
                raise InputError(f"{origin}: table.face_note.{key}: missing")
            note[key] = _str(raw_note[key], f"table.face_note.{key}", origin)
    return TableArt(boards, symbols, note)


def load_table_art(game_id: str, *, root: Traversable | Path | None = None) -> TableArt:
    """The table kit's drawing choices in ``art_src/<game_id>/art.json`` (defaults when it has none)."""
    base = art_root() if root is None else root
    art_file = base / game_id / ART_FILE
    if not _KEY_RE.match(game_id) or not art_file.is_file():
        return TableArt()
    origin = f"art_src/{game_id}/{ART_FILE}"
    spec = _obj(parse_json_text(art_file.read_text(encoding="utf-8"), origin), "top level", origin)
    shapes = spec.get("shapes", {})
    return _table_art(spec.get("table", {}), origin, shapes if isinstance(shapes, Mapping) else {})


def load_art_source(game_id: str, *, root: Traversable | Path | None = None) -> ArtSource:
    """Read and check ``<root>/<game_id>/art.json`` and the component rows it names."""
    base = art_root() if root is None else root
    folder = base / game_id
    art_file = folder / ART_FILE
    if not _KEY_RE.match(game_id) or not art_file.is_file():
        known = ", ".join(known_art_games(base)) or "none"
        raise InputError(f"unknown game {game_id!r}: no art source art_src/{game_id}/{ART_FILE} (known: {known})")
    origin = f"art_src/{game_id}/{ART_FILE}"
    spec = _obj(parse_json_text(art_file.read_text(encoding="utf-8"), origin), "top level", origin)
    _keys(spec, _TOP_KEYS, "top level", origin)
    if spec.get("format") != 1:
        raise InputError(f"{origin}: format: expected 1, got {spec.get('format')!r}")

    # -- component rows
    comp = _obj(spec.get("components"), "components", origin)
    _keys(comp, {"package", "data", "file", "rows", "key"}, "components", origin)
    rows_field = _str(comp.get("rows", "cards"), "components.rows", origin)
    key_field = _str(comp.get("key", "key"), "components.key", origin)
    data, components = _load_data_ref(comp, "components", folder, game_id, origin)
    rows = _read_rows(data, rows_field, components, origin, key_field)
    context_keys = _str_list(spec.get("context", []), "context", origin)
    missing = [k for k in context_keys if k not in data]
    if missing:
        raise InputError(f"{origin}: context: {components} has no top-level field {missing[0]!r}")
    game = {k: data[k] for k in context_keys}
    tables = _load_tables(_obj(spec.get("tables", {}), "tables", origin), folder, game_id, origin)

    # -- styles
    dpi = _num(spec.get("dpi", 300), "dpi", origin, positive=True)
    ss = spec.get("supersample", 1)
    if isinstance(ss, bool) or not isinstance(ss, int) or not 1 <= ss <= 4:
        raise InputError(f"{origin}: supersample: expected an integer 1-4")
    palette_raw = _obj(spec.get("palette", {}), "palette", origin)
    palette: dict[str, str] = {}
    for name, value in palette_raw.items():
        text = _str(value, f"palette.{name}", origin)
        try:
            ImageColor.getrgb(text)
        except ValueError:
            raise InputError(f"{origin}: palette.{name}: {text!r} is not a colour") from None
        palette[name] = text
    shapes_raw = _obj(spec.get("shapes", {}), "shapes", origin)
    shapes: dict[str, Mapping[str, Any]] = {}
    for name, shape in shapes_raw.items():
        where = f"shapes.{name}"
        shape = _obj(shape, where, origin)
        _keys(shape, {"aspect", "layers", "comment"}, where, origin)
        if "aspect" in shape:
            _num(shape["aspect"], f"{where}.aspect", origin, positive=True)
        prims = shape.get("layers")
        if not isinstance(prims, list):
            raise InputError(f"{origin}: {where}.layers: expected a list")
        for n, prim in enumerate(prims):
            _check_layer(prim, f"{where}.layers[{n}]", origin, primitive_only=True)
        shapes[name] = shape
    layouts = _resolve_layouts(_obj(spec.get("layouts"), "layouts", origin), origin)
    _table_art(spec.get("table", {}), origin, shapes)
    fonts = _load_fonts(spec.get("fonts", {}), base, origin)
    for layout in layouts.values():
        for n, layer in enumerate(layout.layers):
            if "font" in layer and layer["font"] not in fonts:
                known = ", ".join(sorted(fonts)) or "none: add a 'fonts' map"
                raise InputError(f"{origin}: layouts.{layout.name}: a text layer names font {layer['font']!r} "
                                 f"(known: {known})")

    kinds_raw = _obj(spec.get("kinds"), "kinds", origin)
    kinds: dict[str, str] = {}
    for kind, layout_name in kinds_raw.items():
        if layout_name not in layouts:
            raise InputError(f"{origin}: kinds.{kind}: no layout {layout_name!r}")
        kinds[kind] = layout_name

    def layout_ref(value: Any, where: str) -> str:
        name = _str(value, where, origin)
        if name not in layouts:
            raise InputError(f"{origin}: {where}: no layout {name!r}")
        return name

    decks: list[DeckSpec] = []
    raw_decks = spec.get("decks", [])
    if not isinstance(raw_decks, list):
        raise InputError(f"{origin}: decks: expected a list")
    for n, d in enumerate(raw_decks):
        where = f"decks[{n}]"
        d = _obj(d, where, origin)
        _keys(d, {"key", "name", "kinds", "where", "back", "hidden", "back_is_hidden", "unique_back", "comment"},
              where, origin)
        key = _str(d.get("key"), f"{where}.key", origin)
        if not _KEY_RE.match(key) or key in {x.key for x in decks}:
            raise InputError(f"{origin}: {where}.key: {key!r} is not a unique file-safe key")
        for flag in ("back_is_hidden", "unique_back"):
            if not isinstance(d.get(flag, False), bool):
                raise InputError(f"{origin}: {where}.{flag}: expected true or false")
        decks.append(DeckSpec(
            key=key,
            name=_str(d.get("name", key), f"{where}.name", origin),
            kinds=_str_list(d.get("kinds"), f"{where}.kinds", origin),
            where=_str(d["where"], f"{where}.where", origin) if "where" in d else None,
            back=layout_ref(d.get("back"), f"{where}.back"),
            hidden=layout_ref(d["hidden"], f"{where}.hidden") if "hidden" in d else None,
            back_is_hidden=bool(d.get("back_is_hidden", False)),
            unique_back=bool(d.get("unique_back", False)),
        ))
    standalone: list[StandaloneSpec] = []
    raw_sa = spec.get("standalone", [])
    if not isinstance(raw_sa, list):
        raise InputError(f"{origin}: standalone: expected a list")
    for n, s in enumerate(raw_sa):
        where = f"standalone[{n}]"
        s = _obj(s, where, origin)
        _keys(s, {"kinds", "where", "back", "comment"}, where, origin)
        standalone.append(StandaloneSpec(
            kinds=_str_list(s.get("kinds"), f"{where}.kinds", origin),
            where=_str(s["where"], f"{where}.where", origin) if "where" in s else None,
            back=layout_ref(s["back"], f"{where}.back") if "back" in s else None,
        ))
    groups: list[DeckSpec | StandaloneSpec] = [*decks, *standalone]
    for group in groups:
        for kind in group.kinds:
            if kind not in kinds:
                raise InputError(f"{origin}: kind {kind!r} (used by a deck or standalone group) has no entry in 'kinds'")

    tts_raw = _obj(spec.get("tts", {}), "tts", origin)
    _keys(tts_raw, {"dpi", "max_sheet_px", "empty_cell", "comment"}, "tts", origin)
    max_px = tts_raw.get("max_sheet_px", 4096)
    if isinstance(max_px, bool) or not isinstance(max_px, int) or not 64 <= max_px <= 4096:
        raise InputError(f"{origin}: tts.max_sheet_px: expected an integer 64-4096")
    tts = TtsProfile(
        dpi=_num(tts_raw.get("dpi", dpi), "tts.dpi", origin, positive=True),
        max_sheet_px=max_px,
        empty_cell=_str(tts_raw.get("empty_cell", "#000000"), "tts.empty_cell", origin),
    )
    thumbnail = None
    if "thumbnail" in spec:
        t = _obj(spec["thumbnail"], "thumbnail", origin)
        _keys(t, {"background", "cards", "title", "title_color", "title_font", "comment"}, "thumbnail", origin)
        thumbnail = ThumbnailSpec(
            background=_str(t.get("background", "#202020"), "thumbnail.background", origin),
            cards=_str_list(t.get("cards", []), "thumbnail.cards", origin),
            title=_str(t["title"], "thumbnail.title", origin) if "title" in t else None,
            title_color=_str(t.get("title_color", "#ffffff"), "thumbnail.title_color", origin),
            title_font=_str(t["title_font"], "thumbnail.title_font", origin) if "title_font" in t else None,
        )
        if thumbnail.title_font is not None and thumbnail.title_font not in fonts:
            raise InputError(f"{origin}: thumbnail.title_font: no font {thumbnail.title_font!r} in 'fonts'")

    source = ArtSource(
        game_id=game_id, origin=origin, root=folder, components=components, game=game, tables=tables, rows=rows,
        dpi=dpi, supersample=ss, palette=palette, shapes=shapes, layouts=layouts, kinds=kinds,
        decks=tuple(decks), standalone=tuple(standalone), tts=tts, thumbnail=thumbnail,
        assets_digest=_digest_assets(folder), fonts=fonts,
    )
    # Colours named in styles must resolve now, not halfway through a render.
    for name in (tts.empty_cell, *(l.background for l in layouts.values())):
        if "{{" not in name:
            source.color(name, "colour")
    if thumbnail is not None:
        source.color(thumbnail.background, "thumbnail.background")
        source.color(thumbnail.title_color, "thumbnail.title_color")
        for key in thumbnail.cards:
            source.row(key)
    return source


def canonical_digest(value: Any) -> str:
    """sha256 of canonical JSON: the cache key of anything we render."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_jsonable)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, set, frozenset)):
        return sorted(value) if not isinstance(value, tuple) else list(value)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Sequence):
        return list(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")
