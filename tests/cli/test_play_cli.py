"""Terminal play: scripted input drives whole matches; bad input changes nothing."""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest
from rich.console import Console

from pyrummy.bots.base import Bot
from pyrummy.cli.main import main
from pyrummy.cli.play import PlaySession
from pyrummy.cli.play.commands import InputError, interpret
from pyrummy.cli.play.view import flat_order, points_text
from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import Card, CardSet, parse_card_list
from pyrummy.core.errors import CardNotationError, IllegalActionError
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood
from pyrummy.server.tables import bot_seed as server_bot_seed

Line = str | Callable[[PlaySession], str]


class Script:
    """The session's input: answers computed from the session, one per prompt."""

    def __init__(self, answer: Callable[[PlaySession, str], str]) -> None:
        self.answer = answer
        self.session: PlaySession | None = None
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        assert self.session is not None
        self.prompts.append(prompt)
        if len(self.prompts) > 5000:
            raise AssertionError("the script never ends the match")
        return self.answer(self.session, prompt)


def lines(*items: Line) -> Callable[[PlaySession, str], str]:
    """Answers from a fixed list (strings, or functions of the session); then EOF.
    The pause between deals is answered with Enter."""
    queue = list(items)

    def answer(session: PlaySession, prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        if not queue:
            raise EOFError
        item = queue.pop(0)
        return item if isinstance(item, str) else item(session)

    return answer


def new_session(
    answer: Callable[[PlaySession, str], str],
    rules: str = "knock",
    bots: tuple[str, ...] = ("random",),
    seed: int = 5,
    target: int | None = None,
) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    from rich.console import Console

    console = Console(file=out, width=120, color_system=None, highlight=False)
    script = Script(answer)
    session = PlaySession.new(rules, list(bots), console, script, seed=seed, target=target)
    script.session = session
    return session, out


def hand_position(session: PlaySession, card: Card) -> int:
    hand = session.match.observe(0).hand
    return flat_order(hand, session.rules).index(card) + 1


def random_player(seed: int) -> Callable[[PlaySession, str], str]:
    """A person who picks legal actions at random, typed in every accepted form."""
    rng = random.Random(seed)

    def answer(session: PlaySession, prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        legal = session.match.legal_actions()
        knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
        others = [a for a in legal if a.kind is not ActionKind.KNOCK]
        melds = [a for a in others if a.kind in (ActionKind.MELD, ActionKind.LAYOFF)]
        if melds:
            others = melds  # meld and lay off whenever possible: deals end sooner
        action = rng.choice(knocks if knocks and rng.random() < 0.15 else others)
        if action.kind is ActionKind.DISCARD:  # keep the hand that melds best
            hand = session.match.observe(0).hand
            discards = [a for a in legal if a.kind is ActionKind.DISCARD]
            action = min(
                discards, key=lambda a: (deadwood(hand - CardSet(a.cards), session.rules), a)
            )
        form = rng.randrange(3)
        if action.kind is ActionKind.DRAW_STOCK:
            return ["s", "draw stock", "S"][form]
        if action.kind is ActionKind.DRAW_DISCARD:
            return ["d", "draw discard", "D"][form]
        if action.kind is ActionKind.DISCARD:
            return [
                str(hand_position(session, action.card)),
                str(action.card).lower(),
                str(action),
            ][form]
        if action.kind is ActionKind.KNOCK:
            return [f"k {action.card}", f"k{hand_position(session, action.card)}", str(action)][
                form
            ]
        if action.kind is ActionKind.MELD:
            positions = " ".join(str(hand_position(session, c)) for c in reversed(action.cards))
            return [f"m {positions}", "m " + " ".join(map(str, action.cards)), str(action)][form]
        if action.kind is ActionKind.LAYOFF:
            return [f"l {action.card} {action.target}", str(action), str(action).upper()][form]
        return str(action)

    return answer


# -- whole matches --------------------------------------------------------------


def test_full_knock_match_against_the_random_bot() -> None:
    session, out = new_session(random_player(1), rules="knock", bots=("random",))
    assert session.run() is True
    assert session.match.is_over
    assert len(session.match.finished_deals) == 2  # knock: each player deals once
    text = out.getvalue()
    assert "the showdown" in text and "Final standings" in text
    assert "✗" not in text  # every scripted answer was legal and understood
    assert text.count("P1 (random) ") > 0
    # the verdict names the real winner(s)
    winners = session.match.standings.winners
    if winners == (0,):
        assert "You win the match!" in text
    elif 0 not in winners:
        assert "P1 (random) wins the match." in text


def test_full_rummy_match_to_a_small_target() -> None:
    session, out = new_session(
        random_player(2), rules="rummy", bots=("simple", "random"), seed=8, target=15
    )
    assert session.run() is True
    totals = session.match.totals
    assert max(totals) >= 15
    text = out.getvalue()
    assert "Table melds" in text
    assert "You meld" in text
    assert "Final standings" in text and "✗" not in text


def test_the_same_seed_plays_the_same_game() -> None:
    def played(seed: int) -> tuple[str, list[object]]:
        session, out = new_session(
            random_player(2), rules="rummy", bots=("medium", "random"), seed=seed, target=15
        )
        assert session.run() is True
        return out.getvalue(), [list(deal.history) for deal in session.match.finished_deals]

    first = played(8)
    assert played(8) == first
    assert played(9)[1] != first[1]  # the seed matters: this comparison can fail


def test_the_bots_get_the_seeds_a_server_table_gives_them(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyrummy.bots

    given: list[tuple[str, int | None]] = []
    real = pyrummy.bots.make_bot

    def recording(name: str, seed: int | None = None, **options: object) -> Bot:
        given.append((name, seed))
        return real(name, seed=seed, **options)

    monkeypatch.setattr(pyrummy.bots, "make_bot", recording)
    new_session(random_player(1), rules="knock", bots=("simple", "medium"), seed=41)
    assert given == [("simple", server_bot_seed(41, 1)), ("medium", server_bot_seed(41, 2))]
    given.clear()
    PlaySession.new("knock", ["simple"], Console(file=io.StringIO()), input)
    assert given == [("simple", None)]  # unseeded: nothing predicts the bots


def test_showdown_lists_hands_and_transfers_in_words() -> None:
    session, out = new_session(random_player(3), rules="knock", bots=("simple",), seed=9)
    session.run()
    text = out.getvalue()
    deal = session.match.finished_deals[0]
    settlement = deal.settlement
    assert settlement is not None
    for transfer in settlement.transfers:
        payee = session.names[transfer.payee]
        amount = points_text(transfer.amount)
        if transfer.payer is None:
            assert f"{payee} score" in text
        else:
            payer = session.names[transfer.payer]
            assert f"{payer} {'pay' if payer == 'You' else 'pays'} {payee} {amount}" in text


# -- bad input, help, quit ------------------------------------------------------------


def _state(session: PlaySession) -> tuple[object, ...]:
    match = session.match
    return (len(match.deal.history), match.observe(0), match.deal_number, match.totals)


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    snapshots: list[tuple[object, ...]] = []

    def snap(text: str) -> Callable[[PlaySession], str]:
        def take(session: PlaySession) -> str:
            snapshots.append(_state(session))
            return text

        return take

    def discard_first(session: PlaySession) -> str:
        snapshots.append(_state(session))
        return f"discard {next(iter(session.match.observe(0).hand))}"

    session, out = new_session(
        lines(
            snap("zz top"),
            snap("discard 2Z"),
            snap("99"),
            discard_first,  # discarding before drawing: illegal
            snap("k"),  # knocking before drawing
            snap("meld 7H 8H 9H"),  # no melding in knock rummy
            snap("l 9h 2 7"),
            snap("q"),
        ),
        seed=12,
    )
    assert session.run() is False
    text = out.getvalue()
    assert text.count("✗") == 7
    assert "unknown action 'zz'" in text
    assert "'2Z' is not a card" in text
    assert "there is no card 99" in text
    assert "you cannot knock now" in text
    assert "You left the match." in text
    assert all(snapshot == snapshots[0] for snapshot in snapshots)
    assert _state(session) == snapshots[0]


def test_help_lists_keys_and_text_forms() -> None:
    session, out = new_session(lines("?", "q"), rules="rummy", bots=("simple",))
    session.run()
    text = out.getvalue()
    assert "How to play Rummy" in text
    for form in ("draw stock", "discard 7H", "meld 7H 8H 9H", "layoff 9H 2", "undo"):
        assert form in text


def test_quit_and_end_of_input_leave_the_match() -> None:
    for answer in (lines("q"), lines()):
        session, out = new_session(answer, bots=("simple", "simple"))
        assert session.run() is False
        assert not session.match.is_over
        assert "You left the match." in out.getvalue()


def test_draw_then_undo_in_rummy_restores_the_hand() -> None:
    def meld_if_possible(session: PlaySession) -> str:
        legal = session.match.legal_actions()
        melds = [a for a in legal if a.kind is ActionKind.MELD]
        return f"meld {' '.join(map(str, melds[0].cards))}" if melds else "r"

    before: list[CardSet] = []

    def remember(session: PlaySession) -> str:
        before.append(session.match.observe(0).hand)
        return "s"

    # a seed whose first hand holds a meld after the draw is found by trying
    for seed in range(40):
        before.clear()
        session, out = new_session(
            lines(remember, meld_if_possible, "u", "q"), rules="rummy", bots=("simple",), seed=seed
        )
        session.run()
        if "You meld" in out.getvalue():
            break
    else:
        pytest.fail("no seed gave a meld in the first turn")
    text = out.getvalue()
    assert "You take back" in text
    hand_after = session.match.observe(0).hand
    assert len(hand_after) == len(before[0]) + 1  # the drawn card stays, the meld came back


# -- the command line -----------------------------------------------------------


def test_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rules", "gin", "--bots", "simple,simple"]) == 2
    assert "gin is for 2-2 players, not 3" in capsys.readouterr().err
    assert main(["play", "--bots", "wizard"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--seed", "x"])
    assert exit_.value.code == 2


def test_command_plays_from_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nq\n"))
    assert main(["play", "--bots", "simple", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "How to play" in out and "You left the match." in out


# -- the input language ------------------------------------------------------------

HAND = parse_card_list("7H 8H 9H KS KD 2C")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("s", "draw stock"),
        ("d", "draw discard"),
        ("n", "decline"),
        ("u", "undo"),
        ("1", "discard 7H"),
        ("6", "discard 2C"),
        ("kd", "discard KD"),  # a card, not "k" + "d"
        ("10h", "discard TH"),
        ("k 2c", "knock 2C"),
        ("k5", "knock KD"),
        ("m 1 2 3", "meld 7H 8H 9H"),
        ("m 9h 7h 8h", "meld 9H 7H 8H"),
        ("l 9h 2", "layoff 9H 2"),
        ("j 5h 1", "swap-joker 5H 1"),
        ("layoff 9h 2", "layoff 9H 2"),
        ("Discard 7♥", "discard 7H"),
    ],
)
def test_short_keys_and_text_forms(text: str, expected: str) -> None:
    command = interpret(text, [], HAND, "rummy")
    assert command.kind == "action"
    assert str(command.action) == expected


def test_short_forms_complete_from_the_legal_actions() -> None:
    legal = [parse_action(t) for t in ("knock KS", "knock 2C", "layoff 2C 0", "meld 7H 8H 9H")]
    assert str(interpret("k", legal, HAND, "knock").action) == "knock KS"
    assert str(interpret("l 2c", legal, HAND, "rummy").action) == "layoff 2C 0"
    # a meld typed in any order becomes the legal action itself
    assert interpret("m 9h 8h 7h", legal, HAND, "rummy").action == legal[3]
    assert interpret("m", legal, HAND, "rummy").action == legal[3]
    two = [parse_action("layoff 2C 0"), parse_action("layoff 2C 3")]
    with pytest.raises(InputError, match="fits melds 0, 3"):
        interpret("l 2c", two, HAND, "rummy")
    assert interpret("l", two, HAND, "rummy").list_kind is ActionKind.LAYOFF


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("7", InputError),
        ("k 1 2", InputError),
        ("zz", IllegalActionError),
        ("discard 7X", IllegalActionError),
        ("m 7h 1X", CardNotationError),
        ("l 9h x", InputError),
    ],
)
def test_unreadable_input_raises_a_precise_error(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        interpret(text, [], HAND, "rummy")


def test_control_words() -> None:
    for text, kind in (("?", "help"), ("help", "help"), ("q", "quit"), ("", "show"), ("r", "show")):
        assert interpret(text, [], HAND, "knock").kind == kind
    assert interpret("k", [Action(ActionKind.KNOCK, (HAND[3],))], HAND, find_rules("knock")).action


@pytest.mark.parametrize(
    ("rules", "bots", "target"),
    [
        ("knock", ("simple", "simple", "random"), None),
        ("knock-target", ("random", "simple"), 30),
        ("basic", ("simple", "random"), 20),
        ("block", ("random",), 20),
        ("rotham", ("simple",), None),
        ("gin", ("simple",), 30),
    ],
)
def test_every_preset_plays_to_the_end(
    rules: str, bots: tuple[str, ...], target: int | None
) -> None:
    session, out = new_session(random_player(4), rules=rules, bots=bots, seed=3, target=target)
    assert session.run() is True
    text = out.getvalue()
    assert "Final standings" in text and "✗" not in text
    assert text.count("the showdown") == len(session.match.finished_deals)
    if rules == "rotham":
        assert len(session.match.finished_deals) == 6
