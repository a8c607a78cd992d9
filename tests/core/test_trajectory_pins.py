"""Pinned trajectories: seeded play of every preset, hashed step by step.

Each case plays a few deals with fixed seeds (random play, and the simple
bot) and feeds a digest with everything a step shows: the seat and phase,
the legal actions (text and number), each seat's observation in its JSON
form, the refusal of a sample of illegal actions (the catalogue reason and
its parameters), the action taken; at the end the settlement, how the deal
ended, its record and a pickle round trip. The pinned digests were taken
from the engine as it stood before its modules were rearranged: any change
in what the engine decides, lists, refuses or shows changes a digest.

A digest that changes on purpose (a new ruling, a new field in an
observation) is re-pinned with ``python tests/core/test_trajectory_pins.py``,
which prints the current ones.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
from collections.abc import Callable

import pytest

from pyrummy.bots import make_bot
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import IllegalActionError, RummyError
from pyrummy.core.rules import find_rules

#: (case name, preset, options, players, deals, deal number of the first deal)
CASES: list[tuple[str, str, dict[str, object], int, int, int]] = [
    ("knock-2", "knock", {}, 2, 12, 1),
    ("knock-4", "knock", {}, 4, 8, 1),
    ("knock-jokers", "knock", {"jokers": 2}, 3, 6, 1),
    ("knock-target-3", "knock-target", {}, 3, 6, 1),
    ("gin", "gin", {}, 2, 10, 1),
    ("gin-jokers", "gin", {"jokers": 1, "wall_cards": 0}, 2, 4, 1),
    ("rummy-3", "rummy", {}, 3, 2, 1),
    ("rummy-shuffle", "rummy", {"stock_end": "shuffle", "recycle_keeps_top": True}, 2, 2, 1),
    ("rummy-automatic", "rummy", {"stock_refill": "automatic"}, 2, 2, 1),
    ("basic-4", "basic", {}, 4, 2, 1),
    ("block", "block", {}, 3, 3, 1),
    ("rotham", "rotham", {}, 3, 1, 1),
    ("rotham-all-seven", "rotham", {}, 2, 2, 4),
    ("rummy-cap", "rummy", {"turn_cap": 12, "last_discard_required": True}, 3, 2, 1),
    ("gin-cap", "gin", {"turn_cap": 6}, 2, 2, 1),
    ("gin-standard", "gin-standard", {}, 2, 6, 1),
    ("gin-oklahoma", "gin-standard", {"oklahoma": True}, 2, 6, 1),
    ("gin-openspiel", "gin-openspiel", {}, 2, 6, 1),
]

#: Action texts tried at every step on a copy (most are refused: their reasons are hashed).
PROBES = [
    "draw stock",
    "draw discard",
    "decline",
    "undo",
    "discard {card}",
    "knock {card}",
    "discard {own}",
    "knock {own}",
    "layoff {own} 0",
    "swap-joker {own} 0",
    "meld {own} {card} {other}",
]

PINS: dict[str, str] = {
    "knock-2/random": "9c90a729ead386a1d4d9",
    "knock-2/simple": "bb912067a71d6562ab38",
    "knock-4/random": "dc4d560f9946c94cd6ed",
    "knock-4/simple": "c6b10dbd3f331bbdd256",
    "knock-jokers/random": "6e33a2dce0afbcc01530",
    "knock-jokers/simple": "19e891b8ce44f4c558bd",
    "knock-target-3/random": "2f280155981a938163ab",
    "knock-target-3/simple": "c581b995f6eb33a9d8f1",
    "gin/random": "7657993cc3610b967983",
    "gin/simple": "46f4d1233adc7d8cc086",
    "gin-jokers/random": "027e98fb04bb433c3e96",
    "gin-jokers/simple": "286116ca4c5b9c7fc750",
    "rummy-3/random": "93270b1fb6c56bfd2035",
    "rummy-3/simple": "c5e3bd59621d7c10d0f4",
    "rummy-shuffle/random": "affb39ff2a5988a2a8f8",
    "rummy-shuffle/simple": "e49160abf9a73405f786",
    "rummy-automatic/random": "c6dfb3db18ba9c0c9c83",
    "rummy-automatic/simple": "e2f040e3ea184e705a09",
    "basic-4/random": "1d6644b9a480cbe6cfce",
    "basic-4/simple": "c755964605ff41275dcb",
    "block/random": "4b11bdf20ea3959c268f",
    "block/simple": "668d3ebac01e312eca44",
    "rotham/random": "8621fbb5e11accf88f75",
    "rotham/simple": "c1bc8fc5d34761413951",
    "rotham-all-seven/random": "f108b3679423a469b36c",
    "rotham-all-seven/simple": "e5c0dc144455cf2f7479",
    "rummy-cap/random": "ca9318a30af929e8f513",
    "rummy-cap/simple": "e3de1dd3dc86517ae0f8",
    "gin-cap/random": "8ce71f3127bdee22f9b5",
    "gin-cap/simple": "1e0bb788a556c15e6ea5",
    "gin-standard/random": "29f609dece71bfc406d4",
    "gin-standard/simple": "bd4b2f83b2f064d3e056",
    "gin-oklahoma/random": "ceaa3ab3cc1daeff3f58",
    "gin-oklahoma/simple": "14f25527e70db21f03ba",
    "gin-openspiel/random": "4a1c12069bf1f4d0ae2d",
    "gin-openspiel/simple": "d0350047b379edd6ad01",
}


def _probe(deal: Deal, rng: random.Random) -> list[object]:
    """The outcome of each probe on a copy of ``deal``: the refusal or the result."""
    seat = deal.current_seat
    hand = list(deal.hands(seat)) if seat is not None else []
    deck = ALL_CARDS[: deal.rules.deck_size]
    results: list[object] = []
    for text in PROBES:
        own = rng.choice(hand) if hand else rng.choice(deck)
        action = text.format(card=rng.choice(deck), own=own, other=rng.choice(hand or deck))
        copy = deal.clone()
        try:
            copy.apply(action, seat)
        except IllegalActionError as error:
            reason = error.reason
            results.append(
                [action, str(error), None if reason is None else [reason.key, reason.params]]
            )
        except RummyError as error:
            results.append([action, type(error).__name__, str(error)])
        else:
            results.append([action, "applied", copy.phase.value, copy.current_seat])
    return results


Chooser = Callable[[Deal, random.Random], object]


def _random_choice(deal: Deal, rng: random.Random) -> object:
    legal = deal.legal_actions()
    seat = deal.current_seat
    assert seat is not None
    if deal.observe(seat).undos_this_turn >= 2:
        legal = [action for action in legal if action.kind is not ActionKind.UNDO]
    return rng.choice(legal)


def _digest(case: str, player: str) -> str:
    name, preset, options, players, deals, first = next(c for c in CASES if c[0] == case)
    digest = hashlib.sha256()

    def feed(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    rules = find_rules(preset, **options)
    for number in range(deals):
        seed = 1000 * len(name) + number
        rng = random.Random(seed)
        bots = [make_bot("simple", seed=seed + seat) for seat in range(players)]
        deal = new_deal(rules, players, seed=seed, dealer=number % players, deal_number=first)
        steps = 0
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            feed([seat, deal.phase.value, [str(a) for a in legal], deal.legal_action_ids()])
            feed([deal.observe(s).to_dict() for s in (*range(players), None)])
            if steps % 3 == 0:
                feed(_probe(deal, rng))
            if player == "random":
                action = _random_choice(deal, rng)
            else:
                action = bots[seat].choose(deal.observe(seat), legal)
            feed(str(action))
            deal.apply(action, seat)  # type: ignore[arg-type]
            steps += 1
        settlement = deal.settlement
        assert settlement is not None
        feed([deal.end_reason.value, settlement.to_dict(), deal.record()])
        feed(deal.observe(0).to_dict())
        restored = pickle.loads(pickle.dumps(deal))
        assert restored.record() == deal.record()
        assert restored.observe(None) == deal.observe(None)
    return digest.hexdigest()[:20]


@pytest.mark.parametrize("player", ["random", "simple"])
@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_seeded_play_follows_its_pinned_trajectory(case: str, player: str) -> None:
    assert _digest(case, player) == PINS[f"{case}/{player}"]


if __name__ == "__main__":
    for case_name, *_ in CASES:
        for kind in ("random", "simple"):
            print(f'    "{case_name}/{kind}": "{_digest(case_name, kind)}",')
