"""``render_template`` renders a card's context without copying it over the globals each time:
the same text as ``Template.render`` (globals usable, a field of a global's name winning, errors
worded the same)."""

from __future__ import annotations

import pytest

from tts_builder.art.render import _ENV, _template, card_context, render_template
from tts_builder.art import load_art_source
from tts_builder.art.pipeline import _assign_rows
from tts_builder.errors import InputError

TEMPLATES = ["{{ name }}", "{{ cycler }}", "{% for i in range(3) %}{{ i }}{% endfor %}", "{{ range }}",
             "{% set x = 2 %}{{ x * n }}", "{{ row.name | upper }}", "{{ dict(a=1) }}"]


@pytest.mark.parametrize("text", TEMPLATES)
def test_a_full_context_renders_as_template_render_does(text: str) -> None:
    for fields in ({"name": "Ann", "n": 4}, {"name": "Bo", "n": 1, "cycler": "shadowed"}):
        ctx = {**_ENV.globals, **fields, "row": fields}
        assert _ENV.globals.keys() <= ctx.keys()
        assert render_template(text, ctx, "here") == _template(text).render(fields | {"row": fields})
        assert render_template(text, fields | {"row": fields}, "here") == _template(text).render(fields | {"row": fields})
    assert render_template("{{ range }}", {**_ENV.globals, "range": "shadowed"}, "x") == "shadowed"
    assert ctx == {**_ENV.globals, **fields, "row": fields}  # the context is not written to


def test_an_undefined_name_is_an_input_error_either_way() -> None:
    for ctx in ({}, dict(_ENV.globals)):
        with pytest.raises(InputError, match=r"^here: template '\{\{ nope \}\}': 'nope' is undefined$"):
            render_template("{{ nope }}", ctx, "here")


def test_every_card_context_holds_the_globals() -> None:
    source = load_art_source("twin-tower-city")
    decks, _ = _assign_rows(source)
    deck = source.decks[0]
    row = decks[deck.key][0]
    ctx = card_context(source, source.layout_for(row), row, deck.key)
    assert _ENV.globals.keys() <= ctx.keys() and ctx["row"] == dict(row.fields)
