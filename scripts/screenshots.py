"""Screenshots of every screen of the web game, made in Debian's chromium.

Starts its own server (bots without delay, chosen seeds) on a free loopback
port in its own process group, plays through the page as a person would, and
saves one PNG per screen, size and language to artifacts/screenshots/gallery/
(name: SCREEN-WIDTHxHEIGHT-LANG.png, the viewport as the person sees it).
Kills the server's whole group at the end.

    .venv/bin/python scripts/screenshots.py                # every screen, en + ru
    .venv/bin/python scripts/screenshots.py --docs         # also the small copies in docs/images/

--docs writes the gallery the README and docs/web.md show: palette-reduced
PNGs (Pillow), a few hundred KB in all.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
# The one server starter and the browser helpers the tests use.
sys.path.insert(0, str(ROOT / "tests"))
from server_process import running_server  # noqa: E402
from web_helpers import knock_now, launch_chromium  # noqa: E402
from web_helpers import start as start_game  # noqa: E402

GALLERY = ROOT / "artifacts" / "screenshots" / "gallery"
DOCS_IMAGES = ROOT / "docs" / "images"
SIZES = [(1280, 800), (360, 740), (390, 844)]
# Russian at the desktop size and the small phone.
RUSSIAN_SIZES = [(1280, 800), (360, 740)]
# A Knock Rummy deal (2 bots) whose first turn is the person's, before any knock.
SEED = 7
# The copies for the README and the docs: (gallery name, width to scale to).
DOCS_PICKS = [
    ("table-1280x800-en", 1280),
    ("showdown-1280x800-en", 1280),
    ("lobby-1280x800-en", 1280),
    ("match-end-1280x800-en", 1280),
    ("stats-1280x800-en", 1280),
    ("history-1280x800-en", 1280),
    ("rules-1280x800-en", 1280),
    ("guided-1280x800-en", 1280),
    ("table-360x740-en", 360),
    ("showdown-390x844-en", 390),
    ("lobby-360x740-ru", 360),
    ("table-1280x800-ru", 1280),
]


@contextmanager
def server() -> Iterator[str]:
    """A server on a free loopback port; its whole process group is killed after."""
    with tempfile.TemporaryDirectory(prefix="pyrummy-shots-") as data_dir:
        arguments = ["--data-dir", data_dir, "--bot-delay", "0", "--allow-seed"]
        with running_server(arguments, env={"DATABASE_URL": ""}, deadline=60) as running:
            yield running.url


def at_rest(page: Page) -> None:
    """No card still gliding (motion.js): the picture shows the cards in place."""
    for _ in range(100):
        if not page.evaluate("document.getAnimations().filter(a => a.id === 'glide').length"):
            break
        page.wait_for_timeout(30)
    page.wait_for_timeout(400)  # the short CSS flashes (a seat that played, a lifted pile) end


def save(page: Page, name: str) -> None:
    at_rest(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.screenshot(path=str(GALLERY / f"{name}.png"))
    print(name)


def start(page: Page, length: str | None = None) -> None:
    """Knock Rummy against two bots on the chosen deal, at the person's first turn."""
    start_game(page, bots=2, length=length, seed=SEED)
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)


def every_screen(browser: Browser, base: str, width: int, height: int, lang: str) -> None:
    locale = "ru-RU" if lang == "ru" else "en-GB"
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    size = f"{width}x{height}-{lang}"
    page.goto(base + "/")
    page.wait_for_selector("#deal-button")
    save(page, f"lobby-{size}")
    # The guided deal, at its first step.
    page.goto(base + "/#/learn")
    page.wait_for_selector("#coach")
    save(page, f"guided-{size}")
    page.goto(base + "/")
    page.wait_for_selector("#deal-button")
    # A table mid-deal: one turn played, the next drawn.
    start(page)
    page.click("#stock")
    expect(page.locator("#stock")).to_be_disabled()
    page.locator(".hand .card.drawn").click()
    page.click("#btn-discard")
    page.wait_for_selector("#stock:not([disabled])", timeout=20000)
    page.click("#stock")
    expect(page.locator("#stock")).to_be_disabled()
    page.evaluate("scrollTo(0, 0)")
    save(page, f"table-{size}")
    # The showdown of that deal.
    page.locator(".hand .card.drawn").click()
    page.click("#btn-knock")
    page.wait_for_timeout(200)
    if page.locator("dialog[open]").count():
        page.locator("dialog[open] .danger").click()
    page.wait_for_selector("#showdown", timeout=20000)
    page.evaluate("scrollTo(0, 0)")
    save(page, f"showdown-{size}")
    # A one-deal match to its end.
    page.goto(base + "/")
    page.wait_for_selector("#deal-button")
    start(page, length="one")
    knock_now(page)
    page.wait_for_selector("#match-end", timeout=20000)
    page.evaluate("scrollTo(0, 0)")
    save(page, f"match-end-{size}")
    for screen, address, ready in [
        ("history", "#/history", "#my-games"),
        ("stats", "#/stats", "#stats-played"),
        ("rules", "#/rules/knock", "h1"),
    ]:
        page.goto(f"{base}/{address}")
        page.wait_for_selector(ready)
        save(page, f"{screen}-{size}")
    if errors:
        raise RuntimeError(f"page errors at {size}: {errors}")
    context.close()


def docs_copies() -> None:
    """Small copies for the docs: a 128-colour palette keeps cards and text crisp."""
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    total = 0
    for name, width in DOCS_PICKS:
        with Image.open(GALLERY / f"{name}.png") as image:
            picture = image.convert("RGB")
            if picture.width != width:
                height = round(picture.height * width / picture.width)
                picture = picture.resize((width, height), Image.Resampling.LANCZOS)
            small = picture.quantize(
                colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
            target = DOCS_IMAGES / f"{name}.png"
            small.save(target, optimize=True)
            total += target.stat().st_size
    print(f"docs/images: {len(DOCS_PICKS)} pictures, {total // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--docs", action="store_true", help="also write the small copies in docs/images/"
    )
    parser.add_argument("--only", help="only this size, e.g. 360x740")
    parser.add_argument(
        "--copies-only", action="store_true", help="only remake docs/images/ from the gallery"
    )
    args = parser.parse_args()
    if args.copies_only:
        docs_copies()
        return
    GALLERY.mkdir(parents=True, exist_ok=True)
    runs = [(w, h, "en") for w, h in SIZES] + [(w, h, "ru") for w, h in RUSSIAN_SIZES]
    if args.only:
        runs = [run for run in runs if f"{run[0]}x{run[1]}" == args.only]
    with server() as base, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for width, height, lang in runs:
                every_screen(browser, base, width, height, lang)
        finally:
            browser.close()
    if args.docs:
        docs_copies()


if __name__ == "__main__":
    main()
