"""RFC 3986 §7, Security Considerations: ``urikit.security.audit`` and its helpers."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urikit import IRI, URI
from urikit.report import Report, Severity, printable
from urikit.security import audit, differential, lenient_ipv4
from urikit.security.findings import merge_runs
from urikit.security.hosts import internal_reason, suspicious_labels, uts46_changes
from urikit.security.scripts import ascii_skeleton, script_of


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
# HTTP's port, and ldap://[2001:db8::7]/..., whose documentation address is not
# globally reachable: see the tests of these two below).
RFC3986_1_1_2 = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
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
    "http://[2606:4700::1111]:8080/",
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
    "http://8.8.8.8/",
    "http://example.com/?redirect=https%3A%2F%2Fexample.org%2F",
    "HTTP://EXAMPLE.COM/",  # case only: RFC 3986 §3.2.2, hosts are case-insensitive
    "http://Example.Com:8080/Path",
    "http://xn--e1afmkfd.xn--p1ai/",  # пример.рф as A-labels
    "http://%C3%89T%C3%89.fr/",  # ÉTÉ: percent-encoded UTF-8 that only lower-cases
    "http+unix://%2Fvar%2Frun%2Fdocker.sock/info",  # a socket path, not a name
    "tcp://93.184.215.14:2375",  # a transport scheme: any service's port
    "data:,A%20brief%20note",  # RFC 2397 §4
    "data:text/plain;charset=iso-8859-7,%be%e3%be",  # RFC 2397 §4, but valid triplets
    "data:application/octet-stream;base64,AAEC",
    "data:application/octet-stream,%00%01%FF",
    "data:text/plain,..%2F..%2Fetc",
    "data:image/png;base64,iVBORw0KGgo=",
    "data:application/json,%7B%7D",
    "http://example.com/?next=javascript",
    "javascripts:x",
    "urn:javascript:alert",
]


@pytest.mark.parametrize("text", CLEAN)
def test_clean_uris_give_no_findings(text: str, whatwg: str) -> None:
    assert audit(text) == []
    assert audit(URI(text)) == []


def test_rfc3986_1_1_2_telnet_example_is_an_unusual_port() -> None:
    findings = {f.code: f for f in audit("telnet://192.0.2.16:80/")}
    assert set(findings) == {"unusual-port", "internal-address"}
    assert "http" in findings["unusual-port"].message


@pytest.mark.parametrize(
    ("text", "block"),
    [
        ("ldap://[2001:db8::7]/c=GB?objectClass?one", "2001:db8::/32, Documentation (RFC 3849)"),
        ("telnet://192.0.2.16:80/", "192.0.2.0/24, Documentation (TEST-NET-1) (RFC 5737)"),
    ],
)
def test_rfc3986_1_1_2_documentation_addresses_are_not_globally_reachable(
    text: str, block: str
) -> None:
    # IANA's special-purpose registries mark the documentation blocks not globally
    # reachable: a server asked to connect there connects to no public host
    (finding,) = [f for f in audit(text) if f.code == "internal-address"]
    assert block in finding.message


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
    "active-content-scheme": [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "javascript:alert(document.cookie)//",
        "vbscript:x",
        "VBScript:MsgBox(1)",
        "livescript:x",
        " javascript:alert(1)",
        "\x01javascript:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "data:TEXT/HTML;charset=utf-8,%3Cscript%3Ealert(1)%3C/script%3E",
        "data:application/xhtml+xml,%3Chtml/%3E",
        "data:image/svg+xml,%3Csvg%20onload=alert(1)%3E",
        "data:image/svg+xml;base64,PHN2Zz4=",
        "data:text/javascript,alert(1)",
        "data:application/javascript;base64,YWxlcnQoMSk=",
        "data:text/xml,%3Cx/%3E",
        "blob:https://example.com/550e8400-e29b-41d4-a716-446655440000",
        "filesystem:https://example.com/temporary/x.html",
    ],
    "obfuscated-host": [
        "https://%65vil.com/",
        "http://ex%41mple.com/",
        "http://example%2Ecom/",
        "http://127.0.0.%31/",
        "http://example\u3002com/",
        "http://example\uff0ecom/",
        "http://example\uff61com/",
        "http://\uff45\uff56\uff49\uff4c.com/",
        "http://\uff25\uff36\uff29\uff2c.com/",
        "http://%EF%BD%85vil.com/",  # a full-width "e", percent-encoded
        "http://\ufb00oo.example/",  # the ligature "ff"
        "http://a\u00adb.example/",  # a soft hyphen, which UTS #46 deletes
        "http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/",
        "http://evil.com\u3002 x/",  # read only after a repair
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
        assert isinstance(f, Report)
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
        "repaired": False,
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
    "address", ["8.8.8.8", "2606:4700::1111", "2002:0808:0808::1", "::ffff:8.8.8.8"]
)
def test_public_addresses_are_not_internal(address: str) -> None:
    assert internal_reason(ipaddress.ip_address(address)) is None


def test_embedded_ipv4_reasons_name_the_form() -> None:
    reason = internal_reason(ipaddress.IPv6Address("::ffff:127.0.0.1"))
    assert reason is not None and "IPv4-mapped" in reason and "Loopback" in reason


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
    assert audit("https://例え.jp/パス?q=値#frag") == []
    assert audit(IRI("http://пример.рф/")) == []
    (finding,) = audit(IRI("http://аpple.com/"))
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


# --- active content ----------------------------------------------------------------------------


def test_active_content_scheme_span_is_the_scheme_and_severity_is_high() -> None:
    text = "JaVaScRiPt:alert(1)"
    (finding,) = audit(text)
    assert finding.code == "active-content-scheme"
    assert finding.severity == Severity.HIGH
    assert finding.component == "scheme"
    assert text[slice(*finding.span)] == "JaVaScRiPt"


def test_active_content_data_span_covers_the_media_type() -> None:
    text = "data:text/html;base64,PHNjcmlwdD4="
    (finding,) = audit(text)
    assert text[slice(*finding.span)] == "data:text/html;base64"
    assert "'text/html'" in finding.message


def test_scheme_is_read_as_browsers_read_it() -> None:
    text = "\x01 java\tscript:alert(1)"
    (finding,) = [f for f in audit(text) if f.code == "active-content-scheme"]
    assert text[slice(*finding.span)] == "java\tscript"


def test_blob_and_filesystem_are_medium() -> None:
    for text in ("blob:https://example.com/1", "filesystem:https://example.com/t/x"):
        (finding,) = audit(text)
        assert (finding.code, finding.severity) == ("active-content-scheme", Severity.MEDIUM)


def test_active_content_is_found_in_uri_objects() -> None:
    assert codes(URI("javascript:alert(1)")) == {"active-content-scheme"}


@pytest.mark.parametrize(
    "text",
    [
        "data:,hello",
        "data:text/plain,<script>",
        "data:image/png;base64,AAAA",
        "data:text/css,body{}",
        "data:;base64,PHNjcmlwdD4=",  # no media type: text/plain (RFC 2397 §2)
    ],
)
def test_data_urls_of_passive_types_are_not_active(text: str) -> None:
    assert "active-content-scheme" not in codes(text)


# --- obfuscated hosts --------------------------------------------------------------------------


def test_obfuscated_host_message_names_what_it_maps_to() -> None:
    text = "https://%65vil.com/"
    (finding,) = audit(text)
    assert finding.code == "obfuscated-host"
    assert finding.severity == Severity.MEDIUM
    assert text[slice(*finding.span)] == "%65vil.com"
    assert "'evil.com'" in finding.message and "%65" in finding.message


def test_ideographic_full_stop_is_named() -> None:
    (finding,) = audit("http://example\u3002com/")
    assert "U+3002 IDEOGRAPHIC FULL STOP" in finding.message
    assert "'example.com'" in finding.message
    assert finding.span == (7, 18)


def test_full_width_host_maps_to_ascii() -> None:
    (finding,) = audit("http://\uff45\uff56\uff49\uff4c.com/")
    assert finding.code == "obfuscated-host"
    assert "'evil.com'" in finding.message


def test_obfuscated_host_after_a_repair_keeps_input_positions() -> None:
    text = "http://ex%41mple.com/a b"
    (finding,) = [f for f in audit(text) if f.code == "obfuscated-host"]
    assert text[slice(*finding.span)] == "ex%41mple.com"


def test_repairs_do_not_count_as_percent_encoded_hosts() -> None:
    # the lenient parser encodes the space as %20; the input holds no triplet
    assert "obfuscated-host" not in codes("http://exa mple.com/")


@pytest.mark.parametrize(
    "text",
    [
        "http://b\u00fccher.example/",
        "http://B\u00dcCHER.example/",  # U-labels that only lower-case
        "http://\u03a0\u0391\u03a1\u0391\u0394\u0395\u0399\u0393\u039c\u0391.gr/",  # ΠΑΡΑΔΕΙΓΜΑ
        "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/",
        "https://\u4f8b\u3048.jp/",
        "http://stra\u00dfe.example/",  # ß stays ß in non-transitional UTS #46
    ],
)
def test_unicode_hosts_that_only_lower_case_are_not_obfuscated(text: str) -> None:
    assert "obfuscated-host" not in codes(text)


def test_uts46_changes() -> None:
    assert uts46_changes("\uff45\uff56\uff49\uff4c.com") == (
        "evil.com",
        [("\uff45", "e"), ("\uff56", "v"), ("\uff49", "i"), ("\uff4c", "l")],
    )
    assert uts46_changes("example\u3002com") == ("example.com", [("\u3002", ".")])
    assert uts46_changes("a\u00adb") == ("ab", [("\u00ad", "")])
    assert uts46_changes("EXAMPLE.com") == ("example.com", [])
    assert uts46_changes("B\u00dcCHER") == ("b\u00fccher", [])
    assert uts46_changes("\u03a3") == ("\u03c3", [])


# --- runs --------------------------------------------------------------------------------------


def test_a_run_of_one_character_is_one_finding() -> None:
    text = "\u202e" * 5000
    findings = audit(text)
    assert len(findings) <= 4
    (invisible,) = [f for f in findings if f.code == "invisible-character"]
    assert invisible.span == (0, 5000)
    assert "5000 characters" in invisible.message
    (repair,) = [f for f in findings if f.code == "bidi-formatting"]
    assert repair.span == (0, 5000)
    assert "5000 characters" in repair.message


def test_runs_of_repairs_and_differentials_merge() -> None:
    text = "http://example.com/" + "<" * 300 + "\t" * 300
    found = [(f.code, f.span) for f in audit(text)]
    assert ("forbidden-character", (19, 319)) in found
    assert ("parser-differential", (319, 619)) in found
    assert len(found) < 10


def test_merge_runs() -> None:
    def finding(code: str, span: tuple[int, int], severity: Severity = Severity.LOW) -> Report:
        return Report(code, f"{code} at {span[0]}", severity, span)

    merged = merge_runs(
        [
            finding("a", (0, 1)),
            finding("b", (0, 3)),
            finding("a", (1, 2), Severity.HIGH),
            finding("a", (2, 3)),
            finding("a", (4, 5)),  # not adjacent: a finding of its own
        ]
    )
    by_span = {(f.code, f.span): f for f in merged}
    assert set(by_span) == {("a", (0, 3)), ("b", (0, 3)), ("a", (4, 5))}
    run = by_span[("a", (0, 3))]
    assert run.severity == Severity.HIGH
    assert run.message.startswith("a at 0") and "3 characters" in run.message
    assert by_span[("a", (4, 5))].message == "a at 4"


# --- a corpus of real URLs -----------------------------------------------------------------------

BENCH_URLS = Path(__file__).parent.parent / "bench" / "urls.txt"


def test_real_urls_raise_no_new_alarms() -> None:
    if not BENCH_URLS.exists():
        pytest.skip("bench/urls.txt is not there")
    lines = BENCH_URLS.read_text(encoding="utf-8").splitlines()
    for line in lines:
        found = audit(line)
        assert not {"active-content-scheme", "obfuscated-host"} & {f.code for f in found}, line


@pytest.mark.parametrize("text", ["http://u%@a/", "http://us%zzer@host/"])
def test_a_bare_percent_in_userinfo_is_audited_not_raised(text: str, whatwg: str) -> None:
    found = codes(text)
    assert {"invalid", "bare-percent"} <= found
