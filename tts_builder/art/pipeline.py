"""The art pipeline: art source + component rows -> card pictures -> TTS sheets + manifest.

:func:`render_game_art` writes everything into ``<out_dir>/<game_id>/images/``:

* ``<deck>-<n>.png``: face sheets (``n`` from 1), one cell per card *design*;
* ``<deck>-back.png``: the single back, or ``<deck>-<n>-back.png`` back sheets on
  the same grid when the deck has unique backs;
* ``<key>.png`` (and ``<key>-back.png``): standalone components (boards, tokens);
* ``thumbnail.png``: 256 x 256, a few cards on a background;
* ``manifest.json``: :class:`ArtManifest`, with every path relative to ``images/``.

Card pictures are cached in ``<out_dir>/<game_id>/art-cache/`` under the digest
of everything that draws them, at the sizes the outputs use (:mod:`~tts_builder.art.cache`);
output images are rewritten only when their inputs change. PNGs are written
atomically, as 256-colour palette PNGs or lossless (:func:`encode_png`), with fixed
options, so the same inputs give byte-identical files.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

import PIL
from PIL import Image, ImageChops, ImageDraw

from tts_builder.allocator import keep_freed_memory
from tts_builder.art.cache import PictureCache
from tts_builder.art.render import (RENDERER_VERSION, CardJob, draw_resolved, evaluate, fit_text, font, geometry,
                                    png_bytes, render_card, render_template, rotated)
from tts_builder.art.sheets import SheetPlan, compose_sheet, plan_sheets
from tts_builder.art.source import ArtSource, ComponentRow, DeckSpec, FontFile, Layout, StandaloneSpec, canonical_digest, \
    load_art_source, mm_to_px
from tts_builder.errors import InputError
from tts_builder.fileio import atomic_write_bytes, atomic_write_json
from tts_builder.parallel import WorkerDied

MANIFEST = "manifest.json"
THUMBNAIL = "thumbnail.png"
THUMBNAIL_SIZE = 256
CACHE_DIR = "art-cache"
_PACK_VERSION = "2"  # bump when sheet, back or thumbnail composition changes: outputs are rewritten

Progress = Callable[[str], None]


# --------------------------------------------------------------------------- manifest


@dataclass(frozen=True)
class CardSlot:
    """Where a card design sits: sheet index in its deck, 0-based row-major slot."""

    sheet: int
    slot: int


@dataclass(frozen=True)
class SheetArt:
    """One TTS ``CustomDeck`` entry's worth of images."""

    face: str
    back: str
    num_width: int
    num_height: int
    back_is_hidden: bool
    unique_back: bool
    card_width: int
    card_height: int
    width: int
    height: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class DeckArt:
    key: str
    name: str
    sheets: tuple[SheetArt, ...]
    slots: Mapping[str, CardSlot]
    copies: Mapping[str, tuple[str, ...]]  # design key -> physical card ids

    def card_id(self, key: str, custom_deck_keys: Sequence[int]) -> int:
        """``CardID`` of design ``key`` when sheet ``i`` is ``CustomDeck`` key ``custom_deck_keys[i]``."""
        slot = self.slots[key]
        return custom_deck_keys[slot.sheet] * 100 + slot.slot


@dataclass(frozen=True)
class StandaloneArt:
    key: str
    kind: str
    face: str
    back: str | None
    width: int
    height: int
    copies: tuple[str, ...]


@dataclass(frozen=True)
class Picture:
    """One card picture as the art draws it: at ``dpi`` with its bleed (:meth:`draw`), and the
    layout that says where the cut is (print-and-play prints these, not the scaled TTS sheets)."""

    digest: str
    layout: Layout
    dpi: float
    job: CardJob | None = field(default=None, compare=False, repr=False)

    def draw(self, source: ArtSource) -> Image.Image:
        """The full picture, bleed included, drawn as the build draws it (the same pixels)."""
        assert self.job is not None, "a Picture read back from a manifest cannot be drawn"
        job = self.job
        return (draw_resolved(source, job.resolved) if job.resolved is not None
                else render_card(source, job.layout, job.row, deck=job.deck))


@dataclass(frozen=True)
class FileRecord:
    inputs: str  # digest of what the file was made from
    sha256: str  # digest of the file's bytes
    psnr: float | None = None  # palette PNG: its PSNR against the drawn picture, dB; None: lossless

    def to_json(self) -> dict[str, Any]:
        """``inputs``, ``sha256`` and, for a palette image, ``psnr``."""
        out: dict[str, Any] = {"inputs": self.inputs, "sha256": self.sha256}
        if self.psnr is not None:
            out["psnr"] = self.psnr
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FileRecord:
        """Inverse of :meth:`to_json` (KeyError, TypeError or ValueError on a malformed record)."""
        psnr = data.get("psnr")
        return cls(str(data["inputs"]), str(data["sha256"]), None if psnr is None else float(psnr))


# --------------------------------------------------------------------------- encoding

#: Palette images whose PSNR against the drawn picture falls below this are written lossless.
PSNR_FLOOR = 40.0
_PALETTE_ENCODING = "palette-fastoctree-256-used-v3-bicubic"
#: how card pictures are scaled to their cells, by ``lossless``: today's Lanczos for lossless
#: builds; bicubic for palette builds (see tts_builder.art.cache: no visible difference, less CPU)
SHEET_RESAMPLE = {True: Image.Resampling.LANCZOS, False: Image.Resampling.BICUBIC}


@dataclass(frozen=True)
class Encoded:
    """A PNG file's bytes and, when it is a palette PNG, its PSNR (dB) against the picture."""

    data: bytes
    psnr: float | None = None


def psnr(a: Image.Image, b: Image.Image) -> float:
    """Peak signal-to-noise ratio of ``b`` against ``a`` (same size), in dB (``inf`` when identical):
    ``10 log10(255^2 / MSE)`` over the RGB channels, or RGBA when ``a`` has an alpha channel.

    >>> from PIL import Image
    >>> psnr(Image.new("RGB", (2, 1), (0, 0, 0)), Image.new("RGB", (2, 1), (0, 0, 0)))
    inf
    >>> round(psnr(Image.new("RGB", (1, 1), (0, 0, 0)), Image.new("RGB", (1, 1), (255, 255, 255))), 6)
    0.0
    """
    if a.size != b.size:
        raise ValueError(f"psnr: sizes differ ({a.size} and {b.size})")
    mode = "RGBA" if a.mode in ("RGBA", "LA", "PA") or "transparency" in a.info else "RGB"
    first, second = (img if img.mode == mode else img.convert(mode) for img in (a, b))
    hist = ImageChops.difference(first, second).histogram()  # 256 levels per band
    squared = sum(count * (i % 256) ** 2 for i, count in enumerate(hist))
    if squared == 0:
        return math.inf
    mse = squared / (a.width * a.height * len(mode))
    return 10 * math.log10(255 ** 2 / mse)


#: Images up to this many pixels (pieces, tokens, backs: a kit repeats them) are encoded once per
#: distinct picture in a process.
SMALL_IMAGE_PX = 512 * 512
_SMALL_ENCODED: OrderedDict[tuple[str, str, tuple[int, int], bool], Encoded] = OrderedDict()


def _used_palette(img: Image.Image) -> Image.Image:
    """``img`` (mode P) with only the palette entries it uses, in their order: PNG then stores the
    pixels in 1, 2 or 4 bits where they fit, and no unused colours."""
    counts = img.getcolors(256)
    used = sorted(cast(int, index) for _count, index in counts) if counts else []
    mode = img.palette.mode if img.palette else "RGB"
    entries = len(img.getpalette(mode) or []) // len(mode)
    if not used or len(used) == entries:
        return img
    return img.remap_palette(used)


def encode_png(img: Image.Image, *, lossless: bool = False) -> Encoded:
    """The PNG an output image is written as.

    ``lossless`` gives :func:`png_bytes`, today's encoder. Otherwise a palette PNG of at most 256
    colours (Pillow's FASTOCTREE quantizer, with the alpha channel where the image has one, the
    palette cut to the colours used: about a third of the bytes, and faster to encode), unless its
    PSNR against ``img`` is below :data:`PSNR_FLOOR`: then lossless. Deterministic: the same
    picture gives the same bytes.
    """
    if lossless or img.mode not in ("RGB", "RGBA", "L"):
        return Encoded(png_bytes(img))
    key = None
    if img.width * img.height <= SMALL_IMAGE_PX:
        key = (hashlib.sha256(img.tobytes()).hexdigest(), img.mode, img.size, lossless)
        if key in _SMALL_ENCODED:
            return _SMALL_ENCODED[key]
    source = img.convert("RGB") if img.mode == "L" else img
    palette = _used_palette(source.quantize(256, method=Image.Quantize.FASTOCTREE))
    quality = round(psnr(source, palette), 2)
    encoded = (Encoded(png_bytes(img)) if quality < PSNR_FLOOR
               else Encoded(png_bytes(palette), None if math.isinf(quality) else quality))
    if key is not None:
        _SMALL_ENCODED[key] = encoded
        while len(_SMALL_ENCODED) > 256:
            _SMALL_ENCODED.popitem(last=False)
    return encoded


def encoding_key(lossless: bool) -> dict[str, str]:
    """What the encoder adds to an output's inputs digest (nothing when lossless: today's digests)."""
    return {} if lossless else {"encoding": _PALETTE_ENCODING}


@dataclass(frozen=True)
class ArtManifest:
    game_id: str
    decks: Mapping[str, DeckArt]
    standalone: Mapping[str, StandaloneArt]
    thumbnail: str | None
    rendered: int = field(compare=False)  # this run's counts: printed, kept out of the JSON (see to_json)
    reused: int = field(compare=False)
    files: Mapping[str, FileRecord] = field(default_factory=dict)
    #: design or component key -> its face and back renders (this run's, like the counts: not in the JSON)
    pictures: Mapping[str, tuple[Picture, Picture | None]] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (paths relative to the ``images/`` folder)."""
        return {
            "format": 1,
            "game_id": self.game_id,
            "renderer": RENDERER_VERSION,
            "decks": {
                k: {
                    "name": d.name,
                    "sheets": [{
                        "face": s.face, "back": s.back, "num_width": s.num_width, "num_height": s.num_height,
                        "back_is_hidden": s.back_is_hidden, "unique_back": s.unique_back,
                        "card_width": s.card_width, "card_height": s.card_height,
                        "width": s.width, "height": s.height, "cards": list(s.cards),
                    } for s in d.sheets],
                    "slots": {key: {"sheet": v.sheet, "slot": v.slot} for key, v in d.slots.items()},
                    "copies": {key: list(v) for key, v in d.copies.items()},
                } for k, d in self.decks.items()
            },
            "standalone": {
                k: {"kind": s.kind, "face": s.face, "back": s.back, "width": s.width, "height": s.height,
                    "copies": list(s.copies)}
                for k, s in self.standalone.items()
            },
            "thumbnail": self.thumbnail,
            # rendered/reused depend on the run (cold or warm), not on the inputs: they are
            # printed, never written, so rebuilding into the same folder gives the same bytes.
            "files": {k: f.to_json() for k, f in self.files.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ArtManifest:
        """Inverse of :meth:`to_json`."""
        try:
            return cls(
                game_id=data["game_id"],
                decks={
                    k: DeckArt(
                        key=k,
                        name=d["name"],
                        sheets=tuple(SheetArt(**{**s, "cards": tuple(s["cards"])}) for s in d["sheets"]),
                        slots={key: CardSlot(**v) for key, v in d["slots"].items()},
                        copies={key: tuple(v) for key, v in d["copies"].items()},
                    ) for k, d in data["decks"].items()
                },
                standalone={k: StandaloneArt(key=k, **{**s, "copies": tuple(s["copies"])})
                            for k, s in data["standalone"].items()},
                thumbnail=data["thumbnail"],
                rendered=0,
                reused=0,
                files={k: FileRecord.from_json(v) for k, v in data.get("files", {}).items()},
            )
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise InputError(f"{MANIFEST}: not an art manifest ({type(exc).__name__}: {exc})") from None


def images_dir(out_dir: Path, game_id: str) -> Path:
    return Path(out_dir) / game_id / "images"


def load_manifest(out_dir: Path, game_id: str) -> ArtManifest:
    """Read ``<out_dir>/<game_id>/images/manifest.json``."""
    from tts_builder.fileio import load_json_file
    return ArtManifest.from_json(load_json_file(images_dir(out_dir, game_id) / MANIFEST))


# --------------------------------------------------------------------------- output files


#: The images still to make in a ``jobs`` > 1 run, read by the forked worker processes.
_PENDING: list[Callable[[], tuple[Encoded, frozenset[str]]]] = []


def _make_pending(index: int) -> tuple[Encoded, frozenset[str]]:
    """Worker side of :meth:`_Writer.flush`: make and encode the ``index``-th pending image."""
    return _PENDING[index]()


def _in_workers(tasks: list[Callable[[], tuple[Encoded, frozenset[str]]]],
                jobs: int) -> list[tuple[Encoded, frozenset[str]]] | None:
    """Run ``tasks`` in up to ``jobs`` forked worker processes, in order; None where processes
    cannot fork (then they run here)."""
    # imported here: one job (a cold build on one core) needs no process pool (~12 ms of imports)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    _PENDING[:] = tasks
    try:
        with ProcessPoolExecutor(min(jobs, len(tasks)), mp_context=multiprocessing.get_context("fork")) as pool:
            return list(pool.map(_make_pending, range(len(tasks))))
    except BrokenProcessPool:
        raise WorkerDied(f"a worker process of --jobs {jobs} ended without finishing its image "
                         "(killed?); run again, or with --jobs 1") from None
    finally:
        _PENDING.clear()


class _Writer:
    """Writes output images only when their inputs changed (checked against the last manifest).

    :meth:`image` notes what to make; :meth:`flush` makes and writes them, in this process or,
    with ``jobs`` > 1 where processes can fork, in worker processes (each image's bytes are the
    same either way: only the wall time differs)."""

    def __init__(self, folder: Path, previous: Mapping[str, FileRecord], say: Progress, cache: PictureCache,
                 lossless: bool = False):
        self.folder, self.previous, self.say, self.cache, self.lossless = folder, previous, say, cache, lossless
        self.records: dict[str, FileRecord] = {}
        self.pending: dict[str, tuple[str, Callable[[], Image.Image]]] = {}

    def image(self, name: str, inputs: Any, make: Callable[[], Image.Image]) -> None:
        if name in self.records or name in self.pending or name == MANIFEST:
            raise InputError(f"two outputs would both be written to images/{name}: rename a deck or component key")
        digest = canonical_digest({"pack": _PACK_VERSION, "pillow": PIL.__version__, "inputs": inputs,
                                   **encoding_key(self.lossless)})
        path = self.folder / name
        prev = self.previous.get(name)
        if prev is not None and prev.inputs == digest and path.is_file():
            if hashlib.sha256(path.read_bytes()).hexdigest() == prev.sha256:
                self.records[name] = prev
                return
        self.pending[name] = (digest, make)

    def _task(self, make: Callable[[], Image.Image]) -> Callable[[], tuple[Encoded, frozenset[str]]]:
        def run() -> tuple[Encoded, frozenset[str]]:
            before = self.cache.drawn()
            encoded = encode_png(make(), lossless=self.lossless)
            return encoded, self.cache.drawn() - before
        return run

    def flush(self, jobs: int = 1) -> None:
        """Make, encode and write every pending image."""
        names = list(self.pending)
        tasks = [self._task(self.pending[n][1]) for n in names]
        results: Iterable[tuple[Encoded, frozenset[str]]] | None = None
        if jobs > 1 and len(tasks) > 1:
            results = _in_workers(tasks, jobs)
        if results is None:
            results = (task() for task in tasks)
        for name, (encoded, drawn) in zip(names, results):
            self.say(f"write {name}")
            self.cache.add_drawn(drawn)
            atomic_write_bytes(self.folder / name, encoded.data)
            self.records[name] = FileRecord(self.pending[name][0], hashlib.sha256(encoded.data).hexdigest(),
                                            encoded.psnr)
        self.pending.clear()


def _previous_files(folder: Path) -> dict[str, FileRecord]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        return {k: FileRecord.from_json(v) for k, v in data["files"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


# --------------------------------------------------------------------------- grouping rows


def _assign_rows(source: ArtSource) -> tuple[dict[str, list[ComponentRow]], list[tuple[StandaloneSpec, ComponentRow]]]:
    """Each row goes to exactly one deck or standalone group, or it is an error."""
    decks: dict[str, list[ComponentRow]] = {d.key: [] for d in source.decks}
    standalone: list[tuple[StandaloneSpec, ComponentRow]] = []
    for row in source.rows:
        ctx = {**row.fields, "row": dict(row.fields), "game": dict(source.game), "tables": source.tables}
        hits: list[DeckSpec | StandaloneSpec] = []
        groups: list[DeckSpec | StandaloneSpec] = [*source.decks, *source.standalone]
        for group in groups:
            if row.kind in group.kinds and (group.where is None or evaluate(group.where, ctx, f"{source.origin}: where")):
                hits.append(group)
        if len(hits) != 1:
            what = "no deck or standalone group" if not hits else f"{len(hits)} groups"
            raise InputError(f"{source.components}: row {row.key!r} (kind {row.kind!r}) is in {what} of {source.origin}")
        hit = hits[0]
        if isinstance(hit, DeckSpec):
            decks[hit.key].append(row)
        else:
            standalone.append((hit, row))
    for key, rows in decks.items():
        if not rows:
            raise InputError(f"{source.origin}: deck {key!r} matches no component row")
    return decks, standalone


def _same_size(source: ArtSource, layouts: Sequence[Layout], deck: str) -> tuple[float, float]:
    sizes = {layout.size_mm for layout in layouts}
    if len(sizes) != 1:
        names = ", ".join(sorted({f"{l.name} {l.size_mm[0]:g}x{l.size_mm[1]:g} mm" for l in layouts}))
        raise InputError(f"{source.origin}: deck {deck!r} mixes card sizes ({names}); a TTS deck has one size")
    return next(iter(sizes))


def _fit_px(size: tuple[int, int], max_px: int) -> tuple[int, int]:
    w, h = size
    scale = min(1.0, max_px / w, max_px / h)
    return (max(1, math.floor(w * scale)), max(1, math.floor(h * scale)))


# --------------------------------------------------------------------------- the pipeline


def render_game_art(game_id: str, out_dir: Path, *, progress: Progress | None = None,
                    art_root: Traversable | Path | None = None, lossless: bool = False,
                    jobs: int = 1) -> ArtManifest:
    """Render all of a game's art into ``<out_dir>/<game_id>/images/`` and return the manifest.

    ``art_root`` replaces the shipped ``art_src`` folder (tests, other
    projects). Unknown games and bad sources raise :class:`InputError`. Images are palette PNGs
    (:func:`encode_png`), or today's lossless PNGs with ``lossless``. ``jobs`` > 1 makes the
    sheets and images in that many worker processes (same bytes, less wall time).
    """
    source = load_art_source(game_id, root=art_root)
    say: Progress = progress or (lambda _msg: None)
    base = Path(out_dir) / game_id
    folder = base / "images"
    cache = PictureCache(base / CACHE_DIR, source, progress, resample=SHEET_RESAMPLE[lossless])
    previous = _previous_files(folder)
    writer = _Writer(folder, previous, say, cache, lossless)
    deck_rows, standalone_rows = _assign_rows(source)
    tts = source.tts
    empty = source.color(tts.empty_cell, "tts.empty_cell")
    faces: dict[str, CardJob] = {}  # design key -> face job (for the thumbnail)
    pictures: dict[str, tuple[Picture, Picture | None]] = {}

    def as_picture(job: CardJob) -> Picture:
        return Picture(job.digest, job.layout, source.dpi, job)

    picture = cache.picture

    decks: dict[str, DeckArt] = {}
    for deck in source.decks:
        rows = deck_rows[deck.key]
        back_layout = source.layouts[deck.back]
        hidden_layout = source.layouts[deck.hidden] if deck.hidden else back_layout
        used = [source.layout_for(r) for r in rows] + [back_layout]
        if not deck.back_is_hidden:
            used.append(hidden_layout)
        w_mm, h_mm = _same_size(source, used, deck.key)
        face_jobs = {r.key: cache.job(source.layout_for(r), r, deck.key, f"{deck.key}/{r.key}") for r in rows}
        faces.update(face_jobs)
        if deck.unique_back:
            back_jobs = {r.key: cache.job(back_layout, r, deck.key, f"{deck.key}/{r.key} back") for r in rows}
        # a unique-back layout may need a row, so the single back is resolved only when it is used
        single_back = None if deck.unique_back else cache.job(back_layout, None, deck.key, f"{deck.key}/back")
        hidden = None if deck.back_is_hidden else cache.job(hidden_layout, None, deck.key, f"{deck.key}/hidden")
        card_px = (mm_to_px(w_mm, tts.dpi), mm_to_px(h_mm, tts.dpi))
        plans = plan_sheets([r.key for r in rows], *card_px, back_is_hidden=deck.back_is_hidden,
                            max_px=tts.max_sheet_px)
        back_name = f"{deck.key}-back.png"
        if single_back is not None:
            back_px = _fit_px(card_px, tts.max_sheet_px)
            writer.image(back_name, {"back": single_back.digest, "size": back_px},
                         lambda: picture(single_back, back_px))
        sheets: list[SheetArt] = []
        slots: dict[str, CardSlot] = {}
        for n, plan in enumerate(plans):
            face_name = f"{deck.key}-{n + 1}.png"
            cell = (plan.cell_width, plan.cell_height)

            def sheet_inputs(jobs: Mapping[str, CardJob], plan: SheetPlan = plan) -> dict[str, Any]:
                return {"grid": [plan.num_width, plan.num_height, plan.cell_width, plan.cell_height],
                        "cards": [jobs[k].digest for k in plan.cards], "back_is_hidden": plan.back_is_hidden,
                        "hidden": hidden.digest if hidden else None, "empty": list(empty)}

            def make(jobs: Mapping[str, CardJob], plan: SheetPlan = plan,
                     cell: tuple[int, int] = cell) -> Callable[[], Image.Image]:
                return lambda: compose_sheet(plan, [picture(jobs[k], cell) for k in plan.cards],
                                             hidden=picture(hidden, cell) if hidden else None, empty=empty)

            writer.image(face_name, sheet_inputs(face_jobs), make(face_jobs))
            if deck.unique_back:
                back_name = f"{deck.key}-{n + 1}-back.png"
                writer.image(back_name, sheet_inputs(back_jobs), make(back_jobs))
            sheets.append(SheetArt(
                face=face_name, back=back_name, num_width=plan.num_width, num_height=plan.num_height,
                back_is_hidden=deck.back_is_hidden, unique_back=deck.unique_back,
                card_width=plan.cell_width, card_height=plan.cell_height, width=plan.width, height=plan.height,
                cards=plan.cards))
            for slot, key in enumerate(plan.cards):
                slots[key] = CardSlot(n, slot)
        for key, job in face_jobs.items():
            pictures[key] = (as_picture(job), as_picture(single_back if single_back is not None else back_jobs[key]))
        decks[deck.key] = DeckArt(deck.key, deck.name, tuple(sheets), slots,
                                  {r.key: tuple(r.ids) for r in rows})

    standalone: dict[str, StandaloneArt] = {}
    for group, row in standalone_rows:
        layout = source.layout_for(row)
        face_job = cache.job(layout, row, None, row.key)
        faces[row.key] = face_job
        back_job = cache.job(source.layouts[group.back], row, None, f"{row.key} back") if group.back else None
        size = _fit_px((mm_to_px(layout.size_mm[0], tts.dpi), mm_to_px(layout.size_mm[1], tts.dpi)),
                       tts.max_sheet_px)
        writer.image(f"{row.key}.png", {"face": face_job.digest, "size": size},
                     partial(picture, face_job, size))
        back_file = None
        if back_job is not None:
            back_file = f"{row.key}-back.png"
            writer.image(back_file, {"back": back_job.digest, "size": size},
                         partial(picture, back_job, size))
        pictures[row.key] = (as_picture(face_job), as_picture(back_job) if back_job else None)
        standalone[row.key] = StandaloneArt(row.key, row.kind, f"{row.key}.png", back_file, size[0], size[1],
                                            tuple(row.ids))

    thumbnail = None
    if source.thumbnail is not None:
        spec = source.thumbnail
        thumb_jobs = [faces[k] for k in spec.cards if k in faces]
        missing = [k for k in spec.cards if k not in faces]
        if missing:
            raise InputError(f"{source.origin}: thumbnail.cards: {missing[0]!r} is not drawn in any deck")
        title = (render_template(spec.title, {"game": dict(source.game), "tables": source.tables}, "thumbnail.title")
                 if spec.title else None)
        title_face = _thumbnail_font(source)
        inputs = {"cards": [j.digest for j in thumb_jobs], "background": source.color(spec.background, "thumbnail"),
                  "title": title, "title_color": source.color(spec.title_color, "thumbnail"),
                  "title_font": title_face.sha256 if title_face else None}
        writer.image(THUMBNAIL, inputs, lambda: _thumbnail(
            source, [cache.picture(j, _thumbnail_card_size(source, j.layout, title), Image.Resampling.LANCZOS)
                     for j in thumb_jobs], title))
        thumbnail = THUMBNAIL

    writer.flush(jobs)
    for name in sorted(set(previous) - set(writer.records)):
        stale = folder / Path(name).name
        if stale.is_file():
            say(f"remove {name}")
            stale.unlink()
    cache.prune()
    manifest = ArtManifest(game_id=game_id, decks=decks, standalone=standalone, thumbnail=thumbnail,
                           rendered=cache.rendered, reused=cache.reused, files=dict(sorted(writer.records.items())),
                           pictures=pictures)
    atomic_write_json(folder / MANIFEST, manifest.to_json())
    return manifest


def _thumbnail_font(source: ArtSource) -> FontFile | None:
    """The thumbnail title's font: ``thumbnail.title_font``, else the source's title font."""
    spec = source.thumbnail
    return source.font(spec.title_font) if spec is not None and spec.title_font else source.title_font()


def _thumbnail_area_h(title: str | None) -> int:
    return THUMBNAIL_SIZE - (44 if title else 8)


def _thumbnail_card_size(source: ArtSource, layout: Layout, title: str | None) -> tuple[int, int]:
    """The size a card is shown at on the thumbnail: its cut box scaled to 80% of the cards' area."""
    cut = geometry(layout, source.dpi).cut
    h = round(_thumbnail_area_h(title) * 0.8)
    return max(1, round((cut[2] - cut[0]) * h / (cut[3] - cut[1]))), h


def _thumbnail(source: ArtSource, cards: Sequence[Image.Image], title: str | None) -> Image.Image:
    """A 256 x 256 composition: the cards (trimmed, at :func:`_thumbnail_card_size`, Lanczos) fanned out
    on the background, the title below."""
    assert source.thumbnail is not None
    size = THUMBNAIL_SIZE
    img = Image.new("RGB", (size, size), source.color(source.thumbnail.background, "thumbnail.background"))
    area_h = _thumbnail_area_h(title)
    n = len(cards)
    placed = [((i - (n - 1) / 2) / ((n - 1) / 2) if n > 1 else 0.0, card)  # t: -1 (left) .. 1 (right)
              for i, card in enumerate(cards)]
    for t, card in sorted(placed, key=lambda p: -abs(p[0])):  # outer cards first, the middle on top
        out, mask = rotated(card, -10.0 * t)
        cx = size / 2 + t * size * 0.25
        cy = 4 + area_h / 2 + abs(t) * 5
        img.paste(out, (round(cx - out.width / 2), round(cy - out.height / 2)), mask)
    if title:
        box_w, box_h = size - 16, 34
        face = _thumbnail_font(source)
        fitted = fit_text(title, box_w, box_h, size_px=30, min_size_px=10, face=face)
        x = 8 + (box_w - fitted.width) // 2 - fitted.bbox[0]
        y = size - 8 - box_h + (box_h - fitted.height) // 2 - fitted.bbox[1]
        ImageDraw.Draw(img).text((x, y), fitted.text, font=font(fitted.size_px, face),
                                 fill=source.color(source.thumbnail.title_color, "thumbnail.title_color"))
    return img


def render_sheets_command(game_id: str, out_root: Path) -> int:
    """Body of ``tts-builder sheets GAME``: render, print one summary line, return 0.

    :class:`InputError` propagates (the CLI prints it as one line, exit 2).
    """
    keep_freed_memory()
    manifest = render_game_art(game_id, Path(out_root))
    sheets = sum(len(d.sheets) for d in manifest.decks.values())
    designs = sum(len(d.slots) for d in manifest.decks.values())
    cards = sum(len(ids) for d in manifest.decks.values() for ids in d.copies.values())
    print(f"{game_id}: {designs} card designs ({cards} cards) on {sheets} sheet(s) in {len(manifest.decks)} deck(s), "
          f"{len(manifest.standalone)} standalone image(s); {manifest.rendered} rendered, {manifest.reused} reused "
          f"-> {images_dir(Path(out_root), game_id) / MANIFEST}")
    return 0
