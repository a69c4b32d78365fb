"""Reference resolution (RFC 3986 §5.2) and its inverse, relativization.

One implementation serves URIs and IRIs (RFC 3987 §6.5): the result is built
as a string from the components of the base and the reference, and parsed once
by the class of the base.

The two cases the RFC leaves open are answered as
``docs/deviations.md`` records:

* a target with no authority whose path begins with "//" (base ``foo:/a``,
  reference ``..//b``) would recompose (§5.3) to text that reads back with an
  authority.  The path is written with a "/." prefix instead (``foo:/.//b``):
  that names the same path, since remove_dot_segments maps it back.
* ".." above the first segment of a rootless path follows §5.2.4 as written
  (base ``foo:a/b``, reference ``../../c`` gives ``foo:/c``): that is a URI.
"""

from __future__ import annotations

import re
from typing import Final, TypeVar, overload

from .errors import URIError
from .uri import URI, _Reference

__all__ = ["SPECS", "merge", "relativize", "remove_dot_segments", "resolve"]

#: The resolution profiles: RFC 3986 (the default) and two legacy ones.
SPECS = ("rfc3986", "rfc2396", "rfc1630")

Ref = TypeVar("Ref", bound=_Reference)

_match_uri: Final = URI._grammar.reference.fullmatch


def _parse(cls: type[Ref], text: str) -> Ref:
    """``cls(text)``; a :class:`URI` is built straight from its one grammar match."""
    if cls is URI:
        m = _match_uri(text)
        if m is not None:
            return cls._from_match(m)
    return cls(text)


def base_uri(base: _Reference | str) -> _Reference:
    """``base`` as a base URI (RFC 3986 §5.1): a ``str`` is parsed as a URI.

    A base must be an absolute URI.  Its fragment, if any, is ignored by
    resolution (§5.1: it is stripped before use), so it is accepted here.
    """
    base = URI._coerce(base)
    if base._m.start(1) < 0:
        raise URIError(
            "a base URI must be absolute (RFC 3986 §5.1): it needs a scheme, and this "
            f"{base.kind} reference has none; resolve it against an absolute base first",
            text=str(base),
            position=0,
            rule="absolute-URI",
        )
    return base


def as_reference(cls: type[Ref], ref: _Reference | str) -> Ref:
    """``ref`` parsed by the grammar of ``cls`` (a ``str`` or a URI/IRI of another class)."""
    if type(ref) is cls:
        return ref
    if type(ref) is str:
        return _parse(cls, ref)
    return cls(ref)  # a str subclass, or a reference of the other class; else TypeError


# RFC 3986 5.2.3. Merge Paths
def merge(base_authority: str | None, base_path: str, ref_path: str) -> str:
    """Merge a relative-path reference with the path of the base (RFC 3986 §5.2.3)."""
    if base_authority is not None and base_path == "":
        return "/" + ref_path
    return base_path[: base_path.rfind("/") + 1] + ref_path


# RFC 3986 5.2.4. Remove Dot Segments
def remove_dot_segments(path: str) -> str:
    """Remove the "." and ".." segments of ``path`` (RFC 3986 §5.2.4).

    The output buffer is a stack of segments, each held with its leading "/",
    so the work is linear in the length of the path.

    >>> remove_dot_segments("/a/b/c/./../../g")
    '/a/g'
    >>> remove_dot_segments("mid/content=5/../6")
    'mid/6'
    """
    if "/." not in path and path[:1] != ".":
        return path  # no segment begins with ".", so none is a dot-segment
    # 2A and 2D can only apply while the output buffer is still empty: every
    # other rule leaves an input buffer that is empty or begins with "/".
    start = 0
    while True:
        if path.startswith("../", start):  # 2A
            start += 3
        elif path.startswith("./", start):  # 2A
            start += 2
        else:
            break
    rest = path[start:]
    if rest == "." or rest == "..":  # 2D
        return ""
    parts = rest.split("/")
    last = len(parts) - 1
    output: list[str] = []
    if parts[0]:
        output.append(parts[0])  # 2E: a first segment without a "/"
    for index in range(1, len(parts)):
        segment = parts[index]
        if segment == ".":  # 2B
            if index == last:
                output.append("/")
        elif segment == "..":  # 2C
            if output:
                output.pop()
            if index == last:
                output.append("/")
        else:  # 2E
            output.append("/" + segment)
    return "".join(output)


def rooted_path(path: str) -> str:
    """A path for a reference without authority, written so that it reads back as itself.

    §5.3 would recompose a path "//x" after "scheme:" as an authority; "/.//x"
    is the same path after remove_dot_segments, and parses as a path.
    """
    return "/." + path if path[:2] == "//" else path


@overload
def resolve(base: str, ref: _Reference | str, *, strict: bool = ..., spec: str = ...) -> URI: ...
@overload
def resolve(base: Ref, ref: _Reference | str, *, strict: bool = ..., spec: str = ...) -> Ref: ...
def resolve(
    base: _Reference | str,
    ref: _Reference | str,
    *,
    strict: bool = True,
    spec: str = "rfc3986",
) -> _Reference:
    """The target of ``ref`` resolved against ``base`` (RFC 3986 §5.2).

    ``base`` must be an absolute URI (a fragment on it is ignored, §5.1); a
    ``str`` base is parsed as a :class:`URI`.  ``ref`` is parsed by the class of
    ``base`` (URI or IRI), and the result is of that class.  ``strict=False``
    ignores a scheme in ``ref`` equal to the scheme of ``base`` (the §5.2.2
    loophole: ``http:g`` gives ``http://a/b/c/g``).  ``spec`` selects the
    algorithm: ``"rfc3986"``, or the legacy ``"rfc2396"`` (RFC 2396 §5.2) or
    ``"rfc1630"`` (RFC 1630 partial forms), see ``urikit.legacy``.

    >>> str(resolve("http://a/b/c/d;p?q", "../g"))
    'http://a/b/g'
    """
    if spec != "rfc3986":
        from .legacy import resolve_legacy

        return resolve_legacy(base_uri(base), ref, strict=strict, spec=spec)
    # A str base or reference is matched once, and made an object only if returned.
    bm: re.Match[str] | None
    if type(base) is str and (bm := _match_uri(base)) is not None and bm.start(1) >= 0:
        cls: type[_Reference] = URI
    else:
        base = base_uri(base)
        bm = base._m
        cls = type(base)
    if cls is URI and type(ref) is str:
        fast = _target_text(bm, ref)
        if fast is not None and (m := _match_uri(fast)) is not None:
            return URI._from_match(m)
    rm: re.Match[str] | None
    if type(ref) is str and cls is URI and (rm := _match_uri(ref)) is not None:
        reference = None
    else:
        reference = as_reference(cls, ref)
        rm = reference._m
    b_scheme, b_authority, b_path, b_fragment = bm.group(1, 2, 6, 8)
    r_scheme, r_authority, r_path, r_query, r_fragment = rm.group(1, 2, 6, 7, 8)

    # 5.2.2: a non-strict parser ignores a scheme equal to the base's
    if r_scheme is not None and not strict and r_scheme.lower() == b_scheme.lower():
        r_scheme = None

    if r_scheme is not None:
        path = remove_dot_segments(r_path)
        if path is r_path:
            return URI._from_match(rm) if reference is None else reference  # T is R
        if r_authority is None:
            text = r_scheme + ":" + rooted_path(path)
        else:
            text = r_scheme + "://" + r_authority + path
        query = r_query
    elif r_authority is not None:
        text = b_scheme + "://" + r_authority + remove_dot_segments(r_path)
        query = r_query
    else:
        if r_path == "":
            if r_query is None:
                if b_fragment is None:
                    if r_fragment is None:  # the empty reference: T is the base
                        return base if isinstance(base, _Reference) else URI._from_match(bm)
                    return _parse(cls, bm.string + "#" + r_fragment)
                text = bm.string[: bm.start(8) - 1]
                return _parse(cls, text if r_fragment is None else text + "#" + r_fragment)
            path = b_path
        elif r_path[0] == "/":
            path = remove_dot_segments(r_path)
        else:
            merged = _merged_target_path(b_path, r_path)
            if merged is None:
                merged = remove_dot_segments(merge(b_authority, b_path, r_path))
            path = merged
        query = r_query
        if b_authority is None:
            text = b_scheme + ":" + rooted_path(path)
        else:
            text = b_scheme + "://" + b_authority + path
    if query is not None:
        text += "?" + query
    if r_fragment is not None:
        text += "#" + r_fragment
    if cls is URI and (m := _match_uri(text)) is not None:
        return URI._from_match(m)
    return cls(text)


def _target_text(bm: re.Match[str], ref: str) -> str | None:
    """The target of the common references, as text, without parsing them; else ``None``.

    Each case below is §5.2.2 for a reference without scheme, authority or
    dot-segments (or with only leading "../" and "./"): the target is a prefix
    of the base followed by the reference (or by what follows its leading
    "../" and "./").  There the grammar reads the reference by the rules it
    would be read by alone, so matching the target also validates it; the
    caller falls back to parsing the reference when the target does not match.
    """
    if ref == "":
        return None
    first = ref[0]
    base = bm.string
    if first == "#":  # the base document, with the fragment of R
        end = bm.start(8)
        return (base if end < 0 else base[: end - 1]) + ref
    if first == "?":  # T.path = Base.path; T.query = R.query
        return base[: bm.end(6)] + ref
    if "/." in ref:  # maybe a dot-segment (the query is not told apart here)
        return None
    start = bm.start(6)
    if first == "/":  # an absolute-path reference, not a network-path one
        return None if ref[1:2] == "/" else base[:start] + ref
    path = bm.group(6)
    if path[:1] == "/" and "/." not in path:
        directory = path[: path.rfind("/") + 1]  # 5.2.3
    elif path == "" and bm.start(2) >= 0:
        directory = "/"  # 5.2.3: an authority and an empty path
    else:
        return None
    if first != ".":
        colon = ref.find(":")
        if colon >= 0 and "/" not in (head := ref[:colon]) and "?" not in head and "#" not in head:
            return None  # a scheme, or a colon in the first segment (§4.2)
        return base[:start] + directory + ref
    skip = 0
    while ref.startswith("../", skip):  # 5.2.4 2A then 2C: up one segment, not above the root
        skip += 3
    if skip:
        directory = path.rsplit("/", skip // 3 + 1)[0] + "/"
    elif ref.startswith("./"):  # 5.2.4 2A then 2B
        skip = 2
    else:
        return None
    rest = ref[skip:]
    if rest[:1] == "." or rest[:1] == "/":
        return None
    return base[:start] + directory + rest


def _merged_target_path(base_path: str, ref_path: str) -> str | None:
    """``remove_dot_segments(merge(base_path, ref_path))`` in the common cases, else ``None``.

    For a rooted base path without dot-segments (§5.2.3, §5.2.4): a reference
    without dot-segments is appended to the directory as it is (only rule 2E
    applies), and each leading "../" of a reference drops one segment of the
    directory, never the root (rules 2A and 2C), as does a leading "./" none.
    """
    if base_path[:1] != "/" or "/." in base_path:
        return None
    if ref_path[0] != ".":
        if "/." in ref_path:
            return None
        return base_path[: base_path.rfind("/") + 1] + ref_path
    start = 0
    while ref_path.startswith("../", start):
        start += 3
    if start:
        rest = ref_path[start:]
        directory = base_path.rsplit("/", start // 3 + 1)[0] + "/"
    elif ref_path[1:2] == "/":
        rest = ref_path[2:]
        directory = base_path[: base_path.rfind("/") + 1]
    else:
        return None
    if rest[:1] == "." or "/." in rest:
        return None
    return directory + rest


@overload
def relativize(base: str, target: _Reference | str) -> URI: ...
@overload
def relativize(base: Ref, target: _Reference | str) -> Ref: ...
def relativize(base: _Reference | str, target: _Reference | str) -> _Reference:
    """The shortest reference that resolves against ``base`` to ``target`` (RFC 3986 §5.2, §4.2).

    For every absolute ``target`` whose path has no dot-segments,
    ``resolve(base, relativize(base, target)) == target`` exactly.  In general
    the answer is the shortest ``r`` with ``resolve(base, r) == resolve(base,
    target)``: a relative ``target`` is taken relative to ``base``, and a path
    with dot-segments (which no reference reaches, since resolution removes
    them) is answered for the path without them.  When nothing shorter works,
    the result is the resolved target itself (always so for another scheme).

    >>> str(relativize("http://a/b/c/d;p?q", "http://a/b/g"))
    '../g'
    """
    base = base_uri(base)
    goal = resolve(base, target)
    cls = type(base)
    b_scheme, b_authority, b_path, b_query = base._m.group(1, 2, 6, 7)
    t_scheme, t_authority, t_path, t_query, t_fragment = goal._m.group(1, 2, 6, 7, 8)
    if t_scheme != b_scheme:
        return goal
    hash_tail = "" if t_fragment is None else "#" + t_fragment
    tail = hash_tail if t_query is None else "?" + t_query + hash_tail
    # Candidates in order of preference; the shortest that works wins.
    candidates: list[str] = []
    if t_authority == b_authority:
        if t_path == b_path:
            if t_query == b_query:
                candidates.append(hash_tail)  # "" or "#s": same document (§4.4)
            elif t_query is not None:
                candidates.append(tail)  # "?y"
        directory = remove_dot_segments(merge(b_authority, b_path, ""))
        relative = relative_path(directory, remove_dot_segments(t_path))
        if relative is not None:
            candidates.append(relative + tail)
        if t_path[:1] == "/":
            candidates.append(rooted_path(t_path) + tail)
    if t_authority is not None:
        candidates.append("//" + t_authority + t_path + tail)
    candidates.sort(key=len)
    for text in candidates:
        if len(text) >= len(goal._m.string):
            break
        try:
            candidate = cls(text)
        except URIError:
            continue
        if resolve(base, candidate)._m.string == goal._m.string:
            return candidate
    return goal


def relative_path(directory: str, path: str) -> str | None:
    """A relative-path reference from ``directory`` to ``path`` (both without dot-segments).

    ``directory`` is where a relative path is merged (§5.2.3), after
    remove_dot_segments.  Climb with ".." to the longest common ancestor, then
    descend.  ``None`` when one path is rooted and the other is not.  The
    caller checks the answer by resolving it: ".." above the first segment of
    a rootless path does not climb as it would in a rooted one (§5.2.4).
    """
    here = directory.split("/")[:-1]
    there = path.split("/")
    if (here[:1] == [""]) != (there[:1] == [""]) and here:
        return None
    common = 0
    limit = min(len(here), len(there) - 1)
    while common < limit and here[common] == there[common]:
        common += 1
    up = len(here) - common
    rest = there[common:]
    if up == 0:
        if rest == [""]:
            return "."
        first = rest[0]
        if first == "" or ":" in first:
            return "./" + "/".join(rest)  # §4.2: not read as a scheme nor as "//"
        return "/".join(rest)
    if rest == [""]:
        return "/".join([".."] * up)
    return "../" * up + "/".join(rest)
