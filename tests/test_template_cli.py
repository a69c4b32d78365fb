"""``urikit template expand`` and ``urikit template match`` (RFC 6570): the contract of
every subcommand (one record per input line, errors as records, the exit statuses)
and the examples of their ``--help``, run as pasted."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_contract import (
    MIXED,
    MIXED_DATA,
    human_records,
    input_lines,
    json_records,
    subcommands,
    urikit,
)

BIN = str(Path(sys.executable).parent)


def _actions() -> dict[str, argparse.ArgumentParser]:
    parser = subcommands()["template"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("urikit template has no actions")


def _examples() -> list[tuple[str, list[str]]]:
    found = []
    for parser in [subcommands()["template"], *_actions().values()]:
        lines = parser.format_help().split("\n")
        for number, line in enumerate(lines):
            if line.strip().startswith("$ "):
                output = []
                for after in lines[number + 1 :]:
                    if not after.strip() or after.strip().startswith("$ "):
                        break
                    output.append(after[2:])
                found.append((line.strip()[2:], output))
    return found


EXAMPLES = _examples()


def test_each_action_has_examples() -> None:
    assert len(EXAMPLES) >= 5
    assert {command.split("urikit template ")[1].split()[0] for command, _ in EXAMPLES} == {
        "expand",
        "match",
    }


@pytest.mark.parametrize(("command", "output"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_help_example_runs_as_pasted(command: str, output: list[str]) -> None:
    assert shlex.split(command.split("|")[-1])[0] == "urikit"
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], NO_COLOR="1")
    env["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run(
        ["bash", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    assert result.stdout.decode("utf-8").removesuffix("\n").split("\n") == output


@pytest.mark.parametrize("name", ["expand", "match"])
def test_action_help_mentions_every_option(name: str) -> None:
    result = urikit(["template", name, "--help"], COLUMNS="2000")
    assert result.returncode == 0 and result.stderr == b""
    text = result.stdout.decode()
    assert text.startswith(f"usage: urikit template {name}")
    for action in _actions()[name]._actions:
        for option in action.option_strings:
            assert option in text, option
        if not action.option_strings:
            assert str(action.metavar or action.dest) in text
        assert action.help, action.dest
    assert "stdin" in text or "standard input" in text


# --- one record per input line ----------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["template", "match", "{+rest}"], ["template", "match", "/{a}{?q}", "--allow-dot-segments"]],
)
def test_match_one_record_per_line(argv: list[str]) -> None:
    result = urikit([*argv, "--json"], MIXED_DATA)
    assert result.stderr == b""
    records = json_records(result.stdout)
    expected = input_lines(MIXED_DATA)
    assert len(records) == len(expected) == len(MIXED)
    for line, record in zip(expected, records, strict=True):
        assert record["input"] == line
        if record["ok"]:
            assert isinstance(record["variables"], dict)
        else:
            assert set(record["error"]) == {"position", "rule", "reason", "message"}
    assert result.returncode == 1
    human = human_records(urikit(argv, MIXED_DATA).stdout)
    assert len(human) == len(records)
    for lines, record in zip(human, records, strict=True):
        assert len(lines) == 1
        if record["ok"]:
            assert json.loads(lines[0]) == record["variables"]
        else:
            assert lines[0].startswith("error: ")


def test_match_reads_what_expansion_writes() -> None:
    result = urikit(["template", "match", "--json", "{/p*}{?q}"], b"/a/b%20c?q=1\n/..\n\n")
    first, second, third = json_records(result.stdout)
    assert first["variables"] == {"p": ["a", "b c"], "q": "1"}
    assert second["ok"] is False and "dot-segment" in second["error"]["reason"]
    assert third["variables"] == {}
    assert result.returncode == 1
    ok = urikit(["template", "match", "{/p*}{?q}", "/a", "?q=2"])
    assert (ok.returncode, ok.stdout) == (0, b'{"p": ["a"]}\n{"q": "2"}\n')


LINES_OF_VALUES = [
    b'{"id": 7, "q": ["a", "b"]}',
    b"not json",
    b"[1, 2]",
    b'{"id": [[1]]}',  # a nested list is no value of RFC 6570
    b'{"id": "\\ud800"}',  # a lone surrogate has no UTF-8 form
    b'{"id": "x", "q": {"k": "v"}}',
    b"",
    b"\xff",
    b'{"id": 1}\r',
]


def test_expand_one_record_per_line() -> None:
    data = b"\n".join(LINES_OF_VALUES)
    result = urikit(["template", "expand", "--json", "/u/{id}{?q*}"], data)
    assert result.stderr == b""
    records = json_records(result.stdout)
    assert len(records) == len(LINES_OF_VALUES)
    assert [r["ok"] for r in records] == [True, False, False, False, False, True, False, False,
                                          True]  # fmt: skip
    assert records[0]["uri"] == "/u/7?q=a&q=b"
    assert records[5]["uri"] == "/u/x?k=v"
    assert records[8]["uri"] == "/u/1"
    assert records[1]["error"]["rule"] == "JSON-text" and records[1]["error"]["position"] == 0
    assert records[4]["error"]["rule"] == "varspec"
    assert records[7]["error"]["rule"] == "UTF8-char"
    assert result.returncode == 1
    human = urikit(["template", "expand", "/u/{id}{?q*}"], data).stdout.decode().split("\n")[:-1]
    assert len(human) == len(LINES_OF_VALUES)
    assert human[0] == "/u/7?q=a&q=b" and human[1].startswith("error: not json\t")


def test_expand_from_arguments() -> None:
    result = urikit(["template", "expand", "{/p*}{?k*}", "p=a", "p=b c", 'k:={"x": 1.5}'])
    assert (result.returncode, result.stdout) == (0, b"/a/b%20c?x=1.5\n")
    (record,) = json_records(urikit(["template", "expand", "--json", "{x}", "x=1"]).stdout)
    assert record == {"input": '{"x": "1"}', "ok": True, "uri": "1"}
    composite = urikit(["template", "expand", "{x:2}", "x:=[1, 2]"])
    assert composite.returncode == 1 and b"prefix" in composite.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["template", "expand", "{", "x=1"],
        ["template", "expand", "{x}", "x"],
        ["template", "expand", "{x}", "x:=[1"],
        ["template", "match", "{a}{b}", "ab"],
        ["template", "match", "{x:3}", "abc"],
        ["template", "match", "/{ x}", "/a"],
        ["template"],
        ["template", "route"],
    ],
)
def test_usage_errors_exit_2(argv: list[str]) -> None:
    result = urikit(argv)
    assert result.returncode == 2 and result.stdout == b""
    assert b"Traceback" not in result.stderr and result.stderr


def test_a_bad_template_names_its_position() -> None:
    result = urikit(["template", "match", "/x{?q,}", "/x"])
    assert b"position 6 in varname" in result.stderr
    assert b"      ^" in result.stderr


def test_error_modes() -> None:
    data = b"/a\n/a/b\n"
    stderr = urikit(["template", "match", "/{x}", "--errors", "stderr"], data)
    assert stderr.stdout == b'{"x": "a"}\n\n' and b"cannot give" in stderr.stderr
    skip = urikit(["template", "match", "/{x}", "--errors", "skip"], data)
    assert (skip.returncode, skip.stdout) == (1, b'{"x": "a"}\n')
