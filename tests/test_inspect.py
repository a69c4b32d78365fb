"""``urikit inspect``: the answer of ``POST /api/inspect``, the server's refusals, the
command, and the page in headless Chromium (skipped when /usr/bin/chromium is absent)."""

from __future__ import annotations

import http.client
import itertools
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from urikit.cli._inspection import inspect, plural
from urikit.cli._inspector import MAX_BODY, Server, make_server, serve_in_thread

RFC_EXAMPLE = "foo://user@example.com:8042/over/there?name=ferret#nose"
BASE = "http://a/b/c/d;p?q"  # RFC 3986 §5.4
HOSTILE = "http://evil.com\\@good.com/\u202eexe.txt\x00"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"


# --- the answer -------------------------------------------------------------------------------


def test_pieces_are_labelled_and_point_into_the_input() -> None:
    result = inspect("foo://u@example.com:8042/over/th%C3%A9re?name=ferret&x#nose")
    assert result["ok"] and result["host_type"] == "reg-name"
    text = result["input"]
    labels = []
    for piece in result["pieces"]:
        start, end = piece["span"]
        assert text[start:end] == piece["text"]
        labels.append(piece["label"])
    assert [label for label in labels if label] == [
        "scheme",
        "userinfo",
        "host · reg-name",
        "port",
        "segment 1",
        "segment 2",
        "param 1",
        "param 2",
        "fragment",
    ]
    assert "".join(piece["text"] for piece in result["pieces"]) == text
    segment = result["segments"][1]
    assert segment["text"] == "th%C3%A9re" and segment["decoded"] == "thére"
    octets = [
        part for piece in result["pieces"] for part in piece.get("parts", ()) if "decoded" in part
    ]
    assert octets == [{"text": "%C3%A9", "decoded": "é", "title": "'é': octets C3 A9"}]
    assert result["params"][1] == {
        "text": "x",
        "span": [53, 54],
        "name": "x",
        "value": None,
        "plus": False,
    }


def test_an_invalid_reference_has_its_position_and_rule() -> None:
    result = inspect("http://a b/")
    assert not result["ok"]
    error = result["error"]
    assert (error["position"], error["rule"]) == (8, "host")
    assert error["excerpt"]["before"] == "http://a" and error["excerpt"]["mark"] == " "
    assert result["lenient"]["text"] == "http://a%20b/"


def test_resolution_shows_the_steps_of_5_2() -> None:
    # RFC 3986 §5.4.1: "../g" -> "http://a/b/g"
    resolution = inspect("../g", BASE)["resolution"]
    assert resolution["target"] == "http://a/b/g"
    steps = {step["step"]: step for step in resolution["steps"]}
    assert steps["§5.2.3 merge"]["out"] == "/b/c/../g"
    assert steps["§5.2.4 remove_dot_segments"]["out"] == "/b/g"
    assert resolution["relativized"] == "../g" and resolution["round_trip"]


def test_a_relative_base_is_refused() -> None:
    assert inspect("g", "/a/b")["resolution"]["error"]["rule"] == "absolute-URI"


def test_the_ladder_and_the_rung_of_equivalence() -> None:
    result = inspect("HTTP://Example.COM:80/a/./b", other="http://example.com/a/b")
    assert [rung["text"] for rung in result["ladder"]] == [
        "HTTP://Example.COM:80/a/./b",
        "http://example.com:80/a/b",
        "http://example.com/a/b",
    ]
    assert result["comparison"]["rung"] == "scheme"
    assert inspect("http://a/", other="http://b/")["comparison"]["rung"] is None


def test_findings_and_parser_disagreements() -> None:
    result = inspect("http://evil.com\\@good.com/")
    codes = {finding["code"] for finding in result["findings"]}
    assert {"misleading-userinfo", "parser-differential"} <= codes
    rows = {row["component"]: row for row in result["parsers"]["rows"]}
    assert rows["host"]["differs"]  # WHATWG reads evil.com, urikit good.com
    assert not rows["scheme"]["differs"]
    for finding in result["findings"]:
        start, end = finding["span"]
        assert finding["excerpt"]["mark"] == result["input"][start:end]


def test_the_whatwg_parser_reads_against_the_base() -> None:
    """With a base, each column reads the target: the WHATWG parser reads the reference
    against the base (a basic URL parser with a base URL)."""
    parsers = inspect("../g", BASE)["parsers"]
    assert parsers["failures"] == [None, None, None]
    assert parsers["against"] == "http://a/b/g"
    rows = {row["component"]: row["values"] for row in parsers["rows"]}
    assert rows["path"] == ["/b/g", "/b/g", "/b/g"] and rows["host"] == ["a", "a", "a"]
    assert inspect("../g", "http://[")["parsers"]["failures"][2] is not None  # a bad base


def test_an_iri_shows_its_uri_and_its_idna_host() -> None:
    result = inspect("http://例え.jp/パス")
    assert result["kind"] == "iri"
    assert result["mapping"] == {
        "uri": "http://%E4%BE%8B%E3%81%88.jp/%E3%83%91%E3%82%B9",  # RFC 3987 §3.1
        "idna": "http://xn--r8jz45g.jp/%E3%83%91%E3%82%B9",
        "idna_host": "xn--r8jz45g.jp",
    }
    assert inspect("http://a/é")["mapping"] == {"uri": "http://a/%C3%A9"}
    assert "idna_error" in inspect("http://a_é.com/")["mapping"]
    assert "mapping" not in inspect("http://a/")


def test_counts_are_singular_or_plural() -> None:
    rest = inspect("http://h/" + "a/" * 400)["pieces"][-1]
    assert rest["kind"] == "rest" and rest["label"].endswith(" more pieces")
    assert plural(1, "more piece") == "1 more piece" and plural(2, "segment") == "2 segments"


def test_a_parser_that_refuses_the_text_says_so() -> None:
    failures = inspect("http://[::1/")["parsers"]["failures"]
    assert failures[0] == "invalid" and failures[1].startswith("refused")
    assert (
        inspect("../g")["parsers"]["failures"][2]
        == "refused: a relative reference needs a base URL"
    )


def test_long_and_hostile_answers_are_bounded() -> None:
    long = "http://h/" + "a/" * 30000
    result = inspect(long)
    assert result["ok"] and result["segments_total"] == 30001
    assert len(result["segments"]) < 1000 and result["pieces"][-1]["kind"] == "rest"
    hostile = inspect(HOSTILE)
    assert not hostile["ok"] and hostile["findings"]


# --- the server ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    server = make_server(0)
    serve_in_thread(server)
    yield server
    server.shutdown()
    server.server_close()


def request(
    server: Server,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(str(host), port, timeout=60)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": f"127.0.0.1:{port}"}
        if body is not None:
            sent["Content-Type"] = "application/json"
            sent["Content-Length"] = str(len(body))
        sent.update(headers or {})
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def ask(server: Server, fields: dict[str, Any], **headers: str) -> tuple[int, Any]:
    status, _, body = request(server, "POST", "/api/inspect", json.dumps(fields).encode(), headers)
    return status, json.loads(body)


def test_listens_on_loopback_only(server: Server) -> None:
    assert server.server_address[0] == "127.0.0.1"


def test_serves_the_page_and_its_files(server: Server) -> None:
    status, headers, body = request(server, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'<input id="uri"' in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    for path, kind in (("/inspector.js", "text/javascript"), ("/inspector.css", "text/css")):
        status, headers, _ = request(server, "GET", path)
        assert status == 200 and headers["Content-Type"].startswith(kind)


def test_answers_the_api(server: Server) -> None:
    status, answer = ask(server, {"uri": "../g", "base": BASE}, Origin=own_origin(server))
    assert status == 200 and answer["resolution"]["target"] == "http://a/b/g"


def own_origin(server: Server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "127.0.0.1", ""])
def test_refuses_another_host(server: Server, host: str) -> None:
    port = server.server_address[1]
    for method, body in (("GET", None), ("POST", b'{"uri": "x"}')):
        status, _, _ = request(server, method, "/", body, {"Host": host.format(port=port)})
        assert status == 421


def test_refuses_another_origin(server: Server) -> None:
    for origin in (
        "http://evil.example",
        "null",
        "https://127.0.0.1:" + str(server.server_address[1]),
    ):
        status, _ = ask(server, {"uri": "x"}, Origin=origin)
        assert status == 403, origin


def test_refuses_a_body_over_the_limit(server: Server) -> None:
    headers = {"Content-Type": "application/json", "Content-Length": str(MAX_BODY + 1)}
    status, _, _ = request(server, "POST", "/api/inspect", headers=headers)
    assert status == 413


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/api/inspect", 405), ("HEAD", "/api/inspect", 405), ("PUT", "/api/inspect", 405),
     ("GET", "/../etc/passwd", 404), ("POST", "/", 405), ("POST", "/api/initial", 405),
     ("GET", "/inspector/index.html", 404), ("DELETE", "/", 405), ("DELETE", "/x", 404)],
)  # fmt: skip
def test_refuses_other_paths_and_methods(
    server: Server, method: str, path: str, status: int
) -> None:
    body = b"{}" if method == "POST" else None
    got, headers, _ = request(server, method, path, body)
    assert got == status
    if status == 405:  # RFC 9110 §15.5.6: the methods the path answers
        assert headers["Allow"] == ("POST" if path == "/api/inspect" else "GET, HEAD")


@pytest.mark.parametrize(
    "body", [b"{", b"[]", b'{"uri": 1}', b'{"uri": "x", "base": 1}', b'{"url": "x"}', b"\xff"]
)
def test_refuses_bad_json(server: Server, body: bytes) -> None:
    status, _, answer = request(server, "POST", "/api/inspect", body)
    assert status == 400 and "error" in json.loads(answer)


def test_null_is_an_absent_base_or_other(server: Server) -> None:
    status, answer = ask(server, {"uri": "../g", "base": None, "other": None})
    assert status == 200 and "resolution" not in answer and "comparison" not in answer


def test_the_initial_inputs_are_served(server: Server) -> None:
    status, headers, body = request(server, "GET", "/api/initial")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert json.loads(body) == {"uri": "", "base": "", "other": ""}
    given = make_server(0, {"uri": "http://u:pw@h/", "base": None})  # type: ignore[dict-item]
    assert given.initial == {"uri": "http://u:pw@h/", "base": "", "other": ""}
    given.server_close()


def test_refuses_another_media_type(server: Server) -> None:
    headers = {"Content-Type": "text/plain"}
    assert request(server, "POST", "/api/inspect", b'{"uri": "x"}', headers)[0] == 415


@pytest.mark.parametrize(
    "uri",
    [
        "http://h/" + "%41/.." * 5000,
        "http://h/?" + "a=%%&" * 6000,
        HOSTILE,
        "\ud800http://[::1%25\u202e]/",
        "javascript:alert(1)//<img src=x onerror=alert(1)>",
    ],
    ids=["long", "long-invalid", "hostile", "surrogate", "script"],
)
def test_long_and_hostile_uris_get_an_answer(server: Server, uri: str) -> None:
    body = json.dumps({"uri": uri, "base": BASE, "other": uri}).encode()
    assert len(body) <= MAX_BODY
    status, _, answer = request(server, "POST", "/api/inspect", body)
    assert status == 200
    assert json.loads(answer)["input"] == uri


# --- the command --------------------------------------------------------------------------------


def test_json_prints_the_answer() -> None:
    command = [sys.executable, "-m", "urikit", "inspect", "--json", "../g", "--base", BASE]
    result = subprocess.run(command, capture_output=True, timeout=60, check=False)
    assert result.returncode == 0
    assert json.loads(result.stdout)["resolution"]["target"] == "http://a/b/g"
    command = [sys.executable, "-m", "urikit", "inspect", "--json", "http://a b/"]
    assert subprocess.run(command, capture_output=True, timeout=60, check=False).returncode == 1


def test_a_bad_port_is_a_usage_error() -> None:
    command = [sys.executable, "-m", "urikit", "inspect", "--port", "65536"]
    assert subprocess.run(command, capture_output=True, timeout=60, check=False).returncode == 2


def _default_interrupt() -> None:
    """Ctrl-C as in a terminal: a test runner's worker may ignore SIGINT, and its
    children would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_serves_until_interrupted() -> None:
    command = [sys.executable, "-m", "urikit", "inspect", "http://a/"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_interrupt
    )
    try:
        assert process.stdout is not None
        address = process.stdout.readline().decode().strip()
        parts = urlsplit(address)
        assert parts.hostname == "127.0.0.1" and parts.fragment == "uri=http%3A%2F%2Fa%2F"
        connection = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=60)
        connection.request("GET", "/")
        assert connection.getresponse().status == 200
        connection.close()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_a_password_stays_out_of_the_printed_address() -> None:
    """The page gets an input that holds a password from the server, not the address."""
    command = [sys.executable, "-m", "urikit", "inspect", "http://u:hunter2@h/", "--base", BASE]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_interrupt
    )
    try:
        assert process.stdout is not None
        address = process.stdout.readline().decode().strip()
        parts = urlsplit(address)
        assert (
            "hunter2" not in address and parts.fragment == "base=http%3A%2F%2Fa%2Fb%2Fc%2Fd%3Bp%3Fq"
        )
        connection = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=60)
        connection.request("GET", "/api/initial")
        initial = json.loads(connection.getresponse().read())
        connection.close()
        assert initial == {"uri": "http://u:hunter2@h/", "base": BASE, "other": ""}
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=60)


# --- the page in Chromium -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("needs Chromium at /usr/bin/chromium")
    playwright_api = pytest.importorskip("playwright.sync_api")
    playwright = playwright_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
    except Exception:
        playwright.stop()
        raise
    yield browser
    browser.close()
    playwright.stop()


#: A desktop's width, and a phone's.
WIDTHS = [1100, 390]


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}px")
def page(browser: Any, server: Server, request: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    context.set_default_timeout(30000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(own_origin(server) + "/")
    yield page
    context.close()
    assert not errors


def shown_for(page: Any, uri: str, base: str = "", other: str = "") -> None:
    """Wait until the page shows the answer for these inputs."""
    page.wait_for_function(
        "v => document.getElementById('out').dataset.for === JSON.stringify(v)",
        arg=[uri, base, other],
    )


def fill(page: Any, uri: str, base: str = "", other: str = "") -> None:
    page.fill("#base", base)
    page.fill("#other", other)
    page.fill("#uri", uri)
    shown_for(page, uri, base, other)


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)


def no_horizontal_overflow(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def texts(page: Any, selector: str) -> list[str]:
    return list(page.locator(selector).all_text_contents())


pytestmark_browser = pytest.mark.xdist_group("browser")


@pytestmark_browser
def test_page_draws_a_valid_uri(page: Any) -> None:
    uri = "foo://user@example.com:8042/over/th%C3%A9re?name=ferret#nose"
    page.locator("#uri").press_sequentially(uri[:10])
    page.locator("#uri").press_sequentially(uri[10:])
    shown_for(page, uri)
    assert page.locator("#out").get_attribute("data-state") == "valid"
    assert texts(page, "#drawing .label") == [
        "scheme", "userinfo", "host · reg-name", "port", "segment 1", "segment 2",
        "param 1", "fragment",
    ]  # fmt: skip
    assert page.locator("#drawing abbr.pct").get_attribute("title") == "decoded: 'é': octets C3 A9"
    assert "thére" in page.locator("#details").inner_text()
    assert texts(page, "#findings .code") == []
    assert page.locator("#parsers-table tbody tr").count() == 7
    assert texts(page, "#details summary") == ["2 path segments", "1 query parameter"]
    no_horizontal_overflow(page)
    screenshot(page, "valid")
    page.set_viewport_size({"width": 360, "height": 800})
    no_horizontal_overflow(page)
    screenshot(page, "narrow")


#: The strip's elements in order, with their boxes and those of their texts and labels.
STRIP = """() => [...document.querySelectorAll('#drawing > *')].map((node) => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const text = node.querySelector('.text'), label = node.querySelector('.label');
  return {box: box(node), text: text ? box(text) : null, label: label ? box(label) : null};
})"""


@pytestmark_browser
def test_the_strip_has_no_gaps_and_labels_do_not_widen_parts(page: Any) -> None:
    """Each part is as wide as its text, parts touch, and no two labels overlap."""
    fill(page, "http://a/b?q#f")  # one-letter parts under long labels
    strip = page.evaluate(STRIP)
    assert len(strip) == 10  # http : // a / b ? q # f
    for item in strip:
        if item["text"] is not None:
            assert abs(item["box"]["right"] - item["box"]["left"]
                       - (item["text"]["right"] - item["text"]["left"])) < 0.5  # fmt: skip
    for before, after in itertools.pairwise(strip):
        if abs(before["box"]["top"] - after["box"]["top"]) < 1:  # on the same line
            assert abs(after["box"]["left"] - before["box"]["right"]) < 0.5, (before, after)
    labels = [item["label"] for item in strip if item["label"] is not None]
    for n, one in enumerate(labels):
        assert one["top"] >= strip[0]["box"]["bottom"]  # under the parts
        for other in labels[n + 1 :]:
            apart = (one["right"] <= other["left"] or other["right"] <= one["left"]
                     or one["bottom"] <= other["top"] or other["bottom"] <= one["top"])  # fmt: skip
            assert apart, (one, other)
    no_horizontal_overflow(page)


@pytestmark_browser
def test_the_parsers_table_scrolls_within_its_card(page: Any) -> None:
    fill(page, "http://evil.com\\@good.com/a/b?q=1")
    width = page.viewport_size["width"]
    found = page.evaluate("""() => {
      const card = document.getElementById('parsers').getBoundingClientRect();
      const scroll = document.querySelector('#parsers .scroll');
      scroll.scrollLeft = scroll.scrollWidth;
      const region = scroll.getBoundingClientRect();
      const last = [...document.querySelectorAll('#parsers-table thead th')].pop()
        .getBoundingClientRect();
      return {card: [card.left, card.right], region: [region.left, region.right],
              last: [last.left, last.right], wide: scroll.scrollWidth > scroll.clientWidth};
    }""")
    assert found["card"][0] >= 0 and found["card"][1] <= width
    assert found["card"][0] <= found["region"][0] and found["region"][1] <= found["card"][1]
    # Scrolled to its end, the table's last column is in view, inside the card.
    assert found["region"][0] - 1 <= found["last"][0] and found["last"][1] <= found["region"][1] + 1
    assert found["wide"] == (width < 600)
    no_horizontal_overflow(page)


@pytestmark_browser
def test_the_page_counts_in_the_singular(page: Any) -> None:
    fill(page, "http://h/a?q=1")
    assert texts(page, "#details summary") == ["1 path segment", "1 query parameter"]


@pytestmark_browser
def test_an_iri_shows_its_uri_and_idna_host(page: Any) -> None:
    fill(page, "http://例え.jp/パス")
    mapping = page.locator("#mapping")
    assert mapping.is_visible()
    shown = mapping.inner_text()
    assert "xn--r8jz45g.jp" in shown and "http://%E4%BE%8B%E3%81%88.jp/%E3%83%91%E3%82%B9" in shown
    fill(page, "http://a/")
    assert not page.locator("#mapping").is_visible()


@pytestmark_browser
def test_a_password_never_enters_the_address(page: Any) -> None:
    """Decision: an input that holds a password is left out of the address (which the
    browser keeps in its history), and the page says so; the others stay in it."""
    fill(page, "http://user:hunter2@h/p", "http://a/b/", "http://h/")
    address = page.url
    assert "hunter2" not in address and "uri=" not in address
    assert "base=" in urlsplit(address).fragment and "other=" in address
    note = page.locator("#privacy")
    assert note.is_visible() and "password" in note.inner_text()
    history = page.evaluate("history.length")
    fill(page, "http://h/p", "http://u:secret@a/", "")
    assert "secret" not in page.url and "uri=" in page.url and "base=" not in page.url
    assert page.evaluate("history.length") == history  # replaced, not pushed
    fill(page, "http://u:@h/")  # an empty password is none
    assert "uri=" in page.url and not page.locator("#privacy").is_visible()


@pytestmark_browser
def test_page_shows_the_caret_under_an_error(page: Any) -> None:
    fill(page, "http://exa mple.com/")
    assert page.locator("#out").get_attribute("data-state") == "invalid"
    error = page.locator("#error")
    assert error.is_visible()
    assert page.locator("#error mark.at").inner_text() == "U+0020"
    assert "position 10" in error.inner_text() and "host" in error.inner_text()
    assert page.locator("#drawing .piece").count() == 0
    screenshot(page, "invalid")


@pytestmark_browser
def test_page_resolves_and_compares(page: Any) -> None:
    fill(page, "../g", BASE, "HTTP://A:80/b/./g")
    whatwg = page.locator("#parsers-table tbody tr:nth-child(5) td:nth-child(4)")
    assert whatwg.inner_text().strip() == "/b/g"  # the WHATWG reading against the base
    assert page.locator("#parsers-table td.failed").count() == 0
    resolution = page.locator("#resolution")
    assert "http://a/b/g" in page.locator("#resolution .target").inner_text()
    assert "/b/c/../g" in resolution.inner_text()
    assert "relativize(base, target) = ../g" in page.locator("#resolution .back").inner_text()
    assert texts(page, "#ladder-body tbody th") == ["string", "syntax", "scheme"] * 2
    assert page.locator("#ladder .comparison").inner_text() == "Different at every rung"
    fill(page, "http://a/b/g", "", "HTTP://A:80/b/./g")
    assert page.locator("#ladder .comparison").inner_text() == "Equivalent from the scheme rung up"
    screenshot(page, "resolve")


@pytestmark_browser
def test_page_shows_findings_and_parser_disagreements(page: Any) -> None:
    fill(page, HOSTILE)
    assert "high" in texts(page, "#findings .badge")
    assert page.locator("#findings mark.sev-high").count() > 0
    assert page.locator("#parsers-table td.differs").count() > 0
    assert "U+202E" in texts(page, "#findings .cp")
    screenshot(page, "hostile")
    markup = "javascript:alert(1)//<img src=x onerror=alert(1)><b>"
    fill(page, markup)
    assert page.locator("#out img, #out b").count() == 0
    assert "alert(1)//<img" in page.locator("#error").inner_text()  # as text, not markup
    long = "http://h/" + "seg/" * 10000
    fill(page, long)
    assert page.locator("#out").get_attribute("data-state") == "valid"
    assert page.locator("#drawing .k-rest").count() == 1
    screenshot(page, "long")


@pytestmark_browser
def test_the_page_starts_with_the_inputs_of_the_command(browser: Any) -> None:
    given = make_server(0, {"uri": "http://u:hunter2@h/", "base": BASE})
    serve_in_thread(given)
    page = browser.new_page()
    try:
        page.goto(own_origin(given) + "/#other=http%3A%2F%2Fh%2F")
        shown_for(page, "http://u:hunter2@h/", BASE, "http://h/")
        assert "hunter2" not in page.url and page.locator("#privacy").is_visible()
    finally:
        page.close()
        given.shutdown()
        given.server_close()


@pytestmark_browser
def test_the_fragment_keeps_the_inputs(page: Any, browser: Any) -> None:
    uri, base, other = "g;x?y#s", BASE, "http://a/b/c/g;x?y#s"
    fill(page, uri, base, other)
    address = page.url
    assert urlsplit(address).fragment
    again = browser.new_page()
    try:
        again.goto(address)
        shown_for(again, uri, base, other)
        assert [again.input_value(f"#{name}") for name in ("uri", "base", "other")] == [
            uri, base, other,
        ]  # fmt: skip
        assert "http://a/b/c/g;x?y#s" in again.locator("#resolution .target").inner_text()
        again.focus("#uri")
        again.keyboard.press("Tab")
        assert again.evaluate("document.activeElement.id") == "base"
        again.keyboard.press("Tab")
        assert again.evaluate("document.activeElement.id") == "other"
    finally:
        again.close()
