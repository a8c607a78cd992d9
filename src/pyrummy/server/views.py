"""What the server sends: every view of a table is built for one seat.

A seat's state is its :class:`~pyrummy.core.observation.Observation`
(``to_dict()``) plus things derived from it alone: the legal actions when it
is that seat's turn, the best arrangement of the seat's own hand, the
deadwood each legal knock would leave. Nothing here reads another seat's
hand, the stock or the seed of a match that is not over.
"""

from __future__ import annotations

from typing import Any

from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal
from pyrummy.core.match import Match
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import best_arrangement
from pyrummy.server.storage import StoredAction, StoredTable, TableSpec
from pyrummy.server.tables import LiveTable, build_match, rules_of, seat_name


def rules_summary(rules: Rules) -> dict[str, Any]:
    return {
        "name": rules.name,
        "family": rules.family,
        "title": rules.title,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "match_end": rules.match_end,
        "target": rules.target,
        "deals": rules.deals,
        "knock_limit": rules.knock_limit,
        "ace": rules.ace,
        "options": {k: _jsonable(v) for k, v in rules.options().items()},
    }


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def table_summary(spec: TableSpec, status: str) -> dict[str, Any]:
    rules = rules_of(spec)
    return {
        "id": spec.table_id,
        "preset": spec.preset,
        "rules": rules_summary(rules),
        "players": len(spec.seats),
        "seats": [
            {"seat": i, "kind": s.kind, "bot": s.bot, "name": seat_name(s, i)}
            for i, s in enumerate(spec.seats)
        ],
        "bot_delay": spec.bot_delay,
        "status": status,
        "created_at": spec.created_at,
    }


def arrangement_dict(cards: CardSet, rules: Rules) -> dict[str, Any]:
    arrangement = best_arrangement(cards, rules)
    return {
        "melds": [[str(c) for c in meld] for meld in arrangement.melds],
        "deadwood_cards": [str(c) for c in arrangement.deadwood_cards],
        "deadwood": arrangement.deadwood,
    }


def knock_outcomes(match: Match, hand: CardSet, legal: list[Any]) -> dict[str, int]:
    """Deadwood left by each legal knock: {card: deadwood}."""
    result: dict[str, int] = {}
    for action in legal:
        if action.kind is ActionKind.KNOCK and action.cards:
            card = action.cards[0]
            result[str(card)] = best_arrangement(hand - [card], match.rules).deadwood
    return result


def match_summary(match: Match) -> dict[str, Any]:
    standings = match.standings
    return {
        "over": match.is_over,
        "deal_number": match.deal_number,
        "deals_played": len(match.finished_deals),
        "deals_in_match": match.rules.deals_in_match(match.players),
        "target": match.rules.target if match.ending in ("target", "penalty_limit") else None,
        "ending": match.ending,
        "totals": [str(t) for t in standings.totals],
        "order": list(standings.order),
        "winners": list(standings.winners),
        "deals": [
            {
                "number": number,
                "dealer": deal.dealer,
                "outcome": deal.settlement.outcome if deal.settlement else None,
                "net": [str(n) for n in deal.settlement.net] if deal.settlement else [],
                "winners": list(deal.settlement.winners) if deal.settlement else [],
                "transfers": [t.to_dict() for t in deal.settlement.transfers]
                if deal.settlement
                else [],
            }
            for number, deal in enumerate(match.finished_deals, start=1)
        ],
    }


def observation_dict(observation: Observation) -> dict[str, Any]:
    """``Observation.to_dict()`` with the option words in a fixed order.

    ``Rules.option_text`` follows the iteration order of a frozenset of
    names, which changes between processes (string hashing); sorting keeps a
    table's state identical across a restart.
    """
    data = observation.to_dict()
    # Why the deal ended (knock, out, exhausted, cap, ...): the page says why nobody won.
    data["end_reason"] = observation.end_reason
    options = data.get("options")
    if isinstance(options, str):
        data["options"] = " ".join(sorted(options.split()))
    return data


def seat_state(table: LiveTable, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of the table now (None: a spectator)."""
    match = table.match
    observation = match.observe(seat)
    my_turn = seat is not None and match.current_seat == seat
    legal = match.legal_actions() if my_turn else []
    state: dict[str, Any] = {
        "table": table_summary(table.spec, "over" if match.is_over else "live"),
        "seq": table.seq,
        "seat": seat,
        "observation": observation_dict(observation),
        "legal_actions": [str(a) for a in legal],
        "awaiting_continue": seat in table.awaiting,
        "match": match_summary(match),
        "last_deal": None,
        "arrangement": None,
        "knock_deadwood": {},
        # Every finished deal's moves (public), so the page's Moves list is whole after a reload.
        "deal_histories": [
            [[mover, str(action)] for mover, action in deal.history]
            for deal in match.finished_deals
        ],
    }
    if seat is not None:
        state["arrangement"] = arrangement_dict(observation.hand, match.rules)
        state["knock_deadwood"] = knock_outcomes(match, observation.hand, legal)
    if match.finished_deals:
        last = match.finished_deals[-1]
        state["last_deal"] = {
            "number": len(match.finished_deals),
            "observation": observation_dict(last.observe(seat)),
        }
    if match.is_over:
        state["record"] = match.record(seed=True)
    return state


def event_with_state(table: LiveTable, stored: StoredAction, seat: int | None) -> dict[str, Any]:
    message = table.event_summary(stored, seat)
    message["state"] = seat_state(table, seat)
    return message


# -- replays of finished matches ----------------------------------------------------


def replay_view(stored: StoredTable, step: int) -> dict[str, Any]:
    """The finished match after ``step`` actions, every hand face up.

    The view shows the deal the ``step``-th action belongs to (so the last
    action of a deal shows its showdown, not the next deal's cards).
    """
    match = build_match(stored.spec)
    deal: Deal = match.deal
    deal_number = 1
    for stored_action in stored.actions[:step]:
        deal = match.deal
        deal_number = match.deal_number
        match.apply(stored_action.text)
    if step == 0:
        deal = match.deal
    last = stored.actions[step - 1] if step else None
    spectator = observation_dict(deal.observe(None))
    hands = [[str(c) for c in deal.observe(s).hand] for s in range(match.players)]
    return {
        "table": table_summary(stored.spec, stored.status),
        "step": step,
        "steps": len(stored.actions),
        "deal_number": deal_number,
        "action": None if last is None else {"seat": last.seat, "text": last.text},
        "hands": hands,
        "observation": spectator,
        "match": match_summary(match),
    }
