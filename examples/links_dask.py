"""Resolve, normalize and count the links of crawled pages, in Dask.

    python examples/links_dask.py [OUT] [--input LINKS.parquet] [--scheduler ADDRESS]

Reads a Parquet table of links (``page``, ``href``), or writes a small realistic
one into OUT first.  Each href, an IRI or a URI reference, is mapped to a URI
(RFC 3987 §3.1), resolved against its page (RFC 3986 §5.2) and normalized
(§6); rows whose page or href is not a reference go to a side table with their
error.  The links are deduplicated and the distinct targets counted per host.
Writes OUT/links, OUT/invalid and OUT/hosts as Parquet (OUT defaults to a new
temporary directory) and prints the hosts.  Without ``--scheduler`` it starts
a local cluster of two workers; with it, it runs on that cluster, whose workers
need urikit installed.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pyarrow.dataset as ds
from distributed import Client, LocalCluster
from linktable import write_link_table

from urikit import dask as uri


def pipeline(links: dd.DataFrame) -> tuple[dd.DataFrame, dd.DataFrame, dd.DataFrame]:
    """(links, invalid, hosts) from a table of (page, href)."""
    page_parse = uri.parse(links.page)
    href_parse = uri.parse(links.href, iri=True)
    target = uri.normalize(uri.resolve(links.page, uri.to_uri(links.href)))
    page_bad = ~page_parse.valid
    href_bad = ~href_parse.valid
    bad = page_bad | href_bad | target.isna()
    invalid = links.assign(
        column=page_bad.map({True: "page", False: "href"}, meta=("column", "string")),
        error_position=page_parse.error_position.where(page_bad, href_parse.error_position),
        error=page_parse.error.where(page_bad, href_parse.error),
    )[bad]
    good = links.assign(target=target)[~bad][["page", "target"]].drop_duplicates()
    good = good.assign(host=uri.host(good.target), audit_codes=uri.audit_codes(good.target))
    hosts = (
        good[good.host.notnull()].groupby("host").target.nunique().rename("targets").reset_index()
    )
    return good, invalid, hosts


def run(out: Path, source: str | None = None) -> dict[str, int]:
    """Run the pipeline on ``source`` (or a generated table) into ``out``; the row counts."""
    if source is None:
        out.mkdir(parents=True, exist_ok=True)
        source = str(write_link_table(out / "input.parquet"))
    links = dd.read_parquet(source).repartition(npartitions=4)
    counts = {}
    for name, frame in zip(("links", "invalid", "hosts"), pipeline(links), strict=True):
        frame.to_parquet(str(out / name), write_index=False)
        counts[name] = ds.dataset(out / name).count_rows()
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="output directory (default: a new temp dir)")
    parser.add_argument("--input", help="a Parquet table of (page, href); default: generated")
    parser.add_argument("--scheduler", help="the address of a Dask scheduler")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="links-"))
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None))
    with client:
        counts = run(out, args.input)
    hosts = pd.read_parquet(out / "hosts").sort_values(["targets", "host"], ascending=[False, True])
    print(hosts.to_string(index=False))
    print(", ".join(f"{n} {name}" for name, n in counts.items()), "written to", out)


if __name__ == "__main__":
    main()
