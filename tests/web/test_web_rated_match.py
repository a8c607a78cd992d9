"""A whole rated quick match in real browsers, to the ratings and the leaderboard.

Anna (English, a wide screen) and Boris (Russian, a phone) press "Play
people" for Gin and are seated together; they play every deal of the match
through their pages (drawing from the stock, knocking when they can, else
giving back the card that leaves the least deadwood), never seeing the
other's hidden cards. At the match's end each page shows that person's
rating change, exactly as the server rated it, and under it what the
provisional "?" means: how many more rated matches it needs (the server's
``provisional_matches`` less those played). Neither table page offers a bot
speed: no bot plays there. Then each finds themselves on
Gin's leaderboard page, at their place, and on their profile page.

A whole Gin match to 100 is long: the servers here play quick matches to
:data:`TARGET` (``PYRUMMY_QUICK_TARGET``, an operator's setting; the
product's default is the game's own 100).

The match's end, the leaderboard and the profile are photographed at
1280x800, 390x844, 360x740 and 740x360 in both languages, and no page is
wider than its screen. The flow runs again with Anna and Boris on two server
processes over one PostgreSQL database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from pyrummy.core.cards import Card, CardSet
from pyrummy.core.solver import deadwood_without_each
from server_helpers import cards_in
from server_process import running_server
from test_web_friends import SHOTS, Person, eventually, state, wait_turn_over
from test_web_quick import queue_up, seat_people, seated_table
from web_helpers import browser

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the shared fixture

#: The score the test servers' quick matches play to: a deal or a few.
TARGET = 30
#: The screens every page of the match's end is looked at on.
SIZES = [(1280, 800), (390, 844), (360, 740), (740, 360)]
#: How the page words a rating change, per language (i18n.js ``rating.change``).
CHANGE_WORDS = {
    "en": "Rating: {before} → {after} ({change})",
    "ru": "Рейтинг: {before} → {after} ({change})",
}
PLACE_WORDS = {"en": "Your place: {place}", "ru": "Ваше место: {place}"}
#: How the page explains a provisional "?" beside the change (i18n.js
#: ``rating.provisional``), by plural form: English one/other, Russian one/few/many.
PROVISIONAL_WORDS = {
    "en": {
        "one": "? = provisional: {n} more rated match",
        "other": "? = provisional: {n} more rated matches",
    },
    "ru": {
        "one": "? — предварительный: ещё {n} рейтинговая партия",
        "few": "? — предварительный: ещё {n} рейтинговые партии",
        "other": "? — предварительный: ещё {n} рейтинговых партий",
    },
}


@contextmanager
def serve(data_dir: Path, database_url: str = "") -> Iterator[str]:
    env = {
        "DATABASE_URL": database_url,
        "PYRUMMY_QUICK_TICK": "0.5",
        "PYRUMMY_QUICK_TARGET": str(TARGET),
    }
    arguments = ["--bot-delay", "0", "--data-dir", str(data_dir), "--rate-limit", "off"]
    data_dir.mkdir(parents=True, exist_ok=True)
    with running_server(arguments, env=env, log=data_dir / "server.log") as server:
        yield server.url


def tap_card(page: Page, card: str) -> None:
    """Tap a card of the hand where a person sees it: its left edge (on a
    phone the next card covers the rest)."""
    page.locator(f".hand .card[data-card='{card}']").click(position={"x": 5, "y": 30})


def play_turn_well(person: Person, url: str, table_id: str, token: str) -> None:
    """Draw from the stock on the page; knock with the card that leaves the
    least deadwood if a knock is allowed, else give back the card whose loss
    leaves the least deadwood (clicks on the page, choices from the seat's state)."""
    page = person.page
    page.wait_for_selector("#stock:not([disabled])", timeout=20_000)
    page.click("#stock")
    expect(page.locator("#stock")).to_be_disabled()
    now = state(url, table_id, token)
    knocks: dict[str, int] = now["knock_deadwood"]
    if knocks:
        card = min(knocks, key=lambda c: knocks[c])
        tap_card(page, card)
        page.click("#btn-knock")
        dialog = page.locator("dialog[open]")
        if dialog.count():
            dialog.locator(".danger").click()
        return
    hand = CardSet(" ".join(now["observation"]["hand"]))
    without = deadwood_without_each(hand.mask)
    card = str(Card.from_index(min(without, key=lambda i: (without[i], i))))
    tap_card(page, card)
    page.click("#btn-discard")


#: What a state tells of finished deals (their moves, hands and decks are
#: public once over): left out when looking for the hidden cards of this one.
FINISHED = {"deal_histories", "last_deal", "taken_cards", "deck"}


def this_deal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: this_deal(v) for k, v in value.items() if k not in FINISHED}
    if isinstance(value, list):
        return [this_deal(v) for v in value]
    return value


def deal_of(value: dict[str, Any]) -> int:
    """The number of deals finished when a table state was sent."""
    return int((value.get("last_deal") or {}).get("number", 0))


def hides_hand(viewer: Person, other_token: str, url: str, table_id: str) -> None:
    """``viewer``'s page, and every frame it got about this deal, hold none of
    the other person's hidden cards: those in their hand that nothing of this
    deal showed (cards of earlier deals may lie anywhere: their moves are public)."""
    other = state(url, table_id, other_token)["observation"]["hand"]
    public = state(url, table_id, None)
    secret = set(other) - cards_in(public["observation"])
    assert secret, "the other hand has hidden cards"
    for frame in viewer.frames:
        if "state" not in frame or deal_of(frame["state"]) == deal_of(public):
            if "state" in frame and not frame["state"]["observation"]["history"]:
                # The move that ended the last deal comes with the next deal's first state.
                frame = {k: v for k, v in frame.items() if k != "action"}
            assert not cards_in(this_deal(frame)) & secret, (viewer.name, frame.get("type"))
    for card in secret:
        assert viewer.page.locator(f"[data-card='{card}']").count() == 0, (viewer.name, card)


def play_match(seats: dict[int, Person], tokens: dict[int, str], url: str, table_id: str) -> int:
    """Both people play every deal through their pages until the match is
    over, each moving on to the next deal from its showdown; returns the deals played."""
    turns = 0
    while True:
        views = {seat: state(url, table_id, token) for seat, token in tokens.items()}
        now = views[min(views)]
        if now["over"]:
            return int(now["last_deal"]["number"])
        waiting = [seat for seat, view in views.items() if view["awaiting_continue"]]
        if waiting:
            for seat in waiting:
                page = seats[seat].page
                expect(page.locator("#showdown")).to_be_visible(timeout=20_000)
                page.locator("#btn-next").click(timeout=20_000)
            eventually(
                lambda: (
                    not any(state(url, table_id, t)["awaiting_continue"] for t in tokens.values())
                )
            )
            continue
        mover = now["observation"]["current_seat"]
        other = next(seat for seat in tokens if seat != mover)
        hides_hand(seats[mover], tokens[other], url, table_id)
        play_turn_well(seats[mover], url, table_id, tokens[mover])
        turns += 1
        wait_turn_over(url, table_id, tokens[mover], now)
        assert turns < 600, "the match did not end"


def look(page: Page, name: str, still: bool = False) -> None:
    """Photograph the page at every size: no page is wider than its screen,
    and a ``still`` one (the table's match end) does not scroll at all."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        wide, tall = page.evaluate(
            """() => [document.documentElement.scrollWidth - window.innerWidth,
                      document.documentElement.scrollHeight - window.innerHeight]"""
        )
        assert wide <= 0, (name, width, height, wide)
        assert tall <= 0 or not still, (name, width, height, tall)
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))


def change_text(change: dict[str, Any], lang: str) -> str:
    def shown(r: dict[str, Any]) -> str:
        return f"{r['rating']}{'?' if r['provisional'] else ''}"

    delta = change["change"]
    sign = "+" if delta > 0 else "−" if delta < 0 else "±"
    return CHANGE_WORDS[lang].format(
        before=shown(change["before"]), after=shown(change["after"]), change=f"{sign}{abs(delta)}"
    )


def provisional_text(n: int, lang: str) -> str:
    """The note under a provisional change: ``n`` more rated matches to play."""
    if lang == "en":
        form = "one" if n == 1 else "other"
    elif n % 10 == 1 and n % 100 != 11:
        form = "one"
    elif n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        form = "few"
    else:
        form = "other"
    return PROVISIONAL_WORDS[lang][form].format(n=n)


def rated_flow(browser: Browser, url_a: str, url_b: str, tag: str) -> None:
    anna = Person(browser, url_a, "Anna")
    boris = Person(browser, url_b, "Boris", width=390, locale="ru")
    langs = {id(anna): "en", id(boris): "ru"}
    # The source's rules (no first up-card offer): every turn starts with a draw.
    queue_up(anna, "gin", 2, gin_rules="source")
    expect(anna.page.locator("#quick-status")).to_contain_text("1 of 2", timeout=10_000)
    queue_up(boris, "gin", 2, gin_rules="source")
    table_id = seated_table([anna, boris])
    seats, tokens = seat_people([anna, boris], url_a, table_id)
    # No bot at this table: no bot speed to choose (header or phone panel).
    for person in (anna, boris):
        expect(person.page.locator("#hints-toggle")).to_have_count(1, timeout=20_000)
        expect(person.page.locator("#table-speed")).to_have_count(0)
    rules = httpx.get(f"{url_a}/api/tables/{table_id}").json()["rules"]
    assert rules["name"] == "gin" and rules["target"] == TARGET, rules
    deals = play_match(seats, tokens, url_a, table_id)
    assert deals >= 1
    # The match is over on both servers, and rated once, whichever asks.
    rating = httpx.get(f"{url_b}/api/tables/{table_id}/rating").json()
    assert rating["rated"] and rating["over"], rating
    assert httpx.get(f"{url_a}/api/tables/{table_id}/rating").json() == rating
    changes = {c["seat"]: c for c in rating["changes"]}
    assert sorted(changes) == sorted(seats)
    winners = state(url_a, table_id, None)["match"]["winners"]
    assert len(winners) == 1, winners
    for seat, change in changes.items():
        assert change["place"] == (1 if seat in winners else 2)
        assert (change["change"] > 0) == (seat in winners), change
    for seat, person in seats.items():
        lang = langs[id(person)]
        page = person.page
        expect(page.locator("#match-end")).to_be_visible(timeout=20_000)
        expect(page.locator("#rating-change")).to_have_text(
            change_text(changes[seat], lang), timeout=20_000
        )
        # The "?" is explained where it is shown: both are newcomers, so each
        # has the server's provisional_matches less this one match to go.
        after = changes[seat]["after"]
        assert after["provisional"] and after["matches"] == 1, after
        left = rating["provisional_matches"] - after["matches"]
        assert left == 9
        expect(page.locator("#rating-note")).to_have_text(provisional_text(left, lang))
        expect(page.locator("#rating-note")).to_be_visible()
        look(page, f"rated-match-end-{lang}{tag}", still=True)
    # The leaderboard: each finds their own place (the winner first) and line.
    for seat, person in seats.items():
        lang = langs[id(person)]
        page = person.page
        page.goto(person.url + "/#/leaderboard/gin")
        place = 1 if seat in winners else 2
        expect(page.locator("#board-you")).to_contain_text(
            PLACE_WORDS[lang].format(place=place), timeout=20_000
        )
        mine = page.locator("#board-table tr.you")
        expect(mine).to_have_count(1)
        expect(mine.locator("td").nth(0)).to_have_text(str(place))
        expect(mine.locator("td").nth(1)).to_have_text(person.name)
        after = changes[seat]["after"]
        expect(mine.locator("td").nth(2)).to_contain_text(
            f"{after['rating']}{'?' if after['provisional'] else ''}"
        )
        look(page, f"rated-leaderboard-{lang}{tag}")
        page.goto(person.url + "/#/profile")
        expect(page.locator("#profile-ratings")).to_contain_text(
            str(after["rating"]), timeout=20_000
        )
        look(page, f"rated-profile-{lang}{tag}")
    for person in (anna, boris):
        assert not person.errors, person.errors


def test_a_whole_rated_quick_match_to_the_leaderboard(browser: Browser, tmp_path: Path) -> None:
    with serve(tmp_path) as url:
        rated_flow(browser, url, url, "")


def test_a_whole_rated_match_across_two_processes_on_postgresql(
    browser: Browser, postgres_server: str, tmp_path: Path
) -> None:
    from db_fixtures import fresh_postgres_database

    database = fresh_postgres_database(postgres_server)
    with serve(tmp_path / "a", database) as first, serve(tmp_path / "b", database) as second:
        rated_flow(browser, first, second, "-pg")
