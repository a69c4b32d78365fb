"""``urikit to-uri`` and ``urikit to-iri`` (RFC 3987 §3.1, §3.2): one record per line."""

from __future__ import annotations

import io
import json
import sys

import pytest

from urikit.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(list(argv))
    return status, capsys.readouterr().out.splitlines()


def run_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: str, *argv: str
) -> tuple[int, list[str]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(data))
    return run(capsys, *argv)


def test_to_uri_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "to-uri", "http://r\u00e9sum\u00e9.example.org", "http://a/b")
    assert status == 0
    assert out == ["http://r%C3%A9sum%C3%A9.example.org", "http://a/b"]


def test_to_uri_idna(capsys: pytest.CaptureFixture[str]) -> None:
    # RFC 3987 §3.1
    status, out = run(capsys, "to-uri", "--idna", "http://r\u00e9sum\u00e9.example.org")
    assert (status, out) == (0, ["http://xn--rsum-bpad.example.org"])


def test_to_uri_nfc(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "to-uri", "--nfc", "http://a/re\u0301sume\u0301")
    assert (status, out) == (0, ["http://a/r%C3%A9sum%C3%A9"])


def test_to_uri_streams_and_fails_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = "http://a/\u00e9\nhttp://a/\u202e\n\nhttp://a/\ue000\nhttp://a/?\ue000\n"
    status, out = run_stdin(capsys, monkeypatch, data, "to-uri")
    assert status == 1
    assert out[0] == "http://a/%C3%A9"
    assert out[1].startswith("error: http://a/")
    assert "§4.1" in "\n".join(out)
    assert "" in out  # the empty reference maps to itself
    assert out[-1] == "http://a/?%EE%80%80"
    assert sum(1 for line in out if not line.startswith(" ")) == 5


def test_to_iri_examples(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # RFC 3987 §3.2.1
    data = (
        "http://www.example.org/D%C3%BCrst\n"
        "http://www.example.org/D%FCrst\n"
        "http://xn--99zt52a.example.org/%e2%80%ae\n"
    )
    status, out = run_stdin(capsys, monkeypatch, data, "to-iri")
    assert status == 0
    assert out == [
        "http://www.example.org/D\u00fcrst",
        "http://www.example.org/D%FCrst",
        "http://xn--99zt52a.example.org/%E2%80%AE",
    ]
    status, out = run(capsys, "to-iri", "--idna", "http://xn--99zt52a.example.org/%e2%80%ae")
    assert (status, out) == (0, ["http://\u7d0d\u8c46.example.org/%E2%80%AE"])


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "to-iri", "--json", "http://a/%C3%A9", "http://a b")
    assert status == 1
    first, second = (json.loads(line) for line in out)
    assert first == {"input": "http://a/%C3%A9", "ok": True, "iri": "http://a/\u00e9"}
    assert second["ok"] is False and second["error"]["position"] == 8
    status, out = run(capsys, "to-uri", "--json", "--idna", "http://a\u200d/")
    assert status == 1
    assert json.loads(out[0])["error"]["rule"] == "ireg-name"
    status, out = run(capsys, "to-uri", "--json", "http://\u00e9/")
    assert json.loads(out[0]) == {"input": "http://\u00e9/", "ok": True, "uri": "http://%C3%A9/"}
