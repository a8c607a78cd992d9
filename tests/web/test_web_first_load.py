"""The lobby is usable within 3 s on a slow link and shows progress before
that, in Debian's chromium.

The link is chromium's own emulation (400 ms round trip, 400 kbit/s each
way, tests/slow_link.py) and the cache is cold. The figure behind this
test, with its command, is in benchmarks/results/web.md.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from slow_link import first_load
from web_helpers import base_url, browser

# Quiet: run alone (`make test` does), since a second worker's browser adds
# its CPU to the figure.
pytestmark = [pytest.mark.browser, pytest.mark.quiet]
__all__ = ["base_url", "browser"]  # the shared fixtures

#: The promise: Deal enabled within this time from navigation (ms).
USABLE_MS = 3000


def test_the_lobby_is_usable_within_3_s_on_a_slow_link(browser: Browser, base_url: str) -> None:
    load = first_load(browser, base_url)
    assert load.deal_ms <= USABLE_MS, load
    # Something was painted well before, and it was the progress indicator.
    assert load.first_paint_ms < load.deal_ms - 300, load
    assert load.progress_shown, load


def test_a_phone_gets_the_same_first_load(browser: Browser, base_url: str) -> None:
    load = first_load(browser, base_url, width=360, height=740)
    assert load.deal_ms <= USABLE_MS, load
