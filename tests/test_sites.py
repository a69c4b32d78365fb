"""urikit.sites: the list's own tests, the URL Standard's examples, and each choice by name.

The list's tests (``tests/vectors/psl/``, public domain) run in both of their forms;
the URL Standard's table of public suffixes and registrable domains (§3.5, "host
public suffix") verbatim; then IDNs, wildcards, exceptions, the private section, the
trailing dot, what is no domain, percent-encoding, lists of one's own, and same-site
(HTML Standard §7.1.1.1).
"""

from __future__ import annotations

import re
from pathlib import Path

import idna
import pytest

from urikit import IRI, URI, URIError
from urikit.sites import (
    SuffixList,
    SuffixMatch,
    default_list,
    lookup,
    public_suffix,
    registrable_domain,
    same_site,
)

VECTORS = Path(__file__).resolve().parent / "vectors" / "psl"
DAT = Path(__file__).resolve().parent.parent / "src" / "urikit" / "sites" / "public_suffix_list.dat"


def _null(text: str) -> str | None:
    return None if text == "null" else text


def _tests_txt() -> list[tuple[str | None, str | None]]:
    cases = []
    for line in (VECTORS / "tests.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("//"):
            host, expected = line.split()
            cases.append((_null(host), _null(expected)))
    return cases


def _test_psl_txt() -> list[tuple[str | None, str | None]]:
    text = (VECTORS / "test_psl.txt").read_text(encoding="utf-8")
    found = re.findall(r"^checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);", text, re.M)
    return [(_null(a.strip("'")), _null(b.strip("'"))) for a, b in found]


TESTS_TXT = _tests_txt()
TEST_PSL_TXT = _test_psl_txt()


def test_the_vectors_are_all_read() -> None:
    # 98 lines each: 19 comments (4 of them cases left out by the list) and a blank line.
    assert len(TESTS_TXT) == len(TEST_PSL_TXT) == 78
    assert TESTS_TXT == TEST_PSL_TXT


@pytest.mark.parametrize(("host", "expected"), TESTS_TXT, ids=[str(c[0]) for c in TESTS_TXT])
def test_list_tests(host: str | None, expected: str | None) -> None:
    # A null input is a reference without a host.
    assert registrable_domain(URI("urn:x") if host is None else host) == expected


# -- the URL Standard (§3.5, "host public suffix"): its table, verbatim -------------------

URL_STANDARD = [
    ("com", "com", None),
    ("example.com", "com", "example.com"),
    ("www.example.com", "com", "example.com"),
    ("sub.www.example.com", "com", "example.com"),
    ("EXAMPLE.COM", "com", "example.com"),
    ("example.com.", "com.", "example.com."),
    ("github.io", "github.io", None),
    ("whatwg.github.io", "github.io", "whatwg.github.io"),
    ("إختبار", "xn--kgbechtv", None),
    ("example.إختبار", "xn--kgbechtv", "example.xn--kgbechtv"),
    ("sub.example.إختبار", "xn--kgbechtv", "example.xn--kgbechtv"),
    ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", None, None),
]


@pytest.mark.parametrize(("text", "suffix", "domain"), URL_STANDARD)
def test_url_standard_host_public_suffix(text: str, suffix: str | None, domain: str | None) -> None:
    # The Standard's host is the parsed one: A-labels in lower case.
    host = text if text.startswith("[") else idna.encode(text, uts46=True).decode("ascii")
    assert public_suffix(host) == suffix
    assert registrable_domain(host) == domain
    assert registrable_domain(URI(f"https://{host}/")) == domain


def test_an_idn_is_answered_in_the_form_given() -> None:
    assert public_suffix("sub.example.إختبار") == "إختبار"
    assert registrable_domain("sub.example.إختبار") == "example.إختبار"
    assert registrable_domain("sub.example.xn--kgbechtv") == "example.xn--kgbechtv"


# -- the algorithm by name ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "suffix", "domain"),
    [
        ("食狮.公司.cn", "公司.cn", "食狮.公司.cn"),
        ("www.xn--85x722f.xn--55qx5d.cn", "xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("WWW.XN--85X722F.XN--55QX5D.CN", "xn--55qx5d.cn", "xn--85x722f.xn--55qx5d.cn"),
        ("www.xn--85x722f.公司.cn", "公司.cn", "xn--85x722f.公司.cn"),  # mixed forms
        ("食狮.xn--55qx5d.cn", "xn--55qx5d.cn", "食狮.xn--55qx5d.cn"),
        ("shishi.中国", "中国", "shishi.中国"),
    ],
)
def test_idn_labels_match_in_either_form(host: str, suffix: str, domain: str) -> None:
    assert public_suffix(host) == suffix
    assert registrable_domain(host) == domain


def test_wildcard_rule() -> None:
    # *.kawasaki.jp: any label under kawasaki.jp is a public suffix.
    assert public_suffix("b.c.kawasaki.jp") == "c.kawasaki.jp"
    assert registrable_domain("b.c.kawasaki.jp") == "b.c.kawasaki.jp"
    assert registrable_domain("c.kawasaki.jp") is None
    match = lookup("a.b.c.kawasaki.jp")
    assert match is not None and match.rule == "*.kawasaki.jp" and match.section == "icann"


def test_exception_rule() -> None:
    # !city.kawasaki.jp: an exception to *.kawasaki.jp; the public suffix is the rule
    # without its leftmost label (step 5).
    assert public_suffix("city.kawasaki.jp") == "kawasaki.jp"
    assert registrable_domain("www.city.kawasaki.jp") == "city.kawasaki.jp"
    match = lookup("www.city.kawasaki.jp")
    assert match == SuffixMatch(
        "www.city.kawasaki.jp", "kawasaki.jp", "city.kawasaki.jp", "!city.kawasaki.jp", "icann"
    )


def test_a_wildcard_makes_its_parent_a_public_suffix() -> None:
    # docs/deviations.md: *.kawasaki.jp stands for kawasaki.jp too, as browsers read it.
    assert "\nkawasaki.jp\n" not in DAT.read_text(encoding="utf-8")
    assert public_suffix("kawasaki.jp") == "kawasaki.jp"
    assert registrable_domain("kawasaki.jp") is None
    match = lookup("kawasaki.jp")
    assert match is not None and match.rule == "*.kawasaki.jp"
    assert lookup("ck") == SuffixMatch("ck", "ck", None, "*.ck", "icann")


def test_the_implicit_rule() -> None:
    # Step 2: a top-level domain the list does not name is a public suffix.
    match = lookup("www.example.example")
    assert match == SuffixMatch("www.example.example", "example", "example.example", "*", None)
    assert match.implicit
    assert lookup("example.com") is not None and not lookup("example.com").implicit  # type: ignore[union-attr]


def test_private_section() -> None:
    assert registrable_domain("a.github.io") == "a.github.io"
    assert registrable_domain("b.a.github.io") == "a.github.io"
    assert registrable_domain("a.github.io", private=False) == "github.io"
    assert public_suffix("a.github.io", private=False) == "io"
    assert lookup("a.github.io") == SuffixMatch(
        "a.github.io", "github.io", "a.github.io", "github.io", "private"
    )
    assert lookup("a.github.io", private=False) == SuffixMatch(
        "a.github.io", "io", "github.io", "io", "icann"
    )
    assert not same_site("https://a.github.io/", "https://b.github.io/")
    assert same_site("https://a.github.io/", "https://b.github.io/", private=False)


def test_private_is_read_as_a_truth_value() -> None:
    assert registrable_domain("a.github.io", private=0) == "github.io"  # type: ignore[arg-type]
    assert public_suffix("a.github.io", private="yes") == "github.io"  # type: ignore[arg-type]


def test_trailing_dot_is_kept() -> None:
    # URL Standard §3.5: the answers of a host that ends with "." end with it.
    assert public_suffix("example.com.") == "com."
    assert registrable_domain("www.example.com.") == "example.com."
    assert registrable_domain("com.") is None
    assert lookup("WWW.Example.COM.") == SuffixMatch(
        "www.example.com.", "com.", "example.com.", "com", "icann"
    )
    for no_domain in (".", "example.com..", "..", ".com."):
        assert public_suffix(no_domain) is None
        assert registrable_domain(no_domain) is None


@pytest.mark.parametrize(
    "host",
    [
        "",
        ".com",  # a leading dot (the list's tests)
        ".example.com",
        "a..example.com",  # an empty label
        "127.0.0.1",  # IPv4: the last label is a number
        "1.2.3.256",
        "example.123",
        "0x7f.1",
        "a.0x1F",
        "a.0x",
        "[::1]",  # IP literals, and IPv6 without brackets (":")
        "[2001:db8::1]",
        "[v1.fe]",
        "::1",
        "fe80::1",
        "example.com:8080",  # a port, a path, a userinfo: forbidden domain code points
        "https://example.com/",
        "user@example.com",
        "a b.com",
        "a\tb.com",
        "exa|mple.com",
        "a%2Fb.com",  # decoded, then refused
        "a%20b.com",
        "a%25b.com",
        "ex%zzample.com",  # percent-encoding that is not UTF-8, or no triplet
        "ex%FFample.com",
    ],
)
def test_what_names_no_domain(host: str) -> None:
    assert public_suffix(host) is None
    assert registrable_domain(host) is None
    assert lookup(host) is None


def test_a_number_only_ends_a_host() -> None:
    assert registrable_domain("www.123.example.com") == "example.com"
    assert registrable_domain("0x.example") == "0x.example"
    assert registrable_domain("www.0xg") == "www.0xg"  # "0xg" is no number


def test_percent_encoded_reg_names_are_decoded_first() -> None:
    # RFC 3986 §3.2.2: a reg-name's triplets are UTF-8; "%2E" separates labels.
    assert registrable_domain("www.ex%61mple.co.uk") == "example.co.uk"
    assert registrable_domain("a%2Eexample%2Ecom") == "example.com"
    assert registrable_domain("%E9%A3%9F%E7%8B%AE.%E5%85%AC%E5%8F%B8.cn") == "食狮.公司.cn"
    assert registrable_domain(URI("http://www.%E9%A3%9F%E7%8B%AE.%E5%85%AC%E5%8F%B8.cn/")) == (
        "食狮.公司.cn"
    )


def test_hosts_of_references() -> None:
    assert registrable_domain(URI("https://user@www.Example.co.uk:8080/p")) == "example.co.uk"
    assert public_suffix(IRI("http://www.食狮.公司.cn/")) == "公司.cn"
    assert registrable_domain(URI("http://[::1]/")) is None
    assert registrable_domain(URI("mailto:a@example.com")) is None  # no authority
    assert registrable_domain(URI("file:///etc/hosts")) is None  # an empty host
    # A str is a host, not a URI: a URI's delimiters name no domain.
    assert registrable_domain("https://www.example.co.uk/") is None


@pytest.mark.parametrize("value", [None, b"example.com", 3, ["example.com"]])
def test_a_host_of_another_type_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        registrable_domain(value)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        lookup(value)  # type: ignore[arg-type]


# -- same site (HTML Standard §7.1.1.1) ---------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "schemeful", "schemeless"),
    [
        ("https://example.com/", "https://sub.example.com/", True, True),
        ("https://example.com/", "https://sub.other.example.com:8443/x", True, True),
        ("https://example.com/", "http://non-secure.example.com/", False, True),
        ("https://a.github.io/", "https://b.github.io/", False, False),
        ("https://github.io/", "https://github.io/", True, True),  # a public suffix host
        ("https://github.io/", "https://a.github.io/", False, False),
        ("https://example.com/", "https://example.com./", False, False),
        ("https://EXAMPLE.com/", "HTTPS://www.example.COM/", True, True),
        ("http://127.0.0.1/", "http://127.0.0.1:8080/", True, True),  # hosts equal
        ("http://127.0.0.1/", "http://127.0.0.2/", False, False),
        ("http://[::1]/", "http://[::1]:81/", True, True),
        ("http://食狮.公司.cn/", "http://www.xn--85x722f.xn--55qx5d.cn/", True, True),
        ("http://b\u00fccher.example/", "http://www.xn--bcher-kva.example/", True, True),
        ("data:,x", "data:,x", False, False),  # opaque origins: same site with nothing
        ("mailto:a@example.com", "https://example.com/", False, False),
        ("/relative", "https://example.com/", False, False),
        ("file:///a", "file:///a", False, False),
    ],
)
def test_same_site(a: str, b: str, schemeful: bool, schemeless: bool) -> None:
    assert same_site(a, b) is schemeful
    assert same_site(b, a) is schemeful
    assert same_site(a, b, schemeful=False) is schemeless
    assert same_site(URI(a) if a.isascii() else IRI(a), b) is schemeful


def test_same_site_refuses_what_is_no_reference() -> None:
    with pytest.raises(URIError):
        same_site("http://a b/", "http://example.com/")


# -- lists of one's own -------------------------------------------------------------------

SMALL = """\
// VERSION: 2000-01-01_00-00-00_UTC
// COMMIT: 0123456789abcdef
// ===BEGIN ICANN DOMAINS===
example
*.wild.example
!keep.wild.example
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
host.example   this text after the rule is not read
// ===END PRIVATE DOMAINS===
"""


def test_from_text() -> None:
    small = SuffixList.from_text(SMALL)
    assert (small.version, small.commit) == ("2000-01-01_00-00-00_UTC", "0123456789abcdef")
    assert small.registrable_domain("a.b.example") == "b.example"
    assert small.registrable_domain("a.b.wild.example") == "a.b.wild.example"
    assert small.registrable_domain("x.keep.wild.example") == "keep.wild.example"
    assert small.registrable_domain("a.b.host.example") == "b.host.example"
    assert small.registrable_domain("a.b.host.example", private=False) == "host.example"
    assert small.registrable_domain("www.example.com") == "example.com"  # implicit "*"
    assert small.lookup("b.host.example") == SuffixMatch(
        "b.host.example", "host.example", "b.host.example", "host.example", "private"
    )
    assert repr(small) == "<SuffixList version='2000-01-01_00-00-00_UTC'>"


def test_a_list_without_sections_is_private() -> None:
    mine = SuffixList.from_text("corp.example\n")
    assert mine.registrable_domain("a.b.corp.example") == "b.corp.example"
    assert mine.registrable_domain("a.b.corp.example", private=False) == "corp.example"
    assert (mine.version, mine.commit) == (None, None)


def test_from_file(tmp_path: Path) -> None:
    path = tmp_path / "list.dat"
    path.write_bytes(SMALL.replace("\n", "\r\n").encode("utf-8"))
    assert SuffixList.from_file(path).registrable_domain("a.b.wild.example") == "a.b.wild.example"
    assert SuffixList.from_file(str(DAT)).version == default_list().version
    path.write_bytes(b"\xffcom\n")
    with pytest.raises(UnicodeDecodeError):
        SuffixList.from_file(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a..b", "line 1: rule 'a..b' has an empty label"),
        ("com\n.com", "line 2: rule '.com' has an empty label"),
        ("com.", "has an empty label"),
        ("a.*.b", "'*' may only be the whole leftmost label"),
        ("*a.b", "'*' may only be the whole leftmost label"),
        ("!!a.b", "'!' may only begin a rule"),
        ("!b", "an exception rule needs at least two labels"),
        ("!", "has an empty label"),
        ("a.\ud800", "line 1: rule 'a.\\ud800': surrogates not allowed at character 2"),
    ],
)
def test_rules_the_algorithm_cannot_read(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        SuffixList.from_text(text)


def test_a_list_must_be_text() -> None:
    with pytest.raises(TypeError):
        SuffixList.from_text(b"com")  # type: ignore[arg-type]


def test_the_bundled_list_says_which_it_is() -> None:
    header = DAT.read_text(encoding="utf-8")[:1000]
    version = re.search(r"^// VERSION: (\S+)$", header, re.M)
    commit = re.search(r"^// COMMIT: (\S+)$", header, re.M)
    assert version is not None and commit is not None
    assert default_list().version == version.group(1)
    assert default_list().commit == commit.group(1)
    assert default_list() is default_list()


def test_the_docstring_examples() -> None:
    import doctest

    import urikit.sites

    result = doctest.testmod(urikit.sites, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0
