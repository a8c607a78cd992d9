"""The shipped bots' decisions, pinned: the same seeds must give the same play.

Every level of :data:`pyrummy.bots.registry.LEVELS` plays whole deals at every
preset (two and four players where the preset allows), each seat seeded, and
every decision it makes is hashed in order. A refactoring of the bots must
keep every hash; a change that is meant to change play updates them on
purpose (run this module as a script to print the new table).

The hard bot plays with a fixed amount of work (``rollouts``), never a time
budget, so its decisions do not depend on the machine's speed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import pytest

from pyrummy.bots import make_bot
from pyrummy.core.deal import new_deal
from pyrummy.core.rules import find_rules, preset_names

#: Deals per table; each seat's bot is seeded from the deal and the seat. Knock
#: rummy deals are short (the stronger bots knock early), so it plays more.
DEALS = 3
DEALS_BY_FAMILY: Mapping[str, int] = {"knock": 10}
#: Options that make a level's play independent of the clock (on an idle machine
#: the medium bot's budget never binds; on a loaded one it could).
FIXED_WORK: Mapping[str, Mapping[str, object]] = {
    "medium": {"time_budget": None},
    "hard": {"rollouts": 4},
}
#: Tables of one level each, hard against simple (whose passes reach the hard
#: bot's knock search), and every level at one table of four players.
LINEUPS: Mapping[str, tuple[str, ...]] = {
    "random": ("random",),
    "simple": ("simple",),
    "medium": ("medium",),
    "hard": ("hard",),
    "hard-simple": ("hard", "simple"),
    "mixed": ("hard", "medium", "simple", "random"),
}
#: Hard bot variants whose knobs the shipped level keeps.
VARIANTS: Mapping[str, Mapping[str, object]] = {
    "hard-equity": {"knock_value": False},
    "hard-no-search": {"gin_search_samples": 0},
    "hard-no-reach": {"gin_reach_bonus": 0.0},
}


def decision_hash(lineup: tuple[str, ...], preset: str, players: int, **options: object) -> str:
    """The SHA-256 (first 16 hex digits) of every decision, seat by seat, over a few deals."""
    digest = hashlib.sha256()
    for deal_seed in range(DEALS_BY_FAMILY.get(find_rules(preset).family, DEALS)):
        deal = new_deal(preset, players=players, seed=deal_seed, dealer=deal_seed % players)
        bots = []
        for chair in range(players):
            name = lineup[chair % len(lineup)]
            bot_options = {**FIXED_WORK.get(name, {}), **(options if name == "hard" else {})}
            bots.append(make_bot(name, seed=1000 * deal_seed + chair, **bot_options))
        steps = 0
        while not deal.is_over and steps < 600:
            seat = deal.current_seat
            assert seat is not None
            action = bots[seat].choose(deal.observe(seat), deal.legal_actions())
            digest.update(f"{seat} {action}\n".encode())
            deal.apply(action)
            steps += 1
        digest.update(b"end\n")
    return digest.hexdigest()[:16]


def tables() -> list[tuple[str, str, int]]:
    """(lineup, preset, players) for every lineup and preset, 2 and 4 players where legal."""
    rows = []
    for preset in preset_names():
        rules = find_rules(preset)
        for players in (2, 4):
            if rules.min_players <= players <= rules.max_players:
                for lineup in LINEUPS:
                    if lineup != "mixed" or players == 4:
                        rows.append((lineup, preset, players))
    return rows


def variant_tables() -> list[tuple[str, str, int]]:
    """The hard variants at the family each knob concerns."""
    return [
        ("hard-equity", "knock", 4),
        ("hard-no-search", "gin", 2),
        ("hard-no-reach", "gin", 2),
    ]


#: Recorded from the bots as shipped.
EXPECTED: dict[tuple[str, str, int], str] = {
    ("random", "knock", 2): "11d7553a0769ce7c",
    ("simple", "knock", 2): "4770a45a40e6b9d4",
    ("medium", "knock", 2): "6515cb70927457ae",
    ("hard", "knock", 2): "88bd5653b1ddf3b2",
    ("hard-simple", "knock", 2): "26d07223c7f4407d",
    ("random", "knock", 4): "3a9d4f3b2a68af11",
    ("simple", "knock", 4): "6453f013ffef0b20",
    ("medium", "knock", 4): "a7fe633800c61072",
    ("hard", "knock", 4): "c35856e1e3767d4c",
    ("hard-simple", "knock", 4): "4df329a2e46b95d6",
    ("mixed", "knock", 4): "aacc52d84965b252",
    ("random", "knock-target", 2): "11d7553a0769ce7c",
    ("simple", "knock-target", 2): "4770a45a40e6b9d4",
    ("medium", "knock-target", 2): "6515cb70927457ae",
    ("hard", "knock-target", 2): "88bd5653b1ddf3b2",
    ("hard-simple", "knock-target", 2): "26d07223c7f4407d",
    ("random", "knock-target", 4): "3a9d4f3b2a68af11",
    ("simple", "knock-target", 4): "6453f013ffef0b20",
    ("medium", "knock-target", 4): "a7fe633800c61072",
    ("hard", "knock-target", 4): "c35856e1e3767d4c",
    ("hard-simple", "knock-target", 4): "4df329a2e46b95d6",
    ("mixed", "knock-target", 4): "aacc52d84965b252",
    ("random", "rummy", 2): "fecad1d344f3f7a9",
    ("simple", "rummy", 2): "27f38c907682954a",
    ("medium", "rummy", 2): "1e911e21271e3b4a",
    ("hard", "rummy", 2): "105e66f3d6800193",
    ("hard-simple", "rummy", 2): "6dc9c0c20fd8d26b",
    ("random", "rummy", 4): "8bac8e2e1964688e",
    ("simple", "rummy", 4): "b27c7d73d56d56c8",
    ("medium", "rummy", 4): "6cc12c77e98c1ef0",
    ("hard", "rummy", 4): "7a28dcb5958c0262",
    ("hard-simple", "rummy", 4): "56ecf650f25297ce",
    ("mixed", "rummy", 4): "53dd97aed3e3bf2e",
    ("random", "basic", 2): "8f608cdf5bdca51d",
    ("simple", "basic", 2): "ead388182f5ed11e",
    ("medium", "basic", 2): "048122f308c938c5",
    ("hard", "basic", 2): "048122f308c938c5",
    ("hard-simple", "basic", 2): "454d860d852d9897",
    ("random", "basic", 4): "6b7fcd0090f943a7",
    ("simple", "basic", 4): "377140fd71728bc9",
    ("medium", "basic", 4): "9330c56141f60065",
    ("hard", "basic", 4): "7f10647b6ae22095",
    ("hard-simple", "basic", 4): "b80af1012f1beb0f",
    ("mixed", "basic", 4): "3c91fa266e9e9c36",
    ("random", "block", 2): "526a92ba9d63a2ad",
    ("simple", "block", 2): "81f109b024b3f824",
    ("medium", "block", 2): "048122f308c938c5",
    ("hard", "block", 2): "048122f308c938c5",
    ("hard-simple", "block", 2): "1063f76ad78a9c12",
    ("random", "block", 4): "67dfefc71562b83b",
    ("simple", "block", 4): "df76a954dd2b6f29",
    ("medium", "block", 4): "e74d6054fe4a2724",
    ("hard", "block", 4): "c3ccc9e16793b079",
    ("hard-simple", "block", 4): "f1b0cb00ba79226a",
    ("mixed", "block", 4): "90200513a0c1da54",
    ("random", "rotham", 2): "d2a095683cdce44e",
    ("simple", "rotham", 2): "cafd4e15cb51c653",
    ("medium", "rotham", 2): "57083f5296cdba2c",
    ("hard", "rotham", 2): "57083f5296cdba2c",
    ("hard-simple", "rotham", 2): "bf0cc01f03a445ae",
    ("random", "rotham", 4): "11e42f07268ff5cd",
    ("simple", "rotham", 4): "c9904dd5b5558ac5",
    ("medium", "rotham", 4): "26070c813631a40c",
    ("hard", "rotham", 4): "26070c813631a40c",
    ("hard-simple", "rotham", 4): "1b46fe710daf7bf8",
    ("mixed", "rotham", 4): "1a4ca4af4178aba7",
    ("random", "gin", 2): "4c24785bef80bc38",
    ("simple", "gin", 2): "2fcabc830b647482",
    ("medium", "gin", 2): "a2f6e753d3ffa47a",
    ("hard", "gin", 2): "3b8aaa18880da221",
    ("hard-simple", "gin", 2): "8830258b97b86308",
    ("random", "gin-standard", 2): "3373a67d22d096ec",
    ("simple", "gin-standard", 2): "5578084a0e7e2a3d",
    ("medium", "gin-standard", 2): "276319898b6ce84d",
    ("hard", "gin-standard", 2): "edcdb152547c9897",
    ("hard-simple", "gin-standard", 2): "e2fde78e4a3dc3fc",
    ("random", "gin-openspiel", 2): "be8c58e525688991",
    ("simple", "gin-openspiel", 2): "5578084a0e7e2a3d",
    ("medium", "gin-openspiel", 2): "276319898b6ce84d",
    ("hard", "gin-openspiel", 2): "6838e01432c1f251",
    ("hard-simple", "gin-openspiel", 2): "e2fde78e4a3dc3fc",
    ("hard-equity", "knock", 4): "b46b6062737a6154",
    ("hard-no-search", "gin", 2): "e594f792ab72d3ec",
    ("hard-no-reach", "gin", 2): "1356fe37b85e5363",
}


@pytest.mark.parametrize(("lineup", "preset", "players"), tables())
def test_decisions_are_unchanged(lineup: str, preset: str, players: int) -> None:
    found = decision_hash(LINEUPS[lineup], preset, players)
    assert found == EXPECTED[lineup, preset, players], (
        f"{lineup} at {preset} ({players} players) decides differently"
    )


@pytest.mark.parametrize(("variant", "preset", "players"), variant_tables())
def test_variant_decisions_are_unchanged(variant: str, preset: str, players: int) -> None:
    found = decision_hash(("hard",), preset, players, **VARIANTS[variant])
    assert found == EXPECTED[variant, preset, players]


def test_the_hash_tells_decisions_apart() -> None:
    """Different bots at the same seeds hash differently (the hash sees the decisions)."""
    assert decision_hash(("simple",), "gin", 2) != decision_hash(("random",), "gin", 2)


if __name__ == "__main__":
    for lineup, preset, players in tables():
        print(
            f'    ("{lineup}", "{preset}", {players}): "{decision_hash(LINEUPS[lineup], preset, players)}",'
        )
    for variant, preset, players in variant_tables():
        found = decision_hash(("hard",), preset, players, **VARIANTS[variant])
        print(f'    ("{variant}", "{preset}", {players}): "{found}",')
