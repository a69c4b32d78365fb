"""Tables in and out: an output file is replaced whole or not at all, a JSON-lines row
that is not text is one error record, the input's other columns are kept beside the
records, and CSV and Parquet are read in chunks whatever their size.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from test_cli_contract import json_records
from test_cli_files import CORPUS, run_main, urikit

from urikit.cli import _sources

OLD = b"PAR1 the old output, kept byte for byte\n"


def old_output(path: Path) -> Path:
    path.write_bytes(OLD)
    os.chmod(path, 0o640)
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".urikit-partial"))


# --- 1. a usage error or an interrupt never harms an output file --------------------------------


@pytest.mark.parametrize("name", ["out.txt", "out.csv", "out.parquet", "out.jsonl"])
def test_a_usage_error_leaves_the_output_as_it_was(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    """The reproduction of the issue: an integer column, then every other usage error
    that the input's columns can cause."""
    source = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1, 2, 3], "url": ["http://a/", "b c", "x:"]}), source)
    target = old_output(tmp_path / name)
    cases = [
        ["--column", "id"],
        [],  # two columns, none chosen
        ["--column", "nosuch"],
        ["--column", "url", "--keep", "nosuch"],
        ["--column", "url", "--input-format", "csv"],
    ]
    for extra in cases:
        for jobs in ("1", "2"):
            argv = ["normalize", "--input", str(source), "--output", str(target), *extra]
            status, out, err = run_main(capsys, monkeypatch, [*argv, "--jobs", jobs])
            assert (status, out) == (2, ""), (extra, err)
            assert err.count("\n") == 1 and "Bad file descriptor" not in err, err
            assert target.read_bytes() == OLD, extra
            assert leftovers(tmp_path) == []
    assert os.stat(target).st_mode & 0o777 == 0o640


def test_a_column_named_as_a_record_column_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "t.parquet"
    pq.write_table(pa.table({"url": ["http://a/"], "ok": [True], "n": [1]}), source)
    target = old_output(tmp_path / "out.parquet")
    argv = ["normalize", "--input", str(source), "--column", "url", "--output", str(target),
            "--jobs", "1"]  # fmt: skip
    status, _, err = run_main(capsys, monkeypatch, argv)
    assert status == 2 and "'ok' has the name of a column of the records" in err
    assert target.read_bytes() == OLD
    assert run_main(capsys, monkeypatch, [*argv, "--keep", "n"])[0] == 0
    assert pq.read_table(target).column_names[-1] == "n"
    assert run_main(capsys, monkeypatch, [*argv, "--keep-none"])[0] == 0
    assert "n" not in pq.read_table(target).column_names


def test_a_usage_error_in_a_worker_pool_prints_nothing_at_exit(tmp_path: Path) -> None:
    """Workers start after the input is checked; none is left to fail at exit."""
    source = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1], "url": ["http://a/"]}), source)
    for _ in range(3):
        result = urikit(["normalize", "--input", str(source), "--column", "id", "--jobs", "2"])
        assert result.returncode == 2
        assert result.stderr.decode() == "urikit normalize: column 'id' holds int64, not text\n"


def test_an_output_that_cannot_be_made_names_its_path(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("x", "x.parquet", "x.csv"):
        argv = ["normalize", "http://a/", "--output", f"/nonexistent/dir/{name}", "--jobs", "1"]
        status, _, err = run_main(capsys, monkeypatch, argv)
        assert status == 3
        assert f"/nonexistent/dir/{name}: No such file or directory" in err


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("name", ["out.parquet", "out.txt"])
def test_an_interrupt_leaves_the_output_as_it_was(tmp_path: Path, jobs: str, name: str) -> None:
    """Ctrl-C once some batches are written: status 130, the old file, nothing left over."""
    source = tmp_path / "urls.txt"
    source.write_text(CORPUS * 60, encoding="utf-8")  # 300,000 rows, parsed one by one
    target = old_output(tmp_path / name)
    command = [sys.executable, "-m", "urikit", "parse", "--input", str(source), "--output",
               str(target), "--jobs", jobs, "--batch-size", "2000"]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_interrupt
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            partial = [tmp_path / n for n in leftovers(tmp_path)]
            if partial and partial[0].stat().st_size > 100_000:
                break
            time.sleep(0.02)
        assert process.poll() is None, "the run ended before it could be interrupted"
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert target.read_bytes() == OLD
    assert leftovers(tmp_path) == []


def test_the_output_is_replaced_when_the_run_completes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = old_output(tmp_path / "out.txt")
    argv = ["normalize", "HTTP://A/", "bad uri", "--output", str(target), "--jobs", "1"]
    assert run_main(capsys, monkeypatch, argv)[0] == 1  # an input failed: the run completed
    assert target.read_text(encoding="utf-8").splitlines()[0] == "http://a/"
    assert os.stat(target).st_mode & 0o777 == 0o640  # the replaced file's permissions
    assert leftovers(tmp_path) == []
    fresh = tmp_path / "new.txt"
    assert run_main(capsys, monkeypatch, [*argv[:3], "--output", str(fresh), "--jobs", "1"])[0] == 1
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(fresh).st_mode & 0o777 == 0o666 & ~umask
    # A file that is not a regular file is written, not replaced.
    to_null = ["normalize", "HTTP://A/", "--output", os.devnull, "--jobs", "1"]
    assert run_main(capsys, monkeypatch, to_null)[0] == 0
    assert Path(os.devnull).is_char_device()


# --- 3. a JSON-lines row that is not text --------------------------------------------------------


def test_a_json_row_that_is_not_text_is_its_own_error_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "urls.jsonl"
    source.write_text(
        '{"url": 5}\n{"url": "http://a/"}\n\n{"url": {"a": 1}}\n[1]\nnot json\n'
        '{"url": null}\n{"url": true}\n{"url": "HTTP://B/"}\n',
        encoding="utf-8",
    )
    argv = ["normalize", "--input", str(source), "--column", "url", "--json", "--jobs", "1"]
    status, out, err = run_main(capsys, monkeypatch, argv)
    assert status == 1 and err == ""
    records = json_records(out.encode())
    assert [r["ok"] for r in records] == [False, True, False, False, False, False, False, True]
    reasons = [r["error"]["reason"] for r in records if not r["ok"]]
    assert "'url' holds a JSON number, not text" in reasons[0]
    assert "'url' holds a JSON object, not text" in reasons[1]
    assert "the line holds a JSON array, not an object" in reasons[2]
    assert "the line is not JSON" in reasons[3]
    assert reasons[4] == "the row is null: it holds no URI reference"
    assert "'url' holds a JSON boolean, not text" in reasons[5]
    assert [r["normalized"] for r in records if r["ok"]] == ["http://a/", "http://b/"]
    assert all(r["input"] is None for r in records if not r["ok"])
    # Read in chunks of one row, the same records.
    again = run_main(capsys, monkeypatch, [*argv, "--batch-size", "1"])
    assert json_records(again[1].encode()) == records


def test_a_bad_json_row_after_many_good_ones(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A chunk that does not fit the first chunk's types is read row by row: the rows
    before and after the bad one keep their records, and a kept value that does not
    fit its column is null, said once."""
    monkeypatch.setattr(_sources, "BLOCK_SIZE", 4096)  # many chunks
    lines = [json.dumps({"url": f"http://a/{n}", "n": n}) for n in range(5000)]
    lines[4000] = '{"url": 7, "n": 4000}'
    lines[4500] = '{"url": "http://a/4500", "n": "many"}'
    source = tmp_path / "urls.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    target = tmp_path / "out.parquet"
    argv = ["normalize", "--input", str(source), "--column", "url", "--output", str(target),
            "--jobs", "1", "--batch-size", "1000"]  # fmt: skip
    status, _, err = run_main(capsys, monkeypatch, argv)
    assert status == 1
    assert err == (f"urikit normalize: {source}: column 'n' holds values that are not "
                   "int64; they are written as null\n")  # fmt: skip
    table = pq.read_table(target).to_pylist()
    assert len(table) == 5000
    assert [r["ok"] for r in table].count(False) == 1 and not table[4000]["ok"]
    assert table[4001]["normalized"] == "http://a/4001"
    assert [r["n"] for r in table][3999:4002] == [3999, 4000, 4001]
    assert table[4500]["n"] is None and table[4500]["ok"]


# --- 5. the input's other columns beside the records ----------------------------------------------


@pytest.mark.parametrize("kind", ["csv", "parquet", "jsonl"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_other_columns_are_kept_for_a_join(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    kind: str,
    jobs: str,
) -> None:
    """With --errors skip, rows can be joined back by a kept column."""
    urls = ["http://a/", "bad uri", "HTTP://B:80/", None, "x:", "http://u:pw@h/"]
    ids = [10, 11, 12, 13, 14, 15]
    notes = ["one", "two, with a comma", 'three "quoted"\nover two lines', "", "five", "six"]
    source = tmp_path / f"in.{kind}"
    table = pa.table({"id": ids, "url": urls, "note": notes})
    if kind == "parquet":
        pq.write_table(table, source)
    elif kind == "csv":
        pacsv.write_csv(table, source)
    else:
        source.write_text("".join(json.dumps(row) + "\n" for row in table.to_pylist()))
    for out_kind in ("parquet", "csv"):
        target = tmp_path / f"out.{out_kind}"
        argv = ["normalize", "--input", str(source), "--column", "url", "--output", str(target),
                "--errors", "skip", "--jobs", jobs, "--batch-size", "2"]  # fmt: skip
        assert run_main(capsys, monkeypatch, argv)[0] == 1
        if out_kind == "parquet":
            rows = pq.read_table(target).to_pylist()
        else:
            parse = pacsv.ParseOptions(newlines_in_values=True)
            rows = pacsv.read_csv(target, parse_options=parse).to_pylist()
        # A CSV cell is text: the empty cell of the null URI is the empty reference.
        kept = [0, 2, 3, 4, 5] if kind == "csv" else [0, 2, 4, 5]
        normal = ["http://a/", None, "http://b/", "", "x:", "http://u:pw@h/"]
        assert [r["normalized"] for r in rows] == [normal[i] for i in kept]
        assert [r["input"] for r in rows][-1] == "http://u:***@h/"
        assert [str(r["id"]) for r in rows] == [str(ids[i]) for i in kept]
        assert [r["note"] or "" for r in rows] == [notes[i] for i in kept]
        columns = list(rows[0])
        assert columns[-2:] == ["id", "note"] and "url" not in columns
        if kind == "csv" and out_kind == "parquet":  # a CSV file's cells are text
            assert pq.read_table(target).schema.field("id").type == pa.string()
        argv_keep = [*argv, "--keep", "id"]
        assert run_main(capsys, monkeypatch, argv_keep)[0] == 1
        if out_kind == "parquet":
            assert pq.read_table(target).column_names[-1] == "id"


def test_csv_output_carries_one_line_messages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "out.csv"
    argv = ["validate", "http://a b/", "http://u:secret@c d/", "--output", str(target),
            "--jobs", "1"]  # fmt: skip
    assert run_main(capsys, monkeypatch, argv)[0] == 1
    data = target.read_bytes()
    assert data.count(b"\n") == 3  # a header and one line per record
    rows = pacsv.read_csv(target).to_pylist()
    assert rows[0]["error_position"] == 8
    assert rows[0]["error_message"].startswith("U+0020 at position 8 in host: expected ")
    assert rows[1]["error_position"] == 17 and b"secret" not in data


# --- 2. chunks of whole records ------------------------------------------------------------------


class _Stream:
    """A stream that gives at most ``step`` octets a read."""

    def __init__(self, data: bytes, step: int) -> None:
        self.data, self.step, self.at = data, step, 0

    def read(self, size: int) -> bytes:
        size = min(size, self.step)
        chunk = self.data[self.at : self.at + size]
        self.at += len(chunk)
        return chunk


@pytest.mark.parametrize("step", [1, 3, 7, 64, 1 << 20])
@pytest.mark.parametrize("rows", [1, 2, 5, 1000])
def test_csv_chunks_end_outside_quotes(
    monkeypatch: pytest.MonkeyPatch, step: int, rows: int
) -> None:
    """RFC 4180 §2: a line end inside double quotes is part of the field."""
    monkeypatch.setattr(_sources, "BLOCK_SIZE", step)
    records = [b'id,"u\nrl"\n', b'1,"a\n""b"""\n', b"2,c\r\n", b'3,"\n\n"\n', b"4,d"]
    data = b"".join(records)
    chunks = list(_sources._chunks(_Stream(data, step), rows, quoted=True))
    assert b"".join(c for c, _ in chunks) == data
    assert chunks[0][0] == records[0]  # the header line alone
    for chunk, _ in chunks[1:]:
        assert chunk.count(b'"') % 2 == 0
        assert any(chunk.endswith(r) for r in records)
    assert chunks[-1][1] == len(data)


def test_jsonl_chunks_hold_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sources, "BLOCK_SIZE", 5)
    data = b"".join(b'{"u": "%d"}\n' % n for n in range(100)) + b'{"u": "last"}'
    chunks = list(_sources._chunks(_Stream(data, 5), 7, quoted=False))
    assert b"".join(c for c, _ in chunks) == data
    assert all(c.endswith(b"\n") for c, _ in chunks[:-1])
    assert all(c.count(b"\n") >= 7 for c, _ in chunks[:-1])
