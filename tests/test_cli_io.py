"""The ``urikit`` command at its edges: help examples, output errors, octets, error
modes, buffering, passwords, and the query, redirect-check and data subcommands."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_contract import json_records, subcommands, urikit

from urikit import URI, URIError

BIN = str(Path(sys.executable).parent)


# --- every example of every --help runs as pasted ----------------------------------------------


def _helps() -> dict[str, str]:
    texts = {name: parser.format_help() for name, parser in subcommands().items()}
    query = subcommands()["query"]
    for action in query._actions:
        if isinstance(getattr(action, "choices", None), dict):
            for sub, subparser in action.choices.items():
                texts[f"query {sub}"] = subparser.format_help()
    return texts


def _examples() -> list[tuple[str, str, list[str]]]:
    """(subcommand, command line, documented output lines) of each example."""
    found = []
    for name, text in _helps().items():
        lines = text.split("\n")
        for number, line in enumerate(lines):
            if line.strip().startswith("$ "):
                output = []
                for after in lines[number + 1 :]:
                    if not after.strip() or after.strip().startswith("$ "):
                        break
                    output.append(after[2:])
                found.append((name, line.strip()[2:], output))
    return found


EXAMPLES = _examples()


def test_every_subcommand_has_an_example() -> None:
    assert {name.split()[0] for name, _, _ in EXAMPLES} == set(subcommands())


@pytest.mark.parametrize(("name", "command", "output"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_help_example_runs_as_pasted(name: str, command: str, output: list[str]) -> None:
    assert shlex.split(command.split("|")[-1])[0] == "urikit"  # the shell runs urikit
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], NO_COLOR="1")
    env["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run(
        ["bash", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    got = result.stdout.decode("utf-8").removesuffix("\n").split("\n")
    if output and output[-1] == "...":
        assert got[: len(output) - 1] == output[:-1]
    else:
        assert got == output


# --- output errors ------------------------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "argv", [["validate", "http://a/"], ["--help"], ["extract"], ["data", "data:,x"]]
)
def test_a_full_disk_is_one_line_and_status_3(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "urikit", *argv], input=b"see http://a/ ",
            stdout=full, stderr=subprocess.PIPE, timeout=60,
        )  # fmt: skip
    assert result.returncode == 3
    assert result.stderr == b"urikit: cannot write the output: No space left on device\n"


def test_a_closed_output_is_status_3() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "urikit", "validate", "http://a/"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert result.returncode == 3
    assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr


def test_a_pipe_closed_before_the_first_record_is_quiet() -> None:
    read, write = os.pipe()
    os.close(read)
    with open(write, "wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "urikit", "validate", "x:"] * 1, stdout=stdout,
            stderr=subprocess.PIPE, timeout=60,
        )  # fmt: skip
    assert (result.returncode, result.stderr) == (141, b"")


# --- octets that are not UTF-8 ------------------------------------------------------------------


def test_invalid_utf8_names_the_octet_and_its_byte() -> None:
    result = urikit(["validate", "--json"], b"http://a/\xff bad\nhttp://\xc3/\n")
    first, second = json_records(result.stdout)
    assert first["error"]["reason"] == "invalid UTF-8 octet 0xFF at byte 9"
    assert first["error"]["position"] == 9 and first["input"] == "http://a/\ufffd bad"
    assert second["error"]["reason"] == "invalid UTF-8 octet 0xC3 at byte 7"
    text = urikit(["validate"], b"a\xe2\x80z\n").stdout.decode()
    assert text == "error: a\ufffdz\t1\tUTF8-char\tinvalid UTF-8 octets 0xE2 0x80 at byte 1\n"


def test_invalid_utf8_in_an_argument() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "urikit", "validate", "--json", os.fsdecode(b"a\xff")],
        capture_output=True, timeout=60, env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )  # fmt: skip
    (record,) = json_records(result.stdout)
    assert record["error"]["reason"] == "invalid UTF-8 octet 0xFF at byte 1"


# --- --errors: inline, stderr, skip ---------------------------------------------------------------

LINES = [b"http://a/", b"bad uri", b"", b"\xff", b"http://b/ c", b"x:"]
FAILED = 3


@pytest.mark.parametrize("json_mode", [False, True])
@pytest.mark.parametrize("command", [["normalize"], ["validate"], ["to-uri"], ["from-path"]])
def test_error_modes(command: list[str], json_mode: bool) -> None:
    data = b"\n".join(LINES) + b"\n"
    argv = [*command, *(["--json"] if json_mode else [])]
    if command == ["from-path"]:
        data = b"/a\n/r\x00l\n/b\n\xff\n/c\x00d\n/e\n"
    inline = urikit([*argv, "--errors", "inline"], data)
    assert inline.returncode == 1 and inline.stderr == b""
    assert inline.stdout.count(b"\n") == len(LINES)  # one line per input, errors too
    assert inline.stdout == urikit(argv, data).stdout  # inline is the default
    to_stderr = urikit([*argv, "--errors", "stderr"], data)
    assert to_stderr.returncode == 1
    lines = to_stderr.stdout.decode().split("\n")[:-1]
    if json_mode:  # only the records that succeeded
        assert len(lines) == len(LINES) - FAILED
        assert len(to_stderr.stderr.decode().splitlines()) == FAILED
        assert all(json.loads(line)["ok"] is False for line in to_stderr.stderr.splitlines())
    else:  # aligned: an empty line for each failure, the error and its caret on stderr
        assert len(lines) == len(LINES)
        assert to_stderr.stderr.count(b"^") == FAILED
        assert to_stderr.stderr.count(b": line ") == FAILED
    skip = urikit([*argv, "--errors", "skip"], data)
    assert skip.returncode == 1 and skip.stderr == b""
    assert skip.stdout.count(b"\n") == len(LINES) - FAILED


def test_lenient_repairs_and_reports() -> None:
    result = urikit(["normalize", "--lenient", "--json"], b" http://a/b c \nhttp://a/\n")
    first, second = json_records(result.stdout)
    assert result.returncode == 0
    assert first["ok"] and first["normalized"] == "http://a/b%20c"
    assert {r["code"] for r in first["repairs"]} >= {"surrounding-whitespace"}
    assert "repairs" not in second
    text = urikit(["normalize", "--lenient"], b"http://a/b c\n")
    assert text.stdout == b"http://a/b%20c\n" and b"repaired" in text.stderr
    assert urikit(["normalize"], b"http://a/b c\n").returncode == 1


# --- buffering and a terminal on standard input ------------------------------------------------


def _read_line(stream: int) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(stream, 1)
        if not chunk:
            break
        data += chunk
    return data


def test_line_buffered_writes_each_record_before_the_next_line() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "urikit", "validate", "--line-buffered"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"a:\n")
    process.stdin.flush()
    assert _read_line(process.stdout.fileno()) == b"valid: a:\n"  # while stdin is open
    process.stdin.close()
    assert process.wait(timeout=60) == 0
    process.stdout.close()
    assert process.stderr is not None and process.stderr.read() == b""
    process.stderr.close()


def test_a_terminal_gets_a_note_and_each_record_at_once() -> None:
    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "urikit", "validate"],
        stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    os.close(follower)
    assert process.stdout is not None and process.stderr is not None
    note = _read_line(process.stderr.fileno())
    assert note == b"urikit: reading inputs from standard input, one per line; Ctrl-D to end\n"
    os.write(leader, b"a:\n")
    assert _read_line(process.stdout.fileno()) == b"valid: a:\n"
    os.write(leader, b"\x04")  # Ctrl-D
    assert process.wait(timeout=60) == 0
    os.close(leader)
    process.stdout.close()
    process.stderr.close()


# --- passwords ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [["validate"], ["validate", "--json"], ["normalize", "--original"], ["parse"], ["audit"],
     ["redirect-check", "--allow", "h"], ["to-path", "--errors", "stderr"]],
)  # fmt: skip
def test_passwords_are_masked_wherever_an_input_is_shown(argv: list[str]) -> None:
    data = b"http://user:hunter2@h/\nhttp://user:hunter2@h b/\nhttp://u:hunter2@a@b/\n"
    result = urikit(argv, data)
    assert b"hunter2" not in result.stdout + result.stderr
    assert b"user:***@h" in result.stdout + result.stderr
    shown = urikit([*argv, "--show-password"], data)
    assert b"hunter2" in shown.stdout + shown.stderr


def test_results_keep_their_password() -> None:
    """Only echoes are masked: a result is a URI to use, so it is exact."""
    result = urikit(["normalize", "--json"], b"HTTP://user:hunter2@h/\n")
    (record,) = json_records(result.stdout)
    assert record["input"] == "HTTP://user:***@h/"
    assert record["normalized"] == "http://user:hunter2@h/"


def test_a_masked_error_counts_in_the_input_as_given() -> None:
    """Masking a password changes what is shown, never the position (issue: 14 against 23)."""
    text = "http://u:longpassword@a b/"
    assert uri_error_position(text) == 23
    (record,) = json_records(urikit(["validate", "--json"], text.encode()).stdout)
    assert record["input"] == "http://u:***@a b/"
    assert record["error"]["position"] == 23 and text[23] == " "
    assert record["error"]["message"].startswith("U+0020 at position 23 in host: ")
    assert "\n" not in record["error"]["message"]
    line = urikit(["validate"], text.encode()).stdout.decode()
    assert line.split("\t")[:3] == ["error: http://u:***@a b/", "23", "host"]
    stderr = urikit(["validate", "--errors", "stderr"], text.encode()).stderr.decode()
    assert "at position 23 in host" in stderr and "longpassword" not in stderr
    # The caret is drawn under the text as shown: under the space after "***@a".
    shown, caret = stderr.splitlines()[-2:]
    assert shown.strip() == "http://u:***@a b/" and shown[caret.index("^")] == " "


def test_an_error_inside_the_password_does_not_show_its_character() -> None:
    text = "http://u:pa%zzss@h/"
    (record,) = json_records(urikit(["validate", "--json"], text.encode()).stdout)
    assert record["error"]["position"] == uri_error_position(text) == 12
    assert record["error"]["message"].startswith("a character of the password at position 12")
    assert "zz" not in json.dumps(record)


def uri_error_position(text: str) -> int | None:
    try:
        URI(text)
    except URIError as exc:
        return exc.position
    return None


# --- to-path, from-path, --fail-on ---------------------------------------------------------------


def test_to_path_quotes_what_would_be_ambiguous() -> None:
    data = b"file:///a%0Ab\nfile:///a%5Cn\nfile:///caf%E9\nfile:///it's%09\nfile:///%24'x'\n"
    result = urikit(["to-path", "--flavor", "posix"], data)
    assert result.stdout.decode("utf-8").split("\n")[:-1] == [
        "$'/a\\nb'", "/a\\n", "$'/caf\\xE9'", "$'/it\\'s\\t'", "/$'x'"
    ]  # fmt: skip
    shell = subprocess.run(
        ["bash", "-c", "printf %s " + result.stdout.decode().split("\n")[2]],
        capture_output=True, timeout=60,
    )  # fmt: skip
    assert shell.stdout == b"/caf\xe9"  # the quoted form is the file's name
    (record,) = json_records(
        urikit(["to-path", "--json", "--flavor", "posix"], b"file:///caf%E9").stdout
    )
    assert record["quoted"] == "$'/caf\\xE9'" and record["path"] == "/caf\ufffd"


def test_from_path_errors_show_the_input() -> None:
    (record,) = json_records(
        urikit(["from-path", "--json", "--flavor", "posix"], b"a//b/./c\x00d").stdout
    )
    assert record["input"] == "a//b/./c\x00d"
    assert record["error"]["message"].startswith("U+0000 at position 8 ")
    assert record["error"]["position"] == 8


def test_fail_on_is_case_insensitive() -> None:
    assert urikit(["audit", "--fail-on", "HIGH", "http://u:p@example.com/"]).returncode == 0


# --- query ----------------------------------------------------------------------------------------


def test_query_edits_keep_the_other_pairs_byte_for_byte() -> None:
    uri = b"http://h/?a=1&b=%7e+%2B&a=2&c"
    assert urikit(["query", "set", "a", "x y"], uri).stdout == b"http://h/?a=x+y&b=%7e+%2B&c\n"
    assert urikit(["query", "remove", "a"], uri).stdout == b"http://h/?b=%7e+%2B&c\n"
    assert urikit(["query", "get", "b"], uri).stdout == b"~ +\n"
    assert urikit(["query", "get", "--codec", "rfc3986", "b"], uri).stdout == b"~++\n"
    listed = urikit(["query", "list"], uri)
    assert listed.stdout == b"a=1\tb=~ +\ta=2\tc\n"
    (record,) = json_records(urikit(["query", "list", "--json"], uri).stdout)
    assert record["params"] == [["a", "1"], ["b", "~ +"], ["a", "2"], ["c", None]]


def test_query_get_of_a_missing_name_fails() -> None:
    result = urikit(["query", "get", "z"], b"http://h/?a=1\nhttp://h/?z=2\n")
    lines = result.stdout.decode().split("\n")[:-1]
    assert result.returncode == 1 and len(lines) == 2
    assert lines[0].startswith("error: http://h/?a=1\t") and lines[1] == "2"


# --- redirect-check -------------------------------------------------------------------------------


def test_redirect_check() -> None:
    data = b"/account\nhttps://other.example/\nhttps://ok.example/x\n//evil/\njavascript:alert(1)\n"
    result = urikit(
        ["redirect-check", "--allow", "ok.example", "--base", "https://h/", "--json"], data
    )
    records = json_records(result.stdout)
    assert [r["safe"] for r in records] == [True, False, True, False, False]
    assert [r["ok"] for r in records] == [r["safe"] for r in records]
    assert "network-path" in {f["code"] for f in records[3]["findings"]}
    assert result.returncode == 1
    assert urikit(["redirect-check", "--allow", "h", "/x"]).returncode == 0
    assert urikit(["redirect-check", "/x"]).returncode == 2


# --- data -----------------------------------------------------------------------------------------


def test_data_writes_the_octets(tmp_path: Path) -> None:
    result = urikit(["data", "-v", "data:image/gif;base64,R0lGODdh"])
    assert (result.returncode, result.stdout) == (0, b"GIF87a")
    assert result.stderr.startswith(b"urikit data: image/gif")
    assert urikit(["data"], b"data:,A%20brief%20note\n").stdout == b"A brief note"
    target = tmp_path / "out.bin"
    assert urikit(["data", "--output", str(target), "data:,%FF%00"]).returncode == 0
    assert target.read_bytes() == b"\xff\x00"
    bad = urikit(["data", "http://a/"])
    assert bad.returncode == 1 and bad.stdout == b"" and b"data: URL" in bad.stderr


# --- the command examples of the documentation run -------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _doc_examples() -> list[tuple[str, str, list[str]]]:
    """Each ``$ command`` of a ``console`` block of ``docs/*.md``: its page, the command
    and the lines shown after it."""
    found: list[tuple[str, str, list[str]]] = []
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"^```console\n(.*?)^```", text, re.M | re.S):
            for line in block.rstrip("\n").split("\n"):
                if line.startswith("$ "):
                    found.append((path.name, line[2:], []))
                else:
                    found[-1][2].append(line)
    return found


DOC_EXAMPLES = _doc_examples()


def test_the_pages_with_command_examples() -> None:
    pages = {page for page, _, _ in DOC_EXAMPLES}
    assert {"cli.md", "components.md", "templates.md"} <= pages
    assert len(DOC_EXAMPLES) > 20


@pytest.mark.parametrize(
    ("page", "command", "output"), DOC_EXAMPLES, ids=[f"{e[0]}: {e[1]}" for e in DOC_EXAMPLES]
)
def test_docs_example_runs(page: str, command: str, output: list[str]) -> None:
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], NO_COLOR="1")
    env["PYTHONIOENCODING"] = "utf-8"
    result = subprocess.run(
        ["bash", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    got = result.stdout.decode("utf-8").removesuffix("\n").split("\n")
    if output and output[-1] == "...":
        assert got[: len(output) - 1] == output[:-1]
    else:
        assert got == output
