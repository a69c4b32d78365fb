"""The compiled lookup of urikit.sites held to the algorithm, to another implementation,
and to its own two paths; the generated table held to the list; no network, ever.

* ``psl_oracle`` transcribes publicsuffix.org's formal algorithm: the lookup gives its
  answers on hosts made from the bundled list's rules, on real hosts, and on small
  random lists of wildcards and exceptions.
* ``publicsuffixlist``, loaded with the same list text, gives the same answers.
* The lookup in C (``_c/sites.c``) gives the answers of the Python walk.
* ``src/urikit/sites/_table.py`` is what ``tools/gen_psl.py`` makes of the list.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import psl_oracle as oracle
import pytest
from generators import load_tool
from hypothesis import given
from hypothesis import strategies as st
from linear import assert_linear

from urikit import URI, URIError
from urikit.sites import SuffixList, _bundled_table, default_list, lookup
from urikit.sites._compile import compile_rules, table_from_text, table_text
from urikit.sites._rules import read_rules

ROOT = Path(__file__).resolve().parent.parent
DAT = ROOT / "src" / "urikit" / "sites" / "public_suffix_list.dat"
LIST_TEXT = DAT.read_bytes().decode("utf-8")
ORACLE = oracle.OracleList(LIST_TEXT)
RULES = read_rules(LIST_TEXT).rules
DEFAULT = default_list()


def _pure(table: object = None) -> SuffixList:
    """A list that answers by the Python walk only."""
    pure = SuffixList(_bundled_table() if table is None else table)  # type: ignore[arg-type]
    pure._find_in_c = None
    return pure


PURE = _pure()

# -- hosts made from the list's rules -----------------------------------------------------

LABEL = st.one_of(
    st.from_regex(r"[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?", fullmatch=True),
    st.sampled_from(["www", "city", "com", "uk", "jp", "xn--85x722f", "食狮", "公司", "a"]),
)


def _spelled(draw: st.DrawFn, label: str) -> str:
    """``label`` as a host may write it: its U-label or A-label, any case."""
    if not label.isascii() and draw(st.booleans()):
        label = "xn--" + label.encode("punycode").decode("ascii")
    if draw(st.booleans()):
        label = "".join(c.upper() if draw(st.booleans()) else c for c in label)
    return label


@st.composite
def hosts(draw: st.DrawFn) -> str:
    """A domain under a rule of the list, or a suffix of one, or under no rule."""
    if draw(st.integers(0, 9)) == 0:
        labels = draw(st.lists(LABEL, min_size=1, max_size=4))
    else:
        rule = draw(st.sampled_from(RULES))
        labels = [draw(LABEL) if label == "*" else label for label in rule.labels]
        labels = labels[draw(st.integers(0, len(labels) - 1)) :]
        labels = draw(st.lists(LABEL, max_size=3)) + labels
    if labels[-1].isdigit():  # a host that ends in a number is an IPv4 address
        labels.append("example")
    return ".".join(_spelled(draw, label) for label in labels)


def _real_hosts() -> list[str]:
    found = set()
    for line in (ROOT / "bench" / "urls.txt").read_text(encoding="utf-8").splitlines():
        try:
            host = URI(line).host
        except URIError:
            continue
        if host and lookup(host) is not None:
            found.add(host)
    return sorted(found)


REAL_HOSTS = _real_hosts()


def test_the_real_sample_is_large() -> None:
    assert len(REAL_HOSTS) > 1000


@pytest.mark.parametrize("private", [True, False], ids=["private", "icann"])
@given(host=hosts())
def test_the_algorithm_on_hosts_of_the_list(host: str, private: bool) -> None:
    assert DEFAULT.public_suffix(host, private=private) == oracle.public_suffix(
        host, ORACLE, private=private
    )
    assert DEFAULT.registrable_domain(host, private=private) == oracle.registrable_domain(
        host, ORACLE, private=private
    )


@pytest.mark.parametrize("private", [True, False], ids=["private", "icann"])
def test_the_algorithm_on_real_hosts(private: bool) -> None:
    for host in REAL_HOSTS:
        domain = host if "%" not in host else lookup(host).domain  # type: ignore[union-attr]
        assert DEFAULT.registrable_domain(host, private=private) == oracle.registrable_domain(
            domain, ORACLE, private=private
        ), host


# -- small random lists: every way rules can overlap --------------------------------------

SMALL_LABEL = st.sampled_from(["a", "b", "c"])


@st.composite
def small_lists(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        labels = draw(st.lists(SMALL_LABEL, min_size=1, max_size=3))
        if draw(st.booleans()):
            labels = ["*", *labels]
        exception = len(labels) > 1 and draw(st.integers(0, 3)) == 0
        lines.append(("!" if exception else "") + ".".join(labels))
    icann = draw(st.integers(0, len(lines)))
    return "\n".join(
        ["// ===BEGIN ICANN DOMAINS===", *lines[:icann], "// ===END ICANN DOMAINS===",
         *lines[icann:]]
    )  # fmt: skip


@pytest.mark.parametrize("private", [True, False], ids=["private", "icann"])
@given(
    text=small_lists(),
    domains=st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=5)),
)
def test_the_algorithm_on_small_lists(text: str, domains: list[list[str]], private: bool) -> None:
    compiled = SuffixList.from_text(text)
    table = compile_rules(read_rules(text))
    pure = _pure(table)
    rules = oracle.OracleList(text)
    assert table_from_text(table_text(table), table.version, table.commit) == table
    for labels in domains:
        host = ".".join(labels)
        expected = oracle.registrable_domain(host, rules, private=private)
        suffix = oracle.public_suffix(host, rules, private=private)
        for answers in (compiled, pure):
            assert answers.registrable_domain(host, private=private) == expected
            assert answers.public_suffix(host, private=private) == suffix
        match = compiled.lookup(host, private=private)
        assert match is not None and match.public_suffix == suffix
        assert match.rule == "*" or match.rule in text.split("\n")  # as the list writes it


# -- another implementation, with the same list text --------------------------------------

publicsuffixlist = pytest.importorskip("publicsuffixlist")
PEER = publicsuffixlist.PublicSuffixList(LIST_TEXT)
PEER_ICANN = publicsuffixlist.PublicSuffixList(LIST_TEXT, only_icann=True)


@given(host=hosts())
def test_publicsuffixlist_on_hosts_of_the_list(host: str) -> None:
    assert DEFAULT.registrable_domain(host) == PEER.privatesuffix(host)
    assert DEFAULT.public_suffix(host) == PEER.publicsuffix(host)
    assert DEFAULT.registrable_domain(host, private=False) == PEER_ICANN.privatesuffix(host)


def test_publicsuffixlist_on_real_hosts() -> None:
    differ = [
        host
        for host in REAL_HOSTS
        if "%" not in host
        and (
            DEFAULT.registrable_domain(host) != PEER.privatesuffix(host)
            or DEFAULT.public_suffix(host) != PEER.publicsuffix(host)
            or DEFAULT.registrable_domain(host, private=False) != PEER_ICANN.privatesuffix(host)
        )
    ]
    assert differ == []


# -- the two paths ------------------------------------------------------------------------

ASCII_HOST = st.text(st.sampled_from("abcoukjpmxn-._01239[]:%/@ ABCOUK\x00\x7f"), max_size=20)


@pytest.mark.skipif(DEFAULT._find_in_c is None, reason="the compiled core is not used")
@given(host=st.one_of(ASCII_HOST, hosts(), st.sampled_from(REAL_HOSTS)))
def test_c_and_python_agree(host: str) -> None:
    for private in (True, False):
        assert DEFAULT.registrable_domain(host, private=private) == PURE.registrable_domain(
            host, private=private
        )
        assert DEFAULT.public_suffix(host, private=private) == PURE.public_suffix(
            host, private=private
        )


@pytest.mark.skipif(DEFAULT._find_in_c is None, reason="the compiled core is not used")
def test_c_and_python_agree_on_real_hosts_and_long_ones() -> None:
    for host in [*REAL_HOSTS, "a." * 300 + "example.com", "A" * 1000 + ".co.uk."]:
        assert DEFAULT.registrable_domain(host) == PURE.registrable_domain(host)
        assert DEFAULT.public_suffix(host, private=False) == PURE.public_suffix(host, private=False)


@pytest.mark.skipif(DEFAULT._find_in_c is None, reason="the compiled core is not used")
def test_the_compiled_table_refuses_arrays_that_disagree() -> None:
    from urikit._speedups import sites_find, sites_table

    with pytest.raises(ValueError):
        sites_table((0, 1), ("a",), (0,), (1, 1, 1, 1))  # an edge to the root
    with pytest.raises(ValueError):
        sites_table((0, 0), (), (), (1, 1, 1))  # three answers for one node
    with pytest.raises(TypeError):
        sites_table((0, 1, 1), (b"a",), (1,), (1,) * 8)
    with pytest.raises(ValueError):
        sites_find(sites_table((0, 0), (), (), (1,) * 4), "a.b", True, 2)


# -- the generated table ------------------------------------------------------------------


def test_generated_table_is_up_to_date() -> None:
    generated = (ROOT / "src" / "urikit" / "sites" / "_table.py").read_text(encoding="utf-8")
    assert load_tool("gen_psl").render(LIST_TEXT) == generated, "run: python tools/gen_psl.py"


def test_generated_table_is_the_list() -> None:
    from urikit.sites import _table

    assert hashlib.sha256(DAT.read_bytes()).hexdigest() == _table.SHA256
    assert _table.RULES == len(RULES) > 9000
    assert _bundled_table() == compile_rules(read_rules(LIST_TEXT))


def test_the_list_ships_with_its_licence() -> None:
    licence = (DAT.parent / "public_suffix_list.LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("Mozilla Public License Version 2.0")
    assert "MPL/2.0" in LIST_TEXT[:400]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "sites/public_suffix_list.dat" in pyproject
    assert "sites/public_suffix_list.LICENSE" in pyproject


# -- offline, always ----------------------------------------------------------------------

_OFFLINE = """
import socket

def refuse(*args, **kwargs):
    raise AssertionError("urikit.sites opened a connection")

class NoSocket(socket.socket):
    def __init__(self, *args, **kwargs):
        refuse()

socket.socket = NoSocket
socket.create_connection = refuse
socket.getaddrinfo = refuse
socket.gethostbyname = refuse

import urikit.sites as sites
assert sites.registrable_domain("www.example.co.uk") == "example.co.uk"
assert sites.public_suffix("a.github.io", private=False) == "io"
assert sites.lookup("www.ck").rule == "!www.ck"
assert sites.same_site("https://a.example.com/", "https://b.example.com/")
assert sites.default_list().version
print("offline")
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_first_use_with_the_network_blocked(pure: bool) -> None:
    env = {k: v for k, v in os.environ.items() if k != "URIKIT_NO_EXTENSIONS"}
    if pure:
        env["URIKIT_NO_EXTENSIONS"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", _OFFLINE], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout == "offline\n"


# -- linear time on hostile hosts and lists -----------------------------------------------

HOSTILE_HOSTS = {
    "labels": lambda n: "a." * (n // 2) + "co.uk",
    "one label": lambda n: "a" * n + ".com",
    "upper case": lambda n: "A." * (n // 2) + "KAWASAKI.JP",
    "percents": lambda n: "%61." * (n // 4) + "com",
    "dots": lambda n: "." * n,
    "non-ascii": lambda n: "é." * (n // 2) + "公司.cn",
    "numbers": lambda n: "1." * (n // 2) + "1",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_HOSTS))
def test_hostile_hosts_take_linear_time(name: str) -> None:
    def read(host: str) -> None:
        DEFAULT.registrable_domain(host)
        PURE.lookup(host)

    assert_linear(HOSTILE_HOSTS[name], read)


HOSTILE_LISTS = {
    "repeated wildcards": lambda n: "*.a\n" * (n // 8) + "b.a\n" * (n // 8),
    "deep rule": lambda n: "a." * (n // 2) + "b",
    "many children": lambda n: "*.a\n!x.a\n" + "".join(f"{i}.a\n" for i in range(n // 8)),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LISTS))
def test_hostile_lists_take_linear_time(name: str) -> None:
    assert_linear(HOSTILE_LISTS[name], SuffixList.from_text, 100_000)
