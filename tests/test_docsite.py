"""The documentation site: built with warnings as errors, complete, and read in Chromium.

The site is built once (``python -m sphinx -W -b html``, from a copy of ``docs/``, so
that the build writes nothing into the repository) and shared by the tests of every
worker: a lock lets the first build it, keyed by the contents of the sources.  The
reference is checked against the package itself (every name of every ``__all__``, every
subcommand of the parser), every internal link of every page against the pages and
their anchors, and in headless Chromium three pages, the search, and every page and
the navigation at a phone's width (skipped when ``/usr/bin/chromium`` is absent, as for
the inspector).
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import hashlib
import html.parser
import http.server
import importlib
import inspect
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHROMIUM = Path("/usr/bin/chromium")

pytest.importorskip("sphinx")
pytest.importorskip("furo")
pytest.importorskip("myst_parser")

sys.path.insert(0, str(DOCS / "_ext"))
import urikit_reference  # noqa: E402

sys.path.remove(str(DOCS / "_ext"))


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for folder, pattern in ((DOCS, "**/*"), (ROOT / "src" / "urikit", "**/*.py")):
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and "_build" not in path.parts and "api" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site's folder (``index.html`` and the rest)."""
    where = Path(tempfile.gettempdir()) / f"urikit-docsite-{os.getuid()}-{_sources_digest()}"
    html_dir = where / "html"
    with open(f"{where}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (html_dir / "objects.inv").exists():
            shutil.rmtree(where, ignore_errors=True)
            source = where / "source"
            shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build", "api"))
            built = subprocess.run(
                [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", source, html_dir],
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert built.returncode == 0, built.stderr
    return html_dir


# --- the reference is complete -------------------------------------------------------------


def _inventory(site: Path) -> set[str]:
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda base, uri: uri)
    names: set[str] = set()
    for kind, entries in inventory.items():
        if kind.startswith("py:"):
            names.update(entries)
    return names


def _public_names() -> Iterator[tuple[str, str, Any]]:
    """Each public module, each name of its ``__all__``, and its value."""
    for module in ("urikit", *urikit_reference.PUBLIC_MODULES):
        imported = importlib.import_module(module)
        for name in imported.__all__:
            yield module, name, getattr(imported, name)


def test_every_public_name_is_in_the_reference(site: Path) -> None:
    """Each name of every ``__all__`` has a cross-reference target in the reference:
    ``module.name``, or ``urikit.NAME`` for an object that ``urikit.__all__`` holds too."""
    import urikit

    everyday = {name: getattr(urikit, name) for name in urikit.__all__}
    found = _inventory(site)
    missing = []
    for module, name, value in _public_names():
        same = urikit_reference._everyday_name(value, everyday) if module != "urikit" else None
        target = f"urikit.{same}" if same is not None else f"{module}.{name}"
        if target not in found:
            missing.append(f"{module}.{name}")
    assert not missing, f"not in the built reference: {missing}"
    for module in urikit_reference.PUBLIC_MODULES:
        assert module in found, module
        assert (site / "api" / f"{module}.html").exists()
    for name in urikit.__all__:
        assert (site / "api" / f"urikit.{name}.html").exists(), name


def test_every_public_name_has_a_docstring() -> None:
    """A class or function has a docstring of its own; data has a ``#:`` comment."""
    missing = []
    for module, name, value in _public_names():
        if inspect.isclass(value) or inspect.isfunction(value) or inspect.isbuiltin(value):
            if not (value.__doc__ or "").strip():
                missing.append(f"{module}.{name}")
        elif not urikit_reference.data_comment(module, name):
            missing.append(f"{module}.{name}")
    assert not missing, f"undocumented: {missing}"


def test_every_public_method_and_property_has_a_docstring() -> None:
    """The reference shows a class's members that have a docstring: a public method or
    property without one would be missing from its page."""
    missing = []
    for module, name, value in _public_names():
        if not inspect.isclass(value):
            continue
        own = [
            base
            for base in value.__mro__
            if base.__module__.startswith("urikit") and base.__module__ != "urikit._speedups"
        ]
        for cls in own:
            for member, attribute in vars(cls).items():
                if member.startswith("_"):
                    continue
                if isinstance(attribute, property):
                    function = attribute.fget
                else:
                    function = getattr(attribute, "__func__", attribute)
                if callable(function) and not (function.__doc__ or "").strip():
                    missing.append(f"{module}.{name}.{member}")
    assert not missing, f"undocumented: {sorted(set(missing))}"


def test_the_reference_names_the_modules_of_the_architecture() -> None:
    """docs/architecture.md's "The public API" and the reference list the same modules."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The public API", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(urikit\.[a-z_0-9]+)`", section)) - {"urikit.__all__"}
    assert named <= set(urikit_reference.PUBLIC_MODULES), named - set(
        urikit_reference.PUBLIC_MODULES
    )


def test_every_module_a_guide_imports_from_has_a_reference_page() -> None:
    """What a guide's example imports, a reader can look up: ``urikit`` or a module of the
    reference."""
    imported = re.compile(r"^(?:>>> |\.\.\. )?\s*(?:from|import) (urikit[.\w]*)", re.MULTILINE)
    found = {
        (path.name, module)
        for path in [*DOCS.glob("*.md"), ROOT / "README.md"]
        for module in imported.findall(path.read_text(encoding="utf-8"))
    }
    assert len({module for _, module in found}) > 15
    documented = {"urikit", *urikit_reference.PUBLIC_MODULES}
    missing = sorted((name, module) for name, module in found if module not in documented)
    assert not missing, missing


def _commands(parser: argparse.ArgumentParser, prefix: str) -> Iterator[str]:
    for name, subparser in urikit_reference._subcommands(parser).items():
        yield f"{prefix} {name}"
        yield from _commands(subparser, f"{prefix} {name}")


def test_the_command_reference_has_every_subcommand_and_option(site: Path) -> None:
    from urikit.cli import build_parser

    page = (site / "api" / "cli.html").read_text(encoding="utf-8")
    parser = build_parser()
    commands = list(_commands(parser, "urikit"))
    assert len(commands) > 15
    for command in commands:
        assert f'id="{command.replace(" ", "-")}"' in page, command
    for option in ("--json", "--input", "--errors", "--remove-tracking", "--fail-on"):
        assert f">{option}" in page or f"{option} " in page, option
    # Help is typed text: no dash or quote is made typographic.
    assert "--show-password" in page and "\u2013show-password" not in page


# --- links ---------------------------------------------------------------------------------


class _Page(html.parser.HTMLParser):
    """The ids and the link targets of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for attribute in ("href", "src"):
            target = values.get(attribute)
            if target and (tag in ("a", "img", "script", "link")):
                self.links.append(target)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_no_internal_link_is_broken(site: Path) -> None:
    """Every link of every page to the site itself reaches a file, and its anchor an id
    of that page."""
    pages = {path: _read(path) for path in site.rglob("*.html")}
    assert len(pages) > 40
    broken = []
    checked = 0
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//") or link.startswith("mailto:"):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(site)}: {link}")
                continue
            checked += 1
            if parts.fragment and target.suffix == ".html":
                anchors = pages[target].ids if target in pages else _read(target).ids
                if unquote(parts.fragment) not in anchors:
                    broken.append(f"{path.relative_to(site)}: {link}")
    assert checked > 1000
    assert not broken, "\n".join(broken[:40])


def test_guides_link_to_the_reference(site: Path) -> None:
    """The documents written for the repository keep working on the site: a link between
    two of them (``resolution.md#...``) became a link between pages."""
    page = _read(site / "index.html")
    assert "api/index.html" in page.links
    assert any(link.startswith("resolution.html") for link in page.links)


# --- in Chromium ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The site on a local HTTP server, as a reader's browser gets it."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(served: str) -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("needs Chromium at /usr/bin/chromium")
    playwright_api = pytest.importorskip("playwright.sync_api")
    playwright = playwright_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
    except Exception:
        playwright.stop()
        raise
    yield browser
    browser.close()
    playwright.stop()


def _page(browser: Any, width: int, height: int) -> tuple[Any, list[str]]:
    """A page of ``width`` by ``height`` CSS pixels and the script errors it will raise."""
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@pytest.fixture(scope="module")
def browser_page(browser: Any) -> tuple[Any, list[str]]:
    """A page the width of a laptop's window."""
    return _page(browser, 1100, 900)


@pytest.fixture(scope="module")
def phone_page(browser: Any) -> tuple[Any, list[str]]:
    """A page the width of a phone held upright (375 CSS pixels, as an iPhone's)."""
    return _page(browser, 375, 740)


def test_the_home_page_renders(served: str, browser_page: Any) -> None:
    page, errors = browser_page
    page.goto(served)
    assert page.title().startswith("urikit")
    assert page.locator("h1").first.inner_text().startswith("urikit")
    navigation = page.locator(".sidebar-tree").text_content() or ""
    for entry in ("Getting started", "Reference", "The command: urikit", "Coming from yarl"):
        assert entry in navigation, entry
    assert page.locator("pre").count() > 0
    assert not errors


def test_a_reference_page_renders(served: str, browser_page: Any) -> None:
    page, errors = browser_page
    page.goto(urljoin(served, "api/urikit.URI.html"))
    signature = page.locator('[id="urikit.URI.resolve"]')
    assert signature.is_visible()
    assert "resolve" in signature.inner_text() and "ref" in signature.inner_text()
    assert "RFC 3986" in page.locator("article").inner_text()
    assert not errors


def test_a_guide_renders(served: str, browser_page: Any) -> None:
    page, errors = browser_page
    page.goto(urljoin(served, "resolution.html"))
    assert page.locator("h1").first.is_visible()
    text = page.locator("article").inner_text()
    assert "§5.4.1" in text and "http://a/b/c/g" in text
    assert page.locator("table").count() > 0
    assert not errors


def test_the_search_finds_resolve(served: str, browser_page: Any) -> None:
    page, errors = browser_page
    page.goto(urljoin(served, "search.html?q=resolve"))
    # Results are shown one by one; the summary says when the last one is in.
    page.locator(".search-summary", has_text="Search finished").wait_for(timeout=60_000)
    results = page.locator("ul.search li a")
    targets = [results.nth(i).get_attribute("href") or "" for i in range(results.count())]
    assert any("api/urikit.resolve.html" in target for target in targets), targets
    assert any(target.startswith("resolution.html") for target in targets), targets
    assert not errors


def test_no_page_scrolls_sideways_on_a_phone(site: Path, served: str, phone_page: Any) -> None:
    """At a phone's width every page fits: the body is no wider than the screen (a wide
    table or code block scrolls inside its own box), and none raises a script error."""
    page, errors = phone_page
    wide = []
    paths = sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))
    assert len(paths) > 40
    for path in paths:
        page.goto(urljoin(served, path))
        width, screen = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        if width > screen:
            wide.append(f"{path}: {width} > {screen}")
    assert not wide, wide
    assert not errors


def test_the_navigation_opens_on_a_phone(served: str, phone_page: Any) -> None:
    """On a phone the sidebar waits off the screen, to the left, until the menu button
    brings it in; its links then lead to the guides."""
    page, errors = phone_page
    page.goto(served)
    assert page.locator("article h1").first.is_visible()
    guide = page.locator(".sidebar-tree a", has_text="Resolving and relativizing").first

    def on_screen() -> bool:
        box = guide.bounding_box()
        return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375

    assert not on_screen()
    page.locator(".mobile-header label[for='__navigation']").click()
    page.wait_for_function(
        "() => document.querySelector('.sidebar-drawer').getBoundingClientRect().left >= 0"
    )
    assert on_screen()
    guide.click()
    page.wait_for_url("**/resolution.html")
    assert not errors
