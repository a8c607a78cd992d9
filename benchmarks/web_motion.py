"""Click to screen at the web table, with card movement on and under
prefers-reduced-motion, in Debian's chromium (issue 11: animations must
never delay input).

A loopback server (bots without delay); one Knock Rummy table against one
easy bot per mode. Each of the person's clicks on the stock and on Discard
(not the card selections) is timed in the page, from the click to the first frame painted after the
hand changed (performance.now() in a capture listener, a MutationObserver,
then requestAnimationFrame), so the server round trip is included and the
glide itself is not (it runs on the already updated page).

    .venv/bin/python benchmarks/web_motion.py --turns 30
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import Error as PlaywrightError

# The one server starter and the browser launch the tests use.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_process import running_server
from web_helpers import launch_chromium

TIMER = """
window.clickTimes = [];
document.addEventListener("click", (event) => {
  if (!event.target.closest("#stock, #btn-discard")) return;
  const start = performance.now();
  const count = () => document.querySelectorAll(".hand .card").length;
  const before = count();
  const watch = new MutationObserver(() => {
    if (count() === before) return;
    watch.disconnect();
    requestAnimationFrame(() => window.clickTimes.push(performance.now() - start));
  });
  watch.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => watch.disconnect(), 5000);
}, true);
"""


def play(browser: Browser, url: str, turns: int, reduced: bool) -> list[float]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page = context.new_page()
    page.add_init_script(TIMER)
    page.goto(url + "/")
    page.select_option("#bot-count", "1")
    page.click("#deal-button")
    done = 0
    while done < turns:
        page.wait_for_selector("#stock:not([disabled]), #btn-next, #btn-again", timeout=30000)
        # The end screens are re-rendered as the table's events arrive: a
        # click may land on the fresh button while Playwright still holds the
        # old one, so a click that already worked is not retried.
        for button in ("#btn-again", "#btn-next"):
            if page.locator(button).count():
                with contextlib.suppress(PlaywrightError):
                    page.click(button, timeout=3000)
                break
        else:
            page.click("#stock")
            page.wait_for_selector("#btn-stock[disabled]")
            page.locator(".hand .card.drawn").click()
            page.click("#btn-discard")
            page.wait_for_selector("#btn-discard[disabled], #btn-next, #btn-again")
            done += 1
    page.wait_for_timeout(300)
    times: list[float] = page.evaluate("window.clickTimes")
    context.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        arguments = ["--data-dir", data, "--bot-delay", "0"]
        with (
            running_server(arguments, env={"DATABASE_URL": ""}, deadline=60) as server,
            sync_playwright() as playwright,
        ):
            browser = launch_chromium(playwright)
            for reduced in (False, True):
                times = sorted(play(browser, server.url, args.turns, reduced))
                p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
                mode = "reduced motion" if reduced else "motion on    "
                print(
                    f"{mode}: {len(times)} clicks, median {statistics.median(times):.1f} ms, "
                    f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
                )
            browser.close()


if __name__ == "__main__":
    main()
