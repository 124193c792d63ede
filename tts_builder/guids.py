"""Stable object GUIDs for the saves we build.

TTS writes GUIDs as 6 lowercase hex digits and the save checker requires that,
unique across the whole save (contained cards included), for our own output.
A GUID here is derived from a stable *name* ("<game>/<role>"), never random, so
the same table gives the same GUIDs on every build and the Lua can rely on them::

    >>> guids = GuidAllocator("two-and-two")
    >>> guids.get("zone/stack") == guids.get("zone/stack")
    True
    >>> len(guids.get("zone/deck"))
    6

A collision (two names hashing to the same 6 digits) is resolved by re-hashing
the later name with a counter (``"<game>/<name>#1"``, ``#2``…). The result then
depends on the order names are first asked for, which the builder keeps fixed.
"""

from __future__ import annotations

import hashlib
import re

GUID_RE = re.compile(r"^[0-9a-f]{6}$")

# GUIDs that TTS or common mods treat specially; never hand them out.
_RESERVED = frozenset({"000000", "ffffff"})


def guid_for(text: str) -> str:
    """The first 6 hex digits of ``sha256(text)``.

    >>> guid_for("two-and-two/zone/stack")
    'a60cf2'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:6]


class GuidAllocator:
    """Hands out unique GUIDs for names within one save (``namespace`` = game id)."""

    def __init__(self, namespace: str, reserved: frozenset[str] | set[str] = frozenset()) -> None:
        self.namespace = namespace
        self._by_name: dict[str, str] = {}
        self._taken: set[str] = set(_RESERVED) | set(reserved)

    def get(self, name: str) -> str:
        """The GUID of ``name``; the same name always gets the same GUID."""
        found = self._by_name.get(name)
        if found is not None:
            return found
        base = f"{self.namespace}/{name}"
        guid = guid_for(base)
        counter = 0
        while guid in self._taken:
            counter += 1
            guid = guid_for(f"{base}#{counter}")
        self._taken.add(guid)
        self._by_name[name] = guid
        return guid

    def assigned(self) -> dict[str, str]:
        """Every name handed out so far, with its GUID (in the order asked)."""
        return dict(self._by_name)
