"""Redraw ``docs/images/inspect.png``: the page of ``urikit inspect`` in headless Chromium.

Serves the inspector on a free port of 127.0.0.1, opens it in Debian's Chromium
(``/usr/bin/chromium``, driven by Playwright as ``tests/test_inspect.py`` drives it)
at 860 x 640 pixels, types a URI and a second one to compare it with, and saves
what the window shows.

    python tools/inspect_screenshot.py [--output docs/images/inspect.png]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from urikit.cli._inspector import make_server, serve_in_thread

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
URI = "http://user@Example.COM:80/a/./b/%C3%A9t%C3%A9?q=1&lang=fr#top"
OTHER = "http://user@example.com/a/b/%c3%a9t%c3%a9?q=1&lang=fr#top"
WIDTH, HEIGHT = 860, 640


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "images" / "inspect.png")
    args = parser.parse_args()
    server = make_server(0)
    serve_in_thread(server)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
            page.fill("#other", OTHER)
            page.fill("#uri", URI)
            page.wait_for_function(
                "v => document.getElementById('out').dataset.for === JSON.stringify(v)",
                arg=[URI, "", OTHER],
            )
            page.screenshot(path=str(args.output))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
