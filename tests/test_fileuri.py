"""file: URIs and local paths (RFC 8089), both ways, POSIX and Windows."""

from __future__ import annotations

import os
from pathlib import PurePath, PurePosixPath, PureWindowsPath

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from urikit import URI, URIError
from urikit.components import Parts
from urikit.fileuri import FLAVORS, path_to_uri_text
from urikit.fileuri import to_path as parts_to_path


def from_path(path: str | PurePath) -> URI:
    return URI(path_to_uri_text(path))


def to_path(uri: str | URI, flavor: str | None = None) -> PurePath:
    """``urikit.fileuri.to_path`` on a reference, given as text or a URI."""
    ref = URI(uri)
    parts = Parts(*(getattr(ref, name) for name in Parts._fields))
    return parts_to_path(parts, str(ref), flavor)  # type: ignore[arg-type]


def test_the_functions_take_text_and_give_text() -> None:
    assert path_to_uri_text(PurePosixPath("/a b")) == "file:///a%20b"
    assert URI.from_path(PurePosixPath("/a b")) == URI("file:///a%20b")
    assert FLAVORS == ("posix", "windows")
    with pytest.raises(TypeError):
        parts_to_path("file:///x", "file:///x")  # type: ignore[arg-type]


# -- URI -> path: RFC 8089 Appendix B and E, verbatim ---------------------------------


@pytest.mark.parametrize(
    ("uri", "posix", "windows"),
    [
        # Appendix B: a local file, with and without an empty authority
        ("file:///path/to/file", "/path/to/file", "\\path\\to\\file"),
        ("file:/path/to/file", "/path/to/file", "\\path\\to\\file"),
        # §2: "localhost" is the local machine
        ("file://localhost/path/to/file", "/path/to/file", "\\path\\to\\file"),
        ("file://LOCALHOST/etc", "/etc", "\\etc"),
        # Appendix E.2: DOS and Windows drive letters
        ("file:c:/path/to/file", None, "c:\\path\\to\\file"),
        ("file:///c:/path/to/file", "/c:/path/to/file", "c:\\path\\to\\file"),
        ("file:///c%7C/path/to/file", "/c|/path/to/file", "c:\\path\\to\\file"),
        ("file:///C:", "/C:", "C:\\"),
        ("file:///C:/", "/C:", "C:\\"),
        # Appendix E.3.1 and E.3.2: UNC strings
        (
            "file://host.example.com/Share/path/to/file.txt",
            None,
            "\\\\host.example.com\\Share\\path\\to\\file.txt",
        ),
        (
            "file:////host.example.com/path/to/file",
            "//host.example.com/path/to/file",
            "\\\\host.example.com\\path\\to\\file",
        ),
        (
            "file://///host.example.com/path/to/file",
            "/host.example.com/path/to/file",
            "\\\\host.example.com\\path\\to\\file",
        ),
        # percent-encoded data
        ("file:///tmp/a%20b%23c%3Fd%25e", "/tmp/a b#c?d%e", "\\tmp\\a b#c?d%e"),
        ("file:///Users/Zo%C3%AB", "/Users/Zoë", "\\Users\\Zoë"),
    ],
)
def test_to_path(uri: str, posix: str | None, windows: str) -> None:
    if posix is None:
        with pytest.raises(URIError):
            to_path(uri, "posix")
    else:
        assert to_path(uri, "posix") == PurePosixPath(posix)
        assert str(to_path(uri, "posix")) == posix
    assert str(to_path(URI(uri), "windows")) == windows
    assert isinstance(to_path(uri, "windows"), PureWindowsPath)


def test_to_path_flavor_default_is_the_current_os() -> None:
    expected = PureWindowsPath if os.name == "nt" else PurePosixPath
    assert type(URI("file:///C:/x").to_path()) is expected
    assert URI("file:///C:/x").to_path("windows") == PureWindowsPath("C:/x")


def test_to_path_unknown_flavor() -> None:
    with pytest.raises(ValueError, match="flavor"):
        to_path("file:///x", "dos")


@pytest.mark.parametrize(
    ("uri", "flavor", "message"),
    [
        ("http://h/x", "posix", "only a file: URI"),
        ("file://host/x", "posix", "another host"),
        ("file:///x?y", "posix", "query"),
        ("file:///x#y", "windows", "fragment"),
        ("file://u@localhost/x", "posix", "userinfo"),
        ("file://localhost:22/x", "posix", "port"),
        ("file:x/y", "posix", "absolute"),
        ("file:x/y", "windows", "absolute"),
        ("file://localhost", "posix", "no path"),
        ("file:///a%2Fb", "posix", "'/'"),
        ("file:///a%5Cb", "windows", "'\\\\\\\\'"),
        ("file:///a%00b", "posix", "NUL|'\\\\x00'"),
        ("file:///caf%E9", "windows", "UTF-8"),
        ("file://server/", "windows", "share"),
        ("file://[::1]/share", "windows", "IP literal"),
    ],
)
def test_to_path_refuses(uri: str, flavor: str, message: str) -> None:
    with pytest.raises(URIError, match=message):
        to_path(uri, flavor)


def test_posix_names_are_octets() -> None:
    # A name that is not UTF-8 comes back as os.fsdecode gives it (surrogateescape).
    assert str(to_path("file:///caf%E9", "posix")) == "/caf\udce9"
    assert str(from_path(PurePosixPath("/caf\udce9"))) == "file:///caf%E9"


# -- path -> URI ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        (PurePosixPath("/"), "file:///"),
        (PurePosixPath("/etc/hosts"), "file:///etc/hosts"),
        (PurePosixPath("/tmp/a b#1?.txt"), "file:///tmp/a%20b%231%3F.txt"),
        (PurePosixPath("/100%/x;y/z:w"), "file:///100%25/x%3By/z%3Aw"),
        (PurePosixPath("/C:/x"), "file:///C%3A/x"),
        (PurePosixPath("/Zoë/日本"), "file:///Zo%C3%AB/%E6%97%A5%E6%9C%AC"),
        (PurePosixPath("//net/x"), "file:////net/x"),
        (PureWindowsPath("C:\\"), "file:///C:/"),
        (PureWindowsPath("C:\\Program Files\\x.txt"), "file:///C:/Program%20Files/x.txt"),
        (PureWindowsPath("d:/a/b"), "file:///d:/a/b"),
        (PureWindowsPath("\\\\server\\share\\x y"), "file://server/share/x%20y"),
        (PureWindowsPath("\\\\server\\share"), "file://server/share"),
        (PureWindowsPath("\\\\localhost\\c$\\x"), "file:////localhost/c$/x"),
        (PureWindowsPath("\\\\sérvèr\\s\\x"), "file://s%C3%A9rv%C3%A8r/s/x"),
        (PureWindowsPath("C:\\f.txt:stream"), "file:///C:/f.txt%3Astream"),
    ],
)
def test_from_path(path: PurePath, uri: str) -> None:
    result = from_path(path)
    assert isinstance(result, URI)
    assert str(result) == uri
    flavor = "windows" if isinstance(path, PureWindowsPath) else "posix"
    assert str(to_path(result, flavor)) == str(path)


def test_from_path_str_is_the_current_os() -> None:
    if os.name == "nt":
        assert str(from_path("C:\\x")) == "file:///C:/x"
    else:
        assert str(from_path("/x y")) == "file:///x%20y"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (PurePosixPath("relative/x"), "absolute"),
        (PurePosixPath("/a\x00b"), "NUL"),
        (PureWindowsPath("x\\y"), "absolute"),
        (PureWindowsPath("C:x"), "absolute"),
        (PureWindowsPath("\\x"), "absolute"),
        (PureWindowsPath("C:\\a\x00"), "NUL"),
        (PureWindowsPath("\\\\?\\C:\\x"), "drive"),
        (PureWindowsPath("\\\\.\\COM1"), "drive"),
        (PureWindowsPath("C:\\\ud800"), "surrogate"),
        (PureWindowsPath("\\\\srv\udcff\\share\\x"), "surrogate"),  # in the UNC server
    ],
)
def test_from_path_refuses(path: PurePath, message: str) -> None:
    with pytest.raises(URIError, match=message):
        from_path(path)


def test_from_path_refuses_other_types() -> None:
    with pytest.raises(TypeError):
        from_path(b"/x")  # type: ignore[arg-type]


# -- round trips ------------------------------------------------------------------------

POSIX_NAMES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00")
    | st.sampled_from(["\udcff", "\udc80", "%", "#", "?", ";", ":", "\\"]),
    min_size=1,
    max_size=8,
)
# Windows file names: no NUL, no separators, none of the reserved <>:"|?*.
WINDOWS_NAMES = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters='\x00/\\<>:"|?*')
    | st.sampled_from(["%", "#", ";", " ", "é"]),
    min_size=1,
    max_size=8,
)


@given(root=st.sampled_from(["/", "//"]), names=st.lists(POSIX_NAMES, max_size=5))
def test_posix_round_trip(root: str, names: list[str]) -> None:
    path = PurePosixPath(root, *names)
    uri = from_path(path)
    assert uri.scheme == "file"
    assert uri.query is None and uri.fragment is None
    assert to_path(uri, "posix") == path
    assert str(to_path(str(uri), "posix")) == str(path)


@given(
    drive=st.sampled_from("ACcdZz"),
    names=st.lists(WINDOWS_NAMES, max_size=5),
)
def test_windows_drive_round_trip(drive: str, names: list[str]) -> None:
    path = PureWindowsPath(drive + ":\\", *names)
    uri = from_path(path)
    back = to_path(uri, "windows")
    assert back == path
    assert str(back) == str(path)


@given(
    server=WINDOWS_NAMES,
    share=WINDOWS_NAMES,
    names=st.lists(WINDOWS_NAMES, max_size=4),
)
def test_windows_unc_round_trip(server: str, share: str, names: list[str]) -> None:
    assume(server not in (".", "?") and share not in (".", ".."))
    path = PureWindowsPath("\\\\" + server + "\\" + share + "\\", *names)
    assume(path.drive == "\\\\" + server + "\\" + share)
    uri = from_path(path)
    back = to_path(uri, "windows")
    assert str(back) == str(path)


# -- the command ---------------------------------------------------------------------------


def test_cli_from_path_and_to_path(capsys: pytest.CaptureFixture[str]) -> None:
    from urikit.cli import main

    status = main(["from-path", "--flavor", "windows", "C:\\Program Files\\x", "\\\\srv\\sh\\y"])
    assert status == 0
    assert capsys.readouterr().out == "file:///C:/Program%20Files/x\nfile://srv/sh/y\n"
    status = main(["to-path", "--flavor", "posix", "file:///tmp/a%20b", "file://localhost/x"])
    assert status == 0
    assert capsys.readouterr().out == "/tmp/a b\n/x\n"


def test_cli_one_record_per_input_and_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from urikit.cli import main

    status = main(["to-path", "--json", "--flavor", "windows", "file://srv/s/x", "http://h/"])
    assert status == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0] == {
        "input": "file://srv/s/x", "ok": True, "path": "\\\\srv\\s\\x", "quoted": "\\\\srv\\s\\x"
    }  # fmt: skip
    assert records[1]["ok"] is False
    assert records[1]["error"]["rule"] == "file-URI"
    # A relative path of the other system's flavor has no working directory to be
    # resolved against (one of this system's is resolved: tests/test_cli_edges.py).
    other = "windows" if os.name != "nt" else "posix"
    absolute = "C:\\ok" if other == "windows" else "/ok"
    status = main(["from-path", "--flavor", other, "relative", absolute])
    assert status == 1
    out = capsys.readouterr().out
    assert out.startswith("error: relative\t0\tfile-URI\t")
    assert out.endswith("/ok\n")
