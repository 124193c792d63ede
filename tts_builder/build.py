"""``tts-builder build``: game data + art + table layout + Lua -> a loadable TTS mod.

For each game it writes, under ``OUT/<game>/``:

* ``<game>.json``: the TTS save (:mod:`tts_builder.save`), checked with
  :func:`tts_builder.savecheck.check_save` (``own_output=True``) first;
* ``<game>.png``: its 256 x 256 thumbnail (the art manifest's thumbnail);
* ``images/``: card sheets and backs (:mod:`tts_builder.art`), the play mat
  (:mod:`tts_builder.tablemat`) and the art manifest; ``art-cache/`` keeps card
  pictures between builds.

Image URLs are absolute ``file:///`` paths (this computer only), or
``BASE_URL/<game>/images/<file>`` with ``--base-url``, which also writes ``OUT/upload/<game>/``:
exactly what to upload to ``BASE_URL`` (the images the save names and the thumbnail, hard
links; no cache). Image files are published under their art name plus a short hash of their
bytes (:func:`published_name`): TTS caches images by URL, so a changed image must get a new
URL and an unchanged one keep its own; images of the same bytes share one file and URL.
The save's ``SaveName`` says the game, the tool's version and a digest of the save's content
(:func:`tts_builder.save.save_name`), so installs of different builds can be told apart
with no clock in the output.

Nothing is written unless the whole build succeeds. The art is rendered into a
staging folder (``OUT/.tts-builder-tmp-<game>-build-*``) seeded with hard links
to the previous images and cache, so unchanged pictures are reused without
touching the live copies, and the save is checked against the staged images. A
failed check leaves the folder as it was. Only then is the output committed, file
by file, each by an atomic rename: new and changed images, then the save and the
thumbnail, then images the new save no longer uses are removed, then the cache.
So a build killed at any step leaves every file whole and none that a save
refers to missing (with unchanged inputs, the previous output byte for byte),
and the next build removes what the killed one left (the staging folder and
``.tts-builder-tmp-*`` files, see :func:`tts_builder.fileio.sweep_stale_temp`).
The stamp (:mod:`tts_builder.stamp`) is removed before the first commit step and
written last, so ``build`` with nothing changed answers "up to date" at once, and a
killed build never leaves a stamp that vouches for half an output.
Same inputs give byte-identical files, cold or warm: GUIDs come from names,
keys are sorted, the art manifest has no run counts and the save's date is
``$SOURCE_DATE_EPOCH`` or a fixed one (:func:`tts_builder.save.save_epoch`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from PIL import Image

import rules
from tts_builder import luagen, stamp
from tts_builder.allocator import keep_freed_memory
from tts_builder.art import ArtManifest, render_game_art
from tts_builder.art.pipeline import CACHE_DIR, MANIFEST, THUMBNAIL_SIZE, Encoded, encode_png
from tts_builder.art.source import art_root, load_art_source
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import (TEMP_PREFIX, atomic_write_bytes, atomic_write_json, parse_json_text,
                                sweep_stale_temp, temp_path_in)
from tts_builder.lualint import lint_lua
from tts_builder.progress import Mode, Progress
from tts_builder.save import (LAYOUT_FILE, MAT_IMAGE, TableLayout, TablePlan, build_save, image_names,
                              parse_table_layout, plan_table, table_context)
from tts_builder.savecheck import ERROR, Problem, check_save
from tts_builder.parallel import ordered_map
from tts_builder.tablemat import render_kit_pictures, render_mat, render_thumbnail

DEFAULT_OUT = Path("build")
IMAGES = "images"

Say = Callable[[str], None]


class BuildCheckFailed(Exception):
    """The built save did not pass :func:`check_save`; nothing was written."""

    def __init__(self, game_id: str, problems: Sequence[Problem]):
        self.game_id = game_id
        self.problems = list(problems)
        errors = [p for p in problems if p.severity == ERROR]
        super().__init__(f"{game_id}: the save fails its check ({len(errors)} error(s)); nothing was written")

    def __reduce__(self) -> tuple[Any, ...]:  # handed back from a --jobs worker process
        return (BuildCheckFailed, (self.game_id, self.problems))


@dataclass(frozen=True)
class BuildResult:
    game_id: str
    save_path: Path
    thumbnail_path: Path
    images_dir: Path
    objects: int
    cards: int
    save_bytes: int
    images: tuple[str, ...]
    warnings: tuple[Problem, ...] = field(default=())
    rendered: int = 0  # card pictures drawn by this run (printed, never written)
    reused: int = 0
    # image file name -> PSNR (dB) of its palette PNG, None where it is lossless; the thumbnail under its own name
    psnr: Mapping[str, float | None] = field(default_factory=dict)
    image_bytes: int = 0  # the images the save uses, plus the thumbnail


# --------------------------------------------------------------------------- inputs


def save_paths(out_root: Path, game_id: str) -> tuple[Path, Path]:
    """``(OUT/<game>/<game>.json, OUT/<game>/<game>.png)``."""
    folder = Path(out_root) / game_id
    return folder / f"{game_id}.json", folder / f"{game_id}.png"


def load_table_layout(game_id: str) -> TableLayout:
    """Read and check ``art_src/<game>/table.json``."""
    origin = f"art_src/{game_id}/{LAYOUT_FILE}"
    resource = art_root() / game_id / LAYOUT_FILE
    if not resource.is_file():
        raise InputError(f"{game_id}: no table layout {origin}")
    data = parse_json_text(resource.read_text(encoding="utf-8"), origin)
    return parse_table_layout(data, game_id=game_id, origin=origin, game_data=require_game(game_id).data)


GAME_TEMPLATES = ("rules.lua.j2", "table.lua.j2", "ui.xml.j2")


def missing_inputs(game_id: str) -> list[str]:
    """What a registered game still lacks to be built (empty when it can be built)."""
    missing = [f"art_src/{game_id}/{name}" for name in ("art.json", LAYOUT_FILE)
               if not (art_root() / game_id / name).is_file()]
    missing += [f"lua_templates/{luagen.game_template(game_id, name)}" for name in GAME_TEMPLATES
                if not luagen.has_template(game_id, name)]
    return missing



def component_rows(game_id: str) -> dict[str, dict[str, Any]]:
    """The game's component rows by key, as its art source reads them: the
    cards' names and counts come from the same rows their pictures were drawn from."""
    return {r.key: {**r.fields, "key": r.key, "kind": r.kind, "quantity": r.quantity}
            for r in load_art_source(game_id).rows}


def _card_counts(rows: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """In-play physical cards per kind, in data order."""
    counts: dict[str, int] = {}
    for row in rows.values():
        if row.get("in_play", True):
            kind = str(row.get("kind", "card"))
            counts[kind] = counts.get(kind, 0) + int(row.get("quantity", 1))
    return counts


def render_notebook(game: rules.Game, layout: TableLayout) -> dict[str, str]:
    """Body text of each notebook tab, from ``art_src/<game>/<notebook template>``."""
    if not layout.notebook_template:
        return {tab.id: "" for tab in layout.notebook_tabs}
    origin = f"art_src/{layout.game_id}/{layout.notebook_template}"
    resource = art_root() / layout.game_id / layout.notebook_template
    if not resource.is_file():
        raise InputError(f"{layout.origin}: notebook.template: no file {origin}")
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=False)
    sections: dict[str, list[dict[str, str]]] = {}
    for ref in game.rules.values():
        sections.setdefault(ref.section, []).append({"id": ref.id, "summary": ref.summary})
    ctx = {
        "game": dict(game.data), "players": (game.min_players, game.max_players),
        "rules": [{"id": r.id, "section": r.section, "summary": r.summary} for r in game.rules.values()],
        "sections": list(sections.items()), "card_counts": _card_counts(component_rows(game.id)),
        "zones": [{"role": z.role, "label": z.label, "hint": z.hint} for z in layout.zones],
        "seats": [{"seat": s.seat, "color": s.color} for s in layout.seats],
    }
    try:
        template = env.from_string(resource.read_text(encoding="utf-8"))
        return {tab.id: template.render(tab=tab.id, **ctx).strip() + "\n" for tab in layout.notebook_tabs}
    except jinja2.TemplateError as exc:
        line = f" line {exc.lineno}" if isinstance(exc, jinja2.TemplateSyntaxError) else ""
        raise InputError(f"{origin}{line}: {type(exc).__name__}: {exc}") from None


def file_url(path: Path) -> str:
    """``file:///`` URL of an absolute path, written raw as TTS writes it (``file:///C:/…``, ``file:///home/…``)."""
    return "file:///" + path.as_posix().lstrip("/")


def check_base_url(base_url: str) -> str:
    """``--base-url`` without its trailing slash; only http(s) URLs are accepted."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(f"--base-url: expected an http:// or https:// URL, not {base_url!r}")
    bad = next((c for c in base_url if c.isspace() or not c.isprintable() or c in '"<>\\^`{|}'), None)
    if bad is not None:  # a URL holds none of these raw (RFC 3986); TTS would fetch nothing
        what = "a space" if bad == " " else f"the character {bad!r}"
        raise InputError(f"--base-url: {base_url!r} holds {what}; write it %-encoded (a space is %20)")
    try:
        parts.port  # a port that is not a number
    except ValueError:
        raise InputError(f"--base-url: {base_url!r} has a bad port") from None
    return base_url.rstrip("/")


def image_url_for(out_root: Path, game_id: str, base_url: str | None) -> Callable[[str], str]:
    """The URL of ``images/<name>`` in the built mod."""
    if base_url:
        prefix = f"{check_base_url(base_url)}/{quote(game_id)}/{IMAGES}/"
        return lambda name: prefix + quote(name)
    folder = Path(out_root).resolve() / game_id / IMAGES
    return lambda name: file_url(folder / name)


def _render_scripts(game_id: str, table: Mapping[str, Any]) -> tuple[str, str]:
    try:
        return luagen.render_global_lua(game_id, table), luagen.render_ui_xml(game_id, table)
    except jinja2.TemplateNotFound as exc:
        raise InputError(f"{game_id}: Lua/XmlUI template {exc.name!r} is missing from lua_templates/") from None


def lint_scripts(game_id: str, data: Mapping[str, Any]) -> None:
    """Run the MoonSharp lint over every Lua script of the save; an InputError lists each finding on a line."""
    scripts = [("Global.lua", data.get("LuaScript") or "")]
    stack = list(data.get("ObjectStates") or [])
    while stack:
        obj = stack.pop(0)
        if obj.get("LuaScript"):
            scripts.append((f"{obj.get('Nickname') or obj.get('Name')}-{obj.get('GUID')}.lua", obj["LuaScript"]))
        stack.extend(obj.get("ContainedObjects") or [])
    issues = [issue for name, source in scripts for issue in lint_lua(source, f"{game_id}/{name}")]
    if issues:  # one finding a line here; the CLI joins them into its one line with "; "
        raise InputError("\n".join(f"{issue} (generated Lua fails the MoonSharp lint)" for issue in issues))


def assemble(game_id: str, layout: TableLayout, manifest: ArtManifest,
             image_url: Callable[[str], str]) -> tuple[dict[str, Any], TablePlan]:
    """The save dict and its plan (pure apart from reading the templates)."""
    game = require_game(game_id)
    plan = plan_table(layout, manifest, game.data, component_rows(game_id))
    table = table_context(plan, image_url)
    lua, xml = _render_scripts(game_id, table)
    data = build_save(plan, manifest, game_name=game.name, players=(game.min_players, game.max_players),
                      game_data=game.data, image_url=image_url, lua_script=lua, xml_ui=xml,
                      notebook=render_notebook(game, layout))
    lint_scripts(game_id, data)
    return data, plan


# --------------------------------------------------------------------------- staging


def _link_tree(src: Path, dst: Path) -> None:
    """Mirror ``src`` into ``dst`` with hard links (copies where links fail).

    The art pipeline replaces files atomically (write a temp file, rename), so
    writing into the mirror never changes the originals.
    """
    if not src.is_dir():
        return
    for folder, _dirs, files in os.walk(src):
        rel = Path(folder).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            if name.startswith(TEMP_PREFIX) or name.endswith(".tmp"):
                continue
            _link_or_copy(Path(folder) / name, dst / rel / name)


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link of ``source`` at ``target`` (a copy where the file system has no links)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _commit_files(staged: Path, live: Path) -> list[Path]:
    """Move every file of ``staged`` to the same place under ``live``, each by an atomic
    rename (a hard link of the live file itself is left alone: it did not change).
    Returns the files of ``live`` that ``staged`` lacks, for the caller to remove once
    nothing refers to them."""
    names: set[Path] = set()
    for path in sorted(staged.rglob("*")) if staged.is_dir() else []:
        if not path.is_file():
            continue
        rel = path.relative_to(staged)
        names.add(rel)
        target = live / rel
        if target.is_file() and os.path.samefile(path, target):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
    if not live.is_dir():
        return []
    return [p for p in sorted(live.rglob("*")) if p.is_file() and p.relative_to(live) not in names]


def _remove_files(paths: Sequence[Path]) -> None:
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def _check_against(data: dict[str, Any], live_images: Path, staged_images: Path, game_dir: Path,
                   base_url: str | None) -> list[Problem]:
    """:func:`check_save` with the save's local image URLs pointed at the staged images
    (the live folder is only updated once the check has passed); problems name the live paths."""
    if base_url:
        return check_save(data, base_dir=game_dir, own_output=True)
    live, staged = file_url(live_images.resolve()), file_url(staged_images.resolve())
    def escaped(url: str) -> str:  # as the URL appears inside the JSON text below
        return json.dumps(url + "/", ensure_ascii=False)[1:-1]
    text = json.dumps(data, ensure_ascii=False).replace(escaped(live), escaped(staged))
    problems = check_save(json.loads(text), base_dir=game_dir, own_output=True)
    live_dir, staged_dir = str(live_images.resolve()), str(staged_images.resolve())
    return [Problem(p.path, p.message.replace(staged, live).replace(staged_dir, live_dir), p.severity)
            for p in problems]


#: hex digits of the content hash in a published image's name (``card-3-face-1a2b3c4d5e.png``)
HASH_DIGITS = 10


def published_name(name: str, sha256: str) -> str:
    """``images/<name>`` as published: its stem, a short hash of its bytes, its suffix. A changed
    image gets a new name, so a new URL that TTS (which caches images by URL) fetches anew; an
    unchanged one keeps its URL and players' caches stay good.

    >>> published_name("species-1.png", "0123456789abcdef")
    'species-1-0123456789.png'
    """
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{sha256[:HASH_DIGITS]}{dot}{suffix}" if dot else f"{name}-{sha256[:HASH_DIGITS]}"


def art_name(published: str) -> str:
    """The art's own name of a published image (its content hash taken off).

    >>> art_name("species-1-0123456789.png")
    'species-1.png'
    >>> art_name("table-mat.png")
    'table-mat.png'
    """
    stem, dot, suffix = published.rpartition(".")
    head, dash, digest = stem.rpartition("-")
    if dash and len(digest) == HASH_DIGITS and all(c in "0123456789abcdef" for c in digest):
        return f"{head}{dot}{suffix}"
    return published


def shared_name(names: list[str]) -> str:
    """The name a file shared by images of the same bytes is published under: the words their
    names share at the start and at the end, so a back shared by every animal tile names no
    animal (a name would tell a face-down tile's identity to whoever reads the URL).

    >>> shared_name(["piece-doves-1-back.png", "piece-lions-2-back.png"])
    'piece-back.png'
    >>> shared_name(["deck-back.png"])
    'deck-back.png'
    >>> shared_name(["deck-back.png", "examples-back.png"])
    'back.png'
    >>> shared_name(["a.png", "b.png"])
    'shared.png'
    """
    if len(names) == 1:
        return names[0]
    split = [name.rpartition(".") for name in names]
    suffix = split[0][1] + split[0][2] if all(s[2] == split[0][2] for s in split) and split[0][1] else ""
    words = [(s[0] if suffix else name).split("-") for s, name in zip(split, names)]
    shortest = min(len(w) for w in words)
    head = 0
    while head < shortest and all(w[head] == words[0][head] for w in words):
        head += 1
    tail = 0
    while tail < shortest - head and all(w[-1 - tail] == words[0][-1 - tail] for w in words):
        tail += 1
    common = words[0][:head] + (words[0][len(words[0]) - tail:] if tail else [])
    return "-".join(common or ["shared"]) + suffix


def publish_names(images: Path) -> dict[str, str]:
    """Give every image of ``images`` (the art's names) its published name, in place: images of
    the same bytes share one file, named by the words their names share (:func:`shared_name`), so the save holds
    one URL per distinct image. Returns ``art name -> published name``; the art's names are removed
    (the art manifest keeps them; :func:`_restore_plain_names` brings them back for the next build)."""
    by_content: dict[str, list[str]] = {}
    for path in sorted(images.iterdir()):
        if path.is_file() and path.name != MANIFEST and not path.name.startswith(TEMP_PREFIX):
            by_content.setdefault(hashlib.sha256(path.read_bytes()).hexdigest(), []).append(path.name)
    published: dict[str, str] = {}
    for digest, group in by_content.items():
        target = published_name(shared_name(group), digest)
        for name in group:
            published[name] = target
    for name, target in sorted(published.items()):
        if name == target:
            continue
        if not (images / target).exists():
            _link_or_copy(images / name, images / target)
        (images / name).unlink()
    return published


def _restore_plain_names(images: Path) -> None:
    """Seed a staged ``images/`` with the art's own names (hard links to the published files of
    the same bytes, found by the hash in their names), so the art pipeline reuses every image
    whose inputs did not change, as it did when the files bore those names."""
    if not images.is_dir():
        return
    published = [p for p in sorted(images.iterdir()) if p.is_file() and p.name != MANIFEST]
    try:
        files = json.loads((images / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        files = {}
    by_hash: dict[str, Path] = {}
    for path in published:
        by_hash.setdefault(path.name.rpartition(".")[0].rpartition("-")[2], path)
    for name, record in files.items() if isinstance(files, dict) else ():
        digest = record.get("sha256") if isinstance(record, dict) else None
        source = by_hash.get(digest[:HASH_DIGITS]) if isinstance(digest, str) else None
        if source is not None and "/" not in name and not (images / name).exists():
            _link_or_copy(source, images / name)
    plain = set(files) if isinstance(files, dict) else set()
    for path in published:  # the staged copies only: the live files stay until the commit
        if path.name not in plain:
            path.unlink()


def upload_dir(out_root: Path, game_id: str) -> Path:
    """``OUT/upload/<game>/``: what to upload to ``--base-url`` for this game (``OUT/upload/`` is
    the folder the base URL names)."""
    return Path(out_root) / stamp.UPLOAD_DIR / game_id


def _write_upload(out_root: Path, game_id: str, names: Sequence[str] | None, staged: Path) -> None:
    """Make ``OUT/upload/<game>/`` hold exactly the images the save names (``images/<file>``) and the
    thumbnail, hard links to the build's own files; with ``names`` None (a ``file:///`` build, nothing
    to upload) remove it. Committed file by file as the images are, stale files removed last."""
    live = upload_dir(out_root, game_id)
    if names is None:
        shutil.rmtree(live, ignore_errors=True)
        if live.parent.is_dir() and not any(live.parent.iterdir()):
            live.parent.rmdir()
        return
    game_dir = Path(out_root) / game_id
    staged_game = staged / game_id
    (staged_game / IMAGES).mkdir(parents=True, exist_ok=True)
    pairs = [(game_dir / IMAGES / n, staged_game / IMAGES / n) for n in names]
    pairs.append((save_paths(out_root, game_id)[1], staged_game / f"{game_id}.png"))
    for source, target in pairs:
        _link_or_copy(source, target)
    _remove_files(_commit_files(staged_game, live))


def _sweep_leftovers(out_root: Path, game_dir: Path) -> None:
    """Remove what killed builds left: staging folders and temporary files (those of
    earlier versions of this tool too: ``.<game>.building``, ``.images.previous``)."""
    sweep_stale_temp(out_root, recursive=False)
    sweep_stale_temp(game_dir)
    for legacy in (out_root / f".{game_dir.name}.building", game_dir / f".{IMAGES}.previous"):
        shutil.rmtree(legacy, ignore_errors=True)


def _thumbnail_bytes(images: Path, manifest: ArtManifest, layout: TableLayout, lossless: bool) -> Encoded:
    if manifest.thumbnail:
        data = (images / manifest.thumbnail).read_bytes()
        with Image.open(images / manifest.thumbnail) as img:
            if img.format == "PNG" and img.size == (THUMBNAIL_SIZE, THUMBNAIL_SIZE):
                record = manifest.files.get(manifest.thumbnail)
                return Encoded(data, record.psnr if record else None)
    return encode_png(render_thumbnail(layout, THUMBNAIL_SIZE), lossless=lossless)


# --------------------------------------------------------------------------- the build


def build_game(game_id: str, out_root: Path = DEFAULT_OUT, *, base_url: str | None = None,
               progress: Say | None = None, lossless: bool = False, jobs: int = 1) -> BuildResult:
    """Build one game's mod into ``out_root/<game_id>/``.

    Images are palette PNGs (:func:`~tts_builder.art.pipeline.encode_png`), or today's
    lossless PNGs with ``lossless``; ``jobs`` > 1 makes the images in worker processes. Raises :class:`InputError` for unusable input (unknown
    game, bad layout, missing template) and :class:`BuildCheckFailed` when the save fails its
    check; in both cases nothing under ``out_root`` has changed. A finished build writes the
    stamp (:mod:`tts_builder.stamp`) last.
    """
    say: Say = progress or (lambda _msg: None)
    code = stamp.code_state()  # before anything is read
    inputs = stamp.inputs_digest(game_id, stamp.options_of(out_root, base_url=base_url, lossless=lossless), code[1])
    require_game(game_id)
    layout = load_table_layout(game_id)
    image_url = image_url_for(out_root, game_id, base_url)
    out_root = Path(out_root)
    made_root = not out_root.exists()
    game_dir = out_root / game_id
    made_game_dir = not game_dir.exists()
    _sweep_leftovers(out_root, game_dir)
    stage = temp_path_in(out_root, f"{game_id}-build")
    live_images = game_dir / IMAGES
    done = False
    try:
        stage_game = stage / game_id
        stage_images = stage_game / IMAGES
        _link_tree(live_images, stage_images)
        _restore_plain_names(stage_images)
        _link_tree(game_dir / CACHE_DIR, stage_game / CACHE_DIR)
        say("art")
        manifest = render_game_art(game_id, stage, progress=say, lossless=lossless, jobs=jobs)
        if MAT_IMAGE in manifest.files or MAT_IMAGE == MANIFEST:
            raise InputError(f"{game_id}: the art already writes images/{MAT_IMAGE}; rename that component")
        say("play mat")
        quality: dict[str, float | None] = {name: f.psnr for name, f in manifest.files.items()}
        mat = encode_png(render_mat(layout), lossless=lossless)
        atomic_write_bytes(stage_images / MAT_IMAGE, mat.data)
        quality[MAT_IMAGE] = mat.psnr
        for name, picture in render_kit_pictures(layout).items():  # boards and pieces
            if name in manifest.files:
                raise InputError(f"{game_id}: the art already writes images/{name}; rename that component")
            kit = encode_png(picture, lossless=lossless)
            atomic_write_bytes(stage_images / name, kit.data)
            quality[name] = kit.psnr
        thumbnail = _thumbnail_bytes(stage_images, manifest, layout, lossless)
        published = publish_names(stage_images)
        say("save")
        data, plan = assemble(game_id, layout, manifest, lambda name: image_url(published.get(name, name)))
        names = sorted({published[n] for n in image_names(plan, manifest) if n in published}
                       | {n for n in image_names(plan, manifest) if n not in published})
        quality = {published.get(n, n): v for n, v in sorted(quality.items())}
        missing = [n for n in names if not (stage_images / n).is_file()]
        if missing:
            raise InputError(f"{game_id}: the save refers to images/{missing[0]}, which the art did not write")
        say("check")
        problems = _check_against(data, live_images, stage_images, game_dir, base_url)
        if any(p.severity == ERROR for p in problems):
            raise BuildCheckFailed(game_id, problems)
        stamp.remember_code(stamp.code_memo(stage, game_id), code)  # goes live with the cache
        say("write")
        image_bytes = sum((stage_images / n).stat().st_size for n in names) + len(thumbnail.data)
        stamp.remove_stamp(out_root, game_id)  # from here until the new stamp, the output is not "up to date"
        game_dir.mkdir(parents=True, exist_ok=True)
        unused_images = _commit_files(stage_images, live_images)
        save_path, thumb_path = save_paths(out_root, game_id)
        atomic_write_json(save_path, data)
        atomic_write_bytes(thumb_path, thumbnail.data)
        _remove_files(unused_images)  # only now: the previous save referred to them
        _remove_files(_commit_files(stage_game / CACHE_DIR, game_dir / CACHE_DIR))
        _write_upload(out_root, game_id, names if base_url else None, stage / stamp.UPLOAD_DIR)
        stamp.write_stamp(out_root, game_id, inputs)
        done = True
        return BuildResult(game_id=game_id, save_path=save_path, thumbnail_path=thumb_path, images_dir=live_images,
                           objects=len(data["ObjectStates"]), cards=len(plan.all_cards()),
                           save_bytes=save_path.stat().st_size, images=tuple(names),
                           warnings=tuple(p for p in problems if p.severity != ERROR),
                           rendered=manifest.rendered, reused=manifest.reused,
                           psnr={**{n: quality.get(n) for n in names}, thumb_path.name: thumbnail.psnr},
                           image_bytes=image_bytes)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        if not done:
            for folder, made in ((game_dir, made_game_dir), (out_root, made_root)):
                if made and folder.is_dir() and not any(folder.iterdir()):
                    folder.rmdir()


# --------------------------------------------------------------------------- the command


def _summary(result: BuildResult, seconds: float) -> str:
    return (f"{result.game_id}: {result.save_path} ({result.objects} objects, {result.cards} cards, "
            f"{result.save_bytes / 1024:.0f} KB), {result.thumbnail_path.name}, {len(result.images)} images "
            f"in {result.images_dir}; {result.rendered} card pictures rendered, {result.reused} reused "
            f"({seconds:.1f} s)")


#: up to this many images the summary names each one's PSNR; past it (a kit of 200 pieces), the
#: lowest few and the range of the rest, so the line stays readable
QUALITY_LISTED = 12


def _quality(result: BuildResult) -> str:
    """The images' line of the summary: their bytes and each one's PSNR (``lossless`` where it
    is), or for a game of many images the lowest :data:`QUALITY_LISTED` // 2 and the rest in brief."""
    values = [v for v in result.psnr.values() if v is not None]
    head = f"PSNR {min(values):.1f} dB or better" if values else "all lossless"
    line = f"{result.game_id}: images {result.image_bytes / 1024:.0f} KB, {head}: "
    shown_psnr = {art_name(name): v for name, v in result.psnr.items()}  # the art's names read better
    if len(shown_psnr) <= QUALITY_LISTED:
        return line + ", ".join(f"{name} {'lossless' if v is None else f'{v:.1f} dB'}"
                                for name, v in shown_psnr.items())
    palette = sorted((v, name) for name, v in shown_psnr.items() if v is not None)
    lossless = len(shown_psnr) - len(palette)
    if not palette:  # nothing to rank: "all lossless: 37 images"
        return line + f"{lossless} images"
    shown = palette[:QUALITY_LISTED // 2]
    rest = palette[len(shown):]
    text = line + "lowest " + ", ".join(f"{name} {v:.1f} dB" for v, name in shown)
    if rest:
        text += f"; {len(rest)} more from {rest[0][0]:.1f} to {rest[-1][0]:.1f} dB"
    if lossless:
        text += f"; {lossless} lossless"
    return text


@dataclass(frozen=True)
class _Task:
    game_id: str
    out_root: Path
    base_url: str | None
    lossless: bool
    jobs: int = 1  # worker processes inside the game's build (when the games are not spread over them)


def _build_task(task: _Task, note: Callable[[str], None] | None = None) -> tuple[BuildResult | BuildCheckFailed, float]:
    """One game's build, in this process or a worker (``--jobs``): its result or its failed check.
    ``note(step)`` hears each step (in this process only: a worker's steps are not shown)."""
    start = time.perf_counter()
    try:
        return build_game(task.game_id, task.out_root, base_url=task.base_url, progress=note,
                          lossless=task.lossless, jobs=task.jobs), time.perf_counter() - start
    except BuildCheckFailed as exc:
        return exc, time.perf_counter() - start


def _noter(shown: Progress, game_id: str) -> Callable[[str], None]:
    """A build step's note for the progress line, naming the game."""
    return lambda step: shown.note(f"{game_id}: {step}")


def _show_outcome(task: _Task, outcome: BuildResult | BuildCheckFailed, seconds: float, shown: Progress) -> int:
    """Print one game's outcome: 0 built, 1 the save failed its check."""
    game_id = task.game_id
    if isinstance(outcome, BuildCheckFailed):
        for problem in outcome.problems:
            shown.echo(f"{game_id}: {problem}", sys.stderr)
        shown.echo(f"tts-builder: {outcome}", sys.stderr)
        return 1
    result = outcome
    shown.echo(_summary(result, seconds))
    shown.echo(_quality(result))
    local = [w for w in result.warnings if "local file URL" in w.message]
    for warning in result.warnings:
        if warning not in local:
            shown.echo(f"{game_id}: {warning}", sys.stderr)
    if task.base_url:
        upload = upload_dir(task.out_root, game_id)
        files = [p for p in upload.rglob("*") if p.is_file()]
        shown.echo(f"{game_id}: to publish, upload {upload.parent}{os.sep} to {check_base_url(task.base_url)}/ "
                   f"({len(files)} files, {sum(p.stat().st_size for p in files) / 1024:.0f} KB; unchanged images "
                   f"keep their names, so a host already holding them needs only the new ones)")
    if local:
        shown.echo(f"{game_id}: {len(local)} image URL(s) are local file:/// paths: the mod loads on this computer "
                   f"only (to share it: build with --base-url URL and upload {upload_dir(task.out_root, game_id).parent} there)", sys.stderr)
    return 0


def build_command(game_ids: Sequence[str], *, all_games: bool, out_root: Path, base_url: str | None,
                  progress: Mode = "auto", lossless: bool = False, force: bool = False, jobs: int = 1) -> int:
    """Body of ``tts-builder build``: 0 when every game built (or was up to date), 1 when a save
    failed its check. ``progress`` is how the games built so far and the current step show on
    stderr. With ``jobs`` above 1 the games build in worker processes; the output is the same,
    printed in the same order."""
    if all_games and game_ids:
        raise InputError("build: give game ids or --all, not both")
    if not all_games and not game_ids:
        raise InputError(f"build: name a game or pass --all (games: {', '.join(rules.game_ids())})")
    if base_url is not None:
        check_base_url(base_url)
    ids = list(rules.game_ids()) if all_games else list(dict.fromkeys(game_ids))
    for game_id in list(ids):  # every id is checked before anything is written
        require_game(game_id)
        missing = missing_inputs(game_id)
        if missing and not all_games:
            raise InputError(f"{game_id}: cannot be built yet: no {', '.join(missing)}")
        if missing:  # --all builds the games that are ready and names the others
            print(f"{game_id}: skipped, not ready to build (no {', '.join(missing)})", file=sys.stderr)
            ids.remove(game_id)
    if not ids:
        raise InputError("build --all: no registered game can be built yet")
    stamped = [g for g in ids if stamp.stamp_path(out_root, g).is_file()]
    if not force and stamped:  # (the code is digested only when a stamp may vouch for an output)
        options = stamp.options_of(out_root, base_url=base_url, lossless=lossless)
        code = stamp.code_digest(stamp.code_memo(out_root, stamped[0]))
        current = {g for g in stamped if stamp.is_current(out_root, g, stamp.inputs_digest(g, options, code))}
        for game_id in ids:
            if game_id in current:
                print(stamp.up_to_date_line(out_root, game_id))
        ids = [g for g in ids if g not in current]
    if ids:
        keep_freed_memory()
    # several games: one worker process each; one game: its sheets and images in the workers
    inner = jobs if len(ids) == 1 else 1
    outer = jobs if len(ids) > 1 else 1
    tasks = [_Task(g, out_root, base_url, lossless, inner) for g in ids]
    worst = 0
    with Progress("build", len(ids), "games", mode=progress) as shown:
        if outer > 1:
            outcomes: Iterator[tuple[BuildResult | BuildCheckFailed, float]] = ordered_map(_build_task, tasks, outer)
        else:
            outcomes = (_build_task(t, _noter(shown, t.game_id)) for t in tasks)
        for task, (outcome, seconds) in zip(tasks, outcomes):
            worst = max(worst, _show_outcome(task, outcome, seconds, shown))
            shown.advance()
    return worst
