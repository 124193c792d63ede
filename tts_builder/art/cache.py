"""The card-picture cache: each picture at the size an output uses it, drawn only when needed.

A card is drawn at the art source's DPI (300), its cut box only, then scaled to the cell of
its sheet, the size of a back or a standalone image, or kept at full size for the thumbnail.
The scaling is Lanczos for ``--lossless`` builds (today's pixels) and bicubic for palette
builds: a third fewer filter taps, the largest CPU cost of a cold build after the encode, and
no visible difference (about 44 dB against Lanczos on a card; its sheets stay within issue
12's 40 dB of the lossless ones). The cache keeps the result of that last step, keyed by
the card's :func:`~tts_builder.art.render.job_digest`, the size and the filter, as
``art-cache/<digest>-<w>x<h>.tga`` (Lanczos) or ``<digest>-<w>x<h>-bicubic.tga``: the RGB
pixels run-length encoded (TGA RLE, Pillow's C
encoder) with a CRC-32 after them. Card art is mostly flat colour, so that is about a fifth
of the raw bytes, written in a third of the CPU time of zlib at level 1 (the format before,
``.rgbz``: 0.30 s of Twin Tower City's 3.3 s cold build), for about twice zlib's bytes, and
read faster.
The pixels are the same as drawing the card again, so the output images are the same byte
for byte.

Pictures are drawn lazily: a build whose output images are all up to date draws nothing,
and a changed card redraws that card only, the other cards of its sheet coming from the
cache. ``rendered`` counts the cards drawn by this run, ``reused`` the others it used.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from PIL import Image, TgaImagePlugin  # noqa: F401  (registered: else Pillow imports all ~45 plugins, ~20 ms)

from tts_builder.art.render import CardJob, draw_resolved, geometry, resolve_card, resolved_digest, scale_to
from tts_builder.art.source import ArtSource, ComponentRow, Layout
from tts_builder.fileio import atomic_write_bytes

SUFFIX = ".tga"
#: ours, and what earlier versions kept (full-size PNGs, then zlib-compressed raw RGB): removed by :meth:`prune`
_NAME = re.compile(r"^([0-9a-f]{64})(?:-\d+x\d+(?:-[a-z]+)?(\.tga|\.rgbz)|\.png)$")
_OLD_SUFFIXES = (".png", ".rgbz")


class PictureCache:
    """Trimmed card pictures at the sizes the outputs use, on disk under ``folder``."""

    def __init__(self, folder: Path, source: ArtSource, progress: Callable[[str], None] | None = None,
                 memory: int = 8, resample: Image.Resampling = Image.Resampling.LANCZOS):
        self.folder = folder
        self.source = source
        self.progress = progress
        self.resample = resample
        self._seen: set[str] = set()
        self._drawn: set[str] = set()
        self._full: OrderedDict[str, Image.Image] = OrderedDict()  # digest -> trimmed full picture
        self._memory = memory

    @property
    def rendered(self) -> int:
        """Cards drawn by this run."""
        return len(self._drawn)

    @property
    def reused(self) -> int:
        """Cards of this run's outputs that were not drawn again."""
        return len(self._seen - self._drawn)

    def drawn(self) -> frozenset[str]:
        """The digests of the cards drawn so far by this run."""
        return frozenset(self._drawn)

    def add_drawn(self, digests: frozenset[str]) -> None:
        """Count cards a worker process drew for this run (``--jobs``)."""
        self._drawn |= digests

    def job(self, layout: Layout, row: ComponentRow | None, deck: str | None, label: str) -> CardJob:
        """A picture to use (resolved now: its digest is what it will look like)."""
        resolved = resolve_card(self.source, layout, row, deck=deck)
        job = CardJob(layout, row, deck, resolved_digest(self.source, resolved), label, resolved)
        self._seen.add(job.digest)
        return job

    def path(self, digest: str, size: tuple[int, int], resample: Image.Resampling) -> Path:
        """Where the picture ``digest`` at ``size``, scaled with ``resample``, is kept."""
        # Lanczos pictures keep the names they always had (a lossless build finds its cache)
        tag = "" if resample == Image.Resampling.LANCZOS else f"-{resample.name.lower()}"
        return self.folder / f"{digest}-{size[0]}x{size[1]}{tag}{SUFFIX}"

    def _load(self, path: Path, size: tuple[int, int]) -> Image.Image | None:
        """The cached picture, or None when it is missing or damaged (then it is drawn again)."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        body, check = data[:-4], data[-4:]
        if len(data) < 4 or zlib.crc32(body).to_bytes(4, "big") != check:
            return None
        try:
            with Image.open(io.BytesIO(body), formats=("TGA",)) as img:
                if img.size != size or img.mode != "RGB":
                    return None
                img.load()
                return img.copy()
        except (OSError, SyntaxError, ValueError):  # Pillow: unreadable or truncated
            return None

    def _draw(self, job: CardJob) -> Image.Image:
        """The trimmed full-size picture of ``job`` (drawn, or kept from earlier in this run)."""
        img = self._full.get(job.digest)
        if img is not None:
            self._full.move_to_end(job.digest)
            return img
        if self.progress:
            self.progress(f"render {job.label}")
        resolved = (job.resolved if job.resolved is not None
                    else resolve_card(self.source, job.layout, job.row, deck=job.deck))
        img = draw_resolved(self.source, resolved, cut=True)  # the cut box only: what trim leaves
        self._drawn.add(job.digest)
        self._full[job.digest] = img
        while len(self._full) > self._memory:
            self._full.popitem(last=False)
        return img

    def picture(self, job: CardJob, size: tuple[int, int] | None = None,
                resample: Image.Resampling | None = None) -> Image.Image:
        """``job``'s picture trimmed to its cut box and scaled to ``size`` (None: full size) with
        ``resample`` (None: the cache's filter)."""
        self._seen.add(job.digest)
        if size is None:  # the full-size picture is cached too (the same files whichever run drew it)
            box = geometry(job.layout, self.source.dpi).cut
            size = (box[2] - box[0], box[3] - box[1])
        resample = self.resample if resample is None else resample
        path = self.path(job.digest, size, resample)
        cached = self._load(path, size)
        if cached is not None:
            return cached
        img = scale_to(self._draw(job), size, resample)
        atomic_write_bytes(path, _tga_bytes(img), fsync=False)  # _load checks the size and mode
        return img

    def prune(self) -> int:
        """Delete the cached pictures of cards this run did not use; returns how many."""
        removed = 0
        if self.folder.is_dir():
            for p in sorted(self.folder.iterdir()):
                match = _NAME.match(p.name)
                if match and (match.group(1) not in self._seen or p.suffix in _OLD_SUFFIXES) and p.is_file():
                    p.unlink()
                    removed += 1
        return removed



def _tga_bytes(img: Image.Image) -> bytes:
    """``img`` (RGB) as a run-length encoded TGA file, then the CRC-32 of those bytes (4 bytes, big
    endian: TGA has no checksum of its own, and a damaged file must be drawn again, not used)."""
    buf = io.BytesIO()
    img.save(buf, format="TGA", compression="tga_rle")
    body = buf.getvalue()
    return body + zlib.crc32(body).to_bytes(4, "big")
