"""What the browser tests share: Debian's chromium driven by Playwright, a
real server (tests/server_process.py), pages that keep their JavaScript
errors, the lobby's start, a knock, the axe-core check and a node runner.

The fixtures ``base_url`` and ``browser`` are module-scoped: a test module
imports them (and lists them in ``__all__``) to use them.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from pyrummy.core.cards import CardSet
from pyrummy.core.match import new_match
from pyrummy.core.melds import all_melds_in, explain_meld
from pyrummy.core.rules import Rules, find_rules
from pyrummy.server.tables import TABLE_SHUFFLE
from server_process import running_server

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: How long a page may wait for the bots and the server on a loaded machine (ms).
SLOW = 20000


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's chromium, headless, with nothing of its own talking to the network."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server for the module: bots without delay, seeds allowed (so a
    test can choose its deal), SQLite in a temporary folder."""
    data_dir = tmp_path_factory.mktemp("web-data")
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--allow-seed"]
    with running_server(arguments, env={"DATABASE_URL": ""}) as server:
        yield server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = launch_chromium(playwright)
        yield launched
        launched.close()


_ERRORS: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()


def keep_errors(page: Page) -> Page:
    """Collect the page's uncaught JavaScript errors (read with :func:`errors_of`)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _ERRORS[page] = errors
    return page


def errors_of(page: Page) -> list[str]:
    """The uncaught JavaScript errors of a page given to :func:`keep_errors`."""
    return _ERRORS[page]


def open_page(browser: Browser, base_url: str, width: int = 1280, lang: str = "en") -> Page:
    """The lobby in a new context (one device), its errors kept."""
    # The page's own Content-Security-Policy stays in force (no bypass_csp).
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
    page = keep_errors(context.new_page())
    page.goto(base_url + "/")
    return page


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


#: What shows a started table: the person's turn to draw, or an end the bots reached first.
MY_TURN = "#stock:not([disabled]), #showdown, #match-end"

#: What a page shows where a wait ended without what it waited for.
_WHAT_IT_SHOWS = """() => {
  const text = (selector) => document.querySelector(selector)?.textContent.trim() || null;
  return { url: location.href, dealError: text("#deal-error"), status: text(".status-line"),
           connection: text(".connection:not([hidden])"), heading: text("h1") };
}"""


def wait_until_ready(page: Page, ready: str = MY_TURN, name: str = "not-ready") -> None:
    """Wait (up to :data:`SLOW`) for ``ready``; past that, fail saying what the
    page shows instead (and keep its screenshot as ``name``)."""
    try:
        page.wait_for_selector(ready, timeout=SLOW)
    except PlaywrightTimeoutError:
        shows = page.evaluate(_WHAT_IT_SHOWS)
        shot(page, name)
        raise AssertionError(f"no {ready!r} after {SLOW} ms; the page shows {shows}") from None


def until_my_turn(page: Page, *, tap: bool = False) -> None:
    """Wait for the person's turn to draw, going on to the next deal (by touch
    with ``tap``) where a bot ended one first."""
    for _ in range(5):
        wait_until_ready(page, name="no-turn")
        if page.locator("#stock:not([disabled])").count():
            return
        if page.locator("#match-end").count():
            break
        if tap:
            page.tap("#btn-next")
        else:
            page.click("#btn-next")
        expect(page.locator("#showdown")).to_have_count(0)
    raise AssertionError("the bots ended the match before the person's turn")


def start(
    page: Page,
    game: str = "knock",
    bots: int = 1,
    length: str | None = None,
    seed: int | None = None,
    ready: str = MY_TURN,
    gin_rules: str | None = None,
) -> None:
    """Start a game from the lobby and wait for the table (or an end the bots
    reached first); ``ready`` says what shows the table is there.

    ``gin_rules`` ("standard" or "source") chooses Gin's rules; without it
    Gin is dealt by the lobby's choice (standard the first time), whose first
    up-card is offered before anybody may draw from the stock.
    """
    page.click(f"label[for=game-{game}]")
    if gin_rules is not None:
        page.click(f"label[for=gin-rules-{gin_rules}]")
    if seed is not None:
        page.fill("#seed", str(seed))
    page.select_option("#bot-count", str(bots))
    if length is not None:
        page.select_option("#match-length", length)
    page.click("#deal-button")
    wait_until_ready(page, ready)


def draw_from_stock(page: Page, *, tap: bool = False) -> None:
    """Take the top of the stock (by touch with ``tap``)."""
    if tap:
        page.tap("#stock")
    else:
        page.click("#stock")
    expect(page.locator("#stock")).to_be_disabled()


def knock_now(page: Page) -> None:
    """Draw, then knock with the hand's last card, confirming the warning
    dialog if the page asks (Knock Rummy allows any deadwood)."""
    draw_from_stock(page)
    page.locator(".hand .card").last.click()
    page.click("#btn-knock")
    page.wait_for_timeout(200)  # the dialog, if any, opens after the click
    dialog = page.locator("dialog[open]")
    if dialog.count():
        dialog.locator(".danger").click()


def knock_to_match_end(page: Page) -> None:
    """Knock at once in a one-deal match (unless a bot ended it first) and see its end."""
    page.wait_for_selector("#stock:not([disabled]), #match-end", timeout=SLOW)
    if page.locator("#match-end").count() == 0:
        knock_now(page)
    expect(page.locator("#match-end")).to_be_visible(timeout=SLOW)


def rummy_seed_with_four_card_meld() -> tuple[int, list[str]]:
    """A seed whose first Rummy deal gives the person (who plays first) a
    four-card meld once they draw the top of the stock."""
    rules = find_rules("rummy")
    for seed in range(5000):
        # Dealt as the server's tables deal a seed.
        deal = new_match(rules, players=2, seed=seed, shuffle=TABLE_SHUFFLE).deal
        hand = deal.hands(0) | CardSet([deal.stock[0]])
        fours = [m for m in all_melds_in(hand, rules) if len(m) == 4]
        if fours:
            return seed, [str(c) for c in fours[0]]
    raise AssertionError("no seed found")


def start_rummy_with_four_card_meld(page: Page, *, tap: bool = False) -> list[str]:
    """A Rummy game against one bot in which the person has drawn a four-card meld."""
    seed, four = rummy_seed_with_four_card_meld()
    start(page, game="rummy", bots=1, seed=seed)
    page.wait_for_selector("#stock:not([disabled])", timeout=SLOW)
    draw_from_stock(page, tap=tap)
    return four


def invalid_trio(page: Page, rules: Rules) -> tuple[str, str, str]:
    """Three cards of the page's hand that do not make a meld."""
    hand = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    return next(
        (a, b, c)
        for i, a in enumerate(hand)
        for j, b in enumerate(hand[i + 1 :], i + 1)
        for c in hand[j + 1 :]
        if explain_meld(f"{a} {b} {c}", rules) is not None
    )


# -- axe-core ---------------------------------------------------------------------

AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_URL = "/__test__/axe.min.js"


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core from the npm registry into .axe/ (scripts/axe-core.sh), once."""
    if not AXE.exists():
        subprocess.run(["bash", str(ROOT / "scripts" / "axe-core.sh")], check=True)
    return AXE.read_text()


_AXE_SERVED: WeakKeyDictionary[Page, bool] = WeakKeyDictionary()


def serious(page: Page, axe_source: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now.

    axe is answered from the page's own origin (a route of the test's browser,
    nothing on the server), so the page's Content-Security-Policy (script-src
    'self') allows it and stays in force while axe runs. Any page may be
    checked: the route is set once per page.
    """
    if page not in _AXE_SERVED:
        page.route(
            f"**{AXE_URL}",
            lambda route: route.fulfill(body=axe_source, content_type="text/javascript"),
        )
        _AXE_SERVED[page] = True
    page.add_script_tag(url=AXE_URL)
    result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


# -- node -----------------------------------------------------------------------


def run_node(script: str) -> Any:
    """Run an ES module ``script`` in node; what it writes to stdout, read as JSON."""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout)
