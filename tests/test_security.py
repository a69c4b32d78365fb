"""RFC 3986 §7, Security Considerations: ``urikit.security.audit`` and its helpers."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit import URI
from urikit import _differential as differential
from urikit._hosts import internal_reason, suspicious_labels
from urikit._scripts import ascii_skeleton, script_of
from urikit.security import Finding, Severity, audit, lenient_ipv4, printable


def codes(text: str | URI) -> set[str]:
    return {f.code for f in audit(text)}


@pytest.fixture(params=["ada", "builtin"])
def whatwg(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with the ada_url WHATWG parser and with the built-in rules."""
    if request.param == "builtin":
        monkeypatch.setattr(differential, "has_ada", lambda: False)
    elif not differential.has_ada():
        pytest.skip("ada_url is not installed")
    return str(request.param)


# --- clean URIs give no findings -----------------------------------------------------

# RFC 3986 §1.1.2, verbatim (but telnet://192.0.2.16:80/, which speaks telnet to
# HTTP's port: see test_rfc3986_1_1_2_telnet_example_is_an_unusual_port).
RFC3986_1_1_2 = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
]
CLEAN = [
    *RFC3986_1_1_2,
    "https://www.example.com/index.html?q=1#x",
    "http://example.com:8080/",
    "https://example.com:443/",
    "http://example.com",
    "http://example.com/",
    "foo://example.com:8042/over/there?name=ferret#nose",  # RFC 3986 §3
    "urn:example:animal:ferret:nose",  # RFC 3986 §3
    "http://a/b/c/d;p?q",  # RFC 3986 §5.4
    "g;x?y#s",
    "../g",
    "",
    "#frag",
    "//example.com/path",
    "http://[2001:db8::1]:8080/",
    "https://user@example.com/",
    "http://John.Doe@example.com/",
    "http://xn--bcher-kva.example/",  # bücher: Latin only
    "http://xn--r8jz45g.jp/",  # 例え: Han and Hiragana
    "http://%C3%A9t%C3%A9.fr/",
    "http://example.com/%E2%82%AC?x=%C3%A9",
    "http://example.com/a%2Fb",
    "http://example.com/..",
    "file:///etc/hosts",
    "file://localhost/etc/hosts",
    "http://192.0.2.1/",
    "http://8.8.8.8/",
    "http://example.com/?redirect=https%3A%2F%2Fexample.org%2F",
]


@pytest.mark.parametrize("text", CLEAN)
def test_clean_uris_give_no_findings(text: str, whatwg: str) -> None:
    assert audit(text) == []
    assert audit(URI(text)) == []


def test_rfc3986_1_1_2_telnet_example_is_an_unusual_port() -> None:
    (finding,) = audit("telnet://192.0.2.16:80/")
    assert finding.code == "unusual-port"
    assert "http" in finding.message


# --- each code, with attack URIs -------------------------------------------------------

ATTACKS = {
    "misleading-userinfo": [
        "http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm",  # draft §7.6
        "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",  # RFC 3986 §7.6
        "http://google.com@evil.example/",
        "https://paypal.com.account.example@203.0.113.9/",
        "http://https:%2F%2Fbank.example@evil.example/",
        "http://10.1.2.3@evil.example/",
        "http://user:www.bank.example@evil.example/",
        "http://a@www.good.example@evil.example/",  # unreadable: read as other parsers do
        "http://bank.co.uk@b@evil.example/",
    ],
    "password": [
        "http://user:secret@example.com/",
        "ftp://anonymous:guest@ftp.example.org/pub",
        "https://:token@example.com/",
        "http://user:pw@www.good.example@evil.example/",
    ],
    "ipv4-rare-format": [
        "http://0x7f.1/",
        "http://2130706433/",
        "http://017700000001/",
        "http://127.1/",
        "http://10.0.1/",
        "http://0x7f000001/",
        "http://0177.0.0.01/",
        "http://127.0.0.1./",
        "http://%31%32%37.0.0.1/",
        "http://0/",
        "http://a@b@0x7f.1/",
    ],
    "internal-address": [
        "http://127.0.0.1/",
        "http://10.0.0.1/",
        "http://172.16.5.4:8080/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
        "http://100.64.0.1/",
        "http://224.0.0.1/",
        "http://255.255.255.255/",
        "http://[::1]/",
        "http://[::]/",
        "http://[fe80::1]/",
        "http://[fe80::1%25eth0]/",
        "http://[fd00::5]/",
        "http://[ff02::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://[64:ff9b::10.0.0.1]/",
        "http://[2002:c0a8:0101::1]/",
        "http://localhost/",
        "http://LOCALHOST:8000/",
        "http://api.localhost/",
        "http://localhost./",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://10.0.1/",
    ],
    "unusual-port": [
        "http://example.com:25/",
        "telnet://example.com:25/",
        "gopher://example.com:25/_HELO",
        "http://example.com:6379/",
        "https://example.com:22/",
        "http://example.com:99999/",
        "http://example.com:4294967376/",
        "//example.com:11211/",
    ],
    "encoded-control": [
        "http://example.com/a%0d%0aSet-Cookie:%20x=1",
        "http://example.com/file%00.txt",
        "telnet://example.com/%0D%0Aquit",
        "http://example.com/?q=%1b[2J",
        "http://example.com/#%7F",
        "http://user%0A@example.com/",
        "http://ex%09ample.com/",
    ],
    "encoded-dot-segment": [
        "http://example.com/%2e%2e/etc/passwd",
        "http://example.com/static/%2E%2E/%2E%2E/etc/passwd",
        "http://example.com/a/..%2fsecret",
        "http://example.com/a/..%5Csecret",
        "http://example.com/a/%2e/b",
        "http://example.com/%252e%252e/etc",
        "http://example.com/dl?file=..%2F..%2Fetc%2Fpasswd",
    ],
    "invalid-utf8": [
        "http://example.com/%ff",
        "http://example.com/%c0%ae%c0%ae/",
        "http://example.com/?q=%e9t%e9",
        "http://example.com/%ED%A0%80",
        "http://ex%80ample.com/",
        "http://example.com/#%C3",
    ],
    "mixed-script-host": [
        "http://xn--pple-43d.com/",  # Cyrillic а + Latin pple
        "http://xn--80ak6aa92e.com/",  # аррӏе, all Cyrillic
        "http://www.xn--pypal-4ve.com/",  # pаypal
        "http://%D0%B0pple.com/",
        "http://xn--ggle-55da.com/",  # gооgle
        "http://xn--oogle-qmc.com/",  # ɡoogle, a Latin lookalike
        "http://xn--vxakg.example/",  # κορ: Greek letters that look like "kop"
    ],
    "invisible-character": [
        "http://example.com/\u202egpj.exe",
        "http://ex\u200bample.com/",
        "https://例え.jp/\u200d",
        "http://example.com/\ufeff",
    ],
    "parser-differential": [
        "http://evil.example\\@good.example/",
        "http://a@b@c/",
        "http://exa\tmple.com/",
        "http://example.com/pa\nth",
        "http://example.com\r\n/",
        " http://example.com/",
        "http://example.com/ ",
        "\x00http://example.com/",
        "http://example.com\\foo",
        "https:evil.example",
        "http:/evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "http://[fe80::1%25eth0]/",
        "http://example.com:99999/",
    ],
}


@pytest.mark.parametrize(
    ("code", "text"), [(code, text) for code, texts in ATTACKS.items() for text in texts]
)
def test_attack_uris_give_their_code(code: str, text: str, whatwg: str) -> None:
    assert code in codes(text)


@pytest.mark.parametrize("text", [t for texts in ATTACKS.values() for t in texts])
def test_findings_are_well_formed(text: str) -> None:
    findings = audit(text)
    assert findings == sorted(findings, key=lambda f: (f.span, f.code))
    for f in findings:
        assert isinstance(f, Finding)
        assert isinstance(f.severity, Severity)
        assert f.message and f.code
        start, end = f.span
        assert 0 <= start <= end <= len(text)


def test_spans_point_at_the_component() -> None:
    text = "http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm"
    found = {f.code: f for f in audit(text)}
    start, end = found["misleading-userinfo"].span
    assert text[start:end] == "www.example.com&story=breaking_news"
    assert found["misleading-userinfo"].component == "userinfo"
    start, end = found["internal-address"].span
    assert text[start:end] == "10.0.0.1"


def test_password_span_and_message_do_not_leak_the_password() -> None:
    text = "http://user:hunter2@example.com/"
    (finding,) = audit(text)
    assert finding.code == "password"
    assert text[slice(*finding.span)] == "hunter2"
    assert "hunter2" not in finding.message


def test_rare_format_message_names_the_dotted_decimal_address() -> None:
    (finding,) = [f for f in audit("http://0x7f.1/") if f.code == "ipv4-rare-format"]
    assert "127.0.0.1" in finding.message
    assert finding.span == (7, 13)


def test_encoded_control_span_is_the_triplets() -> None:
    text = "http://example.com/a%0d%0ab"
    (finding,) = audit(text)
    assert text[slice(*finding.span)] == "%0d%0a"
    assert finding.severity == Severity.HIGH


def test_mixed_script_span_is_the_label() -> None:
    text = "http://www.xn--pypal-4ve.com/"
    (finding,) = audit(text)
    assert text[slice(*finding.span)] == "xn--pypal-4ve"
    assert "paypal" in finding.message


def test_strict_dotted_decimal_is_not_a_rare_format() -> None:
    assert codes("http://127.0.0.1/") == {"internal-address"}


def test_file_uris_are_not_internal_addresses() -> None:
    assert audit("file://localhost/etc/hosts") == []
    assert audit("file://127.0.0.1/etc/hosts") == []


# --- invalid input --------------------------------------------------------------------------


def test_invalid_input_is_reported_with_the_error_position() -> None:
    text = "http://exa mple.com/"
    findings = audit(text)
    invalid = [f for f in findings if f.code == "invalid"]
    assert len(invalid) == 1
    with pytest.raises(ValueError) as error:
        URI(text)
    assert invalid[0].span[0] == error.value.position  # type: ignore[attr-defined]
    assert {"whitespace", "parser-differential"} <= {f.code for f in findings}


@pytest.mark.parametrize(
    ("text", "code", "char"),
    [
        ("http://example.com/a\\b", "backslash", "\\"),
        ("http://example.com/a b", "whitespace", " "),
        ("http://example.com/a\x01b", "control", "\x01"),
        ("http://example.com/a<b", "forbidden-character", "<"),
        ("http://example.com/100%", "bare-percent", "%"),
        ("http://example.com/#a#b", "extra-hash", "#"),
    ],
)
def test_lenient_repairs_are_findings_at_their_character(text: str, code: str, char: str) -> None:
    found = {f.code: f for f in audit(text)}
    assert "invalid" in found
    assert text[slice(*found[code].span)] == char


def test_lenient_findings_after_a_repair_keep_input_positions() -> None:
    text = "http://exa\tmple.com:25/x y"
    ports = [f for f in audit(text) if f.code == "unusual-port"]
    assert [text[slice(*f.span)] for f in ports] == ["25"]


def test_surrounding_whitespace_span() -> None:
    text = "  http://example.com/"
    found = {f.code: f for f in audit(text)}
    assert found["surrounding-whitespace"].span == (0, 2)


def test_audit_refuses_other_types() -> None:
    with pytest.raises(TypeError):
        audit(b"http://example.com/")  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("htp:/@\\.%0a7fx[]1 \t#?e-"), max_size=30))
def test_audit_accepts_any_text(text: str) -> None:
    for f in audit(text):
        assert 0 <= f.span[0] <= f.span[1] <= len(text)


# --- severities -------------------------------------------------------------------------------


def test_severity_is_ordered_and_compares_with_names() -> None:
    assert Severity.INFO < Severity.LOW < Severity.MEDIUM < Severity.HIGH
    assert Severity.HIGH >= "medium"
    assert Severity.LOW < "medium"
    assert Severity.MEDIUM == "medium"
    assert sorted([Severity.HIGH, Severity.INFO, Severity.MEDIUM]) == [
        Severity.INFO,
        Severity.MEDIUM,
        Severity.HIGH,
    ]
    assert str(Severity.HIGH) == "high"


def test_finding_to_dict() -> None:
    (finding,) = audit("http://example.com:25/")
    assert finding.to_dict() == {
        "code": "unusual-port",
        "severity": "medium",
        "component": "port",
        "span": [19, 21],
        "message": finding.message,
    }


# --- RFC 3986 §7.4: lenient_ipv4 ------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("0x7f.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.0.1", "10.0.0.1"),
        ("127.0.0.1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"),
        ("0X7F.0x0.0.01", "127.0.0.1"),
        ("0", "0.0.0.0"),
        ("0x", "0.0.0.0"),
        ("192.168.0x101", "192.168.1.1"),  # 16-bit last part
        ("10.0xffffff", "10.255.255.255"),  # 24-bit last part
        ("4294967295", "255.255.255.255"),
        ("0377.0377.0377.0377", "255.255.255.255"),
        ("000000000000000000000000000000000000000177.1", "127.0.0.1"),
    ],
)
def test_lenient_ipv4_reads_inet_aton_forms(host: str, address: str) -> None:
    assert lenient_ipv4(host) == ipaddress.IPv4Address(address)


@pytest.mark.parametrize(
    "host",
    [
        "",
        ".",
        "example.com",
        "1.2.3.4.5",
        "256.1.1.1",
        "1.256.1.1",
        "1.2.65536",
        "1.16777216",
        "4294967296",
        "08",
        "0x1g",
        "1..2",
        ".1.2",
        "127.0.0.1..",
        "-1",
        "+1",
        " 1",
        "１２７.0.0.1",
        "1" * 5000,
    ],
)
def test_lenient_ipv4_refuses(host: str) -> None:
    assert lenient_ipv4(host) is None


# --- internal addresses ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "address", ["8.8.8.8", "192.0.2.1", "2001:db8::7", "2606:4700::1111", "2002:0808:0808::1"]
)
def test_public_and_documentation_addresses_are_not_internal(address: str) -> None:
    assert internal_reason(ipaddress.ip_address(address)) is None


def test_embedded_ipv4_reasons_name_the_form() -> None:
    reason = internal_reason(ipaddress.IPv6Address("::ffff:127.0.0.1"))
    assert reason is not None and "IPv4-mapped" in reason and "loopback" in reason


# --- scripts and homographs -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ch", "script"),
    [
        ("a", "Latin"),
        ("é", "Latin"),
        ("а", "Cyrillic"),
        ("α", "Greek"),
        ("ա", "Armenian"),
        ("א", "Hebrew"),
        ("ب", "Arabic"),
        ("中", "Han"),
        ("あ", "Hiragana"),
        ("ア", "Katakana"),
        ("한", "Hangul"),
        ("ก", "Thai"),
        ("क", "Devanagari"),
        ("ა", "Georgian"),
        ("Ꭰ", "Cherokee"),
        ("1", None),
        ("-", None),
    ],
)
def test_script_of(ch: str, script: str | None) -> None:
    assert script_of(ch) == script


def test_ascii_skeleton() -> None:
    assert ascii_skeleton("аррӏе") == "apple"
    assert ascii_skeleton("apple") is None
    assert ascii_skeleton("яблоко") is None


def test_suspicious_labels_allow_one_writing_system() -> None:
    assert suspicious_labels("xn--r8jz45g.jp") == []  # Japanese: Han + Hiragana
    assert suspicious_labels("xn--bcher-kva.example") == []
    assert suspicious_labels("xn--e1afmkfd.xn--p1ai") == []  # пример.рф
    (label,) = suspicious_labels("xn--pple-43d.com")
    assert label.text == "аpple" and label.mixed and label.looks_like == "apple"


# --- parser differentials -------------------------------------------------------------------


def test_differential_names_both_readings(whatwg: str) -> None:
    findings = [f for f in audit("http://evil.example\\@good.example/") if f.component == "host"]
    assert any("evil.example" in f.message and "good.example" in f.message for f in findings)


def test_differential_messages_mask_passwords() -> None:
    for f in audit("http://u:hunter2\\@good.example/"):
        assert "hunter2" not in f.message


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("http://evil.example\\@good.example/", "evil.example"),
        ("https:evil.example", "evil.example"),
        ("/\\evil.example", "evil.example"),
        ("http://a@b@c/", "c"),
        (" http://example.com/", "example.com"),
    ],
)
def test_builtin_whatwg_rules(text: str, host: str) -> None:
    reading = differential.whatwg_authority(text)
    assert reading is not None and reading.host == host


def test_printable_shows_invisible_characters() -> None:
    assert printable("a\u202eb\x1b[2Jc\u200b") == "a<U+202E>b<U+001B>[2Jc<U+200B>"
    assert printable("https://例え.jp/") == "https://例え.jp/"


# --- IRIs and unreadable text -------------------------------------------------------------


def test_iris_are_audited_as_iris() -> None:
    iri = pytest.importorskip("urikit.iri")
    assert audit("https://例え.jp/パス?q=値#frag") == []
    assert audit(iri.IRI("http://пример.рф/")) == []
    (finding,) = audit(iri.IRI("http://аpple.com/"))
    assert finding.code == "mixed-script-host"
    assert finding.span == (7, 12)


def test_full_width_digits_are_read_as_resolvers_read_them() -> None:
    assert {"ipv4-rare-format", "internal-address"} <= codes(
        "http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/"
    )


def test_unreadable_text_is_read_as_other_parsers_read_it() -> None:
    text = "http://a@b@127.1:25/"
    found = {f.code: f for f in audit(text)}
    assert {"invalid", "parser-differential", "ipv4-rare-format", "internal-address"} <= set(found)
    assert text[slice(*found["internal-address"].span)] == "127.1"
    assert text[slice(*found["unusual-port"].span)] == "25"
