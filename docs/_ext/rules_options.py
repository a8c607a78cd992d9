"""Sphinx directive ``rules-options``: the table of every rule option, generated.

The options, their types, choices and every preset's value are read from
:class:`pyrummy.core.rules.Rules` and :data:`pyrummy.core.rules.PRESETS`, so
the table cannot drift from the code. Only the one-line meanings are written
here; an option without one (or a meaning for an option that no longer
exists) is a build warning, and ``make docs`` fails on warnings.
"""

from __future__ import annotations

import re
import typing
from typing import Any, Literal

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from pyrummy.core.rules import PRESETS, Rules, format_option, option_names

LOGGER = logging.getLogger(__name__)

#: For each option: the games it applies to, and what it means.
MEANINGS: dict[str, tuple[str, str]] = {
    "min_players": ("all", "fewest players"),
    "max_players": ("all", "most players"),
    "hand_sizes": ("all", "cards dealt to each player, by number of players (`players:cards`)"),
    "jokers": ("all", "jokers added to the 52 cards"),
    "ace": ("all", "where the ace goes in a run; not `low` makes the ace count 15"),
    "turn_cap": ("all", "a deal that reaches this many turns ends with nobody out"),
    "rum_bonus": ("knock", "paid by every player to a knocker with 0 deadwood"),
    "knock_penalty": ("knock", "paid by a beaten knocker"),
    "knock_penalty_mode": (
        "knock",
        "`shared`: one penalty shared by the winners; `each_lower`: paid to every lower opponent",
    ),
    "multiple_melds": ("melding", "any number of melds per turn (else one)"),
    "going_rummy": (
        "melding",
        "going out in one turn, nothing put down before: `double` or `plus10`",
    ),
    "layoff_after_own_meld": ("melding", "no lay-offs before one's own first meld"),
    "last_discard_required": ("melding", "a player must go out by discarding"),
    "stock_end": ("melding", "what happens when the stock runs out"),
    "stock_refill": (
        "melding",
        "`on_decline`: the pile is turned over when the player declines it; "
        "`automatic`: as the turn starts",
    ),
    "recycle_keeps_top": ("melding", "the top discard stays when the pile becomes the stock"),
    "reuse_limit": ("melding", "with `stock_end=reuse_limit`: the stock's N-th end ends the deal"),
    "scoring": ("melding", "who scores what when a deal ends"),
    "nobody_out": ("melding", "a deal nobody goes out of: the lowest hand collects, or a draw"),
    "all_seven_deals": ("melding", "deals in which a player must go down with all seven cards"),
    "starter_extra_card": ("melding", "the starting player gets one card more and does not draw"),
    "knock_limit": ("gin", "most deadwood a knocker may have"),
    "gin_bonus": ("gin", "bonus for going gin"),
    "undercut_bonus": ("gin", "bonus for a defender with no more deadwood than the knocker"),
    "layoff_on_gin": ("gin", "the defender may lay off on a gin hand"),
    "wall_cards": ("gin", "the deal is drawn when this many stock cards are left"),
    "big_gin_bonus": (
        "gin",
        "big gin: 11 cards all melded after the draw go out without a discard for this bonus "
        "(0: no big gin)",
    ),
    "tie_undercuts": (
        "gin",
        "a defender tying the knocker undercuts (off: a tie scores nothing, as in OpenSpiel)",
    ),
    "up_card_offer": (
        "gin",
        "the first up-card is offered to the non-dealer, then the dealer (pass: `decline`); "
        "if both pass, the non-dealer draws from the stock",
    ),
    "oklahoma": (
        "gin",
        "the first up-card's value is the knock limit (an ace: gin only); "
        "a spade up-card doubles the deal's score",
    ),
    "discard_taken": (
        "gin",
        "the card just taken from the pile may be discarded or be the knock card; "
        "the second such discard running ends the deal drawn (OpenSpiel)",
    ),
    "pile_draw_limit": (
        "gin",
        "the deal ends drawn at this many draws from the pile, the first up-card's offer "
        "not counted (0: no limit; OpenSpiel: 50)",
    ),
    "wall_knock": (
        "gin",
        "at the wall the next player may take the discard to knock (only), or pass: "
        "the deal is drawn (OpenSpiel)",
    ),
    "match_end": ("match", "how a match ends"),
    "target": ("match", "the score that ends a match (`target`, `penalty_limit`)"),
    "deals": ("match", "the number of deals (`match_end=deals`, or `pay_per_point` scoring)"),
    "game_bonus": ("match", "added to the match winner's score when the match ends"),
    "line_bonus": ("match", "added at the match's end to every player per deal won (line/box)"),
    "shutout_double": (
        "match",
        "when no other player scored, the winner's whole game score (points and bonuses) "
        "is doubled",
    ),
}

FAMILIES = {
    "all": "every preset",
    "knock": "Knock Rummy",
    "melding": "melding games",
    "gin": "Gin",
    "match": "the match",
}


def type_text(name: str) -> str:
    kind = typing.get_type_hints(Rules)[name]
    if typing.get_origin(kind) is Literal:
        return "one of " + ", ".join(f"`{choice}`" for choice in typing.get_args(kind))
    if kind is bool:
        return "`true` / `false`"
    if kind is int:
        return "whole number"
    if name == "hand_sizes":
        return "pairs `players:cards`"
    return "deal numbers `4,5,6`"


def inline(text: str) -> list[nodes.Node]:
    """Text with `code` spans as docutils nodes."""
    parts = re.split(r"`([^`]*)`", text)
    return [
        nodes.literal(part, part) if index % 2 else nodes.Text(part)
        for index, part in enumerate(parts)
        if part
    ]


def table(headers: list[str], rows: list[list[list[nodes.Node]]], widths: list[int]) -> nodes.table:
    group = nodes.tgroup(cols=len(headers))
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += nodes.row("", *(nodes.entry("", nodes.paragraph("", h)) for h in headers))
    group += head
    body = nodes.tbody()
    for cells in rows:
        body += nodes.row("", *(nodes.entry("", nodes.paragraph("", "", *cell)) for cell in cells))
    group += body
    result = nodes.table()
    result += group
    return result


class RulesOptionsDirective(SphinxDirective):
    """``rules-options`` with ``:table: meanings`` or ``:table: presets``."""

    option_spec: typing.ClassVar[dict[str, Any]] = {
        "table": lambda arg: directives.choice(arg, ("meanings", "presets"))
    }

    def run(self) -> list[nodes.Node]:
        names = option_names()
        for name in names:
            if name not in MEANINGS:
                LOGGER.warning("option %s has no meaning in docs/_ext/rules_options.py", name)
        for name in MEANINGS:
            if name not in names:
                LOGGER.warning("docs/_ext/rules_options.py explains an unknown option %s", name)
        base = Rules(name="", family="knock")
        if self.options.get("table", "meanings") == "meanings":
            rows = [
                [
                    [nodes.literal(name, name)],
                    inline(type_text(name)),
                    [nodes.literal(text=format_option(getattr(base, name)) or "none")],
                    inline(FAMILIES[MEANINGS.get(name, ("all", ""))[0]]),
                    inline(MEANINGS.get(name, ("all", ""))[1]),
                ]
                for name in names
            ]
            return [
                table(
                    ["option", "type", "default", "applies to", "meaning"],
                    rows,
                    [14, 22, 8, 10, 40],
                )
            ]
        presets = list(PRESETS.values())
        rows = []
        for name in names:
            applies = MEANINGS.get(name, ("all", ""))[0]
            cells: list[list[nodes.Node]] = [[nodes.literal(name, name)]]
            for rules in presets:
                if applies in ("knock", "melding", "gin") and applies != rules.family:
                    cells.append([nodes.Text("·")])  # ignored by this family
                    continue
                value = nodes.literal(text=format_option(getattr(rules, name)) or "none")
                changed = getattr(rules, name) != getattr(base, name)
                cells.append([nodes.strong("", "", value)] if changed else [value])
            rows.append(cells)
        headers = ["option", *(rules.name for rules in presets)]
        return [table(headers, rows, [14] + [8] * len(presets))]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("rules-options", RulesOptionsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
