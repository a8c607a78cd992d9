"""What the server sends: every view of a table is built for one seat.

A seat's state is its :class:`~pyrummy.core.observation.Observation`
(``to_dict()``) plus things derived from it alone: the legal actions when it
is that seat's turn, the best arrangement of the seat's own hand, the
deadwood each legal knock would leave. Nothing here reads another seat's
hand, the stock or the seed of a match that is not over. Fair deals
(docs/fair-deals.md): the current deal's commitment is ``fair``; a deal's
seed and salt are sent only once it is over, in ``last_deal.fair`` with the
deck they deal, for the page to check.

A table's state changes only when an action is applied, a person moves on
from a showdown or the bot delay changes, while it is read far more often:
by the HTTP reply of every action and by the WebSocket event of every
action, for each seat watching. So this module keeps, per table, the JSON
text of each seat's state of the table as it is now, and the summaries of
finished deals, which never change. The cached dicts are shared: callers
must not modify them.

A seat's state as a dict (hundreds of small lists: the deal's moves, the
cards) is kept only until the event loop's next turn, time enough for the
WebSocket event and the HTTP reply of the same action to share it. Kept
until the table's next action, the states of every busy table were most of
the young objects each collection of the garbage collector had to walk
(about 150 containers per table, 30,000 at 200 tables), all alive, so every
young collection cost 20-50 ms and freed nothing; bytes are not walked.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.responses import Response

from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal
from pyrummy.core.families import family_of
from pyrummy.core.match import Match
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import best_arrangement
from pyrummy.server.pile_takes import PileTakes, pile_takes
from pyrummy.server.storage import StoredAction, StoredTable, TableSpec
from pyrummy.server.tables import LiveTable, build_match, rules_of, seat_name


def rules_summary(rules: Rules) -> dict[str, Any]:
    """A game as a menu and a table show it; a family that names options to
    show (gin's bonuses, offer, Oklahoma) has them under the family's name.

    >>> from pyrummy.core.rules import find_rules
    >>> standard = rules_summary(find_rules("gin-standard", oklahoma=True))["gin"]
    >>> standard["gin_bonus"], standard["big_gin_bonus"], standard["oklahoma"]
    (25, 31, True)
    >>> "gin" in rules_summary(find_rules("knock"))
    False
    """
    summary = _summary(rules)
    family = family_of(rules)
    if family.shown_options:
        summary[family.name] = {name: getattr(rules, name) for name in family.shown_options}
    return summary


def _summary(rules: Rules) -> dict[str, Any]:
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
        "capabilities": family_capabilities(rules),
    }


def family_capabilities(rules: Rules) -> dict[str, Any]:
    """What ``rules``'s family can do, as its policy declares it (knocks, melds and
    lay-offs at the table, going out by a discard, a wall, how a deal nobody went
    out of is settled).

    >>> from pyrummy.core.rules import find_rules
    >>> family_capabilities(find_rules("gin"))["knocks"], family_capabilities(find_rules("rummy"))["table_play"]
    (True, True)
    """
    return {k: _jsonable(v) for k, v in family_of(rules).capabilities().items()}


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
            {"seat": i, "kind": s.kind, "bot": s.bot, "name": seat_name(s, i, spec.seats)}
            for i, s in enumerate(spec.seats)
        ],
        "bot_delay": spec.bot_delay,
        "status": status,
        "created_at": spec.created_at,
        # Whether the match changes its people's ratings (the changes: /api/tables/{id}/rating).
        "rated": spec.rated,
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


def deal_summary(number: int, deal: Deal) -> dict[str, Any]:
    """A finished deal's outcome, as every seat may know it."""
    settlement = deal.settlement
    return {
        "number": number,
        "dealer": deal.dealer,
        "outcome": settlement.outcome if settlement else None,
        "net": [str(n) for n in settlement.net] if settlement else [],
        "winners": list(settlement.winners) if settlement else [],
        "transfers": [t.to_dict() for t in settlement.transfers] if settlement else [],
    }


def match_summary(match: Match, finished: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match's score sheet; ``finished`` may hold the (unchanging) summaries
    of the first finished deals, which are then not built again."""
    standings = match.standings
    done = match.finished_deals
    deals = list(finished or [])[: len(done)]
    deals += [deal_summary(n, done[n - 1]) for n in range(len(deals) + 1, len(done) + 1)]
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
        "deals": deals,
    }


def _resigned_summary(summary: dict[str, Any], resigned: int) -> dict[str, Any]:
    """The score sheet of a match given up by seat ``resigned``: over, and won by
    every other seat (as the stored result says), whatever the totals."""
    seats = len(summary["totals"])
    return summary | {"over": True, "winners": [s for s in range(seats) if s != resigned]}


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


@dataclass
class _TableViews:
    """One table's cached views (see the module's docstring)."""

    #: What the states below were built from; any change empties them.
    key: tuple[object, ...] = ()
    #: Emptied at the event loop's next turn (see the module's docstring).
    states: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    states_drop_pending: bool = False
    encoded: dict[int | None, bytes] = field(default_factory=dict)
    #: The JSON of :func:`live_state` per seat (what live messages carry).
    live_encoded: dict[int | None, bytes] = field(default_factory=dict)
    summary_of: tuple[object, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict)
    finished_deals: list[dict[str, Any]] = field(default_factory=list)
    #: The public moves of each finished deal (they never change either).
    finished_histories: list[list[tuple[int, str]]] = field(default_factory=list)
    #: By hand (card mask): a person's hand does not change while others play.
    arrangements: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: By (hand, knock cards).
    knocks: dict[tuple[int, tuple[str, ...]], dict[str, int]] = field(default_factory=dict)
    #: By (finished deals, seat): the last showdown as that seat saw it.
    last_deals: dict[tuple[int, int | None], dict[str, Any]] = field(default_factory=dict)
    #: The score sheet changes only when a deal ends (or the match does):
    #: what it was built from, and it.
    match_summary_of: tuple[object, ...] = ()
    match_summary: dict[str, Any] = field(default_factory=dict)
    #: The current deal's moves as sent, ``(seat, text)``, for ``history_deal``:
    #: a deal's history only grows, so each event adds its new moves rather
    #: than printing the whole history again (tuples: see _finished_histories).
    history_deal: Deal | None = None
    history: list[tuple[int, str]] = field(default_factory=list)
    #: The cards each finished deal's ``draw discard`` moves took, and the current deal's.
    finished_takes: list[list[str]] = field(default_factory=list)
    current_takes: PileTakes | None = None


_VIEWS: weakref.WeakKeyDictionary[LiveTable, _TableViews] = weakref.WeakKeyDictionary()


def _views_now(table: LiveTable) -> _TableViews:
    views = _VIEWS.get(table)
    if views is None:
        views = _VIEWS[table] = _TableViews()
    match = table.match
    # Every action changes the history's length, even an undo; the match
    # object itself changes when the table is rebuilt from storage.
    key = (
        id(match),
        table.seq,
        len(match.finished_deals),
        len(match.deal.history),
        match.is_over,
        table.resigned,
        sum(1 << seat for seat in table.awaiting),  # an int: no young container
        id(table.spec),
        table.spec.bot_delay,
    )
    if key != views.key:
        views.key = key
        views.states.clear()
        views.encoded.clear()
        views.live_encoded.clear()
    if len(views.finished_deals) > len(match.finished_deals):  # rebuilt shorter
        views.finished_deals.clear()
    if len(views.finished_histories) > len(match.finished_deals):
        views.finished_histories.clear()
    if len(views.finished_takes) > len(match.finished_deals):
        views.finished_takes.clear()
    if any(done != len(match.finished_deals) for done, _ in views.last_deals):
        views.last_deals.clear()
    for cache in (views.arrangements, views.knocks):
        if len(cache) > 32:
            cache.clear()
    return views


def _table_summary_of(table: LiveTable, views: _TableViews) -> dict[str, Any]:
    status = table.status
    if views.summary_of != (id(table.spec), table.spec.bot_delay, status):
        views.summary_of = (id(table.spec), table.spec.bot_delay, status)
        views.summary = table_summary(table.spec, status)
    return views.summary


def seat_state(table: LiveTable, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of the table now (None: a spectator).

    Shared with every other reader of the same seat's state in the same turn
    of the event loop: do not modify it.
    """
    views = _views_now(table)
    state = views.states.get(seat)
    if state is None:
        state = _build_seat_state(table, seat, views)
        _keep_briefly(views, seat, state)
    return state


def _keep_briefly(views: _TableViews, seat: int | None, state: dict[str, Any]) -> None:
    """Keep ``state`` in the cache until the event loop's next turn (not at all
    outside a running loop)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    views.states[seat] = state
    if not views.states_drop_pending:
        views.states_drop_pending = True
        loop.call_soon(_drop_states, views)


def _drop_states(views: _TableViews) -> None:
    views.states.clear()
    views.states_drop_pending = False


def seat_state_json(table: LiveTable, seat: int | None) -> bytes:
    """:func:`seat_state` as JSON (UTF-8), encoded once per table change."""
    views = _views_now(table)
    encoded = views.encoded.get(seat)
    if encoded is None:
        encoded = views.encoded[seat] = encode(seat_state(table, seat))
    return encoded


def encode(data: Any) -> bytes:
    """Compact JSON (UTF-8) of what the API sends."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def _build_seat_state(table: LiveTable, seat: int | None, views: _TableViews) -> dict[str, Any]:
    match = table.match
    observation = match.observe(seat)
    # A match given up has no move left to anyone, whoever was to play.
    my_turn = seat is not None and table.resigned is None and match.current_seat == seat
    legal = match.legal_actions() if my_turn else []
    summary_of = (id(table.spec), len(match.finished_deals), match.deal_number, match.is_over)
    if views.match_summary_of != summary_of:
        views.match_summary = match_summary(match, views.finished_deals)
        views.match_summary_of = summary_of
        views.finished_deals = views.match_summary["deals"]
    summary = views.match_summary
    state: dict[str, Any] = {
        "table": _table_summary_of(table, views),
        "seq": table.seq,
        "seat": seat,
        "observation": _current_observation_dict(observation, match.deal, views),
        "legal_actions": [str(a) for a in legal],
        "awaiting_continue": seat in table.awaiting,
        "match": summary if table.resigned is None else _resigned_summary(summary, table.resigned),
        # Whether the match is over (played out or given up), and the seat
        # that resigned it (None: nobody did).
        "over": table.is_over,
        "resigned": table.resigned,
        "last_deal": None,
        "arrangement": None,
        "knock_deadwood": {},
        # Every finished deal's moves (public), so the page's Moves list is whole after a reload.
        "deal_histories": _finished_histories(match, views),
        # The current deal's commitment (its seed and salt stay secret until it ends).
        "fair": _commitment(match),
        # The card each "draw discard" took (it lay face up), per deal: the finished deals, then the current one.
        "taken_cards": _taken_cards(match, views),
    }
    if seat is not None:
        hand = observation.hand
        arrangement = views.arrangements.get(hand.mask)
        if arrangement is None:
            arrangement = views.arrangements[hand.mask] = arrangement_dict(hand, match.rules)
        state["arrangement"] = arrangement
        knocks = (hand.mask, tuple(str(a) for a in legal if a.kind is ActionKind.KNOCK))
        if knocks[1]:
            outcomes = views.knocks.get(knocks)
            if outcomes is None:
                outcomes = views.knocks[knocks] = knock_outcomes(match, hand, legal)
            state["knock_deadwood"] = outcomes
    if match.finished_deals:
        done = len(match.finished_deals)
        last_deal = views.last_deals.get((done, seat))
        if last_deal is None:
            last_deal = views.last_deals[(done, seat)] = {
                "number": done,
                "observation": observation_dict(match.finished_deals[-1].observe(seat)),
                "fair": revealed_deal(match, done),
            }
        state["last_deal"] = last_deal
    if match.is_over:
        state["record"] = match.record(seed=True, taken=state["taken_cards"])
    return state


def _commitment(match: Match) -> dict[str, Any] | None:
    """The commitment to the deal being played (None: not committed to, or the match is over)."""
    if match.is_over:
        return None
    fairness = match.fairness_of(match.deal_number)
    return None if fairness is None else fairness.public(reveal=False)


def revealed_deal(match: Match, number: int) -> dict[str, Any] | None:
    """Finished deal ``number``'s commitment, seed, salt and the deck it was
    dealt (what the page re-derives); None when it was not committed to."""
    fairness = match.fairness_of(number)
    deal = match.finished_deals[number - 1]
    if fairness is None or not deal.is_over:
        return None
    return fairness.public(reveal=True) | {
        "deck": [str(card) for card in deal.deck],
        "dealer": deal.dealer,
        "players": deal.players,
    }


def _current_observation_dict(
    observation: Observation, deal: Deal, views: _TableViews
) -> dict[str, Any]:
    """:func:`observation_dict` of a view of ``deal``, its history from ``views``."""
    history = observation.history
    if views.history_deal is not deal or len(views.history) > len(history):
        views.history_deal = deal
        views.history = []
    kept = views.history
    kept += [(seat, str(action)) for seat, action in history[len(kept) :]]
    # The view without its history (as Match.observe copies one), so that
    # to_dict does not print it; the kept one takes its place (same key order).
    without = object.__new__(Observation)
    without.__dict__.update(observation.__dict__)
    without.__dict__["history"] = ()
    data = observation_dict(without)
    data["history"] = kept[: len(history)]
    return data


def _finished_histories(match: Match, views: _TableViews) -> list[list[tuple[int, str]]]:
    done = match.finished_deals
    histories = views.finished_histories
    histories += [
        # Tuples (JSON arrays all the same): the collector stops tracking a
        # tuple of ints and strings, and these are kept as long as the table.
        [(mover, str(action)) for mover, action in deal.history]
        for deal in done[len(histories) :]
    ]
    return histories[: len(done)]


def _taken_cards(match: Match, views: _TableViews) -> list[list[str]]:
    done = match.finished_deals
    takes = views.finished_takes
    takes += [pile_takes(deal) for deal in done[len(takes) :]]
    if match.is_over:
        return takes[: len(done)]
    current = views.current_takes
    if current is None or not current.follows(match.deal):
        current = views.current_takes = PileTakes(match.deal)
    return [*takes[: len(done)], list(current.update(match.deal))]


def live_state(state: dict[str, Any]) -> dict[str, Any]:
    """A seat's state as live messages carry it: the same, except that of the
    finished deals (``match.deals`` and ``deal_histories``) only the last one
    is there, from index ``deals_from``, and a finished match's ``record`` is
    left out. The earlier ones never change and the
    client has them already (from the snapshot it got on connecting and the
    live messages since), so a message's size does not grow with the match.

    >>> full = {"seq": 9, "match": {"deals": [1, 2, 3]}, "deal_histories": [[4], [5], [6]],
    ...         "taken_cards": [["7H"], [], [], ["2C"]]}
    >>> live_state(full) == {"seq": 9, "match": {"deals": [3]}, "deal_histories": [[6]],
    ...                      "taken_cards": [[], ["2C"]], "deals_from": 2}
    True
    """
    deals = state["match"]["deals"]
    start = max(len(deals) - 1, 0)
    live = state | {
        "match": state["match"] | {"deals": deals[start:]},
        "deal_histories": state["deal_histories"][start:],
        "taken_cards": state["taken_cards"][start:],
        "deals_from": start,
    }
    # The whole text record of a finished match: GET /api/matches/{id}/record.
    live.pop("record", None)
    return live


def live_state_json(table: LiveTable, seat: int | None) -> bytes:
    """:func:`live_state` of ``seat`` as JSON, encoded once per table change."""
    views = _views_now(table)
    encoded = views.live_encoded.get(seat)
    if encoded is None:
        encoded = views.live_encoded[seat] = encode(live_state(seat_state(table, seat)))
    return encoded


def event_with_state(table: LiveTable, stored: StoredAction, seat: int | None) -> dict[str, Any]:
    """A live event: the action as ``seat`` may know it, and its :func:`live_state`."""
    message = table.event_summary(stored, seat)
    message["state"] = live_state(seat_state(table, seat))
    return message


def event_with_state_json(table: LiveTable, stored: StoredAction, seat: int | None) -> str:
    """:func:`event_with_state` as JSON text, reusing the state's cached JSON."""
    head = encode(table.event_summary(stored, seat))
    return (head[:-1] + b',"state":' + live_state_json(table, seat) + b"}").decode()


def state_message_json(table: LiveTable, seat: int | None) -> str:
    """A live ``state`` message (someone moved on from a showdown, a setting changed)."""
    head = encode({"type": "state", "seq": table.seq})[:-1]
    return (head + b',"state":' + live_state_json(table, seat) + b"}").decode()


# -- replays of finished matches ----------------------------------------------------


def replay_view(stored: StoredTable, step: int) -> dict[str, Any]:
    """The finished match after ``step`` actions, every hand face up.

    The view shows the deal the ``step``-th action belongs to (so the last
    action of a deal shows its showdown, not the next deal's cards).
    """
    match = build_match(stored.spec, stored.actions[: max(step - 1, 0)])
    deal: Deal = match.deal
    deal_number = match.deal_number
    last = stored.actions[step - 1] if step else None
    # The card a "draw discard" took: the pile's top before it (it lay face up).
    taken = None
    if last is not None:
        if last.text == "draw discard" and deal.discard_pile:
            taken = str(deal.discard_pile[-1])
        match.apply(last.text)
    spectator = observation_dict(deal.observe(None))
    hands = [[str(c) for c in deal.observe(s).hand] for s in range(match.players)]
    return {
        "table": table_summary(stored.spec, stored.status),
        "step": step,
        "steps": len(stored.actions),
        "deal_number": deal_number,
        "action": None if last is None else {"seat": last.seat, "text": last.text, "taken": taken},
        "hands": hands,
        "observation": spectator,
        "match": match_summary(match),
    }


class JSONBytes(Response):
    """A JSON answer already encoded (a table state's cached JSON)."""

    media_type = "application/json"
