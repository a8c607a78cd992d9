"""Fixed one-line policies: the benchmark panel every bot is measured against.

Each policy is a rule a person could state in one line, so a bot's margin
over the panel says how much its search is worth over plain play:

* ``always-knock``: knock at the first chance, giving back the card that
  leaves the least deadwood (highest value among ties).
* ``knock-5`` ... ``knock-60``: knock when the deadwood left is at or below
  the number.
* ``never-knock``: never knock; the deal ends when the stock runs out (or
  someone else knocks).
* ``least-deadwood``: always draw from the stock; give back the card
  leaving the least deadwood; knock at the simple bot's threshold.
* ``take-if-improves``: take the top discard whenever that leaves less
  deadwood than now, else the stock; give back as above; knock at the simple
  bot's threshold.

The knock policies draw as ``take-if-improves`` does. In gin a knock is only
offered with 10 or less, so there the thresholds above 10 all play alike.

>>> sorted(PANEL)[:3]
['always-knock', 'knock-10', 'knock-15']
>>> make_policy("knock-20").knock_at
20
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    BotError,
    big_gin_of,
    first_of_kind,
    is_draw_decision,
    of_kind,
    require_actions,
)
from pyrummy.bots.hand import best_give_back, deadwood
from pyrummy.bots.simple import default_knock_threshold
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import best_discards_of_mask

#: Knock thresholds in the panel.
PANEL_THRESHOLDS: Final = (5, 10, 15, 20, 30, 40, 60)
#: ``knock_at`` meaning "whatever the deadwood".
ALWAYS: Final = 10_000


class PolicyBot:
    """A fixed policy: a knock rule (``knock_at``: None never, or the deadwood
    at or below which it knocks; -1 for the simple bot's threshold) and a draw
    rule (``take_if_improves``).
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str = "policy",
        knock_at: int | None = -1,
        take_if_improves: bool = True,
    ) -> None:
        self.seed = seed
        self.name = name
        self.knock_at = knock_at
        self.take_if_improves = take_if_improves

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        big_gin = big_gin_of(legal_actions)
        if big_gin is not None:
            return big_gin
        rules = find_rules(observation.rules)
        hand = observation.hand.mask
        if is_draw_decision(legal_actions):
            take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
            stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
            if take is not None and observation.discard_pile:
                top = observation.discard_pile[-1].bit
                improves = best_discards_of_mask(hand | top, rules.ace, keep=top)[0] < deadwood(
                    hand, rules
                )
                # With the stock empty the draw is take-or-decline: take only a real gain.
                if improves and (stock is None or self.take_if_improves):
                    return take
            for action in (stock, first_of_kind(legal_actions, ActionKind.DECLINE), take):
                if action is not None:
                    return action
            return legal_actions[0]
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if not give_backs:
            others = [a for a in legal_actions if a.kind is not ActionKind.UNDO]
            return (others or list(legal_actions))[0]
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in give_backs}
        least, card = best_give_back(left, rules)
        threshold = self.knock_at
        if threshold == -1:
            threshold = default_knock_threshold(len(observation.hand) - 1)
        wanted = (
            ActionKind.KNOCK if threshold is not None and least <= threshold else ActionKind.DISCARD
        )
        for kind in (wanted, ActionKind.DISCARD, ActionKind.KNOCK):
            for action in give_backs:
                if action.kind is kind and action.cards[0] == card:
                    return action
        return give_backs[0]


def _panel() -> dict[str, dict[str, object]]:
    panel: dict[str, dict[str, object]] = {"always-knock": {"knock_at": ALWAYS}}
    for threshold in PANEL_THRESHOLDS:
        panel[f"knock-{threshold}"] = {"knock_at": threshold}
    panel["never-knock"] = {"knock_at": None}
    panel["least-deadwood"] = {"knock_at": -1, "take_if_improves": False}
    panel["take-if-improves"] = {"knock_at": -1, "take_if_improves": True}
    return panel


#: The panel by name: the options of each :class:`PolicyBot`.
PANEL: Final = _panel()


def make_policy(name: str, seed: int | None = None) -> PolicyBot:
    """The panel policy called ``name``."""
    options = PANEL.get(name)
    if options is None:
        raise BotError(f"unknown policy {name!r}; policies are: {', '.join(PANEL)}")
    knock_at = options.get("knock_at", -1)
    take = options.get("take_if_improves", True)
    assert knock_at is None or isinstance(knock_at, int)
    return PolicyBot(seed, name=name, knock_at=knock_at, take_if_improves=bool(take))
