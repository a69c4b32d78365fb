def scan(text: str, iri: bool, /) -> tuple[int, ...] | None:
    """The spans of the groups 1-8 of ``Grammar.reference.fullmatch(text)``, or ``None``.

    Sixteen ints, start and end of scheme, authority, userinfo, host, port, path, query and
    fragment, ``-1, -1`` for a group that does not participate.  With ``iri=True`` the
    grammar is RFC 3987 §2.2 without the bidi formatting characters (RFC 3987 §4.1).
    """
