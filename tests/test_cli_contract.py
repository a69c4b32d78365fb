"""The contract of the ``urikit`` command, checked for every subcommand.

The rule: the command-line tool never loses a line.  Every input line gives
exactly one output record (a result or an error), in input order, and the exit
status is 1 when any record failed, 0 when all succeeded (3 when the output
cannot be written, 141 when its reader closes the pipe).

What counts as a line and a record:

* an input line ends at "\\n"; one "\\r" before it (or before the end of input)
  is part of the line end; the last line needs no "\\n"; a line that is not
  UTF-8 is an error record naming its first invalid octet by value and byte
  position, its input shown with U+FFFD for each invalid octet;
* with ``--json`` a record is one line of JSON (JSON Lines, split at "\\n" only:
  JSON escapes "\\n" inside strings, and U+2028 is an ordinary character there);
* in human output a record begins with a line that does not begin with a space
  (an empty line is the record of an empty result) and goes on over the lines
  that do; an error record is one line, ``error: INPUT<TAB>POSITION<TAB>RULE<TAB>
  REASON``, with the input's invisible characters written as ``<U+XXXX>``.

The subcommands are discovered from :func:`urikit.cli.build_parser`, so a new
one that reads URIs from standard input must be given a variant here.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from urikit import URI
from urikit import cli as cli_package
from urikit.cli import build_parser
from urikit.report import printable

BASE = "http://a/b/c/d;p?q"  # RFC 3986 §5.4

#: Lines of every kind; each command must give one record for each, in order.
MIXED: list[bytes] = [
    b"http://example.com/a?q=1#f",
    b"not a uri",
    b"",
    b"http://example.com/a b",
    b"a\tb",
    b"http://example.com/crlf\r",  # a "\r\n" line end
    "http://example.com/r\u00e9sum\u00e9".encode(),
    b"\xff",
    b"http://example.com/" + b"a" * 100_000,
    b"%",
    b" leading space",
    b"trailing space ",
    b"/etc/hosts",
    b"file:///etc/hosts",
    b"file:///a%0Ab",  # to-path decodes a newline
    b"http://example.com/%E2%80%A8",
    "\u2028x".encode(),  # LINE SEPARATOR: a line end for str.splitlines(), not for "\n"
    b"C:\\Windows",
    b"a\rb",
    b"\x1b[31m",
    b"http://" + b"b" * 100_000 + b" ",
    b"http://[::1/x",  # the last line has no "\n"
]
MIXED_DATA = b"\n".join(MIXED)

#: Inputs that every variant handles without failure (the exit status is 0).
VALID_URIS = ["http://example.com/a", "", "/etc/hosts", "file:///etc/hosts", "g?y#s"]

#: (argv, inputs that all succeed, JSON field of the result) per variant.
VARIANTS: list[tuple[list[str], list[str], str | None]] = [
    (["parse"], VALID_URIS, None),
    (["validate"], VALID_URIS, None),
    (["validate", "--rule", "IRI-reference"], [*VALID_URIS, "http://\u00e9.example/"], None),
    (["resolve", BASE], VALID_URIS, "target"),
    (["resolve", BASE, "--iri", "--spec", "rfc2396"], VALID_URIS, "target"),
    (["relativize", BASE], VALID_URIS, "reference"),
    (["normalize"], VALID_URIS, "normalized"),
    (["normalize", "--iri", "--sort-query", "--drop-fragment"], VALID_URIS, "normalized"),
    (["to-uri"], [*VALID_URIS, "http://ex.com/r\u00e9sum\u00e9"], "uri"),
    (["to-iri"], [*VALID_URIS, "http://ex.com/r%C3%A9sum%C3%A9"], "iri"),
    (["audit"], ["http://example.com/a", "", "/etc/hosts"], None),
    (["from-path", "--flavor", "posix"], ["/etc/hosts", "/tmp/a b", "/r\u00e9"], "uri"),
    (["from-path", "--flavor", "windows"], ["C:\\Windows", "\\\\srv\\share\\x"], "uri"),
    (["to-path", "--flavor", "posix"], ["file:///etc/hosts", "file:///a%0Ab"], "path"),
    (["to-path", "--flavor", "windows"], ["file:///C:/Windows", "file://srv/share/x"], "path"),
    (["compare"], ["http://a/\thttp://a/", "\t", "HTTP://a:80\thttp://a/"], "rung"),
    (["redirect-check", "--allow", "example.com"], ["/account", "", "https://example.com/"], None),
    (["site"], [*VALID_URIS, "http://\u98df\u72ee.\u516c\u53f8.cn/"], None),
    (["site", "--host", "--icann-only"], ["example.co.uk", "", "a b", "[::1]"], None),
]

#: Subcommands that do not read one URI per line, each with its own test below.
OTHER_COMMANDS = {"extract", "links", "query", "data", "inspect", "template"}


def urikit(
    args: Sequence[str], data: bytes = b"", **env: str
) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", **env}
    return subprocess.run(
        [sys.executable, "-m", "urikit", *args],
        input=data,
        capture_output=True,
        env=environment,
        timeout=60,
    )


@functools.cache
def mixed_json(argv: tuple[str, ...]) -> subprocess.CompletedProcess[bytes]:
    """The ``--json`` run over :data:`MIXED`, shared by the JSON and human tests."""
    return urikit([*argv, "--json"], MIXED_DATA)


def input_lines(data: bytes) -> list[str]:
    """The lines of ``data`` as the command reads them (see the module docstring)."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [line.removesuffix(b"\r").decode("utf-8", "replace") for line in lines]


def escaped(text: str) -> str:
    """``text`` as a record shows it: invisible characters as ``<U+XXXX>``."""
    return printable(text)


def json_records(stdout: bytes) -> list[dict[str, Any]]:
    text = stdout.decode("utf-8")  # strict: nothing but valid UTF-8 is written
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.split("\n")[:-1]]


def human_records(stdout: bytes) -> list[list[str]]:
    """Records as lists of lines: a record starts at each line not starting with a space."""
    text = stdout.decode("utf-8")
    assert text == "" or text.endswith("\n")
    records: list[list[str]] = []
    for line in text.split("\n")[:-1]:
        if line.startswith(" "):
            assert records, "the output starts with a continuation line"
            records[-1].append(line)
        else:
            records.append([line])
    return records


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("urikit has no subcommands")


def streams_uris(parser: argparse.ArgumentParser) -> bool:
    """Whether the subcommand takes URIs as arguments or, without them, lines of stdin."""
    return any(
        not action.option_strings and action.nargs == "*" and action.dest != "file"
        for action in parser._actions
    )


EACH_VARIANT = pytest.mark.parametrize(
    ("argv", "valid", "field"), VARIANTS, ids=[" ".join(argv) for argv, _, _ in VARIANTS]
)


# --- every subcommand is covered ------------------------------------------------------------


def test_every_subcommand_is_checked_here() -> None:
    commands = subcommands()
    streaming = {name for name, parser in commands.items() if streams_uris(parser)}
    assert streaming == {argv[0] for argv, _, _ in VARIANTS}
    assert set(commands) == streaming | OTHER_COMMANDS


def test_commands_use_only_the_public_api() -> None:
    """A command module imports from urikit only what a public module exports (``__all__``)."""
    for path in Path(cli_package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names if alias.name.startswith("urikit")]
                assert not any("._" in name for name in names), (path.name, names)
            if not isinstance(node, ast.ImportFrom) or node.module is None:
                continue
            if node.level == 2:
                module_name = "urikit." + node.module
            elif node.level == 0 and node.module.startswith("urikit."):
                module_name = node.module
            else:
                continue  # the standard library, or the command's own helpers (cli._stream)
            assert "._" not in module_name, (path.name, module_name)
            exported = importlib.import_module(module_name).__all__
            for alias in node.names:
                assert alias.name in exported, (path.name, module_name, alias.name)


# --- one JSON record per input line --------------------------------------------------------


@EACH_VARIANT
def test_one_json_record_per_line(argv: list[str], valid: list[str], field: str | None) -> None:
    result = mixed_json(tuple(argv))
    assert result.stderr == b""
    records = json_records(result.stdout)
    expected = input_lines(MIXED_DATA)
    assert len(expected) == len(MIXED)
    assert len(records) == len(expected)
    for line, record in zip(expected, records, strict=True):
        assert record["input"] == line  # in order, echoed exactly
        assert isinstance(record["ok"], bool)
        if "error" in record:
            assert record["ok"] is False
            assert set(record["error"]) == {"position", "rule", "reason", "message"}
        elif argv[0] in ("audit", "redirect-check"):  # findings, not errors, decide
            assert record["ok"] == (record["findings"] == [])
        elif argv[0] == "compare":  # different pairs fail
            assert record["ok"] == (record["rung"] is not None)
        else:
            assert record["ok"]
            if field is not None:
                assert isinstance(record[field], str)
    failed = [record for record in records if not record["ok"]]
    assert failed  # the mix has inputs that every command refuses
    assert result.returncode == 1


@EACH_VARIANT
def test_exit_zero_when_every_line_succeeds(
    argv: list[str], valid: list[str], field: str | None
) -> None:
    data = "\r\n".join(valid).encode()  # no "\n" after the last line
    result = urikit([*argv, "--json"], data)
    assert result.stderr == b""
    records = json_records(result.stdout)
    assert [record["input"] for record in records] == valid
    assert all(record["ok"] for record in records), records
    assert result.returncode == 0


# --- one human record per input line --------------------------------------------------------


@EACH_VARIANT
def test_one_human_record_per_line(argv: list[str], valid: list[str], field: str | None) -> None:
    as_json = mixed_json(tuple(argv))
    result = urikit(argv, MIXED_DATA)
    assert result.stderr == b""
    assert result.returncode == as_json.returncode == 1
    records = human_records(result.stdout)
    expected = json_records(as_json.stdout)
    assert len(records) == len(expected) == len(MIXED)
    for record, data in zip(records, expected, strict=True):
        first, rest = record[0], record[1:]
        assert all(line.startswith("  ") for line in rest)
        if "error" in data:
            # one line: the input, the position, the rule and the reason
            assert rest == []
            shown, position, rule, reason = first.split("\t")
            assert shown == "error: " + escaped(data["input"])
            error = data["error"]
            assert position == ("-" if error["position"] is None else str(error["position"]))
            assert rule == (error["rule"] or "-") and reason == escaped(error["reason"])
        elif argv[0] == "audit":
            # the input made visible (never starting with white space), then the findings
            assert first == first.lstrip() and first == first.rstrip()
            assert len(rest) == max(1, len(data["findings"]))
        elif argv[0] == "redirect-check":
            assert first.startswith(
                ("safe: " if data["ok"] else "unsafe: ") + escaped(data["input"])
            )
        elif argv[0] == "compare":
            assert record == [data["rung"] or "different"]
        elif argv[0] == "parse":
            assert first == escaped(data["input"])
            assert [line.split()[0] for line in rest[:8]] == [
                "scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"
            ]  # fmt: skip
        elif argv[0] == "validate":
            assert record == ["valid: " + escaped(data["input"])]
        elif argv[0] == "site":
            columns = ("registrable_domain", "public_suffix", "section")
            assert record == ["\t".join(escaped(data[key] or "-") for key in columns)]
        else:
            assert field is not None
            # one line: the result, as --json gives it (a path quoted when it must be)
            value = data["quoted"] if argv[0] == "to-path" else data[field]
            assert record == [value]


def test_to_path_keeps_a_decoded_newline_in_its_record() -> None:
    result = urikit(["to-path", "--flavor", "posix"], b"file:///a%0Ab\nfile:///c\n")
    assert result.stdout == b"$'/a\\nb'\n/c\n"
    (record,) = json_records(
        urikit(["to-path", "--flavor", "posix", "--json"], b"file:///a%0Ab").stdout
    )
    assert record["path"] == "/a\nb"


def test_audit_shows_white_space_at_the_ends_of_the_input() -> None:
    result = urikit(["audit"], b" x\ny \n\xe2\x80\xa8\n")
    firsts = [record[0] for record in human_records(result.stdout)]
    assert firsts == ["<U+0020>x", "y<U+0020>", "<U+2028>"]


# --- JSON stays JSON whatever the output encoding ---------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_json_is_valid_in_any_output_encoding(encoding: str) -> None:
    data = b"http://a/%C3%A9\nhttp://a/%F0%9F%98%80\n%\n"
    result = urikit(["to-iri", "--json"], data, PYTHONIOENCODING=encoding)
    lines = result.stdout.decode(encoding).split("\n")[:-1]
    records = [json.loads(line) for line in lines]
    assert [record.get("iri") for record in records] == [
        "http://a/\u00e9", "http://a/\U0001f600", None
    ]  # fmt: skip
    assert result.returncode == 1


def test_json_of_an_undecodable_byte_is_utf8() -> None:
    result = urikit(["validate", "--json"], b"\xff\xfe\n")
    assert result.stdout.decode("utf-8").count("\n") == 1
    (record,) = json_records(result.stdout)
    assert record["input"] == "\ufffd\ufffd" and record["ok"] is False
    assert record["error"]["reason"] == "invalid UTF-8 octet 0xFF at byte 0"


# --- normalize --unique: the one documented filter --------------------------------------------


def test_normalize_unique_drops_only_equivalent_duplicates() -> None:
    """``--unique`` writes no record for a URI equivalent to an earlier one (see its --help);
    every other line, errors included, keeps its record, in order."""
    data = b"http://a/\nHTTP://A:80/\n%\nhttp://b/\n%\nhttp://a\n"
    everything = json_records(urikit(["normalize", "--json"], data).stdout)
    result = urikit(["normalize", "--unique", "--json"], data)
    kept = json_records(result.stdout)
    assert [r["input"] for r in kept] == ["http://a/", "%", "http://b/", "%"]
    assert [r for r in everything if not r["ok"]] == [r for r in kept if not r["ok"]]
    assert result.returncode == 1


# --- compare: a pair, one record --------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "status", "rung"),
    [
        ("http://a/%7e", "HTTP://a/~", 0, "syntax"),
        ("http://a/", "http://b/", 1, None),
        ("http://a/ x", "http://a/", 1, None),
    ],
)
def test_compare_one_record(a: str, b: str, status: int, rung: str | None) -> None:
    result = urikit(["compare", "--json", a, b])
    (record,) = json_records(result.stdout)
    assert result.returncode == status
    assert record["input"] == f"{a}\t{b}" and record["ok"] is (status == 0)
    if "error" not in record:
        assert record["rung"] == rung and record["equivalent"] is (rung is not None)
    human = human_records(urikit(["compare", a, b]).stdout)
    assert len(human) == 1
    from_stdin = urikit(["compare", "--json"], f"{a}\t{b}\n".encode())
    assert from_stdin.stdout == result.stdout and from_stdin.returncode == status


def test_compare_error_positions_index_the_line() -> None:
    (record,) = json_records(urikit(["compare", "--json"], b"http://a/\thttp://a b/").stdout)
    assert record["error"]["position"] == len("http://a/\thttp://a")
    (record,) = json_records(urikit(["compare", "--json"], b"http://a/").stdout)
    assert record["ok"] is False and record["error"]["position"] == len("http://a/")
    assert urikit(["compare", "a"]).returncode == 2


# --- extract: text in, one record per URI found ------------------------------------------------

TEXT = (
    b"See http://a.example/x and <http://b.example/\r\n y>, \xff "
    b'"ftp://c.example/d" or mailto:joe@example.org.\r\n'
    b"https://e.example/\xc3\xa9 and (http://f.example/g)\n"
)


def test_extract_records_point_into_the_text() -> None:
    document = TEXT.decode("utf-8", "replace")
    result = urikit(["extract", "--json"], TEXT)
    # the invalid octet touches no URI: it is reported once, and the run fails
    assert result.returncode == 1
    assert (
        result.stderr == b"urikit extract: -: invalid UTF-8 octet 0xFF at byte 52; see --encoding\n"
    )
    records = json_records(result.stdout)
    assert [r["uri"] for r in records] == [
        "http://a.example/x",
        "http://b.example/y",
        "ftp://c.example/d",
        "mailto:joe@example.org",
        "https://e.example/%C3%A9",
        "http://f.example/g",
    ]
    starts = [r["start"] for r in records]
    assert starts == sorted(starts)
    for record in records:
        assert record["file"] == "-"
        assert document[record["start"] : record["end"]] == record["text"]
        assert str(URI(record["uri"])) == record["uri"]
    human = urikit(["extract"], TEXT)
    assert human.stdout.decode().split("\n")[:-1] == [r["uri"] for r in records]


def test_extract_does_not_cut_a_uri_at_an_invalid_octet() -> None:
    latin1 = b"see http://a/caf\xe9 now"
    result = urikit(["extract", "--json"], latin1)
    assert result.returncode == 1 and b"0xE9 at byte 16" in result.stderr
    (record,) = json_records(result.stdout)
    assert record["ok"] is False and record["error"]["rule"] == "UTF8-char"
    assert record["error"]["reason"] == "invalid UTF-8 octet 0xE9 at byte 16"
    assert urikit(["extract"], latin1).stdout.startswith(b"error: http://a/caf\xef\xbf\xbd\t")
    decoded = urikit(["extract", "--encoding", "latin-1"], latin1)
    assert (decoded.returncode, decoded.stdout, decoded.stderr) == (0, b"http://a/caf%C3%A9\n", b"")
    assert urikit(["extract", "--encoding", "no-such-codec"], latin1).returncode == 2


def test_extract_reports_an_unreadable_file_and_goes_on(tmp_path: Path) -> None:
    first, second = tmp_path / "one.txt", tmp_path / "two.txt"
    first.write_bytes(b"http://one.example/\n")
    second.write_bytes(b"http://two.example/")
    missing = str(tmp_path / "missing.txt")
    result = urikit(["extract", "--json", str(first), missing, str(second)])
    assert result.returncode == 1
    assert [(r["file"], r["uri"]) for r in json_records(result.stdout)] == [
        (str(first), "http://one.example/"), (str(second), "http://two.example/")
    ]  # fmt: skip
    human = urikit(["extract", str(first), str(second)])
    assert human.stdout.decode().splitlines() == [
        f"{first}\thttp://one.example/", f"{second}\thttp://two.example/"
    ]  # fmt: skip
    assert missing in result.stderr.decode() and b"Traceback" not in result.stderr
    empty = urikit(["extract", "--json"], b"")
    assert (empty.returncode, empty.stdout) == (0, b"")


# --- links: HTML in, one record per link -------------------------------------------------------

HTML = (
    b'<a href="x">\n<img src="http://a/ b"><a href="http://[::1/x">'
    b'<a href="\xff"><link href=""><a href="%">\r\n<a href="http://[">'
)


def test_links_one_record_per_link() -> None:
    result = urikit(["links", "--json", "--base", "http://h/d/"], HTML)
    assert (
        result.stderr == b"urikit links: -: invalid UTF-8 octet 0xFF at byte 69; see --encoding\n"
    )
    records = json_records(result.stdout)
    assert [r["raw"] for r in records] == [
        "x",
        "http://a/ b",
        "http://[::1/x",
        "\ufffd",
        "",
        "%",
        "http://[",
    ]
    places = [(r["line"], r["column"]) for r in records]
    assert places == sorted(places)
    for record in records:
        assert record["ok"] == (record["uri"] is not None) == ("error" not in record)
        assert record["file"] == "-"
    # the invalid octet is an error, not a link to "%EF%BF%BD"
    assert [r["raw"] for r in records if not r["ok"]] == ["http://[::1/x", "\ufffd", "http://["]
    assert records[3]["error"]["reason"] == "invalid UTF-8 octet 0xFF at byte 69"
    assert result.returncode == 1
    human = urikit(["links", "--base", "http://h/d/"], HTML)
    assert human.returncode == 1
    shown = human_records(human.stdout)
    assert len(shown) == len(records)
    for record, lines in zip(records, shown, strict=True):
        if record["ok"]:
            assert lines == [record["uri"]]
        else:
            assert lines[0].startswith("error: " + escaped(record["raw"]) + "\t")
            assert len(lines) == 1
    good = urikit(["links", "--base", "http://h/d/"], b'<a href="x"><img src="/y">')
    assert (good.returncode, good.stdout) == (0, b"http://h/d/x\nhttp://h/y\n")


def test_links_of_several_files(tmp_path: Path) -> None:
    first, second = tmp_path / "one.html", tmp_path / "two.html"
    first.write_bytes(b'<a href="x">')
    second.write_bytes(b'<base href="/t/"><a href="y">')
    result = urikit(["links", "--base", "http://h/d/", str(first), str(second)])
    assert result.returncode == 0
    assert result.stdout.decode().splitlines() == [
        f"{first}\thttp://h/d/x", f"{second}\thttp://h/t/", f"{second}\thttp://h/t/y"
    ]  # fmt: skip
    records = json_records(urikit(["links", "--json", "--base", "http://h/", str(second)]).stdout)
    assert {r["file"] for r in records} == {str(second)}


# --- --help is complete ------------------------------------------------------------------------


def test_top_level_help() -> None:
    result = urikit(["--help"], COLUMNS="2000")
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    for name in subcommands():
        assert f"    {name} " in text or f"    {name}\n" in text, name
    assert "--version" in text and "exit status" in text


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_subcommand_help_mentions_every_option(name: str) -> None:
    result = urikit([name, "--help"], COLUMNS="2000")
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    assert text.startswith(f"usage: urikit {name}")
    for action in subcommands()[name]._actions:
        for option in action.option_strings:
            assert option in text, option
        if not action.option_strings:
            assert str(action.metavar or action.dest) in text
        for choice in action.choices or ():
            assert str(choice) in text, (action.dest, choice)
        assert action.help, action.dest
    assert "stdin" in text or "standard input" in text


# --- a closed pipe is not an error to report, and not a failed input --------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["parse"], b"http://example.com/a?b#c"),
        (["validate", "--json"], b"http://example.com/"),
        (["audit"], b"http://u:p@example.com/"),
        (["normalize", "--json"], b"HTTP://example.com:80/%7e"),
        (["extract"], b"see http://example.com/ and "),
        (["links", "--base", "http://h/"], b'<a href="x">'),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_broken_pipe_is_quiet(tmp_path: Path, argv: list[str], line: bytes) -> None:
    source = tmp_path / "input"
    source.write_bytes((line + b"\n") * 20_000)
    environment = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    with source.open("rb") as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "urikit", *argv],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
        )
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()  # like `| head -1`
        process.stdout.close()
        error = process.stderr.read()
        process.stderr.close()
        status = process.wait(timeout=60)
    assert error == b"", error.decode(errors="replace")
    assert status == 141
