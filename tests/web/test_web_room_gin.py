"""Gin at a friends' table, in Debian's chromium: the table setup chooses
Gin's rules as the lobby does (the standard ones unless changed, or the
source's) and the Oklahoma house rule; the waiting room says what will be
played; the started table is dealt by those rules, so friends meet the first
up-card's offer (Pass, in the buttons and the keys' hint) before anybody
draws from the stock. Screenshots of the setup at 1280x800, 390x844,
360x740 and 740x360 in English and Russian, each without a sideways scroll.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from test_web_friends import Person, eventually, play_turn, serve, state
from web_helpers import browser

pytestmark = pytest.mark.browser
__all__ = ["browser"]  # the shared fixture


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server of the friends' browser tests for this module's rooms."""
    with serve(tmp_path_factory.mktemp("room-gin")) as server_url:
        yield server_url


#: Nothing wider than the screen: a list of what is.
NO_SIDEWAYS = """() => {
  const out = [];
  if (document.scrollingElement.scrollWidth > innerWidth) out.push("the page scrolls sideways");
  document.querySelectorAll("#friends-gin-rules, #friends-gin-rules *").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > innerWidth + 0.5) out.push(`${el.id || el.tagName} ends at ${Math.round(r.right)}`);
  });
  return out;
}"""


#: What the piles (with Oklahoma's note beside them) overlap on the board: a list.
PILES_OVERLAP = """() => {
  const piles = document.querySelector(".board > .piles").getBoundingClientRect();
  return [...document.querySelectorAll(".board > *")].filter((el) => {
    if (el.classList.contains("piles")) return false;
    const q = el.getBoundingClientRect();
    return q.width && piles.left < q.right && q.left < piles.right && piles.top < q.bottom && q.top < piles.bottom;
  }).map((el) => el.className);
}"""


#: Oklahoma's note as a spade up-card makes it (the page's own words), whatever the deal's up-card.
WITH_SPADE_LINE = """async () => {
  const { t } = await import("/static/js/i18n.js");
  const note = document.querySelector("#oklahoma");
  if (note.querySelector(".oklahoma-spade")) return;
  const line = document.createElement("span");
  line.className = "oklahoma-spade";
  line.textContent = t("table.oklahomaSpade");
  note.append(line);
}"""


def open_setup(person: Person) -> None:
    """The friends' table setup with Gin chosen in its list of games."""
    person.page.click("#friends-start")
    person.page.select_option("#friends-game", "gin")
    expect(person.page.locator("#friends-gin-rules")).to_be_visible()


def test_friends_play_standard_gin_with_oklahoma(browser: Browser, url: str) -> None:
    anna = Person(browser, url, "Anna")
    open_setup(anna)
    page = anna.page
    # The standard rules unless changed, their facts from the server's presets.
    expect(page.locator("#friends-gin-rules-standard")).to_be_checked()
    facts = httpx.get(f"{url}/api/presets").json()
    standard = next(p for p in facts["presets"] if p["name"] == "gin-standard")["gin"]
    expect(page.locator("#friends-gin-rules-standard-facts")).to_contain_text(
        f"big gin {standard['big_gin_bonus']}"
    )
    # Two seats: Gin is a game for two.
    expect(page.locator("#friends-seat-3")).to_have_count(0)
    page.click("#friends-opt-oklahoma")
    expect(page.locator("#friends-opt-oklahoma")).to_be_checked()
    page.fill("#friends-name", "Anna")
    page.click("#friends-create")
    code = page.locator("#room-code-shown").inner_text()
    expect(page.locator("#room-game")).to_have_text("Game: Gin Rummy (standard) · Oklahoma")
    room = httpx.get(f"{url}/api/rooms/{code}").json()
    assert room["preset"] == "gin-standard" and room["options"] == {"oklahoma": True}
    # Boris opens the link: he is told the rules before he sits down.
    boris = Person(browser, url, "Boris", locale="ru")
    boris.page.goto(url + f"/join/{code}")
    expect(boris.page.locator("#room-game")).to_have_text("Игра: Джин-рамми (стандарт) · Оклахома")
    boris.page.fill("#join-name", "Boris")
    boris.page.click("#join-button")
    expect(page.locator("#room-start")).to_be_enabled(timeout=15_000)
    page.click("#room-start")
    for person in (anna, boris):
        person.page.wait_for_url("**/#/table/*", timeout=20_000)
    table_id = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{url}/api/tables/{table_id}").json()
    assert info["preset"] == "gin-standard"
    assert info["rules"]["gin"]["oklahoma"] is True
    assert info["rules"]["gin"]["up_card_offer"] is True
    people = {0: anna, 1: boris}
    tokens = {seat: people[seat].token(table_id) for seat in people}
    now = state(url, table_id, tokens[0])
    assert now["observation"]["phase"] == "offer"
    first = now["observation"]["current_seat"]
    offered, waiting = people[first], people[1 - first]
    # The one offered the up-card: Take or Pass, and X passes (the keys' hint).
    expect(offered.page.locator(".me.playing #btn-decline")).to_be_visible(timeout=15_000)
    word = "Pass" if offered is anna else "Пас"
    expect(offered.page.locator("#btn-decline")).to_have_text(word)
    expect(offered.page.locator("#keys-hint")).to_contain_text(f"X {word.lower()}")
    expect(offered.page.locator("#stock")).to_be_disabled()
    expect(offered.page.locator("#oklahoma")).to_be_visible()
    expect(waiting.page.locator("#btn-decline")).to_have_count(0)
    # Beside the room's panel the board is short: the piles and the note overlap nothing.
    # Once the deal's cards have settled (the fit runs again after they land;
    # a loaded machine takes longer than half a second).
    overlaps: list[str] = []

    def settled() -> bool:
        overlaps[:] = offered.page.evaluate(PILES_OVERLAP)
        return not overlaps

    try:
        eventually(settled, timeout=5.0)
    except AssertionError:
        raise AssertionError(f"the piles overlap {overlaps}") from None
    offered.shot(f"friends-gin-offer-1280-{'en' if offered is anna else 'ru'}")
    # The longest note (a spade up-card doubles the deal) fits too, here and on
    # a landscape phone, where the room's panel leaves the board little height.
    offered.page.evaluate(WITH_SPADE_LINE)
    for width, height in ((1280, 799), (1280, 800), (740, 360)):
        offered.page.set_viewport_size({"width": width, "height": height})
        try:
            eventually(settled, timeout=5.0)
        except AssertionError:
            raise AssertionError(f"the piles overlap {overlaps} at {width}x{height}") from None
    offered.shot(f"friends-gin-offer-740x360-{'en' if offered is anna else 'ru'}")
    offered.page.set_viewport_size({"width": 1280, "height": 800})
    # Both pass; then the first may only draw from the stock.
    play_turn(offered, knock=False)
    eventually(lambda: state(url, table_id, tokens[0])["observation"]["current_seat"] != first)
    play_turn(waiting, knock=False)
    eventually(lambda: len(state(url, table_id, tokens[0])["observation"]["history"]) == 2)
    expect(offered.page.locator("#stock")).to_be_enabled(timeout=15_000)
    expect(offered.page.locator("#btn-pile")).to_be_disabled()
    play_turn(offered, knock=False)
    eventually(lambda: len(state(url, table_id, tokens[0])["observation"]["history"]) >= 4)
    history = state(url, table_id, tokens[0])["observation"]["history"]
    assert [action for _, action in history[:3]] == ["decline", "decline", "draw stock"]
    for person in (anna, boris):
        assert not person.errors, (person.name, person.errors)
        person.context.close()


def test_friends_may_choose_the_source_rules(browser: Browser, url: str) -> None:
    anna = Person(browser, url, "Anna")
    open_setup(anna)
    page = anna.page
    page.click("label[for=friends-gin-rules-source]")
    expect(page.locator("#friends-gin-rules-source")).to_be_checked()
    page.fill("#friends-name", "Anna")
    page.click("#friends-create")
    code = page.locator("#room-code-shown").inner_text()
    expect(page.locator("#room-game")).to_have_text("Game: Gin Rummy")
    room = httpx.get(f"{url}/api/rooms/{code}").json()
    assert room["preset"] == "gin" and room["options"] == {}
    # Another game leaves Gin's rules out of the form.
    page.goto(url + "/#/friends")
    page.select_option("#friends-game", "rummy")
    expect(page.locator("#friends-gin-rules")).to_have_count(0)
    # A part the game has not (Gin's rules, a length) leaves no word behind.
    expect(page.locator(".friends-form")).not_to_contain_text("null")
    assert not anna.errors, anna.errors
    anna.context.close()


SCREENS = [(1280, 800), (390, 844), (360, 740), (740, 360)]


@pytest.mark.parametrize(("width", "height"), SCREENS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_setup_with_gin_fits_the_screen(
    browser: Browser, url: str, width: int, height: int, lang: str
) -> None:
    anna = Person(browser, url, "Anna", width=width, height=height, locale=lang)
    open_setup(anna)
    anna.page.click("#friends-opt-oklahoma")
    expect(anna.page.locator(".friends-form")).not_to_contain_text("null")
    assert anna.page.evaluate(NO_SIDEWAYS) == []
    anna.shot(f"friends-gin-setup-{width}x{height}-{lang}")
    assert not anna.errors, anna.errors
    anna.context.close()
