"""Gin: re-deals read the opponent's last give-back (pyrummy.bots.gin_hold.Redeals)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pyrummy.bots import HardBot, SimpleBot
from pyrummy.bots.gin_hold import (
    DEFAULT_DISCARD_LIKELIHOOD,
    DISCARD_TRIES,
    Play,
    Redeals,
    last_give_back,
)
from pyrummy.bots.gin_read import GiveBack
from pyrummy.bots.gin_search import Budget, discard_values
from pyrummy.bots.hard_gin import GinPlay
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask


def _give_back_decisions(seeds: range) -> Iterator[tuple[Deal, int, int]]:
    """Gin deals (simple play) at a give-back whose seat's opponent gave one back last.

    With that card and the card the opponent took that turn (a mask, 0 from
    the stock), followed here from the actions as they were applied.
    """
    for seed in seeds:
        deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
        bot = SimpleBot(seed=seed)
        last: dict[int, tuple[int, int] | None] = {0: None, 1: None}
        taken = 0
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            seen = deal.observe(seat)
            if any(a.kind is ActionKind.DISCARD for a in legal) and last[1 - seat] is not None:
                card, took = last[1 - seat] or (0, 0)
                yield deal, card, took
            action = bot.choose(seen, legal)
            if action.kind is ActionKind.DRAW_DISCARD:
                taken = seen.discard_pile[-1].bit
            elif action.kind is ActionKind.DRAW_STOCK:
                taken = 0
            last[seat] = (
                (action.cards[0].index, taken) if action.kind is ActionKind.DISCARD else None
            )
            deal.apply(action)


def test_the_last_give_back_is_read_from_the_history() -> None:
    checked = took = 0
    for deal, card, taken in _give_back_decisions(range(30)):
        seat = deal.current_seat
        assert seat is not None
        turn = last_give_back(deal.observe(seat), 1 - seat)
        assert turn is not None and (turn.card, turn.taken) == (card, taken)
        # The seat to move gave back nothing since its draw.
        assert last_give_back(deal.observe(seat), seat) is None
        checked += 1
        took += taken != 0
    assert checked >= 100 and took >= 5


def test_re_deals_that_explain_the_last_turn_weigh_fully_the_others_little() -> None:
    rules = find_rules("gin")
    explained = unexplained = 0
    for deal, card, taken in _give_back_decisions(range(12)):
        seat = deal.current_seat
        assert seat is not None
        play = Play(rules)
        redeals = Redeals(
            deal.observe(seat), rules, random.Random(4), play, discard_likelihood=0.03
        )
        for _ in range(20):
            theirs, _, weight = redeals.draw()
            least, _ = best_discards_of_mask(theirs | 1 << card, rules.ace, keep=taken)
            # 0.2: the pass likelihood of a knock it could have made and did not.
            if weight in (1.0, 0.2):
                assert deadwood_of_mask(theirs, rules.ace) <= least
                explained += 1
            else:  # the give-back, or the up-card it drew over, unexplained
                assert weight in (0.03, 0.03 * 0.2)
                unexplained += 1
    # The opponent's true hands explain its give-backs, and most re-deals do too.
    assert explained > 5 * unexplained > 0


def test_reading_the_give_back_draws_at_most_its_tries_per_re_deal() -> None:
    rules = find_rules("gin")
    deal, _, _ = next(_give_back_decisions(range(5)))
    seat = deal.current_seat
    assert seat is not None
    counted = [0]

    class Counting(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            counted[0] += 1
            super().shuffle(x)

    seen = deal.observe(seat)
    candidates = [c.index for c in seen.hand][:3]
    budget = Budget(10, discard_likelihood=0.0)
    found = discard_values(seen, candidates, rules, Counting(1), budget)
    assert found.samples == 10
    # A re-deal shuffles the pool once, and the stock once more after the opponent's selection.
    assert counted[0] <= 10 * DISCARD_TRIES * 2


def test_reading_decisions_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(5)
    checked = 0
    for deal, _, _ in _give_back_decisions(range(10)):
        seat = deal.current_seat
        assert seat is not None
        seen = deal.observe(seat)
        other = sample_deal(seen, rng)

        def reading() -> HardBot:
            return HardBot(seed=2, rollouts=4, gin_search_samples=12)

        first = reading().choose(seen, deal.legal_actions())
        again = reading().choose(other.observe(seat), other.legal_actions())
        assert first == again
        checked += 1
    assert checked >= 30


def test_the_default_hard_bot_reads_the_opponents_last_turn() -> None:
    budget = GinPlay(HardBot(rollouts=4).context).search_budget(8)
    assert budget.discard_likelihood == DEFAULT_DISCARD_LIKELIHOOD < 1


def test_an_up_card_passed_that_would_have_fit_is_unexplained() -> None:
    rules = find_rules("gin")
    seen = new_deal("gin", players=2, seed=3, dealer=1).observe(0)
    redeals = Redeals(seen, rules, random.Random(1), Play(rules), discard_likelihood=0.03)
    # After giving back KD: three sevens, a run, loose low cards (KD was its worst card).
    theirs = CardSet("7H 7D 7S 2C 3C 4C 9S AH 2D 5S").mask
    king = Card("KD").index
    for _ in range(10):  # whichever card it drew, two sevens were left: 7C would have fit
        assert not redeals._explains(theirs, GiveBack(king, 0, Card("7C").index))
        assert redeals._explains(theirs, GiveBack(king, 0, Card("QH").index))
        assert redeals._explains(theirs, GiveBack(king, 0, -1))
    # Giving back a low loose card while holding the king is not a least-deadwood give-back.
    with_king = theirs & ~Card("AH").bit | Card("KD").bit
    assert not redeals._explains(with_king, GiveBack(Card("AH").index, 0, -1))
