"""RFC 3986 §5.2 written out literally: the oracle for ``urikit.resolve``.

This is the pseudo-code of §5.2.2 (Transform References), §5.2.3 (Merge
Paths), §5.2.4 (Remove Dot Segments, with its two string buffers) and §5.3
(Component Recomposition), step by step, with the parse of Appendix B.  It is
slow on purpose and is used only by the tests, to check the fast code.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# RFC 3986 Appendix B.  Parsing a URI Reference with a Regular Expression
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


class Components(NamedTuple):
    """The five components of §3; ``None`` is undefined."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None


def parse(reference: str) -> Components:
    """Appendix B: scheme = $2, authority = $4, path = $5, query = $7, fragment = $9."""
    m = APPENDIX_B.match(reference)
    assert m is not None  # the expression matches every string
    return Components(m.group(2), m.group(4), m.group(5), m.group(7), m.group(9))


# RFC 3986 5.2.4. Remove Dot Segments
def remove_dot_segments(path: str) -> str:
    # 1.  The input buffer is initialized with the now-appended path
    #     components and the output buffer is initialized to the empty string.
    input_buffer = path
    output_buffer = ""
    # 2.  While the input buffer is not empty, loop as follows:
    while input_buffer:
        # A.  If the input buffer begins with a prefix of "../" or "./",
        #     then remove that prefix from the input buffer; otherwise,
        if input_buffer.startswith("../"):
            input_buffer = input_buffer[3:]
        elif input_buffer.startswith("./"):
            input_buffer = input_buffer[2:]
        # B.  if the input buffer begins with a prefix of "/./" or "/.",
        #     where "." is a complete path segment, then replace that
        #     prefix with "/" in the input buffer; otherwise,
        elif input_buffer.startswith("/./"):
            input_buffer = "/" + input_buffer[3:]
        elif input_buffer == "/.":
            input_buffer = "/"
        # C.  if the input buffer begins with a prefix of "/../" or "/..",
        #     where ".." is a complete path segment, then replace that
        #     prefix with "/" in the input buffer and remove the last
        #     segment and its preceding "/" (if any) from the output
        #     buffer; otherwise,
        elif input_buffer.startswith("/../") or input_buffer == "/..":
            input_buffer = "/" + input_buffer[4:]
            output_buffer = output_buffer[: max(output_buffer.rfind("/"), 0)]
        # D.  if the input buffer consists only of "." or "..", then remove
        #     that from the input buffer; otherwise,
        elif input_buffer in (".", ".."):
            input_buffer = ""
        # E.  move the first path segment in the input buffer to the end of
        #     the output buffer, including the initial "/" character (if
        #     any) and any subsequent characters up to, but not including,
        #     the next "/" character or the end of the input buffer.
        else:
            end = input_buffer.find("/", 1)
            if end < 0:
                end = len(input_buffer)
            output_buffer += input_buffer[:end]
            input_buffer = input_buffer[end:]
    # 3.  Finally, the output buffer is returned as the result of
    #     remove_dot_segments.
    return output_buffer


# RFC 3986 5.2.3. Merge Paths
def merge(base: Components, reference_path: str) -> str:
    # o  If the base URI has a defined authority component and an empty
    #    path, then return a string consisting of "/" concatenated with the
    #    reference's path; otherwise,
    if base.authority is not None and base.path == "":
        return "/" + reference_path
    # o  return a string consisting of the reference's path component
    #    appended to all but the last segment of the base URI's path (i.e.,
    #    excluding any characters after the right-most "/" in the base URI
    #    path, or excluding the entire base URI path if it does not contain
    #    any "/" characters).
    return base.path[: base.path.rfind("/") + 1] + reference_path


# RFC 3986 5.2.2. Transform References
def transform(base: Components, reference: str, strict: bool = True) -> Components:
    # (R.scheme, R.authority, R.path, R.query, R.fragment) = parse(R);
    r = parse(reference)
    r_scheme = r.scheme
    # if ((not strict) and (R.scheme == Base.scheme)) then undefine(R.scheme);
    if not strict and r_scheme == base.scheme:
        r_scheme = None
    if r_scheme is not None:
        t_scheme = r_scheme
        t_authority = r.authority
        t_path = remove_dot_segments(r.path)
        t_query = r.query
    else:
        if r.authority is not None:
            t_authority = r.authority
            t_path = remove_dot_segments(r.path)
            t_query = r.query
        else:
            if r.path == "":
                t_path = base.path
                if r.query is not None:  # noqa: SIM108 (the RFC's if/else, as written)
                    t_query = r.query
                else:
                    t_query = base.query
            else:
                if r.path.startswith("/"):
                    t_path = remove_dot_segments(r.path)
                else:
                    t_path = merge(base, r.path)
                    t_path = remove_dot_segments(t_path)
                t_query = r.query
            t_authority = base.authority
        t_scheme = base.scheme
    t_fragment = r.fragment
    return Components(t_scheme, t_authority, t_path, t_query, t_fragment)


# RFC 3986 5.3. Component Recomposition
def recompose(t: Components) -> str:
    result = ""
    if t.scheme is not None:
        result += t.scheme + ":"
    if t.authority is not None:
        result += "//" + t.authority
    result += t.path
    if t.query is not None:
        result += "?" + t.query
    if t.fragment is not None:
        result += "#" + t.fragment
    return result


def resolve_components(base: str, reference: str, strict: bool = True) -> Components:
    """T for R against Base (§5.2.1: the base is parsed; its fragment is not used)."""
    return transform(parse(base), reference, strict)


def resolve(base: str, reference: str, strict: bool = True) -> str:
    """The recomposed target (§5.3) of ``reference`` against ``base``."""
    return recompose(resolve_components(base, reference, strict))
