"""What the terminal shows: rich renderables built from observations.

Nothing here reads input or changes a game; every function turns what one
seat may know (an :class:`~pyrummy.core.observation.Observation`, a
finished deal's settlement) into text for the console.

>>> from pyrummy.core.cards import Card
>>> card_text(Card("TH")).plain, points_text(Fraction(17, 2)), points_text(Fraction(-5, 3))
('10♥', '8.5', '-5/3')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from pyrummy.cli.play.commands import best_knock
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import Card, CardSet, Suit
from pyrummy.core.families import family_of
from pyrummy.core.observation import Observation
from pyrummy.core.phases import Phase
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import Settlement
from pyrummy.core.solver import best_arrangement, deadwood

_CELL = 5  # width of one card cell in the hand line (``10♥*`` and a space)
_LISTED = 8  # melds / lay-offs listed on the moves line before "and N more"

_OUTCOMES = {
    "rum": "Rum! The knocker had no deadwood: everyone pays the difference + the bonus.",
    "knocker-lowest": "The knocker had the lowest deadwood and collects the differences.",
    "knocker-tied": "The knocker tied for lowest: the others with that count collect; "
    "the knocker neither pays nor gets.",
    "knocker-beaten": "The knocker was beaten: the lowest hand collects, the knocker pays "
    "the penalty too.",
    "no-knocker": "Nobody knocked: the stock is spent; the lowest deadwood collects.",
    "knock": "The knocker was lower and scores the difference.",
    "undercut": "Undercut! The defender was equal or lower and scores the difference + bonus.",
    "gin": "Gin! Every card melded: the bonus + the defender's deadwood.",
    "out": "Out! The winner scores the cards left in the other hands.",
    "rummy": "Rummy! Out in one turn: the score gets the going-rummy bonus.",
    "block": "The stock is spent: the lowest hand scores the differences.",
    "penalty": "Nobody went out: everyone scores their own hand as a penalty.",
    "draw": "A draw: nobody scores.",
}


def points_text(value: Fraction) -> str:
    """Exact points for people: ``15``, ``8.5``, ``-5/3``."""
    if value.denominator == 1:
        return str(value.numerator)
    if (value * 100).denominator == 1:
        return f"{float(value):g}"
    return str(value)


def signed_points(value: Fraction) -> str:
    return ("+" if value > 0 else "") + points_text(value)


def card_text(card: Card, marker: str = "") -> Text:
    """One card in display form (``10♥``), red suits in red."""
    if card.is_joker:  # typed as X1 X2 X3, so shown that way (the emoji is double width)
        text = Text(str(card), style="bold magenta")
    else:
        red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
        text = Text(card.pretty(), style="bold red" if red else "bold")
    if marker:
        text.append(marker, style="yellow")
    return text


def cards_text(cards: Sequence[Card] | CardSet) -> Text:
    return Text(" ").join(card_text(card) for card in cards)


def ordered(cards: CardSet) -> list[Card]:
    """Cards for display: by rank, then suit (a run reads low to high)."""
    return cards.sorted_by_rank()


def hand_order(hand: CardSet, rules: Rules) -> tuple[list[list[Card]], list[Card]]:
    """The hand grouped into its best melds (each in order) and the deadwood."""
    arrangement = best_arrangement(hand, rules)
    melds = [ordered(meld) for meld in arrangement.melds]
    return melds, ordered(arrangement.deadwood_cards)


def flat_order(hand: CardSet, rules: Rules) -> list[Card]:
    """The cards in the order shown; position ``i + 1`` names card ``i``."""
    melds, dead = hand_order(hand, rules)
    return [card for meld in melds for card in meld] + dead


def hand_view(
    hand: CardSet, rules: Rules, drawn: Card | None, taken: Sequence[Card]
) -> RenderableType:
    """Two lines: the cards (melds in brackets, then deadwood) and their numbers,
    each number under its card."""
    melds, dead = hand_order(hand, rules)
    cards_line = Text("  ")
    numbers_line = Text("  ", style="dim")
    position = 0
    groups = [*melds, dead] if dead else melds
    for index, group in enumerate(groups):
        is_meld = index < len(melds)
        cards_line.append("[" if is_meld else " ", style="cyan")
        numbers_line.append(" ")
        for place, card in enumerate(group):
            position += 1
            marker = "↩" if card in taken else ("*" if card == drawn else "")
            cell = card_text(card, marker)
            number = str(position)
            last = place == len(group) - 1
            width = max(cell.cell_len, len(number)) if last else _CELL
            cell.pad_right(width - cell.cell_len)
            cards_line.append_text(cell)
            numbers_line.append(number.ljust(width))
        cards_line.append("]  " if is_meld else "   ", style="cyan")
        numbers_line.append("   ")
    return Group(cards_line, numbers_line)


def _deal_title(obs: Observation, rules: Rules, deal_number: int) -> str:
    total = rules.deals_in_match(obs.players)
    if total is not None:
        deal = f"deal {deal_number} of {total}"
    else:
        deal = f"deal {deal_number}, to {rules.target}"
    return f"{rules.title or rules.name} · {deal} · turn {obs.turn}"


def table_melds_view(obs: Observation, names: Sequence[str]) -> RenderableType:
    """Each table meld with its number; a card laid by another seat shows who."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_column(justify="right", style="bold cyan")
    table.add_column()
    table.add_column(style="dim")
    for number, table_meld in enumerate(obs.table):
        line = Text()
        meld = table_meld.meld
        for card, seat, stands in zip(meld.cards, table_meld.laid_by, meld.represents, strict=True):
            if line:
                line.append(" ")
            line.append_text(card_text(card))
            if card.is_joker and stands is not None:
                line.append("=")
                line.append_text(card_text(stands))
            if seat != table_meld.owner:
                line.append(f"·{short_name(names, seat)}", style="yellow")
        table.add_row(str(number), line, f"{names[table_meld.owner]}")
    return table


def short_name(names: Sequence[str], seat: int) -> str:
    return names[seat].split(" ")[0]


def state_view(
    obs: Observation, names: Sequence[str], rules: Rules, compact: bool = False
) -> RenderableType:
    """The table as seat ``obs.seat`` sees it; ``compact``: the table melds and
    the hand only (what changes within one's own turn)."""
    parts: list[RenderableType] = []
    if not compact:
        parts += _players_and_piles(obs, names)
    if family_of(rules).table_play:
        if obs.table:
            parts.append(Text(" Table melds", style="bold"))
            parts.append(table_melds_view(obs, names))
        else:
            parts.append(Text(" Table melds: none yet", style="dim"))
    if obs.seat is not None and obs.hand:
        parts += _own_hand(obs, rules)
    return Group(*parts)


def _players_and_piles(obs: Observation, names: Sequence[str]) -> list[RenderableType]:
    players = Text(" ")
    for seat in range(obs.players):
        if seat:
            players.append(" · ")
        style = "bold green" if seat == obs.current_seat else ""
        players.append(names[seat], style=style)
        if obs.scores is not None:
            players.append(f" {points_text(Fraction(obs.scores[seat]))}", style="bold")
        if seat != obs.seat:
            players.append(f" [{obs.hand_sizes[seat]} cards]", style="dim")
        if seat == obs.dealer:
            players.append(" (dealer)", style="dim")
    pile = Text(f" Stock {obs.stock_count} · Discard ")
    if obs.discard_pile:
        pile.append_text(card_text(obs.discard_pile[-1]))
        pile.append(f" on top ({len(obs.discard_pile)} in the pile)", style="dim")
    else:
        pile.append("empty", style="dim")
    return [players, pile]


def _own_hand(obs: Observation, rules: Rules) -> list[RenderableType]:
    arrangement = best_arrangement(obs.hand, rules)
    parts: list[RenderableType] = [
        Text.assemble(
            (" Your hand", "bold"),
            f" · {len(obs.hand)} cards · deadwood ",
            (str(arrangement.deadwood), "bold yellow"),
        )
    ]
    held = obs.taken_discard
    taken = (held,) if held is not None and held in obs.hand else ()
    parts.append(hand_view(obs.hand, rules, obs.drawn_card, taken))
    notes = []
    if obs.drawn_card is not None and obs.drawn_card in obs.hand and not taken:
        notes.append("* just drawn")
    if taken and rules.discard_taken:
        notes.append("↩ taken from the discard pile (thrown back twice running, the deal is drawn)")
    elif taken:
        notes.append("↩ taken from the discard pile: you may not discard it this turn")
    if notes:
        parts.append(Text("  " + "   ".join(notes), style="dim"))
    return parts


def title_of(obs: Observation, rules: Rules, deal_number: int) -> str:
    return _deal_title(obs, rules, deal_number)


def moves_view(legal: Sequence[Action], obs: Observation, rules: Rules) -> Text:
    """The legal actions as short keys, with their full text forms where useful."""
    kinds = {action.kind for action in legal}
    pieces: list[Text] = []

    def key(label: str, what: str | Text) -> None:
        pieces.append(Text.assemble((f"[{label}]", "bold cyan"), " ", what))

    top = obs.discard_pile[-1] if obs.discard_pile else None
    if ActionKind.DRAW_STOCK in kinds:
        key("s", "draw from the stock")
    if ActionKind.DRAW_DISCARD in kinds and top is not None:
        key("d", Text.assemble("take ", card_text(top)))
    if ActionKind.DECLINE in kinds:
        key("n", decline_text(obs.phase, rules))
    if ActionKind.DISCARD in kinds:
        key(f"1-{len(obs.hand)}/card", "discard")
    knocks = [action for action in legal if action.kind is ActionKind.KNOCK]
    if knocks:
        best = best_knock(knocks, flat_order(obs.hand, rules), rules)
        left = deadwood(obs.hand - CardSet(best.cards), rules)
        key(
            "k card",
            Text.assemble("knock (k alone: ", card_text(best.card), f" down, {left} left)"),
        )
    if ActionKind.UNDO in kinds:
        key("u", "undo")
    key("?", "help")
    key("q", "quit")
    line = Text(" Your move: ", style="bold green")
    line.append_text(Text("  ").join(pieces))
    for kind, word in ((ActionKind.MELD, "Melds"), (ActionKind.LAYOFF, "Lay-offs")):
        shown = [action for action in legal if action.kind is kind]
        if shown:
            line.append(f"\n {word}: ", style="bold")
            line.append(" | ".join(str(a) for a in shown[:_LISTED]))
            if len(shown) > _LISTED:
                line.append(f" … and {len(shown) - _LISTED} more")
            short = "m 1 2 3" if kind is ActionKind.MELD else "l 9h 2"
            line.append(f"   (type one, or {short}; {short[0]} alone lists them)", style="dim")
    swaps = [action for action in legal if action.kind is ActionKind.SWAP_JOKER]
    if swaps:
        line.append("\n Joker swaps: ", style="bold")
        line.append(" | ".join(str(a) for a in swaps[:_LISTED]))
    return line


def action_list(legal: Sequence[Action], kind: ActionKind) -> Text:
    """Every legal action of one kind, one per line, with its short key."""
    shown = [action for action in legal if action.kind is kind]
    if not shown:
        return Text(f" No {kind.word} is possible now.", style="yellow")
    key = {ActionKind.MELD: "m", ActionKind.LAYOFF: "l", ActionKind.SWAP_JOKER: "j"}[kind]
    text = Text()
    for action in shown:
        args = " ".join(str(c) for c in action.cards)
        if action.target is not None:
            args += f" {action.target}"
        text.append(f"  {key} {args}", style="bold cyan")
        text.append("   ")
        text.append_text(cards_text(action.cards))
        if action.target is not None:
            text.append(f" on meld {action.target}")
        text.append("\n")
    text.rstrip()
    return text


def describe_action(name: str, action: Action, before: Observation, you: bool = False) -> Text:
    """A short line for one action; ``before`` is the table just before it
    (the top discard a draw takes). Hidden cards stay hidden."""
    verb = {
        True: ("draw", "take", "decline", "discard", "knock", "meld", "lay off", "swap"),
        False: ("draws", "takes", "declines", "discards", "knocks", "melds", "lays off", "swaps"),
    }[you]
    text = Text(f"  {name} ", style="bold" if you else "")
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        text.append(f"{verb[0]} from the stock")
    elif kind is ActionKind.DRAW_DISCARD:
        text.append(f"{verb[1]} ")
        if before.discard_pile:
            text.append_text(card_text(before.discard_pile[-1]))
        text.append(" from the discard pile")
    elif kind is ActionKind.DECLINE:
        text.append(f"{verb[2]} the discard")
    elif kind is ActionKind.DISCARD:
        text.append(f"{verb[3]} ")
        text.append_text(card_text(action.card))
    elif kind is ActionKind.KNOCK:
        text.append(f"{verb[4]}!", style="bold yellow")
        if you:
            text.append(" (")
            text.append_text(card_text(action.card))
            text.append(" face down)")
    elif kind is ActionKind.MELD:
        text.append(f"{verb[5]} ")
        text.append_text(cards_text(action.cards))
    elif kind is ActionKind.LAYOFF:
        text.append(f"{verb[6]} ")
        text.append_text(card_text(action.card))
        text.append(f" on meld {action.target}")
    elif kind is ActionKind.SWAP_JOKER:
        text.append(f"{verb[7]} ")
        text.append_text(card_text(action.card))
        text.append(f" for the joker in meld {action.target}")
    else:
        text.append("take back this turn's last move" if you else "takes back a move")
    return text


def transfer_line(settlement: Settlement, index: int, names: Sequence[str]) -> str:
    transfer = settlement.transfers[index]
    amount = points_text(transfer.amount)
    payee = names[transfer.payee]
    if transfer.payer is None:
        verb = "score" if payee == "You" else "scores"
        if transfer.amount < 0:
            return f"{payee} {verb} {amount} ({transfer.reason})"
        return f"{payee} {verb} {amount} ({transfer.reason})"
    payer = names[transfer.payer]
    verb = "pay" if payer == "You" else "pays"
    return f"{payer} {verb} {payee} {amount} ({transfer.reason})"


def showdown_view(
    settlement: Settlement,
    names: Sequence[str],
    deal_number: int,
    rules: Rules,
    final: Observation | None = None,
) -> RenderableType:
    """Every hand's arrangement, the transfers in words, the net of the deal;
    ``final`` (a spectator's view of the finished deal) adds the table melds."""
    lines: list[RenderableType] = []
    if final is not None and final.table:
        lines.append(Text(f"Deal {deal_number}: the table at the end", style="bold"))
        lines.append(table_melds_view(final, names))
    with_melds = any(hand.melds for hand in settlement.hands)
    table = Table(title=f"Deal {deal_number}: the showdown", title_justify="left")
    table.add_column("player")
    if with_melds:
        table.add_column("melds")
    table.add_column("cards left" if family_of(rules).whole_hands else "deadwood cards")
    table.add_column("count", justify="right")
    table.add_column("net", justify="right")
    for seat, hand in enumerate(settlement.hands):
        name = names[seat]
        if seat == settlement.knocker:
            name += " (knocked)"
        if seat in settlement.winners:
            name = "★ " + name
        cells: list[RenderableType] = [name]
        if with_melds:
            cells.append(
                Text(" ").join(
                    Text.assemble("[", cards_text(ordered(meld)), "]") for meld in hand.melds
                )
            )
        count = settlement.counts[seat] if settlement.counts else hand.deadwood
        cells += [
            cards_text(ordered(hand.deadwood_cards)),
            str(count),
            signed_points(settlement.net[seat]),
        ]
        table.add_row(*cells)
    lines += [table, Text(_OUTCOMES.get(settlement.outcome, settlement.outcome))]
    if settlement.layoffs:
        laid = Text("  Lay-offs on the knocker's melds: ")
        laid.append_text(
            Text(", ").join(
                Text.assemble(card_text(card), f" on meld {meld}")
                for card, meld in settlement.layoffs
            )
        )
        lines.append(laid)
    if settlement.transfers:
        for index in range(len(settlement.transfers)):
            lines.append(Text("  " + transfer_line(settlement, index, names)))
    else:
        lines.append(Text("  Nobody pays anything."))
    return Group(*lines)


def standings_view(totals: Sequence[Fraction], names: Sequence[str], title: str) -> RenderableType:
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    best = max(totals)
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("total", justify="right")
    for place, seat in enumerate(order, start=1):
        name = ("★ " if totals[seat] == best else "") + names[seat]
        table.add_row(str(place), name, signed_points(Fraction(totals[seat])))
    return table


def decline_text(phase: Phase, rules: Rules) -> str:
    """What ``n`` (decline) does in ``phase``: pass the first up-card (the
    offer), pass at gin's wall (``wall_knock``: the deal ends drawn), or
    decline the discard at an empty stock."""
    if phase is Phase.OFFER:
        return "pass the up-card"
    if rules.wall_knock:
        return "pass: the deal is drawn (take the discard only to knock)"
    return "decline the discard"


def decline_help(rules: Rules) -> list[str]:
    """The help's lines for ``n``: gin declines only the offer of the first
    up-card and, under ``wall_knock``, the discard at the wall; other games
    decline the discard when the stock is empty."""
    if family_of(rules).name != "gin":
        return ["decline the discard (stock empty)"]
    lines: list[str] = []
    if rules.up_card_offer:
        lines.append("pass the first up-card")
    if rules.wall_knock:
        lines.append("pass at the wall (2 cards left): the deal is drawn")
    return lines


def help_view(rules: Rules) -> Text:
    """Every key and the full text forms the prompt accepts."""
    text = Text()
    text.append(f"How to play {rules.title or rules.name}\n", style="bold")
    rows = [
        ("s", "draw from the stock", "draw stock"),
        ("d", "take the top card of the discard pile", "draw discard"),
        *[("n", what, "decline") for what in decline_help(rules)],
        ("3 / 7h", "discard card number 3 of your hand, or the 7♥", "discard 7H"),
    ]
    policy = family_of(rules)
    if policy.knocks:
        rows.append(("k 7h / k 3 / k", "knock with that card (k: the best card)", "knock 7H"))
    if policy.table_play:
        rows += [
            ("m 7h 8h 9h / m 1 2 3", "meld those cards (m alone lists melds)", "meld 7H 8H 9H"),
            ("l 9h 2 / l 9h", "lay off 9♥ on table meld 2 (l alone lists)", "layoff 9H 2"),
            ("u", "undo this turn's melds and lay-offs", "undo"),
        ]
        if rules.jokers:
            rows.append(("j 5h 1", "swap 5♥ for the joker in table meld 1", "swap-joker 5H 1"))
    if rules.jokers:
        rows.append(("X1 X2 X3", "the jokers, in any command", "meld 5H X1 7H"))
    rows += [
        ("?", "this help", ""),
        ("r / Enter", "show the table again", ""),
        ("q", "quit the match", ""),
    ]
    for key, what, full in rows:
        text.append(f"  {key:<22}", style="bold cyan")
        text.append(f"{what:<52}")
        if full:
            text.append(full, style="dim")
        text.append("\n")
    text.append(
        "Cards: rank A 2-9 10 (or T) J Q K and suit S H D C (or ♠♥♦♣), any case: "
        "7h, 10d, QS.\nYour hand is shown grouped into its best melds [in brackets]; "
        "the numbers under the cards are their positions.",
        style="dim",
    )
    return text
