"""``urikit audit``: human and JSON output, exit status, colour (RFC 3986 §7.6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from urikit.cli import main
from urikit.cli.audit import STYLES, render
from urikit.security import audit

ATTACK = "http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm"
USERINFO_ON = f"\x1b[{STYLES['userinfo']}m"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["audit", *args])
    return status, capsys.readouterr().out


def test_human_output_lists_findings_after_the_uri(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run([ATTACK], capsys)
    lines = out.splitlines()
    assert lines[0] == ATTACK
    assert "misleading-userinfo" in lines[1] and "high" in lines[1]
    assert "internal-address" in lines[2]
    assert status == 1
    assert "\x1b[" not in out  # captured output is not a terminal


def test_clean_uri_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(["https://www.example.com/index.html?q=1#x"], capsys)
    assert status == 0
    assert "no findings" in out


@pytest.mark.parametrize(
    ("fail_on", "status"), [("info", 1), ("low", 1), ("medium", 1), ("high", 0), ("never", 0)]
)
def test_fail_on(fail_on: str, status: int, capsys: pytest.CaptureFixture[str]) -> None:
    # a password is a medium finding
    assert run(["--fail-on", fail_on, "http://u:p@example.com/"], capsys)[0] == status


def test_fail_on_high_with_a_high_finding(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--fail-on", "high", ATTACK], capsys)[0] == 1


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(
        ["--json", "--fail-on", "high", ATTACK, "mailto:John.Doe@example.com"], capsys
    )
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["input"] == ATTACK and first["ok"] is False
    assert [f["code"] for f in first["findings"]] == ["misleading-userinfo", "internal-address"]
    assert first["findings"][0]["span"] == [7, 42]
    assert first["findings"][0]["severity"] == "high"
    assert second == {"input": "mailto:John.Doe@example.com", "ok": True, "findings": []}
    assert status == 1


def test_passwords_are_masked(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(["http://user:hunter2@example.com/", "http://u:hunter2@a@b/"], capsys)
    assert "hunter2" not in out
    assert "http://user:***@example.com/" in out
    _, out = run(["--json", "http://user:hunter2@example.com/"], capsys)
    assert "hunter2" not in out


def test_invalid_input_is_audited_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(["--fail-on", "never", "http://a@b@c/"], capsys)
    assert status == 0
    assert "invalid" in out and "parser-differential" in out


def test_invisible_characters_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(["http://example.com/\u202egpj.exe\x1b[2J"], capsys)
    assert "\u202e" not in out and "\x1b" not in out
    assert "<U+202E>" in out and "<U+001B>" in out


def test_stdin_lines(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("http://127.1/\nhttps://example.com/\n"))
    status, out = run(["--json"], capsys)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["ok"] for r in records] == [False, True]
    assert status == 1


def test_render_colours_each_component() -> None:
    text = "https://user:pw@example.com:8443/a?b=c#d"
    shown = render(text, audit(text), color=True)
    for name, value in [
        ("scheme", "https"),
        ("userinfo", "user:***"),
        ("host", "example.com"),
        ("port", "8443"),
        ("path", "/a"),
        ("query", "b=c"),
        ("fragment", "d"),
    ]:
        assert f"\x1b[{STYLES[name]}m{value}\x1b[0m" in shown
    assert len(set(STYLES.values())) == len(STYLES)
    assert "pw@" not in shown
    assert render(text, audit(text), color=False) == "https://user:***@example.com:8443/a?b=c#d"


def _terminal(env_extra: dict[str, str]) -> str:
    """Run the command with its standard output on a pseudo-terminal; what it wrote."""
    pty = pytest.importorskip("pty")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(env_extra)
    leader, follower = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "urikit", "audit", ATTACK],
        stdout=follower,
        stderr=subprocess.PIPE,
        env=env,
    ) as process:
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal is closed once the child exits
                break
            if not chunk:
                break
            chunks.append(chunk)
        process.wait()
    os.close(leader)
    return b"".join(chunks).decode("utf-8")


def test_colour_in_a_real_terminal() -> None:
    out = _terminal({})
    assert f"{USERINFO_ON}www.example.com&story=breaking_news\x1b[0m" in out
    assert f"\x1b[{STYLES['host']}m10.0.0.1\x1b[0m" in out


def test_no_color_in_a_terminal() -> None:
    out = _terminal({"NO_COLOR": "1"})
    assert "\x1b[" not in out
    assert ATTACK in out


def test_empty_no_color_still_colours() -> None:
    assert USERINFO_ON in _terminal({"NO_COLOR": ""})


def test_no_colour_into_a_pipe() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    result = subprocess.run(
        [sys.executable, "-m", "urikit", "audit", ATTACK],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 1
    assert "\x1b[" not in result.stdout
    assert result.stdout.startswith(ATTACK + "\n")
