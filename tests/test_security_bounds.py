"""The audit's bounds: findings per code, hosts read in part, messages of bounded length
(issue 27.7).  Counts, never times: ``bench/bench_hostile.py`` measures the time."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urikit.report import Report, Severity
from urikit.security import audit, checks, hosts
from urikit.security.audit import full_audit
from urikit.security.bounds import MAX_FINDINGS, MAX_HOST, bound_findings, host_cut

MB = 1_000_000

#: The shapes of the issue, a megabyte each, and others of the same kind.
SHAPES = {
    "cyrillic-labels": "http://" + "\u0430." * (MB // 2),
    "mixed-labels": "http://" + "\u0430a." * (MB // 3),
    "latin-labels": "http://" + "\u00e9." * (MB // 2),
    "full-width-host": "http://" + "\uff45" * MB,
    "encoded-dot-segments": "http://a" + "/%2E%2E" * (MB // 7),
    "encoded-dot-query": "http://a/?" + "..%2F&" * (MB // 6),
    "nul-runs": "http://a/" + "%00a" * (MB // 4),
    "not-utf8-runs": "http://a/" + "%C0a" * (MB // 4),
    "tab-runs": "http://a/" + "\ta" * (MB // 2),
    "bidi": "\u202e" * MB,
    "mixed": "http://a/" + "\u00e9 \u202e%<" * (MB // 5),
    "ace-labels": "http://" + "xn--80ak6aa92e." * (MB // 15),
    "feed-chain": "feed:" * (MB // 5) + "http://127.0.0.1/",
}


@pytest.mark.parametrize("name", SHAPES)
def test_findings_of_a_code_are_bounded(name: str) -> None:
    findings = audit(SHAPES[name])
    for code, count in Counter(f.code for f in findings).items():
        assert count <= MAX_FINDINGS + 1, code
    for f in findings:
        assert len(f.message) < 2_000  # a megabyte of input is not copied into a message


def test_the_issue_shape_says_how_many_beyond_the_cap() -> None:
    findings = audit("http://" + "\u0430." * 500_000)
    mixed = [f for f in findings if f.code == "mixed-script-host"]
    assert len(mixed) == MAX_FINDINGS + 1
    assert "were not examined one by one" in mixed[-1].message
    assert mixed[-1].span[1] == 7 + 1_000_000
    (long,) = [f for f in findings if f.code == "long-host"]
    assert long.span == (7, 1_000_007) and "1000000 characters long" in long.message


def test_dot_segments_past_the_cap_are_one_finding() -> None:
    text = "http://a" + "/%2E%2E" * 1000
    found = [f for f in audit(text) if f.code == "encoded-dot-segment"]
    assert len(found) == MAX_FINDINGS + 1
    assert found[-1].span == (8 + 7 * MAX_FINDINGS + 1, len(text))
    assert "not examined one segment at a time" in found[-1].message


def test_runs_of_encoded_controls_past_the_cap_are_one_finding() -> None:
    text = "http://a/" + "%00a" * 1000
    found = [f for f in audit(text) if f.code == "encoded-control"]
    assert len(found) == MAX_FINDINGS + 1
    assert found[-1].span == (9 + 4 * MAX_FINDINGS, len(text))
    assert found[-1].message.startswith("900 more percent-encoded octets")


def test_deleted_tabs_past_the_cap_are_one_finding() -> None:
    text = "http://a/" + "\ta" * 1000
    found = [
        f for f in audit(text) if f.code == "parser-differential" and f.span[1] - f.span[0] > 1
    ]
    (rest,) = [f for f in found if "more of them" in f.message]
    assert rest.message.count("900 more") == 1 and rest.span == (
        9 + 2 * MAX_FINDINGS,
        len(text) - 1,
    )


# --- long hosts --------------------------------------------------------------------------


def test_a_long_host_is_read_in_part(monkeypatch: pytest.MonkeyPatch) -> None:
    lengths: list[int] = []
    read = hosts.suspicious_labels

    def counting(host: str, limit: int | None = None) -> list[hosts.HostLabel]:
        lengths.append(len(host))
        return read(host, limit)

    monkeypatch.setattr(checks, "suspicious_labels", counting)
    audit("http://" + "\u00e9." * 100_000 + "/")
    assert lengths and max(lengths) <= MAX_HOST


@pytest.mark.parametrize(
    "text",
    [
        "http://" + "a." * 5_000 + "a/",  # plain: every check reads it whole, in C
        "http://" + "a" * 5_000 + "/ x",
        "http://" + "é" * MAX_HOST + "/",  # at the bound
    ],
)
def test_plain_or_short_hosts_give_no_long_host_finding(text: str) -> None:
    assert "long-host" not in {f.code for f in audit(text)}


def test_a_plain_long_host_is_still_read_whole_for_its_address() -> None:
    # inet_aton() reads this as 127.0.0.1 (RFC 3986 §7.4), however many zeros
    text = "http://0x" + "0" * 5_000 + "7f.1/"
    codes = {f.code for f in audit(text)}
    assert {"ipv4-rare-format", "internal-address"} <= codes
    assert "long-host" not in codes


def test_host_cut_keeps_triplets_whole() -> None:
    text = "http://" + "%C3%A9" * 400 + "/"
    cut = host_cut(text, (7, 7 + 2400))
    assert cut is not None and not cut.plain
    assert text[cut.start] == "%" and (cut.start - 7) % 3 == 0
    assert host_cut(text, (7, 7 + MAX_HOST)) is None


def test_spans_after_a_long_host_are_where_they_are_in_the_text() -> None:
    text = "http://" + "é" * 5_000 + ":25/%00"
    found = {f.code: f.span for f in audit(text)}
    assert found["encoded-control"] == (len(text) - 3, len(text))
    assert found["unusual-port"] == (5_008, 5_010)
    assert found["long-host"] == (7, 5_007)


# --- bound_findings ----------------------------------------------------------------------


def _report(code: str, at: int, severity: Severity = Severity.LOW) -> Report:
    return Report(code, f"{code} at {at}", severity, (at, at + 1), False, "path")


def test_bound_findings_keeps_the_first_and_counts_the_rest() -> None:
    findings = [_report("a", 2 * i) for i in range(250)] + [_report("b", 1)]
    findings[-2] = _report("a", 498, Severity.HIGH)
    bounded = bound_findings(sorted(findings, key=lambda f: f.span))
    counts = Counter(f.code for f in bounded)
    assert counts == {"a": MAX_FINDINGS + 1, "b": 1}
    (rest,) = [f for f in bounded if f.message.startswith("150 more")]
    assert rest.span == (200, 499) and rest.severity == Severity.HIGH
    assert rest.component == "path"


def test_bound_findings_leaves_one_over_the_bound_as_it_is() -> None:
    findings = [_report("a", i) for i in range(MAX_FINDINGS + 1)]
    assert bound_findings(findings) == findings


@given(st.integers(0, 400), st.integers(0, 3))
def test_bound_findings_law(count: int, codes: int) -> None:
    findings = sorted(
        (_report(f"c{i % (codes + 1)}", i) for i in range(count)), key=lambda f: f.span
    )
    bounded = bound_findings(findings)
    for code, kept in Counter(f.code for f in bounded).items():
        total = sum(f.code == code for f in findings)
        assert kept == min(total, MAX_FINDINGS + 1)


@pytest.mark.parametrize(
    "text", [SHAPES["encoded-dot-segments"][:20_000], "http://a/" + "%00a" * 5_000]
)
def test_audit_is_full_audit_on_bounded_shapes(text: str) -> None:
    assert audit(text) == full_audit(text)
