"""The legacy resolution profiles: RFC 2396 §5.2 and the RFC 1630 partial form.

These reproduce what the older documents specify and exemplify, for reading
old content as it was meant; RFC 3986 §5.2 (``urikit.resolve``) is the
default and is not touched by them.  Input is parsed by the strict RFC 3986
(or RFC 3987) grammar; the results differ only in how paths are combined.
Where a document's prose and its examples disagree, the examples win; each
such choice is listed in ``docs/deviations.md``.
"""

from __future__ import annotations

from collections.abc import Callable

from .components import Parts, recompose
from .resolution import check_base, rooted_path, transform_references

__all__ = ["resolve_by", "resolve_rfc1630", "resolve_rfc2396"]


def resolve_by(spec: str, base: Parts, ref: Callable[[], Parts], *, strict: bool = True) -> str:
    """The target of the reference whose components ``ref()`` gives, resolved against
    ``base`` by ``spec``'s algorithm (``URI.resolve``): ``"rfc3986"`` (RFC 3986 §5.2),
    ``"rfc2396"`` or ``"rfc1630"``.

    The base is checked first (§5.2.1), then the spec; ``ref`` is read only then.
    """
    check_base(base)
    if spec == "rfc3986":
        return transform_references(base, ref(), strict=strict)
    if spec == "rfc2396":
        return resolve_rfc2396(base, ref(), strict=strict)
    if spec == "rfc1630":
        return resolve_rfc1630(base, ref())
    raise ValueError(
        f"unknown resolution spec {spec!r}; expected 'rfc3986', 'rfc2396' or 'rfc1630'"
    )


def _document(base: Parts) -> str:
    """The base without its fragment: the current document."""
    return recompose(base.scheme, base.authority, base.path, base.query, None)


def _directory(authority: str | None, path: str) -> str:
    """All but the last segment of the base path; "/" for an authority with no path."""
    if authority is not None and path == "":
        return "/"
    return path[: path.rfind("/") + 1]


def _recompose(
    scheme: str, authority: str | None, path: str, query: str | None, fragment: str | None
) -> str:
    text = scheme + ":" + (rooted_path(path) if authority is None else "//" + authority + path)
    if query is not None:
        text += "?" + query
    if fragment is not None:
        text += "#" + fragment
    return text


# --- RFC 2396 §5.2 ---------------------------------------------------------------


def resolve_rfc2396(base: Parts, ref: Parts, *, strict: bool = True) -> str:
    """Resolve ``ref`` against ``base`` as RFC 2396 §5.2 specifies (Appendix C).

    Dot-segments are removed only from merged relative paths (step 6), a ".."
    that would climb above the root is kept (``../../../g`` gives
    ``http://a/../g``), the base query is never inherited (``?y`` gives
    ``http://a/b/c/?y``), and the empty reference is the current document.
    ``strict=False`` applies the step 3 loophole: a scheme equal to the
    base's is dropped when the base is hierarchical.
    """
    b_scheme, b_authority, b_path = str(base.scheme), base.authority, base.path
    scheme, authority, path, query, fragment = (
        ref.scheme,
        ref.authority,
        ref.path,
        ref.query,
        ref.fragment,
    )
    # Step 2: a reference to the current document
    if path == "" and scheme is None and authority is None and query is None:
        text = _document(base)
        return text if fragment is None else text + "#" + fragment
    # Step 3: an absolute URI, unless the loophole applies
    opaque = b_authority is None and b_path[:1] != "/"
    if scheme is not None and (strict or scheme.lower() != b_scheme.lower() or opaque):
        return ref.text()
    # Step 4: a network-path inherits only the scheme
    if authority is None:
        authority = b_authority
        # Step 5: an absolute-path is taken as it is; step 6: a relative-path is merged
        if path[:1] != "/":
            path = _merge_rfc2396(_directory(b_authority, b_path) + path)
    # Step 7
    return _recompose(b_scheme, authority, path, query, fragment)


def _merge_rfc2396(buffer: str) -> str:
    """Steps 6c-6g of RFC 2396 §5.2, on a stack of segments (linear time)."""
    rooted = buffer[:1] == "/"
    segments = (buffer[1:] if rooted else buffer).split("/")
    last = len(segments) - 1
    output: list[str] = []
    for index, segment in enumerate(segments):
        if segment == ".":
            # 6c: every "./" is removed; 6d: a final "." is removed
            if index == last:
                output.append("")
        elif segment == ".." and output and output[-1] != "..":
            # 6e: "<segment>/../" is removed; 6f: a final "<segment>/.." is removed
            output.pop()
            if index == last:
                output.append("")
        else:
            # 6g: a ".." left at the start is kept, as Appendix C shows
            output.append(segment)
    return ("/" if rooted else "") + "/".join(output)


# --- RFC 1630 "Partial (relative) form" ------------------------------------------


def resolve_rfc1630(base: Parts, ref: Parts) -> str:
    """Resolve the partial form ``ref`` in the context of ``base`` (RFC 1630).

    * Another scheme: the reference is absolute.  The same scheme is omitted,
      so ``magic:g`` is the partial form ``g`` (the loophole RFC 3986 §5.4.2
      attributes to RFC 1630).
    * A partial form that starts with n slashes replaces the context from the
      first run of exactly n slashes (``/g`` → ``magic://a/g``, ``//g`` →
      ``magic://g``); dot-segments in it are kept.
    * Otherwise the last segment of the context path is replaced, and
      "xxx/../" and "/." are removed from the path.

    The fragment is split off first and kept; an empty partial form (the empty
    or a fragment-only reference) is the context document itself.
    """
    b_scheme, b_authority, b_path = str(base.scheme), base.authority, base.path
    scheme, path, query, fragment = ref.scheme, ref.path, ref.query, ref.fragment
    text = ref.text()
    if scheme is not None:
        if scheme.lower() != b_scheme.lower():
            return text
        text = text[len(scheme) + 1 :]
    partial = text if fragment is None else text[: -len(fragment) - 1]
    if partial == "":
        context = _document(base)
        return context if fragment is None else context + "#" + fragment
    if partial[0] == "/":
        slashes = len(partial) - len(partial.lstrip("/"))
        context = _document(base)
        # slashes are looked for in the authority and path only
        end = len(recompose(b_scheme, b_authority, b_path, None, None))
        cut = _run_of_slashes(context, len(b_scheme) + 1, end, slashes)
        return context[:cut] + text
    path = _merge_rfc1630(_directory(b_authority, b_path) + path)
    return _recompose(b_scheme, b_authority, path, query, fragment)


def _run_of_slashes(text: str, start: int, end: int, count: int) -> int:
    """Where the first run of exactly ``count`` slashes in ``text[start:end]`` begins.

    ``start`` (just after the scheme) when there is none: the partial form then
    keeps only the scheme of the context.
    """
    index = start
    while index < end:
        if text[index] != "/":
            index += 1
            continue
        run = index
        while index < end and text[index] == "/":
            index += 1
        if index - run == count:
            return run
    return start


def _merge_rfc1630(buffer: str) -> str:
    """Remove "xxx/../" and "/." from a merged path, recursively (RFC 1630), on a stack."""
    rooted = buffer[:1] == "/"
    segments = (buffer[1:] if rooted else buffer).split("/")
    last = len(segments) - 1
    output: list[str] = []
    for index, segment in enumerate(segments):
        if segment == "." and (rooted or index > 0):
            continue  # "/." is removed (it always follows a "/" here)
        if segment == ".." and index < last and output and output[-1] != "..":
            output.pop()  # "xxx/../" is removed
            continue
        output.append(segment)
    if rooted:
        return "/" + "/".join(output)
    return "/".join(output)
