"""The Moves list names the card a "draw discard" took, in Debian's chromium:
live, after a reload, and in an opponent's last step."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from web_helpers import SLOW, base_url, browser, errors_of, open_page, start

pytestmark = pytest.mark.browser
__all__ = ["base_url", "browser"]  # the shared fixtures

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def test_moves_name_the_taken_discard(browser: Browser, base_url: str) -> None:
    page = open_page(browser, base_url)
    start(page, game="knock", bots=1, seed=3)
    page.wait_for_selector("#discard-pile:not([disabled])", timeout=SLOW)
    up = page.locator(".discard-stack .card").last.get_attribute("data-card")
    assert up
    page.click("#discard-pile")
    line = f"took {pretty(up)} from the discard pile"
    moves = page.locator("#moves")
    expect(moves).to_contain_text(line)
    # After a reload the list is rebuilt from the server's state: still named.
    page.reload()
    expect(page.locator("#moves")).to_contain_text(line, timeout=SLOW)
    assert not errors_of(page)
