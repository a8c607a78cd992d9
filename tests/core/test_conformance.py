"""Conformance: seeded random play of every preset at every player count.

In the spirit of OpenSpiel's ``random_sim_test``, every step of every deal
checks that

- the cards are conserved: hands, stock, discard pile, table melds and the
  knock card are disjoint and together make the deck;
- the legal actions are unique and sorted by their number, each reads back
  from its text and its number, and a sample of them applies (on clones);
- a sample of illegal actions (random text actions, actions out of turn) is
  refused with the state unchanged;
- a clone equals the original, and (at random steps and at the end) the
  record replays to the same state;
- no seat's observation (nor a spectator's), in its JSON form, names a card
  that seat cannot know: a card of another hand or of the stock that has
  never been face up;

and at the end of each deal, that it ended within the turn cap and that its
result follows the preset's scoring, recomputed here from the hands.

``pytest tests/core/test_conformance.py --deals-per-preset N`` plays N deals per
preset and player count instead of the defaults below.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyrummy.cli.main import main
from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import ALL_CARDS, CardSet
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import IllegalActionError, RummyError
from pyrummy.core.match import Match, deal_seed
from pyrummy.core.record import emit_record, parse_record
from pyrummy.core.rules import PRESETS, Rules, find_rules
from pyrummy.core.settlement import settle
from pyrummy.core.values import hand_value

FIXTURES = Path(__file__).parents[1] / "fixtures"

#: Deals per player count for each preset by default: random deals of the
#: melding games are long (hundreds of actions), knock deals are short.
DEFAULT_DEALS = {
    "knock": 400,
    "knock-target": 300,
    "rummy": 20,
    "basic": 6,
    "block": 40,
    "rotham": 5,
    "gin": 120,
    "gin-standard": 120,
    "gin-openspiel": 120,
}

#: Option variants of the melding and knock rules (fewer deals each).
VARIANTS: list[tuple[str, dict[str, object], int]] = [
    ("basic", {"scoring": "penalty"}, 3),
    ("basic", {"scoring": "pay_per_point", "going_rummy": "plus10"}, 3),
    ("basic", {"stock_end": "shuffle", "ace": "around_the_corner"}, 3),
    ("basic", {"stock_end": "reuse_limit", "reuse_limit": 1, "ace": "high_or_low"}, 6),
    ("basic", {"layoff_after_own_meld": True, "last_discard_required": True}, 3),
    ("rummy", {"going_rummy": "plus10", "multiple_melds": False}, 6),
    ("block", {"scoring": "pay_per_point"}, 10),
    ("knock", {"knock_penalty_mode": "each_lower", "rum_bonus": 30}, 60),
    ("gin", {"knock_limit": 0, "layoff_on_gin": False}, 20),
    ("gin-standard", {"oklahoma": True}, 80),
    ("gin", {"up_card_offer": True, "big_gin_bonus": 31, "tie_undercuts": False}, 40),
]

CASES = [
    pytest.param(name, players, {}, DEFAULT_DEALS[name], id=f"{name}-{players}p")
    for name, rules in PRESETS.items()
    for players in range(rules.min_players, rules.max_players + 1)
] + [
    pytest.param(
        name,
        3 if PRESETS[name].max_players >= 3 else 2,
        options,
        deals,
        id=f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items()),
    )
    for name, options, deals in VARIANTS
]


# -- the state, as the tests see it ----------------------------------------------


def zones(deal: Deal) -> list[int]:
    """Masks of every place a card can be."""
    masks = [deal.hands(seat).mask for seat in range(deal.players)]
    masks.append(CardSet(deal.stock).mask)
    masks.append(CardSet(deal.discard_pile).mask)
    masks += [CardSet(table_meld.meld.cards).mask for table_meld in deal.table]
    knock = deal.knock_card
    masks.append(0 if knock is None else knock.bit)
    return masks


def view(deal: Deal, seat: int | None) -> dict[str, object]:
    """``seat``'s observation as JSON, without the history (checked apart, below:
    serialising the whole history at every step would make a deal quadratic)."""
    observation = deal.observe(seat)
    assert len(observation.history) == len(deal.history)
    assert observation.history[-1:] == tuple(deal.history[-1:])
    return dataclasses.replace(observation, history=()).to_dict()


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything observable about a deal, to compare before and after."""
    seat = deal.current_seat
    return (
        tuple(deal.history),
        deal.phase,
        seat,
        deal.turn,
        tuple(deal.hands(s).mask for s in range(deal.players)),
        deal.stock,
        deal.discard_pile,
        deal.table,
        deal.knock_card,
        tuple(deal.legal_action_ids()),
        deal.settlement,
        view(deal, seat),
    )


def card_tokens(value: object) -> Iterator[str]:
    """Every word of every string inside a JSON-able value, except the cards a
    joker on the table stands for (public: the meld shows them)."""
    if isinstance(value, str):
        yield from value.split()
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "represents":
                yield from card_tokens(key)
                yield from card_tokens(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_tokens(item)


_CARD_TEXT = {str(card): card for card in ALL_CARDS}


def cards_named(value: object) -> int:
    mask = 0
    for token in card_tokens(value):
        card = _CARD_TEXT.get(token)
        if card is not None:
            mask |= card.bit
    return mask


# -- the checks ------------------------------------------------------------------


def check_conservation(deal: Deal) -> None:
    seen = 0
    for mask in zones(deal):
        assert seen & mask == 0, f"card in two places: {CardSet(seen & mask)}"
        seen |= mask
    assert seen == CardSet.full_deck(deal.rules.jokers).mask, (
        f"cards lost: {CardSet(CardSet.full_deck(deal.rules.jokers).mask & ~seen)}"
    )


def check_legal_actions(deal: Deal, rng: random.Random, full: bool = True) -> list[Action]:
    legal = deal.legal_actions()
    ids = deal.legal_action_ids()
    assert ids == sorted(set(ids)), "legal actions not sorted by number or repeated"
    assert len(set(legal)) == len(legal)
    assert bool(legal) == (not deal.is_over)
    if not full:
        return legal
    space = deal.action_space
    for action in legal:
        assert space.decode(space.encode(action)) == action
        assert space.normalize(parse_action(str(action))) == action
    for action in rng.sample(legal, min(3, len(legal))):
        copy = deal.clone()
        copy.apply(str(action) if rng.random() < 0.5 else action)
        check_conservation(copy)
        assert copy.history[-1] == (deal.current_seat, action)
    return legal


def random_action_text(deal: Deal, rng: random.Random) -> str:
    """A random text action: any word, any cards (jokers too), any meld number."""
    roll = rng.random()
    cards = rng.sample(ALL_CARDS, rng.choice((1, 1, 1, 2, 3, 4)))
    words = " ".join(str(card) for card in cards)
    if roll < 0.15:
        return rng.choice(["draw stock", "draw discard", "decline", "undo", "fold", "", "7H"])
    if roll < 0.45:
        return f"discard {words.split()[0]}"
    if roll < 0.6:
        return f"knock {words.split()[0]}"
    if roll < 0.8:
        return f"meld {words}"
    word = rng.choice(["layoff", "swap-joker"])
    return f"{word} {words.split()[0]} {rng.randrange(-1, len(deal.table) + 2)}"


def check_illegal_actions(deal: Deal, legal: list[Action], rng: random.Random) -> None:
    before = snapshot(deal)
    space = deal.action_space
    for _ in range(3):
        text = random_action_text(deal, rng)
        try:
            action = space.normalize(parse_action(text))
        except RummyError:
            action = None
        if action is not None and action in legal:
            continue
        with pytest.raises(IllegalActionError):
            deal.apply(text)
    if legal:
        seat = deal.current_seat
        assert seat is not None
        other = (seat + rng.randrange(1, deal.players)) % deal.players
        with pytest.raises(IllegalActionError):
            deal.apply(rng.choice(legal), seat=other)
    assert snapshot(deal) == before, "a refused action changed the deal"


def check_observations(deal: Deal, face_up: int) -> None:
    """No view names a card its seat cannot know (until the deal is over)."""
    if deal.is_over:
        return
    deck = CardSet.full_deck(deal.rules.jokers).mask
    for seat in [*range(deal.players), None]:
        own = 0 if seat is None else deal.hands(seat).mask
        hidden = deck & ~own & ~face_up
        leaked = cards_named(view(deal, seat)) & hidden
        assert not leaked, f"seat {seat} sees {CardSet(leaked)}"
    # The history is the same for every seat; its newest entry is checked
    # against the cards nobody but their owner may know.
    if deal.history:
        seat, action = deal.history[-1]
        secret = deck & ~face_up & ~deal.hands(seat).mask
        leaked = cards_named(str(action)) & secret
        assert not leaked, f"the history shows {CardSet(leaked)}"


def check_replay(deal: Deal) -> None:
    text = emit_record(deal, seed=False)
    again = parse_record(text)
    assert isinstance(again, Deal)
    assert snapshot(again) == snapshot(deal)
    assert emit_record(again, seed=False) == text


def check_result(deal: Deal) -> None:
    """The settlement follows the preset's scoring, recomputed from the hands."""
    rules = deal.rules
    result = deal.settlement
    assert result is not None
    assert deal.turn <= rules.turn_cap + 1, f"{deal.turn} turns, cap {rules.turn_cap}"
    hands = [deal.hands(seat) for seat in range(deal.players)]
    net = result.net
    assert tuple(net) == deal.observe(None).settlement.net  # type: ignore[union-attr]
    for transfer in result.transfers:
        assert transfer.payee in range(deal.players)
    if rules.family == "knock":
        assert sum(net) == 0
        assert all(t.payer is not None for t in result.transfers)
        assert settle(hands, result.knocker, rules) == result
        return
    if rules.family == "gin":
        check_gin_result(deal, result.outcome, net)
        if result.outcome != "draw":
            big_gin = result.outcome == "big-gin"
            assert (
                settle(hands, result.knocker, rules, big_gin=big_gin, up_card=deal.up_card)
                == result
            )
        return
    values = [hand_value(hand, rules) for hand in hands]
    if result.outcome in ("out", "rummy"):
        check_going_out(rules, values, result.outcome, net)
    elif result.outcome == "draw":
        assert rules.scoring == "winner_collects" and rules.nobody_out == "draw"
        assert all(n == 0 for n in net)
    elif result.outcome == "penalty":
        assert rules.scoring == "penalty"
        assert list(net) == [-v for v in values]
    else:
        assert result.outcome == "block"
        assert rules.scoring == "pay_per_point" or rules.nobody_out == "lowest_collects"
        low = min(values)
        winners = [s for s, v in enumerate(values) if v == low]
        assert list(result.winners) == winners
        total = Fraction(sum(v - low for v in values), len(winners))
        if rules.scoring == "pay_per_point":
            assert sum(net) == 0
            assert all(net[s] == -(v - low) for s, v in enumerate(values) if s not in winners)
        else:
            assert all(net[s] == (total if s in winners else 0) for s in range(len(values)))


def check_gin_result(deal: Deal, outcome: str, net: tuple[Fraction, ...]) -> None:
    rules = deal.rules
    assert all(t.payer is None for t in deal.settlement.transfers)  # type: ignore[union-attr]
    if outcome == "draw":
        assert all(n == 0 for n in net)
        assert deal.end_reason in ("wall", "cap", "decline", "thrown_back", "pile_limit")
        return
    knocker = deal.settlement.knocker  # type: ignore[union-attr]
    assert knocker is not None and deal.end_reason == "knock"
    if outcome == "tie":
        assert not rules.tie_undercuts and all(n == 0 for n in net)
        counts = deal.settlement.counts  # type: ignore[union-attr]
        assert counts[0] == counts[1]
        return
    winner = knocker if outcome in ("knock", "gin", "big-gin") else 1 - knocker
    assert net[1 - winner] == 0 and net[winner] > 0
    # Oklahoma: a spade first up-card doubles every amount.
    factor = 2 if rules.oklahoma and deal.up_card is not None and deal.up_card.index < 13 else 1
    assert all(n % factor == 0 for n in net)
    if outcome in ("gin", "big-gin"):
        assert deal.settlement.counts[knocker] == 0  # type: ignore[union-attr]
        bonus = rules.gin_bonus if outcome == "gin" else rules.big_gin_bonus
        assert net[winner] >= factor * bonus
    if outcome == "big-gin":
        assert len(deal.hands(knocker)) == 11 and deal.knock_card is None
        assert rules.big_gin_bonus > 0
    if outcome == "undercut":
        assert net[winner] >= factor * rules.undercut_bonus


def check_going_out(
    rules: Rules, values: list[int], outcome: str, net: tuple[Fraction, ...]
) -> None:
    winner = values.index(0) if values.count(0) == 1 else None
    assert winner is not None, "going out leaves exactly one empty hand"
    losers = [s for s in range(len(values)) if s != winner]
    factor = 2 if outcome == "rummy" and rules.going_rummy == "double" else 1
    plus = 10 if outcome == "rummy" and rules.going_rummy == "plus10" else 0
    assert (outcome == "rummy") == (factor == 2 or plus == 10)
    if rules.scoring == "winner_collects":
        assert net[winner] == factor * sum(values[s] for s in losers) + plus
        assert all(net[s] == 0 for s in losers)
    elif rules.scoring == "penalty":
        assert net[winner] == plus
        assert all(net[s] == -factor * values[s] for s in losers)
    else:
        assert sum(net) == 0
        assert all(net[s] == -factor * values[s] - Fraction(plus, len(losers)) for s in losers)


# -- playing -----------------------------------------------------------------------

#: Random players undo at most this often in one turn (people have no limit).
UNDOS_PER_TURN = 3


def without_undo(legal: Sequence[Action]) -> list[Action]:
    return [action for action in legal if action.kind is not ActionKind.UNDO]


def play_checked_deal(
    deal: Deal,
    rng: random.Random,
    replay_every: int = 40,
    line: Sequence[Action] | None = None,
    rate: float | None = None,
) -> Deal:
    """Play ``deal`` to its end with random legal actions (or the actions of
    ``line``, to its end), checking every step.

    Conservation and the order of the legal actions are checked at every
    step; the costlier checks (every view, refused actions, clones) at every
    step of the short knock deals, half the steps of gin deals and a quarter
    of the steps of the long melding deals, chosen at random.
    """
    face_up = 0
    steps = 0
    turn = undos = 0
    if rate is None:
        rate = {"knock": 1.0, "gin": 0.5}.get(deal.rules.family, 0.25)
    moves = None if line is None else iter(line)
    action: Action | None
    while True:
        face_up |= CardSet(deal.discard_pile).mask
        for table_meld in deal.table:
            face_up |= CardSet(table_meld.meld.cards).mask
        check_conservation(deal)
        full = deal.is_over or rng.random() < rate
        legal = check_legal_actions(deal, rng, full)
        if full:
            check_observations(deal, face_up)
            assert snapshot(deal.clone()) == snapshot(deal)
        if deal.is_over:
            break
        if full:
            check_illegal_actions(deal, legal, rng)
        if rng.randrange(replay_every) == 0:
            check_replay(deal)
        if moves is None:
            if deal.turn != turn:
                turn, undos = deal.turn, 0
            # Undo has no limit for people: random play bounds it itself.
            choices = legal if undos < UNDOS_PER_TURN else without_undo(legal)
            action = rng.choice(choices)
            undos += action.kind is ActionKind.UNDO
        else:
            action = next(moves, None)
        if action is None:
            return deal  # the pinned line ends before the deal does
        deal.apply(action)
        steps += 1
        assert steps <= 20 * (deal.rules.turn_cap + 1), "the deal does not end"
    check_replay(deal)
    check_result(deal)
    with pytest.raises(IllegalActionError):
        deal.apply("draw stock")
    return deal


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.name)
def test_pinned_records_keep_the_invariants(path: Path) -> None:
    """Records pinned in tests/fixtures (bugs random play found, worked examples)
    replay with every check at every step."""
    game = parse_record(path.read_text(encoding="utf-8"))
    for played in game.deals if isinstance(game, Match) else [game]:
        deal = Deal.from_deck(
            played.rules, played.players, played.dealer, played.deck, played.deal_number
        )
        line = [action for _, action in played.history]
        play_checked_deal(deal, random.Random(path.name), line=line, rate=1.0)
        assert deal.history == played.history


@pytest.mark.parametrize(("preset", "players", "options", "default_deals"), CASES)
def test_random_play_conforms(
    preset: str,
    players: int,
    options: dict[str, object],
    default_deals: int,
    deals_per_preset: int | None,
) -> None:
    rules = find_rules(preset, **options)
    count = deals_per_preset if deals_per_preset is not None else default_deals
    rng = random.Random(f"{preset} {players} {sorted(options.items())}")
    outcomes: set[str] = set()
    for index in range(count):
        number = index % rules.deals + 1 if rules.match_end == "deals" else 1
        deal = new_deal(
            rules,
            players=players,
            seed=deal_seed(players, index + 1),
            dealer=index % players,
            deal_number=number,
        )
        play_checked_deal(deal, rng)
        assert deal.settlement is not None
        outcomes.add(deal.settlement.outcome)
    assert outcomes


# -- hypothesis: random play that shrinks to a minimal failing line ------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["knock", "knock-target", "gin", "rummy", "block"]),
    seed=st.integers(0, 2**32 - 1),
    choices=st.lists(st.integers(0, 2**16), max_size=60),
)
def test_any_line_of_play_keeps_the_invariants(preset: str, seed: int, choices: list[int]) -> None:
    rules = PRESETS[preset]
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    deal = new_deal(rules, players=players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    for choice in choices:
        if deal.is_over:
            break
        check_conservation(deal)
        legal = check_legal_actions(deal, rng)
        deal.apply(legal[choice % len(legal)])
    check_conservation(deal)
    check_replay(deal)
    if deal.is_over:
        check_result(deal)


def test_an_action_kind_of_every_family_is_exercised() -> None:
    """The random players reach every kind of action somewhere (the suite is not idle)."""
    kinds: set[ActionKind] = set()
    for preset, players in (("knock", 3), ("gin", 2), ("rummy", 3), ("rotham", 3)):
        rng = random.Random(preset)
        for index in range(3):
            deal = new_deal(preset, players=players, seed=index, deal_number=4 - 3 * (index % 2))
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
            kinds |= {action.kind for _, action in deal.history}
    assert kinds >= {
        ActionKind.DRAW_STOCK,
        ActionKind.DRAW_DISCARD,
        ActionKind.DISCARD,
        ActionKind.KNOCK,
        ActionKind.MELD,
        ActionKind.LAYOFF,
        ActionKind.UNDO,
    }


# -- the simulate command ---------------------------------------------------------


def test_simulate_command_counts_every_deal(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--rules", "knock", "--players", "3", "--deals", "40", "--seed", "4"]
    assert main([*args, "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 40 and sum(report["outcomes"].values()) == 40
    knock_outcomes = {"rum", "knocker-lowest", "knocker-tied", "knocker-beaten", "no-knocker"}
    assert set(report["outcomes"]) <= knock_outcomes
    assert report["mean_turns"] >= 1 and report["deals_per_second"] > 0
    assert main([*args, "--json", "--quiet"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["outcomes"] == report["outcomes"]  # the same seed plays the same deals
    assert again["mean_count_at_end"] == report["mean_count_at_end"]
    assert main([*args, "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "40 random deals of knock, 3 players" in text and "Deals per second" in text


def test_simulate_command_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "gin", "--players", "3", "--quiet"]) == 2
    assert "gin is for 2-2 players, not 3" in capsys.readouterr().err
    assert main(["simulate", "--rules", "basic", "--option", "ace=sideways", "--quiet"]) == 2
    assert "'sideways' is not one of" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:  # argparse refuses the value itself
        main(["simulate", "--deals", "0", "--quiet"])
    assert exit_.value.code == 2
    assert "argument --deals: expected a whole number >= 1, got '0'" in capsys.readouterr().err
