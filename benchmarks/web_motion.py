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
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from playwright.sync_api import Browser, sync_playwright
from playwright.sync_api import Error as PlaywrightError

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pyrummy.cli.main",
                "serve",
                "--port",
                str(port),
                "--data-dir",
                data,
                "--bot-delay",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "DATABASE_URL": ""},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.05)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                for reduced in (False, True):
                    times = sorted(play(browser, url, args.turns, reduced))
                    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
                    mode = "reduced motion" if reduced else "motion on    "
                    print(
                        f"{mode}: {len(times)} clicks, median {statistics.median(times):.1f} ms, "
                        f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
                    )
                browser.close()
        finally:
            server.kill()
            server.wait(10)


if __name__ == "__main__":
    main()
