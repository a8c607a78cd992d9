"""What a client needs before it sits down: the games and the bots.

* ``GET /api/presets`` — the games, their player limits, options and family's
  capabilities, the bots, and the server's defaults.
* ``GET /api/bots`` — the bots a table may seat (from :mod:`pyrummy.bots.registry`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from pyrummy.bots.registry import DIFFICULTIES, find_level
from pyrummy.core.rules import PRESETS
from pyrummy.server.deps import SettingsDep
from pyrummy.server.tables import DEFAULT_BOT, WEB_BOTS
from pyrummy.server.views import rules_summary

router = APIRouter(prefix="/api", tags=["meta"])


@router.get("/presets")
async def presets(settings: SettingsDep) -> dict[str, Any]:
    """The games, with their player limits, default options and what their
    family can do (``capabilities``), and the bots."""
    return {
        "presets": [rules_summary(rules) for rules in PRESETS.values()],
        "bots": list(WEB_BOTS),
        # The games each bot plays (null: every game), as /api/bots says.
        "bot_games": {name: _games_of(name) for name in WEB_BOTS},
        "default_bot_delay": settings.bot_delay,
        "allow_seed": settings.allow_seed,
    }


def _games_of(name: str) -> list[dict[str, Any]] | None:
    level = find_level(name)
    games = [
        {"preset": rules.name, "players": players}
        for rules in PRESETS.values()
        for players in range(rules.min_players, rules.max_players + 1)
        if level.plays(rules, players)
    ]
    every = sum(r.max_players - r.min_players + 1 for r in PRESETS.values())
    return None if len(games) == every else games


@router.get("/bots")
async def bots() -> dict[str, Any]:
    """The bots a table may seat, weakest first: ``name`` is what a client
    sends (``bots`` of ``POST /api/tables``); ``plays_as`` the bot that plays;
    ``difficulty`` whether it is one of the levels people choose from;
    ``title`` and ``summary`` what a menu shows; ``games`` the presets and
    player counts it plays (null: every game)."""
    return {
        "bots": [
            {
                "name": name,
                "plays_as": DIFFICULTIES.get(name, name),
                "difficulty": name in DIFFICULTIES,
                "title": find_level(name).title,
                "summary": find_level(name).summary,
                "games": _games_of(name),
            }
            for name in WEB_BOTS
        ],
        "default": DEFAULT_BOT,
    }
