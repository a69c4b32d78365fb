"""``urikit site``: one record per URL (or host), the list it reads, and which list it is."""

from __future__ import annotations

from pathlib import Path

from test_cli_contract import json_records, urikit

from urikit.sites import default_list


def test_records_for_urls_hosts_and_errors() -> None:
    data = "\n".join(
        [
            "https://www.Example.CO.UK/a",
            "http://[::1]/",
            "not a url",
            "mailto:a@example.com",
            "http://www.\u98df\u72ee.\u516c\u53f8.cn/",
            "https://kobe.jp./",
        ]
    ).encode()
    result = urikit(["site"], data)
    assert result.returncode == 1  # "not a url"
    assert result.stdout.decode().split("\n") == [
        "example.co.uk\tco.uk\ticann",
        "-\t-\t-",
        "error: not a url\t3\tisegment-nz-nc\t"
        'expected "@", iunreserved, sub-delims, "%", "/", "?", "#" or ":" '
        "(RFC 3987 §2.2, after RFC 3986 §3.3)",
        "-\t-\t-",
        "\u98df\u72ee.\u516c\u53f8.cn\t\u516c\u53f8.cn\ticann",
        "-\tkobe.jp.\ticann",
        "",
    ]


def test_json_records() -> None:
    result = urikit(["site", "--json", "https://a.b.github.io/", "http://192.0.2.1/", "/x"])
    assert result.returncode == 0
    assert json_records(result.stdout) == [
        {
            "input": "https://a.b.github.io/",
            "ok": True,
            "host": "a.b.github.io",
            "registrable_domain": "b.github.io",
            "public_suffix": "github.io",
            "rule": "github.io",
            "section": "private",
        },
        {
            "input": "http://192.0.2.1/",
            "ok": True,
            "host": "192.0.2.1",
            "registrable_domain": None,
            "public_suffix": None,
            "rule": None,
            "section": None,
        },
        {
            "input": "/x",
            "ok": True,
            "host": None,
            "registrable_domain": None,
            "public_suffix": None,
            "rule": None,
            "section": None,
        },
    ]


def test_hosts_and_the_icann_section() -> None:
    result = urikit(["site", "--host", "--icann-only"], b"a.b.github.io\nexample.zz\n")
    assert result.stdout.decode() == "github.io\tio\ticann\nexample.zz\tzz\t-\n"
    assert result.returncode == 0


def test_a_list_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "list.dat"
    path.write_text("// VERSION: 1999-12-31_23-59-59_UTC\nexample\n*.corp.example\n")
    result = urikit(["site", "--list", str(path), "--host", "a.b.corp.example", "a.b.example"])
    assert (
        result.stdout.decode()
        == "a.b.corp.example\tb.corp.example\tprivate\nb.example\texample\tprivate\n"
    )
    version = urikit(["site", "--list", str(path), "--list-version"])
    assert version.stdout.decode() == f"version 1999-12-31_23-59-59_UTC, commit - ({path})\n"


def test_a_list_that_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    missing = urikit(["site", "--list", str(tmp_path / "missing.dat"), "http://a/"])
    assert missing.returncode == 2 and missing.stdout == b""
    assert b"cannot read the list" in missing.stderr
    broken = tmp_path / "broken.dat"
    broken.write_text("a.*.b\n")
    result = urikit(["site", "--list", str(broken), "http://a/"])
    assert result.returncode == 2
    assert b"line 1: rule 'a.*.b'" in result.stderr


def test_list_version() -> None:
    bundled = default_list()
    text = urikit(["site", "--list-version"])
    assert text.returncode == 0
    assert text.stdout.decode().startswith(f"version {bundled.version}, commit {bundled.commit} (")
    records = json_records(urikit(["site", "--list-version", "--json"]).stdout)
    assert records[0]["version"] == bundled.version and records[0]["commit"] == bundled.commit
