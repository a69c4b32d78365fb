"""urikit.dask answers every row as the scalar API, on a local cluster of two workers."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

import dask.dataframe as dd
import pandas as pd
import pyarrow.dataset as ds
from distributed import Client, LocalCluster
from engine_rows import BASE, FIELDS, PAIRS, ROWS, expected, resolved

import urikit
from urikit import URI
from urikit import dask as ud
from urikit._arrow_kernel import COMPONENTS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="session")
def client() -> Iterator[Client]:
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with cluster, Client(cluster) as session:
        yield session


def plain(value: Any) -> Any:
    """A computed value as Python data: nulls as None, arrays as lists."""
    if value is None or value is pd.NA:
        return None
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def test_every_function_answers_as_the_scalar_api(client: Client) -> None:
    urls = dd.from_pandas(pd.Series(ROWS, dtype="string[pyarrow]", name="url"), npartitions=4)
    columns = {
        "host_type": ud.host_type(urls),
        "port_number": ud.port_number(urls),
        "is_valid": ud.is_valid(urls),
        "normalize": ud.normalize(urls),
        "to_uri": ud.to_uri(urls),
        "query_param": ud.query_param(urls, "q"),
        "resolve": ud.resolve(URI(BASE), urls),
        "relativize": ud.relativize(URI(BASE), urls),
        "audit_codes": ud.audit_codes(urls),
        **{name: getattr(ud, name)(urls) for name in COMPONENTS},
    }
    frame = dd.concat([c.rename(n) for n, c in columns.items()], axis=1)
    parsed = ud.parse(urls)
    assert list(parsed.columns) == [f.name for f in ud.PARSE_TYPE]
    got, fields = client.compute([frame, parsed], sync=True)
    assert list(got.index) == list(range(len(ROWS)))
    for i, text in enumerate(ROWS):
        want = expected(text)
        row = {n: plain(got[n].iloc[i]) for n in FIELDS if n != "parse"}
        assert row == {n: want[n] for n in FIELDS if n != "parse"}, text
        struct = {f: plain(fields[f].iloc[i]) for f in fields.columns}
        if want["parse"] is None:
            assert set(struct.values()) == {None}, text
        else:
            assert struct == want["parse"], text
        parts = want["parse"] if want["parse"] is not None and want["parse"]["valid"] else {}
        assert {n: plain(got[n].iloc[i]) for n in COMPONENTS} == {
            n: parts.get(n) for n in COMPONENTS
        }, text


def test_resolution_row_by_row(client: Client) -> None:
    pairs = pd.DataFrame(PAIRS, columns=["base", "ref"], dtype="string[pyarrow]")
    df = dd.from_pandas(pairs, npartitions=2)
    got = ud.resolve(df.base, df.ref).compute()
    assert [plain(v) for v in got] == [resolved(b, r) for b, r in PAIRS]


def test_the_example_pipeline_runs_end_to_end(client: Client, tmp_path: Path) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import links_dask
    finally:
        sys.path.remove(str(EXAMPLES))
    counts = links_dask.run(tmp_path)
    assert counts["links"] > 0 and counts["invalid"] > 0 and counts["hosts"] > 0
    links = ds.dataset(tmp_path / "links").to_table().to_pylist()
    for row in links:
        assert str(urikit.normalize(row["target"])) == row["target"]
        assert row["host"] == URI(row["target"]).host
    for row in ds.dataset(tmp_path / "invalid").to_table().to_pylist():
        if row["error_position"] is not None:
            text = row["page"] if row["column"] == "page" else row["href"]
            with pytest.raises(urikit.URIError) as caught:
                URI(text) if row["column"] == "page" else urikit.IRI(text)
            assert (caught.value.position, caught.value.reason) == (
                row["error_position"],
                row["error"],
            )
    hosts = {r["host"]: r["targets"] for r in ds.dataset(tmp_path / "hosts").to_table().to_pylist()}
    assert hosts["example.com"] == len({r["target"] for r in links if r["host"] == "example.com"})
