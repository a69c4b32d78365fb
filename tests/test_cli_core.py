"""The ``urikit`` command: ``parse`` and ``validate`` (and the streaming they share)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from urikit.cli import main

EXAMPLE = "foo://example.com:8042/over/there?name=ferret#nose"  # RFC 3986 §3


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


def run_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: str, *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(data))
    return run(capsys, *argv)


def records(out: str) -> list[str]:
    """Human records: each begins with an unindented line; the rest are indented."""
    result: list[str] = []
    for line in out.splitlines():
        if line.startswith(" "):
            result[-1] += "\n" + line
        else:
            result.append(line)
    return result


def subprocess_run(args: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "urikit", *args], input=data, capture_output=True, env=env,
        timeout=60,
    )  # fmt: skip


# --- parse ----------------------------------------------------------------------------------


def test_parse_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "parse", EXAMPLE)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == EXAMPLE
    table = dict(line.split(None, 1) for line in lines[1:])
    assert table["scheme"] == "foo"
    assert table["authority"] == "example.com:8042"
    assert table["userinfo"] == "(undefined)"
    assert table["host"] == "example.com  (reg-name)"
    assert table["port"] == "8042"
    assert table["path"] == "/over/there"
    assert table["query"] == "name=ferret"
    assert table["fragment"] == "nose"


def test_parse_table_shows_empty_apart_from_undefined(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "parse", "http://h:/?")
    table = dict(line.split(None, 1) for line in out.splitlines()[1:])
    assert table["port"] == "''" and table["query"] == "''" and table["fragment"] == "(undefined)"


def test_parse_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "parse", "--json", EXAMPLE, "urn:example:animal:ferret:nose")
    assert status == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["ok"] is True and first["input"] == EXAMPLE
    assert (first["scheme"], first["host"], first["port"], first["port_number"]) == (
        "foo",
        "example.com",
        "8042",
        8042,
    )
    assert first["host_type"] == "reg-name" and first["kind"] == "uri"
    assert second["authority"] is None and second["path"] == "example:animal:ferret:nose"
    assert second["is_opaque"] is True


def test_parse_masks_the_password(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "parse", "--json", "http://user:secret@h/")
    assert "secret" not in out
    _, out = run(capsys, "parse", "http://user:secret@h/")
    assert "secret" not in out
    _, out = run(capsys, "parse", "--json", "--show-password", "http://user:secret@h/")
    assert json.loads(out)["userinfo"] == "user:secret"


def test_parse_error_record_and_status(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "parse", "http://a/", "http://a b/", "x:")
    assert status == 1
    recs = records(out)
    assert len(recs) == 3
    # one line: the input, the position, the rule, the reason
    assert recs[1].split("\t")[:3] == ["error: http://a b/", "8", "host"]
    status, out = run(capsys, "parse", "--json", "http://a b/")
    assert status == 1
    record = json.loads(out)
    assert record["ok"] is False and record["input"] == "http://a b/"
    assert record["error"]["position"] == 8 and record["error"]["rule"] == "host"


# --- validate ---------------------------------------------------------------------------------


def test_validate_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "validate", EXAMPLE, "a:b")[0] == 0
    status, out = run(capsys, "validate", EXAMPLE, "1a:b")
    assert status == 1
    recs = records(out)
    assert recs[0] == f"valid: {EXAMPLE}"
    assert recs[1].split("\t")[:3] == ["error: 1a:b", "2", "segment-nz-nc"]


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        ("IPv6address", "::ffff:192.0.2.128", "1::2::3"),
        ("absolute-URI", "http://a/b?c", "http://a/b#c"),
        ("relative-ref", "//a/b", "a:b"),
        ("host", "[v1.x]", "a b"),
        ("port", "8080", "80a"),
        ("IRI", "http://é.example/", "é"),
    ],
)
def test_validate_rule(capsys: pytest.CaptureFixture[str], rule: str, good: str, bad: str) -> None:
    assert run(capsys, "validate", "--rule", rule, good)[0] == 0
    status, out = run(capsys, "validate", "--rule", rule, "--json", good, bad)
    assert status == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {"input": good, "ok": True, "rule": rule}
    assert second["ok"] is False and isinstance(second["error"]["position"], int)


def test_unknown_rule_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--rule", "nonsense", "x"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_rule_names_are_case_insensitive(capsys: pytest.CaptureFixture[str]) -> None:
    """ABNF rule names are case-insensitive (RFC 5234 §2.1)."""
    status, out = run(capsys, "validate", "--rule", "ipv6ADDRESS", "--json", "::1")
    assert status == 0 and json.loads(out)["rule"] == "IPv6address"


# --- standard input: one record per line ---------------------------------------------------

LINES = ["http://a/", "", "bad uri", "x:y\r", "#frag", "a\rb", "http://[::1", "last"]


@pytest.mark.parametrize("command", ["validate", "parse"])
def test_stdin_one_json_record_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    status, out = run_stdin(capsys, monkeypatch, "\n".join(LINES) + "\n", command, "--json")
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == len(LINES)
    results = [json.loads(line) for line in lines]
    assert [r["ok"] for r in results] == [True, True, False, True, True, False, False, True]
    assert results[3]["input"] == "x:y"  # a "\r" before the "\n" ends the line
    assert results[5]["input"] == "a\rb"
    assert results[5]["error"]["position"] == 1


def test_stdin_human_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = run_stdin(capsys, monkeypatch, "\n".join(LINES), "validate")
    assert status == 1
    recs = records(out)
    assert len(recs) == len(LINES)
    assert recs[1] == "valid: "
    assert recs[5].startswith("error: a<U+000D>b\t")  # the control is shown, not written
    assert recs[-1] == "valid: last"


def test_stdin_empty(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_stdin(capsys, monkeypatch, "", "validate") == (0, "")


def test_stdin_is_streamed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines are read lazily: a record is written before the next line is read."""
    seen: list[int] = []

    class Lines(io.StringIO):
        def __iter__(self):  # type: ignore[override]
            for line in ["a:\n", "b:\n", "c:\n"]:
                seen.append(len(sys.stdout.getvalue().splitlines()))
                yield line

    monkeypatch.setattr(sys, "stdin", Lines())
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(["validate"]) == 0
    # before each line is read, every earlier line already has its record
    assert seen == [0, 1, 2]
    assert sys.stdout.getvalue().splitlines() == ["valid: a:", "valid: b:", "valid: c:"]


def test_subprocess_bytes_stdin() -> None:
    data = b"http://a/\r\n\n\xff\xfe bad\nhttp://\xc3\xa9/\nx:\r\nlast"
    result = subprocess_run(["validate", "--json"], data)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.decode("utf-8").splitlines()
    assert len(lines) == 6
    records_ = [json.loads(line) for line in lines]
    assert [r["ok"] for r in records_] == [True, True, False, False, True, True]
    assert records_[2]["error"]["position"] == 0
    assert records_[3]["input"] == "http://é/"
    assert records_[3]["error"]["position"] == 7


def test_subprocess_parse_and_help() -> None:
    result = subprocess_run(["parse", EXAMPLE], b"")
    assert result.returncode == 0
    assert b"example.com  (reg-name)" in result.stdout
    for args in (["--help"], ["parse", "--help"], ["validate", "--help"]):
        result = subprocess_run(args, b"")
        assert result.returncode == 0
        assert b"usage: urikit" in result.stdout
    help_text = subprocess_run(["validate", "--help"], b"").stdout.decode()
    for word in ("--rule", "--json", "stdin", "URI-reference"):
        assert word in help_text
    assert subprocess_run([], b"").returncode == 2


# --- parse --whatwg: the URL Standard's reading --------------------------------------

WPT = Path(__file__).parent / "vectors" / "wpt" / "urltestdata.json"


def _one_line(text: str) -> bool:
    """Can ``text`` stand as one line of input, as it is (no line break, no blank)?"""
    return text.strip(" \t") != "" and text.splitlines() == [text] and text == text.strip("\r\n")


def test_parse_whatwg_gives_the_wpt_href_or_an_error_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each case of the web-platform-tests' urltestdata.json that fits on one line, fed on
    standard input one per line (grouped by base): one record per line, the expected
    ``href`` and getters or a failure."""
    cases = [c for c in json.loads(WPT.read_text(encoding="utf-8")) if isinstance(c, dict)]
    by_base: dict[str | None, list[dict[str, Any]]] = {}
    for case in cases:
        if _one_line(case["input"]):
            by_base.setdefault(case["base"], []).append(case)
    checked = 0
    for base, group in by_base.items():
        argv = ["parse", "--whatwg", "--json", "--show-password"]
        argv += [] if base is None else ["--base", base]
        data = "".join(case["input"] + "\n" for case in group)
        status, out = run_stdin(capsys, monkeypatch, data, *argv)
        lines = out.splitlines()
        assert len(lines) == len(group)
        assert status == (1 if any(case.get("failure") for case in group) else 0)
        for case, line in zip(group, lines, strict=True):
            record = json.loads(line)
            if case.get("failure"):
                assert record["ok"] is False and record["error"]["rule"], case
                continue
            assert record["ok"] is True, case
            for name in ("href", "protocol", "username", "password", "host", "hostname"):
                assert record[name] == case[name], (name, case)
            for name in ("port", "pathname", "search", "hash"):
                assert record[name] == case[name], (name, case)
            if "origin" in case:
                assert record["origin"] == case["origin"]
            checked += 1
    assert checked > 400


def test_parse_whatwg_text_records_and_masking(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "parse", "--whatwg", "HTTP://u:secret@Example.COM:80/a/../b", "x")
    assert status == 1
    first, second = records(out)
    assert "secret" not in out
    table = dict(line.split(None, 1) for line in first.splitlines()[1:])
    assert table["href"] == "http://u:***@example.com/b" and table["port"] == "''"
    assert second.split("\t")[:3] == ["error: x", "0", "missing-scheme-non-relative-URL"]
    _, out = run(capsys, "parse", "--whatwg", "--json", "https://i\u2764.ws/")
    record = json.loads(out)
    assert record["hostname"] == "xn--i-7iq.ws" and record["registrable_domain"] == "xn--i-7iq.ws"


def test_parse_whatwg_options_that_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--whatwg", "--lenient", "http://a/"]) == 2
    assert main(["parse", "--base", "http://a/", "b"]) == 2  # --base is for --whatwg
    assert main(["parse", "--whatwg", "--base", "not a url", "b"]) == 2
    assert capsys.readouterr().out == ""


def test_parse_json_gives_the_registrable_domain(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(capsys, "parse", "--json", "http://www.example.co.uk/", "http://[::1]/", "a")
    domains = [json.loads(line)["registrable_domain"] for line in out.splitlines()]
    assert domains == ["example.co.uk", None, None]
