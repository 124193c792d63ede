"""Pillow renderer: one component row + one layout -> one RGB image (bleed included).

Geometry in a layout is in mm from the top-left of the cut box (negative values
reach into the bleed), fonts in pt, both turned into pixels at the art source's
DPI. Any string field holding ``{{`` or ``{%`` is a Jinja2 template over the row's
fields (plus ``row``, ``game``, ``tables``, ``vars``, ``deck``, the layout's ``let``
names and, inside ``repeat``, ``i``). Fonts are the TrueType files the art source
names (``fonts`` in art.json, files of ``art_src/fonts/``), or Pillow's built-in
font (``ImageFont.load_default(size=...)``, Aileron Regular) for a source that names
none; either is laid out with the basic engine, so output does not depend on the
system fonts or on whether libraqm is installed.

Drawing is two steps. :func:`resolve_card` evaluates every template, ``when`` and
``repeat`` and turns colours into RGB: the result (:class:`ResolvedCard`) is plain
data that says exactly what will be drawn. :func:`draw_resolved` paints it.

:class:`tts_builder.art.cache.PictureCache` makes rendering incremental: each picture is
stored under its :func:`job_digest`, the digest of the resolved card (plus DPI, renderer and Pillow
versions), and is not drawn again while that digest is unchanged. Because the key
is what is drawn, not what it was drawn from, a change to shared data (a roster
table, ``game``, a palette entry) redraws exactly the cards whose drawing it changes.
"""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import PIL
from jinja2 import StrictUndefined, Template, TemplateError, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment
from PIL import Image, ImageChops, ImageDraw, ImageFont

from tts_builder.art import legibility
from tts_builder.art.source import RGB, ArtSource, ComponentRow, FontFile, Layout, canonical_digest, mm_to_px
from tts_builder.errors import InputError
from tts_builder.fileio import atomic_write_bytes

#: Bump when the drawing code changes what a layout looks like: every cached card is redrawn.
RENDERER_VERSION = "3"

PT_PER_INCH = 72.0
_ENV = ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
_GLOBAL_NAMES = frozenset(_ENV.globals)
_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))
_TRANSPOSE = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}


# --------------------------------------------------------------------------- templates


@lru_cache(maxsize=2048)
def _template(text: str) -> Template:
    return _ENV.from_string(text)


@lru_cache(maxsize=512)
def _expression(text: str) -> Callable[..., Any]:
    return _ENV.compile_expression(text)


@lru_cache(maxsize=512)
def _strict_expression(text: str) -> Callable[..., Any]:
    return _ENV.compile_expression(text, undefined_to_none=False)


def render_template(text: str, ctx: Mapping[str, Any], where: str) -> str:
    """Render ``text`` if it is a template; plain strings pass through.

    ``Template.render`` would copy ``ctx`` over the environment's globals (a ChainMap) for every
    field of every card (Twin Tower City renders ~6,000); a context that already holds every
    global's name (:func:`card_context` makes one) is used as it is: the same names resolve to
    the same values, since the context's win either way."""
    if "{{" not in text and "{%" not in text:
        return text
    template = _template(text)
    try:
        if _GLOBAL_NAMES <= ctx.keys():
            context = template.new_context(ctx if isinstance(ctx, dict) else dict(ctx), shared=True)
            return _ENV.concat(template.root_render_func(context))
        return template.render(ctx)
    except TemplateError as exc:
        raise InputError(f"{where}: template {text!r}: {exc}") from None


def evaluate(expression: str, ctx: Mapping[str, Any], where: str) -> Any:
    """Evaluate a Jinja2 expression (``when``, deck ``where``)."""
    try:
        return _expression(expression)(**ctx)
    except TemplateError as exc:
        raise InputError(f"{where}: expression {expression!r}: {exc}") from None


def card_context(source: ArtSource, layout: Layout, row: ComponentRow | None, deck: str | None) -> dict[str, Any]:
    """Template context: the row's fields, the reserved names, then the layout's ``let`` names."""
    fields = dict(row.fields) if row is not None else {}
    # the environment's globals first (a row's field of the same name wins, as in Template.render)
    ctx = {**_ENV.globals, **fields, "row": fields, "game": dict(source.game), "tables": source.tables,
           "vars": dict(layout.vars), "deck": deck, "readable_on": _readable_on(source)}
    for name, expression in layout.let.items():
        where = f"{source.origin}: layouts.{layout.name}.let.{name}"
        try:
            value = _strict_expression(expression)(**ctx)
        except TemplateError as exc:
            raise InputError(f"{where}: expression {expression!r}: {exc}") from None
        if isinstance(value, Undefined):
            raise InputError(f"{where}: expression {expression!r} is undefined")
        ctx[name] = value
    return ctx


def _readable_on(source: ArtSource) -> Callable[..., str]:
    """``readable_on(ground, ink, ...)`` in templates: the first ink (a palette name or a colour) with
    4.5:1 contrast on ``ground``, else the one with the most (text on a data-coloured band)."""
    def pick(ground: str, *inks: str) -> str:
        base = source.color(str(ground), "readable_on")
        ratios = [(legibility.contrast(source.color(str(ink), "readable_on"), base), str(ink)) for ink in inks]
        for ratio, ink in ratios:
            if ratio >= legibility.TEXT_CONTRAST:
                return ink
        return max(ratios)[1]
    return pick


# --------------------------------------------------------------------------- fonts and text


@lru_cache(maxsize=256)
def font(size_px: int, face: FontFile | None = None) -> ImageFont.FreeTypeFont:
    """``face`` (a TrueType file of the art source) at ``size_px``, or Pillow's built-in scalable font
    when ``face`` is None; basic layout either way (deterministic)."""
    if face is not None:
        return ImageFont.truetype(io.BytesIO(face.data), max(1, size_px), layout_engine=ImageFont.Layout.BASIC)
    base = ImageFont.load_default(size=max(1, size_px))
    if not isinstance(base, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise InputError("Pillow was built without FreeType: scalable fonts are unavailable")
    return base.font_variant(layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=8)
def _notdef(face: FontFile | None) -> bytes:
    return bytes(font(24, face).getmask("\uffff"))


@lru_cache(maxsize=4096)
def has_glyph(char: str, face: FontFile | None = None) -> bool:
    """Whether ``face`` (default: the built-in font, ASCII and a few signs) draws ``char``."""
    return char.isspace() or bytes(font(24, face).getmask(char)) != _notdef(face)


@dataclass(frozen=True)
class FittedText:
    """Text laid out in a box: the (wrapped) text, its size and its ink box."""

    text: str
    size_px: int
    spacing_px: int
    stroke_px: int
    bbox: tuple[int, int, int, int]  # ink box when drawn at (0, 0)
    fits: bool

    @property
    def width(self) -> int:
        return self.bbox[2] - self.bbox[0]

    @property
    def height(self) -> int:
        return self.bbox[3] - self.bbox[1]


def _wrap(text: str, fnt: ImageFont.FreeTypeFont, width: int, stroke: int) -> str:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split(" ")
        line = ""
        for word in words:
            trial = word if not line else f"{line} {word}"
            if not line or fnt.getlength(trial) + 2 * stroke <= width:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return "\n".join(lines)


def measure(text: str, size_px: int, *, spacing_px: int = 0, stroke_px: int = 0,
            align: str = "left", face: FontFile | None = None) -> tuple[int, int, int, int]:
    """Ink box of ``text`` drawn at (0, 0) in ``face`` (``ImageDraw.multiline_textbbox``)."""
    box = _MEASURE.multiline_textbbox((0, 0), text, font=font(size_px, face), spacing=spacing_px, align=align,
                                      stroke_width=stroke_px)
    return (int(box[0]), int(box[1]), int(box[2]), int(box[3]))


def fit_layer(source: ArtSource, layer: Mapping[str, Any], box_w: int, box_h: int, px_per_mm: float,
              pt_px: float) -> FittedText:
    """A resolved text layer laid out in its ``box_w`` x ``box_h`` box (pixels) as the card draws
    it: its size, shrink limit, wrap, spacing, stroke, alignment and font."""
    return fit_text(str(layer["text"]), box_w, box_h, size_px=round(float(layer["size_pt"]) * pt_px),
                    min_size_px=round(float(layer["min_size_pt"]) * pt_px) if "min_size_pt" in layer else None,
                    wrap=bool(layer.get("wrap", False)), line_spacing=float(layer.get("line_spacing", 1.0)),
                    stroke_px=round(float(layer.get("stroke_mm", 0.0)) * px_per_mm),
                    align=layer.get("align", "center"), face=source.font(layer.get("font")))


@lru_cache(maxsize=4096)
def fit_text(text: str, box_w: int, box_h: int, *, size_px: int, min_size_px: int | None = None,
             wrap: bool = False, line_spacing: float = 1.0, stroke_px: int = 0,
             align: str = "left", face: FontFile | None = None) -> FittedText:
    """Lay out ``text`` in a ``box_w`` x ``box_h`` box, in ``face`` (None: the built-in font).

    Without ``min_size_px`` the text keeps ``size_px``. With it, the text shrinks
    (largest size first, found by bisection) until its ink box fits the box; if
    even ``min_size_px`` does not fit, it is laid out at ``min_size_px`` with
    ``fits=False``. ``wrap`` breaks lines at spaces to the box width at each size.
    Remembered (the same text in the same box is laid out once: a label on every card).
    """
    def layout(size: int) -> FittedText:
        stroke = max(0, round(stroke_px * size / size_px)) if size_px else stroke_px
        spacing = round(size * (line_spacing - 1.0) + size * 0.15)
        body = _wrap(text, font(size, face), box_w, stroke) if wrap else text
        bbox = measure(body, size, spacing_px=spacing, stroke_px=stroke, align=align, face=face)
        ok = bbox[2] - bbox[0] <= box_w and bbox[3] - bbox[1] <= box_h
        return FittedText(body, size, spacing, stroke, bbox, ok)

    size_px = max(1, int(size_px))
    first = layout(size_px)
    if first.fits or min_size_px is None:
        return first
    lo, hi = max(1, min(int(min_size_px), size_px)), size_px - 1
    best = layout(lo)
    if not best.fits:
        return best
    while lo < hi:  # invariant: layout(lo) fits; find the largest size that fits
        mid = (lo + hi + 1) // 2
        trial = layout(mid)
        if trial.fits:
            lo, best = mid, trial
        else:
            hi = mid - 1
    return best


@lru_cache(maxsize=256)  # masks cut to their ink: small, and the repeated ones are few
def _text_mask(fitted: FittedText, face: FontFile | None, align: str, lw: int, lh: int, x: int, y: int,
               rot: float) -> tuple[Image.Image, tuple[int, int, int, int]] | None:
    """The coverage mask of ``fitted`` drawn at ``(x, y)`` in an ``lw`` x ``lh`` box, then turned by
    ``rot`` degrees, cut to its ink: ``(mask, (left, top, full width, full height))``, None when
    nothing is inked. Pasting the cut mask at ``left, top`` changes the same pixels as pasting the
    whole one (a zero coverage leaves a pixel as it is), over less area; a text drawn on many cards
    (a label, a cost) is drawn once."""
    mask = Image.new("L", (lw, lh), 0)
    ImageDraw.Draw(mask).multiline_text((x, y), fitted.text, fill=255, font=font(fitted.size_px, face),
                                        spacing=fitted.spacing_px, align=align,
                                        stroke_width=fitted.stroke_px, stroke_fill=255)
    if rot in _TRANSPOSE:
        mask = mask.transpose(_TRANSPOSE[int(rot)])
    elif rot:
        mask = mask.rotate(rot, resample=Image.Resampling.BICUBIC, expand=True)
    ink = mask.getbbox()
    if ink is None:
        return None
    return mask.crop(ink), (ink[0], ink[1], mask.width, mask.height)


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class CardGeometry:
    """Pixel geometry of a layout at a DPI: the canvas includes the bleed."""

    width: int
    height: int
    cut: tuple[int, int, int, int]  # left, top, right, bottom (exclusive)
    safe: tuple[int, int, int, int]

    @property
    def cut_size(self) -> tuple[int, int]:
        return (self.cut[2] - self.cut[0], self.cut[3] - self.cut[1])


def geometry(layout: Layout, dpi: float) -> CardGeometry:
    cw, ch = mm_to_px(layout.size_mm[0], dpi), mm_to_px(layout.size_mm[1], dpi)
    b, s = mm_to_px(layout.bleed_mm, dpi), mm_to_px(layout.safe_mm, dpi)
    return CardGeometry(cw + 2 * b, ch + 2 * b, (b, b, b + cw, b + ch), (b + s, b + s, b + cw - s, b + ch - s))


class _Mapper:
    """Layer coordinates -> canvas pixels (mm on the card, unit box inside a shape)."""

    def __init__(self, ox: float, oy: float, sx: float, sy: float, px_per_mm: float,
                 named: Mapping[str, tuple[float, float, float, float]], shift: int = 0):
        self.ox, self.oy, self.sx, self.sy, self.k, self.named = ox, oy, sx, sy, px_per_mm, named
        # a canvas that starts ``shift`` pixels right of and below the bleed-included one: every
        # point is worked out as on that canvas, then moved (exact: the shift is a whole number)
        self.shift = shift

    def _at(self, x: float, y: float, dx: float, dy: float) -> tuple[float, float]:
        """The point on the bleed-included canvas."""
        return (self.ox + x * self.sx + dx * self.k, self.oy + y * self.sy + dy * self.k)

    def point(self, x: float, y: float, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        px, py = self._at(x, y, dx, dy)
        return (px - self.shift, py - self.shift)

    def box(self, box: Any, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int, int, int]:
        x, y, w, h = self.named[box] if isinstance(box, str) else box
        x0, y0 = self._at(x, y, dx, dy)
        x1, y1 = self._at(x + w, y + h, dx, dy)
        s = self.shift  # rounded before the move, as on the bleed-included canvas
        return (round(x0) - s, round(y0) - s, round(x1) - s, round(y1) - s)

    def length(self, mm: float) -> int:
        return max(0, round(mm * self.k))


_COLOUR_FIELDS = ("fill", "outline", "color")
_NOT_DRAWN = ("when", "repeat", "comment")


@dataclass(frozen=True)
class ResolvedCard:
    """What one picture shows, as plain data: templates rendered, ``when``/``repeat`` applied.

    Each layer is a dict like the layout's (no ``when``, ``repeat`` or ``comment``) with
    colours as ``[r, g, b]``, ``offset_mm`` ``[dx, dy]`` for a repeated copy, a shape's
    ``shape`` (its aspect and resolved layers) and an image's ``sha256``.
    """

    layout: Layout
    background: RGB
    layers: tuple[Mapping[str, Any], ...]

    def spec(self) -> dict[str, Any]:
        """Everything that changes the picture but the DPI (for cache keys)."""
        return {"size_mm": list(self.layout.size_mm), "bleed_mm": self.layout.bleed_mm,
                "safe_mm": self.layout.safe_mm, "background": list(self.background),
                "layers": [dict(layer) for layer in self.layers]}

    def texts(self) -> list[str]:
        """The text of every text layer, in drawing order (shapes hold no text)."""
        return [str(layer["text"]) for layer in self.layers if layer["type"] == "text"]


class _Resolver:
    def __init__(self, source: ArtSource):
        self.source = source

    def colour(self, value: Any, ctx: Mapping[str, Any], where: str) -> RGB:
        return self.source.color(render_template(str(value), ctx, where), where)

    def layers(self, layers: Any, ctx: dict[str, Any], where: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for n, layer in enumerate(layers):
            lw = f"{where}[{n}]"
            rep = layer.get("repeat", {"count": 1})
            step = rep.get("step_mm", [0, 0])
            for i in range(rep["count"]):
                lctx = {**ctx, "i": i} if "repeat" in layer else ctx
                if "when" in layer and not evaluate(layer["when"], lctx, f"{lw}.when"):
                    continue
                resolved = self.layer(layer, lctx, lw)
                if resolved is None:
                    continue
                if i * step[0] or i * step[1]:
                    resolved["offset_mm"] = [i * step[0], i * step[1]]
                out.append(resolved)
        return out

    def layer(self, layer: Mapping[str, Any], ctx: dict[str, Any], where: str) -> dict[str, Any] | None:
        out = {k: v for k, v in layer.items() if k not in _NOT_DRAWN}
        for name in _COLOUR_FIELDS:
            if name in layer:
                out[name] = list(self.colour(layer[name], ctx, f"{where}.{name}"))
        kind = layer["type"]
        if kind == "text":
            text = render_template(layer["text"], ctx, f"{where}.text")
            if not text.strip():
                return None
            face = self.source.font(layer.get("font"))
            missing = sorted({c for c in text if not has_glyph(c, face)})
            if missing:
                which = face.file if face is not None else "the built-in font"
                raise InputError(f"{where}.text: {text!r} uses characters {which} "
                                 f"lacks: {''.join(missing)!r}")
            out["text"] = text
            if face is not None:
                out["font_sha256"] = face.sha256
            out["color"] = list(self.colour(layer.get("color", "#000000"), ctx, f"{where}.color"))
        elif kind == "shape":
            name = render_template(layer["name"], ctx, f"{where}.name")
            shape = self.source.shapes.get(name)
            if shape is None:
                known = ", ".join(sorted(self.source.shapes)) or "none"
                raise InputError(f"{where}.name: no shape {name!r} (known: {known})")
            out["name"] = name
            out["shape"] = {"aspect": shape.get("aspect"),
                            "layers": self.layers(shape["layers"], ctx, f"{self.source.origin}: shapes.{name}.layers")}
        elif kind == "image":
            rel = render_template(layer["src"], ctx, f"{where}.src")
            out["src"] = rel
            out["sha256"] = hashlib.sha256(_asset(self.source, rel, where).read_bytes()).hexdigest()
        return out


def _asset(source: ArtSource, rel: str, where: str) -> Any:
    resource = source.root / "assets"
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            raise InputError(f"{where}.src: {rel!r} must be a plain path under assets/")
        resource = resource / part
    if not resource.is_file():
        raise InputError(f"{where}.src: no file assets/{rel}")
    return resource


def resolve_card(source: ArtSource, layout: Layout, row: ComponentRow | None = None, *,
                 deck: str | None = None) -> ResolvedCard:
    """Evaluate ``layout``'s templates for ``row``: exactly what :func:`draw_resolved` will draw.

    Raises :class:`InputError` (naming the layer and the row) for a bad template, an unknown
    shape, a missing asset or a character the built-in font lacks.
    """
    try:
        ctx = card_context(source, layout, row, deck)
        background = source.color(render_template(layout.background, ctx, f"layouts.{layout.name}.background"),
                                  f"layouts.{layout.name}.background")
        layers = _Resolver(source).layers(layout.layers, ctx, f"{source.origin}: layouts.{layout.name}.layers")
    except InputError as exc:
        drawing = f"row {row.key!r}" if row is not None else "no row"
        raise InputError(f"{exc} (drawing {drawing}{f' for deck {deck!r}' if deck else ''})") from None
    return ResolvedCard(layout, background, tuple(layers))


@functools.lru_cache(maxsize=64)
def _hatch_mask(w: int, h: int, width: int, spacing: int, radius: int) -> Image.Image:
    """The coverage of a hatched box of that size (the same boxes recur card after card: kept;
    read only, never drawn on)."""
    lines = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(lines)
    for x in range(-h, w + h, spacing):
        d.line([(x, h), (x + h, 0)], fill=255, width=width)
    clip = Image.new("L", (w, h), 0)
    ImageDraw.Draw(clip).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    return ImageChops.multiply(lines, clip)


class _Painter:
    def __init__(self, source: ArtSource, scale: int):
        self.source = source
        self.px_per_mm = source.dpi * scale / 25.4
        self.pt_px = source.dpi * scale / PT_PER_INCH

    def paint(self, img: Image.Image, layers: Any, mapper: _Mapper) -> None:
        for layer in layers:
            dx, dy = layer.get("offset_mm", (0.0, 0.0))
            self.layer(img, layer, mapper, dx, dy)

    def layer(self, img: Image.Image, layer: Mapping[str, Any], m: _Mapper, dx: float, dy: float) -> None:
        kind = layer["type"]
        draw = ImageDraw.Draw(img)

        def col(name: str) -> RGB | None:
            value = layer.get(name)
            return (value[0], value[1], value[2]) if value is not None else None

        width = m.length(layer.get("width_mm", 0.0))
        if "outline" in layer:
            width = max(1, width)  # an outline is at least one pixel wide
        if kind == "rect":
            box = m.box(layer["box"], dx, dy)
            xy = (box[0], box[1], box[2] - 1, box[3] - 1)
            radius = m.length(layer.get("radius_mm", 0.0))
            draw.rounded_rectangle(xy, radius=radius, fill=col("fill"), outline=col("outline"),
                                   width=width if "outline" in layer else 0)
        elif kind == "ellipse":
            box = m.box(layer["box"], dx, dy)
            draw.ellipse((box[0], box[1], box[2] - 1, box[3] - 1), fill=col("fill"), outline=col("outline"),
                         width=width if "outline" in layer else 0)
        elif kind == "polygon":
            pts = [m.point(x, y, dx, dy) for x, y in layer["points"]]
            fill, outline = col("fill"), col("outline")
            draw.polygon(pts, fill=fill)
            if outline is not None and width > 0:
                draw.line([*pts, pts[0], pts[1]], fill=outline, width=width, joint="curve")
        elif kind == "line":
            pts = [m.point(x, y, dx, dy) for x, y in layer["points"]]
            draw.line(pts, fill=col("color") or (0, 0, 0), width=max(1, width), joint="curve")
        elif kind == "hatch":
            self.hatch(img, m.box(layer["box"], dx, dy), col("color") or (0, 0, 0), max(1, width),
                       m.length(layer.get("spacing_mm", 2.0)), m.length(layer.get("radius_mm", 0.0)))
        elif kind == "shape":
            self.shape(img, layer, m.box(layer["box"], dx, dy), m.shift)
        elif kind == "text":
            self.text(img, layer, m.box(layer["box"], dx, dy))
        elif kind == "image":
            self.image(img, layer, m.box(layer["box"], dx, dy))
        else:  # pragma: no cover - rejected when the source is loaded
            raise InputError(f"unknown layer type {kind!r}")

    @staticmethod
    def hatch(img: Image.Image, box: tuple[int, int, int, int], colour: RGB,
              width: int, spacing: int, radius: int) -> None:
        w, h = box[2] - box[0], box[3] - box[1]
        if w <= 0 or h <= 0:
            return
        img.paste(colour, box[:2], _hatch_mask(w, h, width, max(spacing, width + 1), radius))

    def shape(self, img: Image.Image, layer: Mapping[str, Any], box: tuple[int, int, int, int], shift: int) -> None:
        shape = layer["shape"]
        x0: float = box[0] + shift  # worked out on the bleed-included canvas, as every point is
        y0: float = box[1] + shift
        w: float = box[2] - box[0]
        h: float = box[3] - box[1]
        if shape.get("aspect") is not None:  # largest centred box of that aspect (width / height)
            a = float(shape["aspect"])
            fw, fh = (w, w / a) if w / a <= h else (h * a, h)
            x0, y0, w, h = x0 + (w - fw) / 2, y0 + (h - fh) / 2, fw, fh
        unit = {"cut": (0.0, 0.0, 1.0, 1.0), "safe": (0.0, 0.0, 1.0, 1.0), "bleed": (0.0, 0.0, 1.0, 1.0)}
        self.paint(img, shape["layers"], _Mapper(x0, y0, w, h, self.px_per_mm, unit, shift))

    def text(self, img: Image.Image, layer: Mapping[str, Any], box: tuple[int, int, int, int]) -> None:
        text = str(layer["text"])
        rot = float(layer.get("rotate", 0)) % 360
        bw, bh = box[2] - box[0], box[3] - box[1]
        lw, lh = (bh, bw) if rot in (90.0, 270.0) else (bw, bh)
        if lw <= 0 or lh <= 0:
            return
        align = layer.get("align", "center")
        face = self.source.font(layer.get("font"))
        fitted = fit_layer(self.source, layer, lw, lh, self.px_per_mm, self.pt_px)
        x = {"left": 0, "center": (lw - fitted.width) // 2, "right": lw - fitted.width}[align] - fitted.bbox[0]
        valign = layer.get("valign", "middle")
        y = {"top": 0, "middle": (lh - fitted.height) // 2, "bottom": lh - fitted.height}[valign] - fitted.bbox[1]
        ink = _text_mask(fitted, face, align, lw, lh, x, y, rot)
        if ink is None:
            return
        mask, (ix, iy, mask_w, mask_h) = ink
        px = box[0] + (bw - mask_w) // 2 + ix
        py = box[1] + (bh - mask_h) // 2 + iy
        colour = layer["color"]
        legibility.note_text(img, mask, (px, py), (colour[0], colour[1], colour[2]), fitted.size_px, text,
                             fitted.fits)
        img.paste((colour[0], colour[1], colour[2]), (px, py, px + mask.width, py + mask.height), mask)

    def image(self, img: Image.Image, layer: Mapping[str, Any], box: tuple[int, int, int, int]) -> None:
        rel = str(layer["src"])
        resource = _asset(self.source, rel, "image")
        try:
            with Image.open(io.BytesIO(resource.read_bytes())) as opened:
                pic: Image.Image = opened.convert("RGBA")
        except (OSError, SyntaxError) as exc:
            raise InputError(f"{self.source.origin}: image assets/{rel} is not an image ({exc})") from None
        bw, bh = box[2] - box[0], box[3] - box[1]
        fit = layer.get("fit", "contain")
        if fit == "stretch":
            size = (bw, bh)
        else:
            ratio = (min if fit == "contain" else max)(bw / pic.width, bh / pic.height)
            size = (max(1, round(pic.width * ratio)), max(1, round(pic.height * ratio)))
        pic = pic.resize(size, Image.Resampling.LANCZOS)
        px, py = box[0] + (bw - size[0]) // 2, box[1] + (bh - size[1]) // 2
        if fit == "cover":  # crop to the box
            left, top = max(0, -px + box[0]), max(0, -py + box[1])
            pic = pic.crop((left, top, left + bw, top + bh))
            px, py = box[0], box[1]
        img.paste(pic, (px, py), pic)


def draw_shape(source: ArtSource, name: str, img: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Paint the art source's shape ``name`` into ``box`` of ``img`` (for pictures that are not cards: the
    table kit's tokens). Line widths in the shape scale with the box as on a 30 mm wide card area."""
    shape = source.shapes.get(name)
    if shape is None:
        raise InputError(f"{source.origin}: no shape {name!r}")
    ctx = card_context(source, next(iter(source.layouts.values())), None, None)
    layers = _Resolver(source).layers(shape["layers"], ctx, f"{source.origin}: shapes.{name}.layers")
    painter = _Painter(source, 1)
    painter.px_per_mm = (box[2] - box[0]) / 30
    painter.shape(img, {"shape": {"aspect": shape.get("aspect"), "layers": layers}}, box, 0)


def draw_resolved(source: ArtSource, card: ResolvedCard, *, guides: bool = False,
                  cut: bool = False) -> Image.Image:
    """Paint a :class:`ResolvedCard`: an RGB image at the source DPI, bleed included.

    ``cut`` paints the cut box only: the same pixels as ``trim`` of the whole picture (every
    point worked out as on the whole canvas, then moved), with no bleed drawn and no copy
    (a sheet cell, a thumbnail). Supersampled art is drawn whole and trimmed: its scaling
    reads across the cut."""
    layout = card.layout
    ss = source.supersample
    geo = geometry(layout, source.dpi)
    shift = geo.cut[0] if cut and ss == 1 and not guides else 0
    size = (geo.width * ss, geo.height * ss) if not shift else (geo.cut[2] - geo.cut[0], geo.cut[3] - geo.cut[1])
    img = Image.new("RGB", size, card.background)
    w, h = layout.size_mm
    b, s = layout.bleed_mm, layout.safe_mm
    named = {"cut": (0.0, 0.0, w, h), "safe": (s, s, w - 2 * s, h - 2 * s), "bleed": (-b, -b, w + 2 * b, h + 2 * b)}
    k = source.dpi * ss / 25.4
    # The cut box starts at the (rounded) bleed offset so it lands on whole pixels.
    mapper = _Mapper(geo.cut[0] * ss, geo.cut[1] * ss, k, k, k, named, shift)
    _Painter(source, ss).paint(img, card.layers, mapper)
    legibility.settle(img)
    if shift:
        return img
    if ss > 1:
        img = img.resize((geo.width, geo.height), Image.Resampling.LANCZOS)
    if cut:
        return trim(img, layout, source.dpi)
    if guides:
        d = ImageDraw.Draw(img)
        d.rectangle((geo.cut[0], geo.cut[1], geo.cut[2] - 1, geo.cut[3] - 1), outline=(255, 0, 0))
        d.rectangle((geo.safe[0], geo.safe[1], geo.safe[2] - 1, geo.safe[3] - 1), outline=(0, 90, 255))
    return img


def render_card(source: ArtSource, layout: Layout, row: ComponentRow | None = None, *,
                deck: str | None = None, guides: bool = False) -> Image.Image:
    """Draw ``row`` with ``layout``: an RGB image at the source DPI, bleed included.

    ``guides`` draws the cut (red) and safe (blue) boxes, for proofing only.
    """
    return draw_resolved(source, resolve_card(source, layout, row, deck=deck), guides=guides)


def trim(img: Image.Image, layout: Layout, dpi: float) -> Image.Image:
    """Cut off the bleed (TTS images show the cut box only)."""
    return img.crop(geometry(layout, dpi).cut)


# --------------------------------------------------------------------------- PNG and cache


def png_bytes(img: Image.Image, *, compress_level: int = 6) -> bytes:
    """Deterministic PNG: fixed options, no metadata chunks (no time, no DPI, no profile)."""
    if img.info:
        img = img.copy()
        img.info = {}
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compress_level, optimize=False)
    return buf.getvalue()


def resolved_digest(source: ArtSource, card: ResolvedCard) -> str:
    """Cache key of a resolved card: what is drawn, at which resolution, by which code."""
    return canonical_digest({
        "renderer": RENDERER_VERSION,
        "pillow": PIL.__version__,
        "dpi": source.dpi,
        "supersample": source.supersample,
        "card": card.spec(),
    })


def job_digest(source: ArtSource, layout: Layout, row: ComponentRow | None, deck: str | None) -> str:
    """Cache key of one picture: the digest of its resolved drawing (:func:`resolve_card`)."""
    return resolved_digest(source, resolve_card(source, layout, row, deck=deck))


@dataclass(frozen=True)
class CardJob:
    """One picture to draw: a layout, an optional row and the deck it is drawn for."""

    layout: Layout
    row: ComponentRow | None
    deck: str | None
    digest: str
    label: str
    resolved: ResolvedCard | None = None


def scale_to(img: Image.Image, size: tuple[int, int],
             resample: Image.Resampling = Image.Resampling.LANCZOS) -> Image.Image:
    """Resize with ``resample``, Lanczos unless told (no-op when the size already matches)."""
    return img if img.size == size else img.resize(size, resample)


def rotated(img: Image.Image, degrees: float) -> tuple[Image.Image, Image.Image]:
    """``img`` rotated counter-clockwise with its coverage mask (for pasting)."""
    rgba = img.convert("RGBA")
    out = rgba.rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True)
    return out.convert("RGB"), out.getchannel("A")
