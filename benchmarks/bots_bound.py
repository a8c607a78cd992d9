"""Knock Rummy: how much can any bot win per duplicate pair against always-knock?

Against ``always-knock`` a bot acts at most once a deal: on its first turn,
if it is the first player (otherwise an always-knock seat before it has
knocked already). So its margin per duplicate pair is bounded by the best
reply to that one position **by a player who knows every opponent always
knocks** (a real bot does not know that on turn 1, so it cannot do better).

:class:`AlwaysKnockReply` is that player (a benchmark opponent, not a bot
of the game): it draws the top discard or the stock by the expected
settlement, with every unseen stock card enumerated and the opponents'
hands sampled, and then knocks or waits (giving back one of the
least-deadwood cards face up), knowing that the next seat will then take
the card if that lowers its deadwood, else the stock, and knock. Its
margin against ``always-knock`` on the same duplicate deals as
``bots_panel.py`` estimates the ceiling of every bot's margin there.

    .venv/bin/python benchmarks/bots_bound.py --deals 600 --players 2 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache

import bots
from pyrummy.bots.base import Bot, is_draw_decision, of_kind
from pyrummy.bots.policies import make_policy
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.settlement import knock_transfers
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask

#: Re-deals of the opponents' hands behind each estimate.
SAMPLES = 40
#: Face-up give-backs weighed when waiting (the least-deadwood ones).
WAIT_OPTIONS = 3


@lru_cache(maxsize=200_000)
def _net(deadwoods: tuple[int, ...], knocker: int, me: int, rules: Rules) -> float:
    total = 0.0
    for transfer in knock_transfers(list(deadwoods), knocker, rules)[0]:
        if transfer.payee == me:
            total += float(transfer.amount)
        if transfer.payer == me:
            total -= float(transfer.amount)
    return total


def _least(hand: int, ace: str, keep: int = 0) -> tuple[int, int]:
    left, options = best_discards_of_mask(hand, ace, keep=keep)
    return left, 1 << (options.bit_length() - 1)


def _always_knock_turn(hand: int, top: int, stock_card: int, ace: str) -> int:
    """Deadwood an always-knock seat knocks with: takes ``top`` if it lowers the deadwood."""
    if top and best_discards_of_mask(hand | top, ace, keep=top)[0] < deadwood_of_mask(hand, ace):
        return best_discards_of_mask(hand | top, ace, keep=top)[0]
    return best_discards_of_mask(hand | stock_card, ace)[0]


class AlwaysKnockReply:
    """The best reply to always-knock opponents, knowing that they always knock."""

    name = "always-knock-reply"

    def __init__(self, seed: int | None = None, samples: int = SAMPLES) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.fallback = make_policy("always-knock", seed)

    def _opponent_deals(
        self, observation: Observation, unseen: list[int], extra: int, samples: int | None = None
    ) -> list[tuple[list[int], list[int]]]:
        """Sampled opponents' hands (by seat; 0 for this seat) and ``extra`` spare cards."""
        me = observation.seat
        assert me is not None
        sizes = observation.hand_sizes
        needed = sum(sizes[s] for s in range(observation.players) if s != me)
        deals = []
        for _ in range(self.samples if samples is None else samples):
            chosen = self.rng.sample(unseen, needed + extra)
            hands = [0] * observation.players
            cursor = 0
            for seat in range(observation.players):
                if seat == me:
                    continue
                for index in chosen[cursor : cursor + sizes[seat]]:
                    hands[seat] |= 1 << index
                cursor += sizes[seat]
            deals.append((hands, [1 << index for index in chosen[cursor:]]))
        return deals

    def _values(
        self, hand: int, keep: int, me: int, hands: list[int], stock: int, rules: Rules
    ) -> list[float]:
        """Knock now, then wait giving back each of the least-deadwood cards."""
        ace = rules.ace
        others = {s: deadwood_of_mask(h, ace) for s, h in enumerate(hands) if s != me}
        left, _ = _least(hand, ace, keep)
        deadwoods = tuple(left if s == me else others[s] for s in range(len(hands)))
        values = [_net(deadwoods, me, me, rules)]
        following = (me + 1) % len(hands)
        for card in _wait_cards(hand, keep, ace):
            mine = deadwood_of_mask(hand & ~card, ace)
            theirs = _always_knock_turn(hands[following], card, stock, ace)
            after = tuple(
                mine if s == me else theirs if s == following else others[s]
                for s in range(len(hands))
            )
            values.append(_net(after, following, me, rules))
        return values

    def _mean_values(
        self,
        observation: Observation,
        unseen: list[int],
        hand: int,
        keep: int,
        rules: Rules,
        samples: int | None = None,
    ) -> list[float]:
        me = observation.seat
        assert me is not None
        totals: list[float] = []
        for hands, spare in self._opponent_deals(observation, unseen, 1, samples):
            values = self._values(hand, keep, me, hands, spare[0], rules)
            totals = values if not totals else [a + b for a, b in zip(totals, values, strict=True)]
        return totals

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1 or observation.seat is None:
            return legal_actions[0]
        rules = find_rules(observation.rules)
        hand = observation.hand.mask
        unseen = [card.index for card in observation.unseen_cards()]
        if is_draw_decision(legal_actions):
            take = next((a for a in legal_actions if a.kind is ActionKind.DRAW_DISCARD), None)
            stock = next((a for a in legal_actions if a.kind is ActionKind.DRAW_STOCK), None)
            if take is None or stock is None or not observation.discard_pile:
                return self.fallback.choose(observation, legal_actions)
            top = observation.discard_pile[-1].bit
            # Decide after the draw on the mean over the opponents' hands, then
            # average over the draw: the reply never sees the hidden hands.
            taken = max(self._mean_values(observation, unseen, hand | top, top, rules))
            stocked = 0.0
            for card in unseen:
                rest = [index for index in unseen if index != card]
                stocked += max(self._mean_values(observation, rest, hand | 1 << card, 0, rules))
            stocked /= len(unseen)
            return take if taken >= stocked else stock
        give_backs = of_kind(legal_actions, ActionKind.DISCARD, ActionKind.KNOCK)
        if not give_backs:
            return self.fallback.choose(observation, legal_actions)
        keep = observation.taken_discard.bit if observation.taken_discard is not None else 0
        totals = self._mean_values(observation, unseen, hand, keep, rules, self.samples * 4)
        best = max(range(len(totals)), key=totals.__getitem__)
        if best == 0:
            _, card = _least(hand, rules.ace, keep)
            wanted = ActionKind.KNOCK
        else:
            card = _wait_cards(hand, keep, rules.ace)[best - 1]
            wanted = ActionKind.DISCARD
        for action in give_backs:
            if action.kind is wanted and action.cards[0].bit == card:
                return action
        return self.fallback.choose(observation, legal_actions)


def _wait_cards(hand: int, keep: int, ace: str) -> list[int]:
    ranked = []
    cards = hand & ~keep
    while cards:
        low = cards & -cards
        cards ^= low
        ranked.append((deadwood_of_mask(hand & ~low, ace), -low.bit_length(), low))
    ranked.sort()
    return [low for _, _, low in ranked[:WAIT_OPTIONS]]


def _make_player(name: str, seed: int, options: dict[str, object]) -> Bot:
    if name == AlwaysKnockReply.name:
        return AlwaysKnockReply(seed)
    return ORIGINAL_MAKE_PLAYER(name, seed, options)


ORIGINAL_MAKE_PLAYER = bots.make_player


def _chunk(args: tuple[int, int, int, int]) -> list[float]:
    start, count, seed, players = args
    bots.make_player = _make_player
    nets: list[float] = []
    for number in range(start, start + count):
        # The same pair seeds as bots_panel.py, so the rows compare deal for deal.
        result = bots.play_duplicate(
            AlwaysKnockReply.name, "always-knock", "knock", 1, seed * 1_000 + number, {}, players
        )
        nets.extend(result.nets)
    return nets


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    size = max(1, math.ceil(args.deals / max(1, args.workers * 4)))
    tasks = [
        (start, min(size, args.deals - start), args.seed, args.players)
        for start in range(0, args.deals, size)
    ]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            chunks = list(pool.map(_chunk, tasks))
    else:
        chunks = [_chunk(task) for task in tasks]
    nets = [net for chunk in chunks for net in chunk]
    mean = statistics.fmean(nets)
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets)) if len(nets) > 1 else 0.0
    print(
        f"always-knock-reply v always-knock, knock, {args.players} players, {len(nets)} pairs, "
        f"seed {args.seed}: {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] per pair "
        f"({time.perf_counter() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
