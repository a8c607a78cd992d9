"""The play loop: one person against bots, on a rich console.

The session takes its input from a function (``read_line(prompt) -> str``,
like :func:`input`) and writes to a :class:`rich.console.Console`, so a test
can feed it lines and read what it printed. Bad input never ends the game:
the engine's or the notation's error is shown and the prompt comes back,
with the game unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Literal

from rich.console import Console
from rich.text import Text

from pyrummy.bots.base import Bot
from pyrummy.cli.play.commands import interpret
from pyrummy.cli.play.view import (
    action_list,
    card_text,
    describe_action,
    flat_order,
    help_view,
    moves_view,
    showdown_view,
    standings_view,
    state_view,
    title_of,
)
from pyrummy.core import seeds
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.errors import RummyError
from pyrummy.core.match import Match, new_match
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules

ReadLine = Callable[[str], str]
HUMAN_SEAT = 0


def seat_names(bot_names: Sequence[str]) -> tuple[str, ...]:
    """``You`` for seat 0, then ``P1 (hard)``... for the bots.

    >>> seat_names(["hard", "simple"])
    ('You', 'P1 (hard)', 'P2 (simple)')
    """
    return ("You", *(f"P{seat} ({name})" for seat, name in enumerate(bot_names, start=1)))


def bot_seed(match_seed: int | None, seat: int) -> int | None:
    """A bot's seed, fixed by the match seed as on the server's tables
    (:func:`pyrummy.core.seeds.bot_seed`; None: unpredictable)."""
    return None if match_seed is None else seeds.bot_seed(match_seed, seat)


class PlaySession:
    """A match between the person in seat 0 and bots in the other seats.

    ``run()`` plays to the end of the match (True) or until the person quits
    (False). ``pause_between_deals`` waits for Enter after each showdown;
    ``bot_delay`` (seconds) paces the bots' moves for a person to follow.

    >>> import io
    >>> out = io.StringIO()
    >>> console = Console(file=out, width=100)
    >>> answers = iter(["zz", "q"])
    >>> session = PlaySession.new("knock", ["simple"], console, lambda _: next(answers), seed=1)
    >>> session.run()
    False
    >>> "✗ cannot read the action 'zz'" in out.getvalue()
    True
    """

    def __init__(
        self,
        match: Match,
        bots: Mapping[int, Bot],
        console: Console,
        read_line: ReadLine,
        names: Sequence[str],
        pause_between_deals: bool = True,
        bot_delay: float = 0.0,
    ) -> None:
        self.match = match
        self.bots = dict(bots)
        self.console = console
        self.read_line = read_line
        self.names = tuple(names)
        self.pause_between_deals = pause_between_deals
        self.bot_delay = bot_delay
        self.rules = match.rules
        # what to show before the next prompt: the full table, the compact view
        # (own turn going on), or nothing (after bad input: just a new prompt)
        self._view: Literal["full", "compact"] | None = "full"
        self._quit = False
        self._announced = 0  # the deal number last announced

    @classmethod
    def new(
        cls,
        rules: str,
        bot_names: Sequence[str],
        console: Console,
        read_line: ReadLine,
        seed: int | None = None,
        target: int | None = None,
        options: Mapping[str, object] | None = None,
        pause_between_deals: bool = True,
        bot_delay: float = 0.0,
        dealer: int | None = None,
        hands: str | None = None,
        upcard: str | None = None,
        stock: str | None = None,
    ) -> PlaySession:
        """A session against ``bot_names`` (one bot per seat after yours).

        ``target`` plays the match to that score (for every preset; a preset
        played over a round of deals then plays to the target instead).
        ``hands`` (seats separated by ``/``, yours first), ``upcard`` and
        ``stock`` set up the first deal (see :func:`pyrummy.new_deal`);
        ``dealer`` is the first dealer.
        """
        from pyrummy.bots import make_bot

        all_options = dict(options or {})
        if target is not None:
            base = find_rules(rules, **all_options)
            if base.match_end in ("dealer_round", "deals"):
                all_options["match_end"] = "target"
            all_options["target"] = target
        players = len(bot_names) + 1
        names = seat_names(bot_names)
        resolved = find_rules(rules, **all_options)
        match = new_match(
            resolved,
            players=players,
            seed=seed,
            dealer=dealer,
            names=names,
            hands=hands,
            upcard=upcard,
            stock=stock,
        )
        bots: dict[int, Bot] = {
            seat: make_bot(name, seed=bot_seed(seed, seat))
            for seat, name in enumerate(bot_names, start=1)
        }
        return cls(match, bots, console, read_line, names, pause_between_deals, bot_delay)

    # ------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the match ends (True) or the person quits (False)."""
        self._intro()
        while not self.match.is_over and not self._quit:
            if self._announced != self.match.deal_number:
                self._announce_deal()
            seat = self.match.current_seat
            if seat == HUMAN_SEAT:
                self._human_step()
            elif seat is not None:
                self._bot_step(seat)
        if self._quit:
            self.console.print("You left the match.", style="bold")
            self._standings("Standings when you left")
            return False
        self._final()
        return True

    def _intro(self) -> None:
        rules = self.rules
        opponents = ", ".join(self.names[1:])
        self.console.rule(f"[bold]{rules.title or rules.name}")
        self.console.print(
            f"You (seat 0) against {opponents}. Type [bold cyan]?[/] for help, "
            "[bold cyan]q[/] to quit."
        )

    def _announce_deal(self) -> None:
        self._announced = self.match.deal_number
        deal_view = self.match.observe(None)
        dealer = self.names[deal_view.dealer]
        line = Text(f"Deal {self._announced}: {dealer} {'deal' if dealer == 'You' else 'deals'}")
        if deal_view.discard_pile:
            line.append("; the upcard is ")
            line.append_text(card_text(deal_view.discard_pile[-1]))
        line.append(".")
        self.console.print(line, style="bold")

    # -- the person's turn ------------------------------------------------
    def _human_step(self) -> None:
        observation = self.match.observe(HUMAN_SEAT)
        legal = self.match.legal_actions()
        if self._view is not None:
            compact = self._view == "compact"
            if not compact:
                self.console.rule(title_of(observation, self.rules, self.match.deal_number))
            self.console.print(state_view(observation, self.names, self.rules, compact))
            self.console.print(moves_view(legal, observation, self.rules))
            self._view = None
        line = self._read("> ")
        if line is None:
            self._quit = True
            return
        hand = flat_order(observation.hand, self.rules)
        try:
            command = interpret(line, legal, hand, self.rules)
        except RummyError as error:
            self._complain(f"{error} (type ? for the keys)")
            return
        if command.kind == "quit":
            self._quit = True
        elif command.kind == "help":
            self.console.print(help_view(self.rules))
            self.console.print(moves_view(legal, observation, self.rules))
        elif command.kind == "show":
            self._view = "full"
        elif command.kind == "list" and command.list_kind is not None:
            self.console.print(action_list(legal, command.list_kind))
        elif command.action is not None:
            self._human_action(command.action, observation)

    def _human_action(self, action: Action, observation: Observation) -> None:
        finished = len(self.match.finished_deals)
        try:
            self.match.apply(action)
        except RummyError as error:
            self._complain(str(error))
            return
        line = describe_action("You", action, observation, you=True)
        if action.kind is ActionKind.DRAW_STOCK and len(self.match.finished_deals) == finished:
            drawn = self.match.observe(HUMAN_SEAT).drawn_card
            if drawn is not None:
                line = Text.assemble("  You draw ", card_text(drawn), " from the stock")
        self.console.print(line)
        self._view = "compact"
        self._after_action(finished)

    def _complain(self, message: str) -> None:
        self.console.print(Text.assemble(("  ✗ ", "bold red"), message))

    def _read(self, prompt: str) -> str | None:
        try:
            return self.read_line(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return None

    # -- the bots ------------------------------------------------------------
    def _bot_step(self, seat: int) -> None:
        observation = self.match.observe(seat)
        legal = self.match.legal_actions()
        if self.console.is_terminal:  # the hard bot thinks for a while: show it
            with self.console.status(f"{self.names[seat]} is thinking…"):
                action = self.bots[seat].choose(observation, legal)
        else:
            action = self.bots[seat].choose(observation, legal)
        finished = len(self.match.finished_deals)
        self.match.apply(action)
        self.console.print(describe_action(self.names[seat], action, observation))
        if self.bot_delay:
            time.sleep(self.bot_delay)
        self._view = "full"
        self._after_action(finished)

    # -- the end of a deal, of the match -----------------------------------------
    def _after_action(self, finished_before: int) -> None:
        if len(self.match.finished_deals) == finished_before:
            return
        deal = self.match.finished_deals[-1]
        settlement = deal.settlement
        assert settlement is not None, "a finished deal has a settlement"
        self.console.print()
        self._view = "full"
        self.console.print(
            showdown_view(
                settlement,
                self.names,
                len(self.match.finished_deals),
                self.rules,
                deal.observe(None),
            )
        )
        if self.match.is_over:
            return
        self._standings("Standings")
        if self.pause_between_deals:
            answer = self._read("Press Enter for the next deal (q to quit) ")
            if answer is None or answer.strip().lower() in ("q", "quit"):
                self._quit = True

    def _standings(self, title: str) -> None:
        totals: tuple[Fraction, ...] = self.match.totals
        self.console.print(standings_view(totals, self.names, title))

    def _final(self) -> None:
        self._standings("Final standings")
        winners = self.match.standings.winners
        if winners == (HUMAN_SEAT,):
            verdict = "You win the match!"
        elif HUMAN_SEAT in winners:
            verdict = "You share the win with " + ", ".join(
                self.names[s] for s in winners if s != HUMAN_SEAT
            )
        else:
            verdict = " and ".join(self.names[s] for s in winners) + (
                " wins the match." if len(winners) == 1 else " share the win."
            )
        self.console.print(verdict, style="bold")
