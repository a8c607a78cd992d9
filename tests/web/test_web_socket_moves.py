"""The page sends its moves over the table's WebSocket, and falls back to POST.

While the table's socket is open, a move (draw, meld, undo, discard, next
deal) is one ``{"type": "act"}``/``{"type": "continue"}`` message and no
request to ``/actions`` or ``/continue``; with the socket gone (the server's
socket replaced by one that closes at once, or one that never answers) the
same moves go by POST and the table plays on.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from web_helpers import (
    SLOW,
    base_url,
    browser,
    errors_of,
    open_page,
    rummy_seed_with_four_card_meld,
    start,
)

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures

TABLE_SOCKET = re.compile(r"/api/tables/[^/]+/ws")
MOVE_POSTS = re.compile(r"/api/tables/[^/]+/(actions|continue)$")


def watch(page: Page) -> tuple[list[str], list[dict[str, Any]]]:
    """The page's POSTs of moves and the messages it sends on table sockets."""
    posts: list[str] = []
    sent: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and MOVE_POSTS.search(request.url)
            else None
        ),
    )

    def on_socket(ws: Any) -> None:
        if TABLE_SOCKET.search(ws.url):
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return posts, sent


def draw_meld_undo_discard(page: Page) -> list[str]:
    """Draw, meld three cards, take the meld back, discard one of them (Rummy
    against a bot); the four cards of a meld the person held after drawing."""
    seed, four = rummy_seed_with_four_card_meld()
    start(page, game="rummy", bots=1, seed=seed)
    page.wait_for_selector("#stock:not([disabled])", timeout=SLOW)
    page.click("#stock")
    # (Slow answers allowed: with a silent socket each move waits for its ack first.)
    expect(page.locator("#stock")).to_be_disabled(timeout=SLOW)
    for card in four[:3]:
        page.click(f"#hand-card-{card}")
    page.click("#btn-meld")
    expect(page.locator('.meld[data-meld="0"] .card')).to_have_count(3, timeout=SLOW)
    page.click("#btn-undo")
    expect(page.locator(".melds .meld")).to_have_count(0, timeout=SLOW)
    expect(page.locator(f"#hand-card-{four[0]}")).to_be_visible()
    page.click(f"#hand-card-{four[0]}")
    page.click("#btn-discard")
    expect(page.locator(f"#hand-card-{four[0]}")).to_have_count(0, timeout=SLOW)
    return four


def test_moves_go_over_the_open_socket_and_no_post_is_made(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    posts, sent = watch(page)
    draw_meld_undo_discard(page)
    kinds = [(m["type"], m.get("action", "")) for m in sent]
    assert [k for k, _ in kinds] == ["act"] * 4, kinds
    assert kinds[0][1] == "draw stock" and kinds[2][1] == "undo"
    assert posts == []
    # The bot answers and the person's turn comes back (events as usual).
    page.wait_for_selector("#stock:not([disabled]), #showdown, #match-end", timeout=SLOW)
    assert not errors_of(page)
    page.context.close()


@pytest.mark.parametrize("socket", ["closes", "never answers"])
def test_with_no_socket_the_moves_go_by_post(browser: Browser, base_url: str, socket: str) -> None:
    page = open_page(browser, base_url)

    def broken(ws: WebSocketRoute) -> None:
        # Not connected to the server: either closed at once (the page keeps
        # reconnecting) or open and silent (no ack, no event ever).
        if socket == "closes":
            ws.close()

    page.route_web_socket(TABLE_SOCKET, broken)
    posts, _ = watch(page)
    draw_meld_undo_discard(page)
    assert len(posts) == 4 and all(p.endswith("/actions") for p in posts), posts
    assert not errors_of(page)
    page.context.close()
