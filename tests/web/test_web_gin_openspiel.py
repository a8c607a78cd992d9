"""gin-openspiel's OpenSpiel rulings through the page, in Debian's chromium:
the wall under ``wall_knock`` (the status line says the discard is only for a
knock or that a pass draws the deal, the button is Pass, the Moves list says
"passed at the wall"), and the two draws that end a deal drawn, each named in
the deal's end: the same card thrown back twice running (``thrown_back``)
and the pile's draw limit (``pile_limit``, its draw naming no card taken).

Two people sit at a seeded table: the test plays one seat through the HTTP
API and, where it says, the other through the page, so every position is
reached the same way each run. Screenshots at 1280x800 and 360x740 in
English and Russian, each checked to fit one screen.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Phase
from pyrummy.core.match import new_match
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood
from pyrummy.server.tables import TABLE_SHUFFLE
from server_process import running_server
from test_web_gin_standard import FITS, device
from web_helpers import SLOW, browser, errors_of, keep_errors, shot

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the shared fixture

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RULES = find_rules("gin-openspiel")
SIZES = [(1280, 800, "en"), (360, 740, "en"), (1280, 800, "ru"), (360, 740, "ru")]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("gin-openspiel-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    arguments += ["--rate-limit", "off", "--max-tables-per-client", "100"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


class Table:
    """A seeded gin-openspiel table of two people, both seats' tokens known."""

    def __init__(self, url: str, seed: int, **options: Any) -> None:
        body = {
            "preset": "gin-openspiel",
            "bots": [],
            "humans": 2,
            "seed": seed,
            "options": options,
        }
        response = httpx.post(f"{url}/api/tables", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        self.url = url
        self.id: str = created["table"]["id"]
        self.tokens: dict[int, str] = {e["seat"]: e["token"] for e in created["tokens"]}

    def state(self, seat: int = 0) -> dict[str, Any]:
        response = httpx.get(
            f"{self.url}/api/tables/{self.id}/state", headers={"X-Seat-Token": self.tokens[seat]}
        )
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def to_play(self) -> int:
        seat = self.state()["observation"]["current_seat"]
        assert isinstance(seat, int)
        return seat

    def act(self, seat: int, action: str) -> None:
        response = httpx.post(
            f"{self.url}/api/tables/{self.id}/actions",
            json={"action": action},
            headers={"X-Seat-Token": self.tokens[seat]},
        )
        assert response.status_code == 200, response.text

    def draw_and_discard(self, source: str = "stock") -> None:
        """The seat to play draws (``stock`` or ``discard``) and discards a
        card it did not just take from the pile; never a knock."""
        seat = self.to_play()
        before = set(self.state(seat)["observation"]["hand"])
        self.act(seat, f"draw {source}")
        after = self.state(seat)
        (drawn,) = set(after["observation"]["hand"]) - before
        discards = [a for a in after["legal_actions"] if a.startswith("discard ")]
        choice = (
            f"discard {drawn}"
            if source == "stock"
            else next(a for a in discards if a != f"discard {drawn}")
        )
        self.act(seat, choice)

    def open(self, browser: Browser, seat: int, width: int, height: int, lang: str) -> Page:
        """The table as ``seat``'s person sees it, on a new device."""
        context = device(browser, width, height, lang)
        page = keep_errors(context.new_page())
        page.goto(self.url + "/")
        tokens = json.dumps({self.id: {"token": self.tokens[seat]}})
        page.evaluate(f"localStorage.setItem('pyrummy.tokens', {json.dumps(tokens)})")
        page.goto(f"{self.url}/#/table/{self.id}")
        page.wait_for_selector("#status-line, #match-end, #showdown", timeout=SLOW)
        return page


def pretty(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def wall_actions(seed: int) -> tuple[list[str], bool]:
    """The moves that bring the server's deal of ``seed`` to the wall (both
    pass the up-card, then each draws from the stock and keeps the lower
    deadwood, never knocking), found on a copy of the deal here; and whether
    the player at the wall may take the discard to knock."""
    deal = new_match(RULES, players=2, seed=seed, shuffle=TABLE_SHUFFLE).deal
    moves = ["decline", "decline"]
    for move in moves:
        deal.apply(move)
    while deal.phase is not Phase.DECLINE:
        assert not deal.is_over
        seat = deal.current_seat
        assert seat is not None
        deal.apply("draw stock")
        hand = deal.hands(seat)
        best = min(sorted(hand, key=str), key=lambda c: deadwood(hand - CardSet([c]), RULES))
        moves += ["draw stock", f"discard {best}"]
        deal.apply(f"discard {best}")
    return moves, any(str(a) == "draw discard" for a in deal.legal_actions())


def at_the_wall(url: str, can_knock: bool) -> Table:
    """A table at the wall whose player may (or may not) take the discard to knock."""
    seed, moves = next(
        (seed, moves)
        for seed in range(200)
        for moves, knock in [wall_actions(seed)]
        if knock == can_knock
    )
    table = Table(url, seed)
    for move in moves:
        table.act(table.to_play(), move)
    assert table.state()["observation"]["phase"] == "decline"
    return table


def fits(page: Page) -> None:
    assert page.evaluate(FITS) == []


def test_the_wall_says_take_to_knock_or_pass(browser: Browser, base_url: str) -> None:
    table = at_the_wall(base_url, can_knock=True)
    seat = table.to_play()
    texts = {
        "en": "The wall (2 cards left in the stock): take the top discard only to knock with it,"
        " or pass and the deal is a draw.",
        "ru": "Стена (в колоде карт: 2): верхнюю карту сброса можно взять, только чтобы постучать,"
        " или пасуйте — сдача сыграна вничью.",
    }
    for width, height, lang in SIZES:
        page = table.open(browser, seat, width, height, lang)
        expect(page.locator("#status-line")).to_have_text(texts[lang])
        expect(page.locator("#btn-decline")).to_have_text("Pass" if lang == "en" else "Пас")
        expect(page.locator("#btn-pile")).to_be_enabled()
        expect(page.locator("#stock")).to_be_disabled()
        fits(page)
        shot(page, f"gin-openspiel-wall-{width}x{height}-{lang}")
        assert not errors_of(page)
        page.context.close()
    # Taking it, only a knock is left.
    page = table.open(browser, seat, 1280, 800, "en")
    page.click("#btn-pile")
    expect(page.locator("#status-line")).to_have_text(
        "At the wall the taken card is only for a knock: select a card, then Knock."
    )
    expect(page.locator("#btn-discard")).to_have_count(0)
    expect(page.locator("#btn-knock")).to_be_visible()
    expect(page.locator(".flyer, .moving")).to_have_count(0, timeout=SLOW)  # the card has landed
    fits(page)
    shot(page, "gin-openspiel-wall-taken-1280x800-en")
    page.context.close()


def test_a_pass_at_the_wall_draws_the_deal(browser: Browser, base_url: str) -> None:
    table = at_the_wall(base_url, can_knock=False)
    seat = table.to_play()
    page = table.open(browser, seat, 1280, 800, "en")
    expect(page.locator("#status-line")).to_have_text(
        "The wall (2 cards left in the stock): the top discard gives you no knock,"
        " so pass and the deal is a draw."
    )
    expect(page.locator("#btn-pile")).to_be_disabled()
    page.click("#btn-decline")
    end = page.locator("#match-end, #showdown").first
    expect(end).to_contain_text("Nobody knocked before the last cards of the stock")
    expect(page.locator("#moves")).to_contain_text("You passed at the wall")
    assert not errors_of(page)
    page.context.close()


def end_shots(table: Table, browser: Browser, name: str, texts: dict[str, str]) -> None:
    for width, height, lang in SIZES:
        page = table.open(browser, 0, width, height, lang)
        expect(page.locator(".end-reason").first).to_have_text(texts[lang])
        shot(page, f"gin-openspiel-{name}-{width}x{height}-{lang}")
        assert not errors_of(page)
        page.context.close()


def test_a_card_thrown_back_twice_ends_the_deal_and_says_why(
    browser: Browser, base_url: str
) -> None:
    table = next(t for t in (Table(base_url, s) for s in range(20)) if t.to_play() == 1)
    up = table.state()["observation"]["discard_pile"][-1]
    table.act(1, "draw discard")  # seat 1 takes the offered up-card...
    table.act(1, f"discard {up}")  # ...and throws it back
    page = table.open(browser, 0, 1280, 800, "en")
    page.click("#btn-pile")  # the person takes it too...
    page.click(f"#hand-card-{up}")
    page.click("#btn-discard")  # ...and throws it back: the deal is drawn
    expect(page.locator(".end-reason").first).to_have_text(
        "The same card was taken from the discard pile and thrown straight back twice running,"
        " so the deal is a draw."
    )
    assert table.state()["observation"]["end_reason"] == "thrown_back"
    assert not errors_of(page)
    page.context.close()
    end_shots(
        table,
        browser,
        "thrown-back",
        {
            "en": "The same card was taken from the discard pile and thrown straight back twice"
            " running, so the deal is a draw.",
            "ru": "Одну и ту же карту дважды подряд брали из сброса и сразу сбрасывали обратно:"
            " сдача сыграна вничью.",
        },
    )


def test_the_pile_draw_limit_ends_the_deal_and_says_why(browser: Browser, base_url: str) -> None:
    table = next(t for t in (Table(base_url, s) for s in range(20)) if t.to_play() == 1)
    table.act(1, "decline")
    table.act(0, "decline")
    table.draw_and_discard("stock")  # seat 1 draws from the stock; then every draw is the pile's
    for _ in range(49):
        table.draw_and_discard("discard")
    seat = table.to_play()  # seat 1 again: 49 counted draws made
    top = table.state()["observation"]["discard_pile"][-1]
    page = table.open(browser, seat, 1280, 800, "en")
    page.click("#btn-pile")  # draw 50: the deal ends, the card stays on the pile
    expect(page.locator(".end-reason").first).to_have_text(
        "Draw number 50 from the discard pile ends the deal: the card stays on the pile"
        " and the deal is a draw."
    )
    state = table.state()
    assert state["observation"]["end_reason"] == "pile_limit"
    assert state["observation"]["discard_pile"][-1] == top
    assert len(state["taken_cards"][0]) == 49  # the last draw took no card
    expect(page.locator("#moves li").last).to_have_text(
        "You made draw number 50 from the discard pile: the deal ends, the card stays"
    )
    assert not errors_of(page)
    page.context.close()
    end_shots(
        table,
        browser,
        "pile-limit",
        {
            "en": "Draw number 50 from the discard pile ends the deal: the card stays on the pile"
            " and the deal is a draw.",
            "ru": "Взятие из сброса номер 50 заканчивает сдачу: карта остаётся в сбросе, сдача"
            " сыграна вничью.",
        },
    )
