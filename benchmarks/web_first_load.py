"""The lobby's first load on a slow link (400 ms round trip, 400 kbit/s),
cold cache, in Debian's chromium: from navigation to the first painted
content and to an enabled Deal button.

A loopback server; chromium's own network emulation (tests/slow_link.py).

    .venv/bin/python benchmarks/web_first_load.py --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

# The one server starter, browser launch and measurement the tests use.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_process import running_server
from slow_link import LATENCY_MS, THROUGHPUT, FirstLoad, first_load
from web_helpers import launch_chromium


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    loads: list[FirstLoad] = []
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        with running_server(["--data-dir", data], env={"DATABASE_URL": ""}) as server:
            for _ in range(args.runs):
                loads.append(first_load(browser, server.url))
        browser.close()
    print(f"link: {LATENCY_MS} ms latency, {THROUGHPUT * 8 // 1000} kbit/s each way, cold cache")
    for load in loads:
        print(
            f"first paint {load.first_paint_ms:7.0f} ms (progress shown: {load.progress_shown})"
            f" · Deal enabled {load.deal_ms:7.0f} ms"
            f" · {load.requests} requests, {load.bytes} bytes"
        )
    print(f"median Deal enabled: {statistics.median(load.deal_ms for load in loads):.0f} ms")


if __name__ == "__main__":
    main()
