"""``--input``, ``--output`` and ``--jobs``: files of any format, on every core, give
exactly the records of the line mode.

The same rows go through the line mode (standard input, ``--json``) and through
``--input`` as plain lines, CSV, JSON lines and Parquet, in one process and on
worker processes with many small batches: the records must be equal, errors
included, in input order.  An output table holds the JSON records' keys as
columns.  Memory stays flat in the size of the input, the progress line is
drawn on a terminal only, and without pyarrow only plain lines work.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from test_cli_contract import MIXED_DATA, input_lines, json_records

from urikit.cli import _progress, main

BASE = "http://a/b/c/d;p?q"  # RFC 3986 §5.4
CORPUS = (Path(__file__).resolve().parent.parent / "bench" / "urls.txt").read_text("utf-8")

#: Rows that every format holds alike (no line end inside, none at the end).
HOSTILE = [
    "",
    " ",
    "bad uri",
    "%",
    "%zz",
    "http://u:pw@example.com/a",
    "http://u:pw@[::1/",
    "http://[fe80::1%25eth0]/",
    "http://[::ffff:192.0.2.128]:8080/",
    "a\tb",
    "http://example.com/r\u00e9sum\u00e9",
    "http://r\u00e9sum\u00e9.example.org/caf\u00e9",
    "http://xn--rsum-bpad.example.org/",
    "\u2028x",
    "a\rb",
    "\x1b[31m",
    "http://" + "b" * 5000 + " ",
    "HTTP://Example.COM:80/a/./b/../%7euser",
    "http://a/%7e?q=%ff#%2e",
    "mailto:x@y",
    "urn:isbn:0451450523",
    "file:///etc/hosts",
    "http://\u202eevil.example/",
    "javascript:alert(1)",
    "http://a:99999999999999999999/",
    "http://a/b?utm_source=x&b=1&a=2#frag",
    "//h/p",
    "?q",
    "#f",
    "../g",
    "g;x=1/../y",
    "http://10.0.0.1:22/",
    "http://0x7f.1/",
    "data:text/html,<script>",
    "\ufeffhttp://a/",
]
ROWS = CORPUS.splitlines() + HOSTILE

#: Subcommands and options over the rows; each reads one input per record.
VARIANTS = [
    ["parse"],
    ["validate"],
    ["validate", "--rule", "absolute-URI"],
    ["normalize"],
    ["normalize", "--level", "syntax", "--remove-tracking", "--sort-query"],
    ["normalize", "--iri", "--drop-fragment"],
    ["resolve", BASE],
    ["audit"],
    ["to-uri"],
    ["to-uri", "--idna"],
]
IDS = [" ".join(v) for v in VARIANTS]


def write_rows(path: Path, rows: Sequence[str | None], kind: str) -> None:
    """``rows`` as a file of ``kind``, in a column ``url`` beside a column ``n``."""
    if kind == "lines":
        path.write_bytes("".join(f"{row}\n" for row in rows).encode("utf-8"))
        return
    table = pa.table({"n": pa.array(range(len(rows))), "url": pa.array(rows, pa.string())})
    if kind == "parquet":
        pq.write_table(table, path, row_group_size=2000)
    elif kind == "csv":
        pacsv.write_csv(table, path)
    else:
        with path.open("w", encoding="utf-8") as out:
            for number, row in enumerate(rows):
                out.write(json.dumps({"n": number, "url": row}) + "\n")


SUFFIX = {"lines": ".txt", "parquet": ".parquet", "csv": ".csv", "jsonl": ".jsonl"}


def run_main(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    data: bytes = b"",
) -> tuple[int, str, str]:
    """``urikit ARGV`` in this process, ``data`` on standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    capsys.readouterr()
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def urikit(
    argv: Sequence[str], data: bytes = b"", **env: str
) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1", **env}
    return subprocess.run(
        [sys.executable, "-m", "urikit", *argv],
        input=data,
        capture_output=True,
        env=environment,
        timeout=300,
    )


_LINE_MODE: dict[tuple[str, ...], tuple[int, str]] = {}


def line_mode(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> tuple[int, str]:
    """The status and output of the line mode over :data:`ROWS` on standard input."""
    key = tuple(argv)
    if key not in _LINE_MODE:
        data = "".join(f"{row}\n" for row in ROWS).encode("utf-8")
        status, out, _ = run_main(capsys, monkeypatch, argv, data)
        _LINE_MODE[key] = (status, out)
    return _LINE_MODE[key]


# --- the records of a file are the records of its lines -----------------------------------------


FORMATS = [
    *((variant, kind) for variant in VARIANTS for kind in ("lines", "parquet")),
    *((variant, kind) for variant in VARIANTS[1:4] for kind in ("csv", "jsonl")),
]


@pytest.mark.parametrize(
    ("variant", "kind"), FORMATS, ids=[f"{' '.join(v)} {kind}" for v, kind in FORMATS]
)
def test_a_file_gives_the_records_of_its_lines(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variant: list[str],
    kind: str,
) -> None:
    status, expected = line_mode(capsys, monkeypatch, [*variant, "--json"])
    path = tmp_path / f"urls{SUFFIX[kind]}"
    write_rows(path, ROWS, kind)
    column = [] if kind == "lines" else ["--column", "url"]
    argv = [*variant, "--json", "--input", str(path), *column, "--jobs", "1"]
    got_status, out, err = run_main(capsys, monkeypatch, [*argv, "--batch-size", "1000"])
    assert err == ""
    records = json_records(out.encode())
    assert len(records) == len(ROWS)
    assert records == json_records(expected.encode())
    assert got_status == status == 1  # the hostile rows hold failures for every variant


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_text_records_of_a_table_are_those_of_its_lines(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variant: list[str],
) -> None:
    status, expected = line_mode(capsys, monkeypatch, variant)
    path = tmp_path / "urls.parquet"
    write_rows(path, ROWS, "parquet")
    argv = [*variant, "--input", str(path), "--column", "url", "--jobs", "1"]
    got_status, out, _ = run_main(capsys, monkeypatch, argv)
    assert out == expected
    assert got_status == status


def test_lines_are_read_as_the_line_mode_reads_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Line ends, "\\r", octets that are not UTF-8: a file of lines is standard input."""
    path = tmp_path / "mixed.txt"
    path.write_bytes(MIXED_DATA)
    for argv in (["normalize", "--json"], ["validate"], ["parse", "--json"]):
        expected = run_main(capsys, monkeypatch, argv, MIXED_DATA)
        got = run_main(capsys, monkeypatch, [*argv, "--input", str(path), "--jobs", "1"])
        assert got == expected
        from_stdin = run_main(
            capsys, monkeypatch, [*argv, "--input", "-", "--jobs", "1"], MIXED_DATA
        )
        assert from_stdin == expected
    records = json_records(got[1].encode())
    assert [r["input"] for r in records] == input_lines(MIXED_DATA)


@pytest.mark.parametrize(
    "variant",
    [["normalize"], ["parse"], ["validate"], ["to-uri"], ["resolve", BASE]],
    ids=lambda v: " ".join(v),
)
def test_workers_keep_the_input_order(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variant: list[str],
) -> None:
    """Two worker processes, batches of 97 rows: the records of the line mode, in order."""
    status, expected_json = line_mode(capsys, monkeypatch, [*variant, "--json"])
    _, expected_text = line_mode(capsys, monkeypatch, variant)
    path = tmp_path / "urls.parquet"
    write_rows(path, ROWS, "parquet")
    argv = [*variant, "--input", str(path), "--column", "url", "--jobs", "2", "--batch-size", "97"]
    result = urikit([*argv, "--json"])
    assert result.stderr == b""
    assert json_records(result.stdout) == json_records(expected_json.encode())
    assert result.returncode == status
    text = urikit(argv)
    assert text.stdout.decode("utf-8") == expected_text


# --- output tables hold the JSON records' keys -----------------------------------------------


def flat(record: dict[str, Any], columns: list[str]) -> dict[str, Any]:
    """A JSON record as a table row: its error spread over ``error_*`` columns."""
    row = dict.fromkeys(columns)
    for key, value in record.items():
        if key == "error":
            row.update(
                error=value["reason"],
                error_position=value["position"],
                error_rule=value["rule"],
                error_message=value["message"],
            )
        elif key == "port_number" and value is not None and value >= 2**63:
            row[key] = None  # beyond int64; the port column holds its digits
        else:
            row[key] = value
    assert list(row) == columns, "a JSON key is not a column"
    return row


#: Each subcommand on one core; on two, one that the column kernel answers and one
#: that makes its records row by row.
TABLE_CASES = [
    *((variant, "1") for variant in VARIANTS),
    *((variant, "2") for variant in VARIANTS if variant[0] in ("normalize", "parse")),
]


@pytest.mark.parametrize(
    ("variant", "jobs"), TABLE_CASES, ids=[f"{' '.join(v)}-{j}" for v, j in TABLE_CASES]
)
def test_an_output_table_holds_the_json_records(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variant: list[str],
    jobs: str,
) -> None:
    status, expected = line_mode(capsys, monkeypatch, [*variant, "--json"])
    source, target = tmp_path / "urls.parquet", tmp_path / "out.parquet"
    write_rows(source, ROWS, "parquet")
    argv = [*variant, "--input", str(source), "--column", "url", "--output", str(target)]
    if jobs == "1":
        got_status, out, err = run_main(capsys, monkeypatch, [*argv, "--jobs", "1"])
    else:
        result = urikit([*argv, "--jobs", "2", "--batch-size", "300"])
        got_status, out, err = result.returncode, result.stdout.decode(), result.stderr.decode()
    assert (out, err) == ("", "")
    assert got_status == status
    table = pq.read_table(target)
    # The input's other column, n, is kept beside the records, with its type.
    assert table.schema.field("n").type == pa.int64()
    assert table.column("n").to_pylist() == list(range(len(ROWS)))
    table = table.drop_columns(["n"])
    columns = table.column_names
    assert columns[:2] == ["input", "ok"]
    assert columns[-4:] == ["error", "error_position", "error_rule", "error_message"]
    rows = table.to_pylist()
    assert rows == [flat(r, columns) for r in json_records(expected.encode())]


def test_csv_and_json_lines_outputs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rows = ["http://a/b?x&y=1", "bad uri", "HTTP://A:80/"]
    source = tmp_path / "urls.txt"
    write_rows(source, rows, "lines")
    _, expected, _ = run_main(capsys, monkeypatch, ["parse", "--json"], source.read_bytes())
    records = json_records(expected.encode())
    for target in (tmp_path / "out.jsonl", tmp_path / "out.txt"):
        argv = ["parse", "--json", "--input", str(source), "--output", str(target), "--jobs", "1"]
        assert run_main(capsys, monkeypatch, argv)[0] == 1
        assert json_records(target.read_bytes()) == records
    target = tmp_path / "out.csv"
    argv = ["parse", "--input", str(source), "--output", str(target), "--jobs", "1"]
    assert run_main(capsys, monkeypatch, argv)[0] == 1
    with target.open(encoding="utf-8", newline="") as file:
        got = list(csv.DictReader(file))
    assert [row["input"] for row in got] == rows
    assert [row["ok"] for row in got] == ["true", "false", "true"]
    assert json.loads(got[0]["query_params"]) == [["x", None], ["y", "1"]]  # lists as JSON
    assert got[1]["error_position"] == "3" and got[1]["error_rule"] == "segment-nz-nc"
    assert got[2]["port_number"] == "80" and got[1]["scheme"] == ""


def test_text_output_to_a_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "normal.txt"
    data = b"HTTP://A:80/b\nbad uri\n"
    expected = run_main(capsys, monkeypatch, ["normalize"], data)[1]
    argv = ["normalize", "--output", str(target), "--jobs", "1"]
    assert run_main(capsys, monkeypatch, argv, data) == (1, "", "")
    assert target.read_text("utf-8") == expected


# --- rows that are not text ------------------------------------------------------------------


def test_a_null_row_is_an_error_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rows = ["HTTP://A/", None, "x:"]
    source, target = tmp_path / "urls.parquet", tmp_path / "out.parquet"
    write_rows(source, rows, "parquet")
    argv = ["normalize", "--input", str(source), "--column", "url", "--jobs", "1"]
    status, out, _ = run_main(capsys, monkeypatch, [*argv, "--json"])
    records = json_records(out.encode())
    assert status == 1
    assert [r["input"] for r in records] == rows
    assert [r["ok"] for r in records] == [True, False, True]
    assert records[1]["error"]["reason"] == "the row is null: it holds no URI reference"
    status, out, _ = run_main(capsys, monkeypatch, [*argv, "--output", str(target)])
    table = pq.read_table(target).to_pylist()
    assert [r["normalized"] for r in table] == ["http://a/", None, "x:"]
    assert table[1]["input"] is None and table[1]["error"].startswith("the row is null")


def test_a_missing_json_key_is_a_null_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "urls.ndjson"
    source.write_text('{"url": "http://a/"}\n{"other": 1}\n{"url": null}\n', encoding="utf-8")
    argv = ["validate", "--json", "--input", str(source), "--jobs", "1"]
    status, _, err = run_main(capsys, monkeypatch, argv)
    assert status == 2 and "2 columns" in err  # the keys of the first block are the columns
    status, out, _ = run_main(capsys, monkeypatch, [*argv, "--column", "url"])
    assert [r["ok"] for r in json_records(out.encode())] == [True, False, False]


def test_octets_that_are_not_utf8_name_their_row(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A binary column is read as octets, as lines are (RFC 3629)."""
    source = tmp_path / "urls.parquet"
    pq.write_table(pa.table({"url": pa.array([b"http://a/", b"http://a/\xff"])}), source)
    argv = ["validate", "--input", str(source), "--jobs", "1", "--errors", "stderr"]
    status, out, err = run_main(capsys, monkeypatch, argv)
    assert status == 1
    assert out == "valid: http://a/\n\n"
    assert "row 2: error: http://a/\ufffd" in err
    assert "invalid UTF-8 octet 0xFF at byte 9" in err


# --- error modes, --unique, bases --------------------------------------------------------------


@pytest.mark.parametrize("command", ["normalize", "parse"])
def test_errors_skip_and_stderr_leave_no_row(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    command: str,
) -> None:
    rows = ["http://u:pw@a/", "bad uri", None, "x:"]
    source, target = tmp_path / "urls.parquet", tmp_path / "out.parquet"
    write_rows(source, rows, "parquet")
    base = [command, "--input", str(source), "--column", "url", "--output", str(target)]
    for mode in ("skip", "stderr"):
        status, out, err = run_main(capsys, monkeypatch, [*base, "--jobs", "1", "--errors", mode])
        assert status == 1 and out == ""
        table = pq.read_table(target).to_pylist()
        assert [r["input"] for r in table] == ["http://u:***@a/", "x:"]
        assert all(r["ok"] for r in table)
        if mode == "stderr":
            assert "row 2: error: bad uri" in err and "row 3: error: " in err
        else:
            assert err == ""


def test_unique_keeps_the_first_of_each_class(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rows = [*ROWS[:300], "HTTP://A:80/", "bad uri", "http://a/", *ROWS[100:400], "bad uri"]
    source = tmp_path / "urls.txt"
    write_rows(source, rows, "lines")
    argv = ["normalize", "--unique"]
    expected = run_main(capsys, monkeypatch, argv, source.read_bytes())
    got = run_main(capsys, monkeypatch, [*argv, "--input", str(source), "--jobs", "1",
                                         "--batch-size", "50"])  # fmt: skip
    assert got == expected
    assert expected[1].count("error: bad uri") == 2
    target = tmp_path / "out.parquet"
    argv = [*argv, "--input", str(source), "--output", str(target), "--jobs", "1"]
    run_main(capsys, monkeypatch, argv)
    written = pq.read_table(target).column("normalized").to_pylist()
    assert [w for w in written if w is not None] == [
        line for line in expected[1].splitlines() if not line.startswith("error: ")
    ]


def test_resolve_against_a_column_of_bases(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """RFC 3986 §5.4.1: each row against its own base; BASE where the row has none."""
    source = tmp_path / "refs.csv"
    source.write_text(
        "ref,base\n../g,http://a/b/c/d;p?q\n?y,http://a/b/c/d;p?q\ng,\n#s,rel/base\n",
        encoding="utf-8",
    )
    argv = ["--input", str(source), "--column", "ref", "--base-column", "base", "--jobs", "1"]
    status, out, _ = run_main(capsys, monkeypatch, ["resolve", *argv])
    assert status == 1
    lines = out.splitlines()
    assert lines[:2] == ["http://a/b/g", "http://a/b/c/d;p?y"]
    assert lines[2].startswith("error: g\t-\t-\tthe row has no base")
    assert lines[3].startswith("error: #s\t-\tabsolute-URI\tbad base URI 'rel/base'")
    status, out, _ = run_main(capsys, monkeypatch, ["resolve", "http://x/y/", *argv])
    assert out.splitlines()[2] == "http://x/y/g"
    status, out, _ = run_main(capsys, monkeypatch, ["resolve", "http://x/y/", *argv, "--json"])
    assert [r.get("base") for r in json_records(out.encode())] == [
        "http://a/b/c/d;p?q", "http://a/b/c/d;p?q", "http://x/y/", None,
    ]  # fmt: skip


# --- usage ---------------------------------------------------------------------------------------


def test_usage_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    table = tmp_path / "two.parquet"
    pq.write_table(pa.table({"url": ["http://a/"], "n": [1]}), table)
    lines = tmp_path / "urls.txt"
    lines.write_text("http://a/\n", encoding="utf-8")
    cases = [
        (["normalize", "--input", str(table)], "2 columns: choose one with --column NAME"),
        (["normalize", "--input", str(table), "--column", "x"], "no column 'x'; its columns:"),
        (["normalize", "--input", str(table), "--column", "n"], "holds int64, not text"),
        (["normalize", "http://a/", "--input", str(lines)], "as arguments or with --input"),
        (["normalize", "--column", "url"], "--column needs --input"),
        (["normalize", "--output-format", "csv"], "--output-format needs --output"),
        (["resolve", "--input", str(lines)], "give BASE"),
        (["resolve", BASE, "--input", str(lines), "--base-column", "b"], "plain lines have no"),
        (["validate", "--input", "-", "--input-format", "parquet"], "not standard input"),
        (["validate", "--input", str(tmp_path / "missing.txt")], "cannot read"),
        (["validate", "--input", str(lines), "--input-format", "parquet"], "as Parquet"),
    ]
    for argv, message in cases:
        status, out, err = run_main(capsys, monkeypatch, [*argv, "--jobs", "1"])
        assert (status, out) == (2, ""), argv
        assert message in err, (argv, err)
    assert "'url', 'n'" in run_main(capsys, monkeypatch, cases[0][0])[2]


def test_a_file_damaged_past_its_first_block_is_one_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Standard output gets the records of the rows before the damage, then one line on
    standard error, status 2; an output file is left as it was, since the run did not
    complete."""
    rows = 300_000  # past the reader's first chunks
    source = tmp_path / "damaged.csv"
    source.write_bytes(b"url\n" + b"http://a/\n" * rows + b"x,y,z\n")
    argv = ["validate", "--input", str(source), "--column", "url", "--jobs", "1"]
    status, printed, err = run_main(capsys, monkeypatch, argv)
    assert status == 2
    assert err.startswith("urikit validate: cannot read ") and err.count("\n") == 1, err
    assert "as CSV past row" in err
    written = printed.splitlines()
    assert 0 < len(written) <= rows and set(written) == {"valid: http://a/"}
    out = tmp_path / "out.txt"
    out.write_bytes(b"the old records\n")
    status, printed, err = run_main(capsys, monkeypatch, [*argv, "--output", str(out)])
    assert (status, printed) == (2, "") and "as CSV past row" in err
    assert out.read_bytes() == b"the old records\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.csv", "out.txt"]


def test_an_output_that_cannot_be_written_is_status_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    for name in ("out.parquet", "out.txt", "out.csv"):
        argv = ["normalize", "http://a/", "--output", str(missing / name), "--jobs", "1"]
        status, _, err = run_main(capsys, monkeypatch, argv)
        assert status == 3 and "cannot write the output" in err


def test_all_valid_is_status_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "urls.csv"
    write_rows(source, ["http://a/", "", "x:"], "csv")
    argv = ["normalize", "--input", str(source), "--column", "url", "--jobs", "1"]
    assert run_main(capsys, monkeypatch, argv) == (0, "http://a/\n\nx:\n", "")


def test_without_pyarrow_plain_lines_work(tmp_path: Path) -> None:
    """pyarrow is the ``arrow`` extra: a table needs it, plain lines do not."""
    blocker = tmp_path / "blocker" / "pyarrow"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('no pyarrow here')\n")
    env = {"PYTHONPATH": str(blocker.parent)}
    source = tmp_path / "urls.txt"
    source.write_text("HTTP://A:80/b\nbad uri\n", encoding="utf-8")
    table = tmp_path / "urls.parquet"
    table.write_bytes(b"PAR1")
    result = urikit(["normalize", "--input", str(table)], **env)
    assert result.returncode == 2 and result.stdout == b""
    assert b"pip install 'urikit[arrow]'" in result.stderr
    result = urikit(["normalize", "--input", str(source), "--output", str(tmp_path / "x.csv")],
                    **env)  # fmt: skip
    assert result.returncode == 2 and b"urikit[arrow]" in result.stderr
    for jobs in ("1", "2"):
        result = urikit(["normalize", "--input", str(source), "--jobs", jobs], **env)
        assert result.returncode == 1, result.stderr
        assert result.stdout.decode().splitlines()[0] == "http://a/b"
        assert result.stdout.decode().splitlines()[1].startswith("error: bad uri\t3\t")


# --- bounded memory ------------------------------------------------------------------------------

#: Runs a command and prints the peak resident set of it and its children, in KiB
#: (Linux); started from this small process, which the measured one forks from.
PEAK = (
    "import resource, subprocess, sys\n"
    "status = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)\n"
)


def peak_kib(argv: list[str]) -> int:
    command = [sys.executable, "-c", PEAK, sys.executable, "-m", "urikit", *argv]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    peak, status = result.stdout.split()
    assert status == "1"  # the corpus holds invalid URIs
    return int(peak)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("lines", ["--jobs", "1"]),
        ("parquet", ["--jobs", "2", "--output", "out.parquet"]),
        ("csv", ["--jobs", "1", "--output", "out.parquet"]),
        ("jsonl", ["--jobs", "2", "--output", "out.csv"]),
    ],
)
def test_peak_memory_is_flat_in_the_input_size(
    tmp_path: Path, kind: str, options: list[str]
) -> None:
    """16 times the rows, about the same peak: only a few batches are ever held."""
    rows = CORPUS.splitlines()
    peaks = []
    for copies in (4, 64):
        source = tmp_path / f"urls{copies}{SUFFIX[kind]}"
        write_rows(source, rows * copies, kind)
        argv = ["normalize", "--input", str(source), "--batch-size", "2000", *options]
        if kind != "lines":
            argv += ["--column", "url"]
        if "--output" in argv:
            at = argv.index("--output") + 1
            argv[at] = str(tmp_path / argv[at])
        peaks.append(peak_kib(argv))
    small, large = peaks
    # Holding the records of 320,000 rows as Python objects would take far more than a
    # quarter more; the allocators keep some freed memory, which makes a few percent.
    assert large < small * 1.25, peaks


# --- the progress line -----------------------------------------------------------------------


def test_progress_line_on_a_terminal(tmp_path: Path) -> None:
    source = tmp_path / "urls.parquet"
    rows = ROWS[:900] + ["bad uri"] * 7
    write_rows(source, rows, "parquet")
    argv = ["validate", "--input", str(source), "--column", "url", "--batch-size", "100",
            "--jobs", "1", "--output", str(tmp_path / "out.parquet")]  # fmt: skip
    drawn = on_terminal(argv)
    lines = [line for line in drawn.replace("\r\n", "\n").split(_progress.CLEAR) if line]
    last = lines[-1].rstrip("\n")
    assert last.startswith("[####################] 100.0%")
    assert f"{len(rows):,} rows" in last and "rows/s" in last
    failures = sum(1 for r in pq.read_table(tmp_path / "out.parquet").column("ok").to_pylist()
                   if not r)  # fmt: skip
    assert f"  {failures} errors" in last
    assert any(line.endswith(" left") for line in lines[:-1])  # the size is known
    assert drawn.endswith("\n")
    assert on_terminal([*argv, "--quiet"]) == ""


def test_no_progress_line_without_a_terminal(tmp_path: Path) -> None:
    source = tmp_path / "urls.txt"
    write_rows(source, ROWS[:500], "lines")
    result = urikit(["validate", "--input", str(source), "--batch-size", "50", "--jobs", "1"])
    assert result.stderr == b""
    assert len(result.stdout.splitlines()) == 500


def on_terminal(argv: list[str]) -> str:
    """What ``urikit ARGV`` writes on standard error when it is a terminal."""
    main_fd, child_fd = pty.openpty()
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "urikit", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=child_fd,
        env=environment,
    )
    os.close(child_fd)
    chunks = []
    while True:
        try:
            chunk = os.read(main_fd, 65536)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main_fd)
    assert process.wait(timeout=300) in (0, 1)
    return b"".join(chunks).decode("utf-8")


def test_progress_line_parts() -> None:
    progress = _progress.Progress(shown=False, total_rows=1000)
    progress.started = 0.0
    progress.update(250, 3, 250)
    assert (
        progress.line(2.0)
        == "[#####---------------]  25.0%  250 rows  125 rows/s  3 errors  0:06 left"
    )
    by_size = _progress.Progress(shown=False, total_bytes=4000)
    by_size.started = 0.0
    by_size.update(10, 0, 1000)
    assert by_size.fraction() == 0.25
    unknown = _progress.Progress(shown=False)
    unknown.started = 0.0
    unknown.update(1_234_567, 0, 0)
    assert unknown.line(10.0) == "1,234,567 rows  123,457 rows/s  0 errors"
