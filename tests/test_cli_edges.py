"""The small edges of the command, each from its reproduction: command-line advice for
non-ASCII input, query patterns, help text, subcommand usage, extract's IRIs and IDNA
hosts, data URLs as typed in browsers, relative paths, ``inspect --open`` without a
browser, and ``--skip-blank``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_cli_contract import json_records, subcommands, urikit

from urikit import URI
from urikit.cli import build_parser


@pytest.mark.parametrize(
    ("argv", "advice"),
    [
        (["validate"], "--rule IRI-reference"),
        (["normalize"], "--iri"),
        (["resolve", "http://a/"], "--iri"),
        (["parse"], "urikit to-uri"),
        (["query", "list"], "--lenient"),
        (["to-path"], "urikit to-uri"),
    ],
)
def test_non_ascii_input_gets_command_line_advice(argv: list[str], advice: str) -> None:
    for extra in ([], ["--json"]):
        result = urikit([*argv, *extra], "file:///caf\u00e9\n".encode())
        assert result.returncode == 1
        out = result.stdout.decode("utf-8")
        assert "a URI holds only ASCII characters (RFC 3986 §2); " in out
        assert advice in out and "IRI(text)" not in out and "URI.lenient" not in out


def test_query_remove_takes_the_patterns_of_the_python_api() -> None:
    url = "http://h/?utm_source=x&id=7&utm_medium=y&a%5B1%5D=2&a1=3"
    expected = str(URI(url).remove_query_params("utm_*"))
    assert urikit(["query", "remove", "utm_*", url]).stdout.decode() == expected + "\n"
    normalized = urikit(["normalize", "--level", "string", "--remove-param", "utm_*", url])
    assert normalized.stdout.decode() == expected + "\n"
    # Without "*" or "?", NAME is one name, brackets and all.
    result = urikit(["query", "remove", "a[1]", url]).stdout.decode()
    assert result == "http://h/?utm_source=x&id=7&utm_medium=y&a1=3\n"


@pytest.mark.parametrize(
    ("pattern", "kept"),
    [
        ("*id", "x=1&abc=2&a%5Bb%5Dx=3&ax=4&%5Bab%5Dx=5"),
        ("a?c", "fbclid=0&id=6&x=1&a%5Bb%5Dx=3&ax=4&%5Bab%5Dx=5"),
        ("[ab]x", "fbclid=0&id=6&x=1&abc=2&a%5Bb%5Dx=3&ax=4"),
        ("[ab]*", "fbclid=0&id=6&x=1&%5Bab%5Dx=5"),
        ("a[1]", "fbclid=0&id=6&x=1&abc=2&a%5Bb%5Dx=3&ax=4&%5Bab%5Dx=5"),
    ],
)
def test_every_reader_of_a_parameter_pattern_reads_it_alike(pattern: str, kept: str) -> None:
    """A glob when the pattern holds "*" or "?", else one name: the same for
    URI.remove_query_params, normalize(remove_params=...), and the command's query
    remove and normalize --remove-param."""
    url = "http://h/?fbclid=0&id=6&x=1&abc=2&a%5Bb%5Dx=3&ax=4&%5Bab%5Dx=5"
    expected = "http://h/?" + kept
    assert str(URI(url).remove_query_params(pattern)) == expected
    assert str(URI(url).normalize(level="string", remove_params=pattern)) == expected
    assert str(URI(url).normalize(level="string", remove_params=[pattern])) == expected
    assert urikit(["query", "remove", pattern, url]).stdout.decode() == expected + "\n"
    normalized = urikit(["normalize", "--level", "string", "--remove-param", pattern, url])
    assert normalized.stdout.decode() == expected + "\n"


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _parsers(child)


def test_no_parser_of_the_command_takes_an_abbreviation() -> None:
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > len(subcommands())  # the nested ones (query, template) too
    assert [p.prog for p in parsers if p.allow_abbrev] == []


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "--base", "http://a/b", "c"],
        ["query", "remove", "--cod", "form", "a", "http://h/?a=1"],
        ["normalize", "--remove-par", "a", "http://h/?a=1"],
    ],
)
def test_an_abbreviated_option_is_an_unknown_option(argv: list[str]) -> None:
    """``--base`` is not read as ``--base-column``: a usage error naming it."""
    result = urikit(argv)
    assert result.returncode == 2 and result.stdout == b""
    err = result.stderr.decode()
    assert err.startswith(f"usage: urikit {argv[0]} ")
    assert f"unrecognized arguments: {argv[1] if argv[0] != 'query' else argv[2]}" in err


def test_the_full_options_still_work() -> None:
    resolved = urikit(["resolve", "--spec", "rfc3986", "http://a/b/c", "../d"])
    assert (resolved.returncode, resolved.stdout) == (0, b"http://a/d\n")
    removed = urikit(["query", "remove", "--codec", "form", "a", "http://h/?a=1&b=2"])
    assert (removed.returncode, removed.stdout) == (0, b"http://h/?b=2\n")


def test_no_help_shows_a_doubled_percent_sign() -> None:
    helps = {name: parser.format_help() for name, parser in subcommands().items()}
    for name, text in helps.items():
        assert "%%" not in text, name
    assert "newline from %0A" in " ".join(helps["to-path"].split())


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["parse", "--bogus", "x"], "usage: urikit parse "),
        (["query", "list", "--bogus", "x"], "usage: urikit query list "),
        (["normalize", "--input", "x", "--nope"], "usage: urikit normalize "),
    ],
)
def test_an_unknown_option_shows_the_subcommand_usage(argv: list[str], usage: str) -> None:
    result = urikit(argv)
    assert result.returncode == 2
    err = result.stderr.decode()
    assert err.startswith(usage), err
    bogus = next(a for a in argv if a.startswith("--b") or a == "--nope")
    assert err.rstrip().endswith(f"error: unrecognized arguments: {bogus}")


def test_extract_writes_idna_hosts_or_iris() -> None:
    text = "see https://例え.jp/パス?q=é and http://xn--r8jz45g.jp/ and http://a/%c3%a9 and\n"
    result = urikit(["extract"], text.encode())
    assert result.stdout.decode().splitlines() == [
        "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%A9",
        "http://xn--r8jz45g.jp/",
        "http://a/%c3%a9",  # percent-encodings as written
    ]
    assert "%E4" not in result.stdout.decode()  # never a percent-encoded host
    iris = urikit(["extract", "--iri"], text.encode()).stdout.decode().splitlines()
    assert iris[0] == "https://例え.jp/パス?q=é"
    (first, *_) = json_records(urikit(["extract", "--json"], text.encode()).stdout)
    assert first["uri"] == "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9?q=%C3%A9"
    assert first["iri"] == "https://例え.jp/パス?q=é"


def test_extract_says_when_a_host_has_no_idna_form() -> None:
    # UTS #46 B5 (the Bidi Rule): an LTR label may not hold a Hebrew letter.
    result = urikit(["extract"], "go to http://a\u05d0.com/x now".encode())
    assert result.returncode == 1
    line = result.stdout.decode()
    assert line.startswith("error: http://a\u05d0.com/x\t-\tireg-name\tthe host has no IDNA form")
    assert "B5" in line and "--iri" in line
    assert urikit(["extract", "--iri"], "http://a\u05d0.com/x".encode()).stdout.decode() == (
        "http://a\u05d0.com/x\n"
    )
    # UTS #46 (as browsers) gives an underscore and a letter its A-label; IDNA 2008 refuses.
    assert urikit(["extract"], "http://a_\u00e9.com/x".encode()).stdout.decode() == (
        "http://xn--a_-cja.com/x\n"
    )


def test_data_reads_an_address_as_typed_in_a_browser(tmp_path: Path) -> None:
    typed = "data:text/html,<b>x y</b>"
    strict = urikit(["data", typed])
    assert strict.returncode == 1 and strict.stdout == b""
    assert b"--lenient reads it as a browser's address bar does" in strict.stderr
    lenient = urikit(["data", "--lenient", typed])
    assert lenient.returncode == 0 and lenient.stdout == b"<b>x y</b>"
    assert lenient.stderr.count(b"repaired at") == 5
    target = tmp_path / "page.html"
    target.write_bytes(b"old")
    assert urikit(["data", "-o", str(target), "data:,%"]).returncode == 1
    assert target.read_bytes() == b"old"
    assert urikit(["data", "--lenient", "-o", str(target), "data:,caf\u00e9"]).returncode == 0
    assert target.read_bytes() == "café".encode()


def test_from_path_resolves_a_relative_path_against_the_working_directory(
    tmp_path: Path,
) -> None:
    (tmp_path / "sub").mkdir()
    command = [sys.executable, "-m", "urikit", "from-path", ".", "sub/../a b", "/abs"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [
        tmp_path.as_uri(),
        (tmp_path / "a b").as_uri(),
        "file:///abs",
    ]
    other = "windows" if os.name != "nt" else "posix"
    assert urikit(["from-path", "--flavor", other, "a"]).returncode == 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_inspect_open_says_when_no_browser_opens() -> None:
    environment = {**os.environ, "BROWSER": "false"}
    environment.pop("DISPLAY", None)
    environment.pop("WAYLAND_DISPLAY", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "urikit", "inspect", "--open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline().decode() for _ in range(2)]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=60)
    assert lines[1] == (
        "urikit inspect: no web browser could be opened here; open the address above\n"
    )


# --- --skip-blank --------------------------------------------------------------------------


DATA = b"http://a/\n\n  \t\nbad uri\n\n \xa0\nx:\n"


def test_skip_blank_gives_no_record_for_a_blank_line() -> None:
    plain = urikit(["validate"], DATA).stdout.decode().splitlines()
    assert len(plain) == 7  # the empty reference is valid; "  \t" is not
    skipped = urikit(["validate", "--skip-blank"], DATA).stdout.decode().splitlines()
    assert len(skipped) == 4
    assert skipped[0] == "valid: http://a/" and skipped[3] == "valid: x:"
    assert skipped[1].startswith("error: bad uri\t3\t")
    assert skipped[2].startswith("error: \ufffd") or "\ufffd" in skipped[2]  # not UTF-8
    # Error messages still count every line of the input.
    stderr = urikit(["validate", "--skip-blank", "--errors", "stderr"], DATA).stderr.decode()
    assert "line 4: error: bad uri" in stderr and "line 6: error:" in stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_skip_blank_on_files(tmp_path: Path, jobs: str) -> None:
    lines = tmp_path / "urls.txt"
    lines.write_bytes(DATA)
    expected = urikit(["normalize", "--skip-blank", "--json"], DATA).stdout
    got = urikit(["normalize", "--skip-blank", "--json", "--input", str(lines), "--jobs", jobs,
                  "--batch-size", "2"])  # fmt: skip
    assert json_records(got.stdout) == json_records(expected)
    source = tmp_path / "urls.parquet"
    rows = ["http://a/", "", " \t ", None, "HTTP://B/", "bad uri"]
    pq.write_table(pa.table({"n": list(range(6)), "url": rows}), source)
    target = tmp_path / "out.parquet"
    argv = ["normalize", "--skip-blank", "--input", str(source), "--column", "url", "--output",
            str(target), "--jobs", jobs, "--batch-size", "4"]  # fmt: skip
    assert urikit(argv).returncode == 1
    table = pq.read_table(target).to_pylist()
    assert [r["n"] for r in table] == [0, 3, 4, 5]  # a null row is not blank: an error
    assert [r["normalized"] for r in table] == ["http://a/", None, "http://b/", None]
