"""The page's first load over a slow link, measured in Debian's chromium.

Chromium's DevTools protocol emulates the link (``Network.emulateNetworkConditions``:
a fixed latency added to every request and a cap on each direction's
throughput), so the figure is deterministic enough to assert in a test and
to quote in ``benchmarks/results/web.md``. The cache is cold: a new browser
context, caching disabled for the measured load.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Browser

#: The link the page promises to be usable on: 400 ms round trip, 400 kbit/s each way.
LATENCY_MS = 400
THROUGHPUT = 50_000  # bytes per second (400 kbit/s)

#: Collected in the page from navigation on: when something was first painted
#: and when the Deal button became enabled (performance.now(), ms).
WATCH = """
window.__firstLoad = { deal: null, paint: null, progress: null };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.name !== "first-contentful-paint") continue;
    window.__firstLoad.paint = entry.startTime;
    // What that first paint showed: the page's own progress indicator, or already the lobby.
    window.__firstLoad.progress = !!document.querySelector(".boot [role=status], .boot[role=status]");
  }
}).observe({ type: "paint", buffered: true });
const dealWatch = () => {
  const button = document.getElementById("deal-button");
  if (button && !button.disabled) { window.__firstLoad.deal = performance.now(); return; }
  requestAnimationFrame(dealWatch);
};
requestAnimationFrame(dealWatch);
"""


@dataclass(frozen=True)
class FirstLoad:
    """One cold load of ``/``: milliseconds from navigation to the first
    painted content and to an enabled Deal button, whether the progress
    indicator was on the screen at the first paint; requests and bytes."""

    first_paint_ms: float
    deal_ms: float
    progress_shown: bool
    requests: int
    bytes: int


def first_load(
    browser: Browser, base_url: str, *, width: int = 1280, height: int = 800
) -> FirstLoad:
    """Load the lobby once over the emulated slow link with a cold cache."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        sizes: list[int] = []
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.on(
            "Network.loadingFinished", lambda event: sizes.append(int(event["encodedDataLength"]))
        )
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": LATENCY_MS,
                "downloadThroughput": THROUGHPUT,
                "uploadThroughput": THROUGHPUT,
            },
        )
        page.goto(base_url + "/", wait_until="commit")
        # Polled from here: the page's Content-Security-Policy forbids wait_for_function's eval.
        found = page.evaluate("window.__firstLoad")
        for _ in range(600):
            if found and found["deal"] is not None:
                break
            page.wait_for_timeout(100)
            found = page.evaluate("window.__firstLoad")
        else:
            raise AssertionError("the Deal button was not enabled within 60 s")
        paint = found["paint"] if found["paint"] is not None else found["deal"]
        shown = bool(found["progress"])
        return FirstLoad(float(paint), float(found["deal"]), shown, len(sizes), sum(sizes))
    finally:
        context.close()
