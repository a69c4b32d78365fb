"""The reference pages of urikit's site, written at each build from ``__all__``.

Every name of ``urikit.__all__`` gets a page of its own; every public module
(:data:`PUBLIC_MODULES`) a page with each name of its ``__all__``; the command a page
generated from its ``argparse`` parser (the ``urikit-command`` directive below, which
walks the parser: its help texts are plain text, not reStructuredText).  The pages are written to
``docs/api/`` (not kept in the repository), so a name added to an ``__all__`` is in
the next build with nothing else to edit.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import pkgutil
import types
import typing
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.docutils import SphinxDirective

#: The documented modules of docs/architecture.md ("The public API"), in its order.
PUBLIC_MODULES = (
    "urikit.types",
    "urikit.components",
    "urikit.query",
    "urikit.paths",
    "urikit.resolution",
    "urikit.compare",
    "urikit.mapping",
    "urikit.bidi",
    "urikit.report",
    "urikit.schemes",
    "urikit.protocol_steps",
    "urikit.validate",
    "urikit.text",
    "urikit.security",
    "urikit.sites",
    "urikit.datauri",
    "urikit.views",
    "urikit.dsn",
    "urikit.whatwg",
    "urikit.uts46",
    "urikit.punycode",
    "urikit.template",
    "urikit.pydantic",
    "urikit.jsonschema",
    "urikit.arrow",
    "urikit.polars",
    "urikit.pandas",
    "urikit.duckdb",
    "urikit.spark",
    "urikit.dask",
)

#: The folder the pages are written to, under the documentation's source folder.
FOLDER = "api"


def _title(text: str, mark: str = "=") -> str:
    return f"{text}\n{mark * len(text)}\n"


def _sources(module: str, name: str) -> list[str]:
    """The modules that may assign ``name`` for ``module``: itself, the modules it
    imports ``name`` from, and the modules of its package."""
    imported = importlib.import_module(module)
    found = [module]
    package = module if hasattr(imported, "__path__") else module.rpartition(".")[0]
    tree = ast.parse(inspect.getsource(imported))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == name for a in node.names):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            if node.level == 0:
                found.append(node.module or "")
            else:
                found.append(".".join([*base, *([node.module] if node.module else [])]))
    if hasattr(imported, "__path__"):
        found += sorted(
            f"{module}.{info.name}"
            for info in pkgutil.iter_modules(imported.__path__)
            if info.name != "__main__"
        )
    return found


def data_comment(module: str, name: str) -> list[str] | None:
    """The ``#:`` comment that documents the data ``name`` of ``module``: where it is
    assigned, in ``module`` itself or in the module it is imported from."""
    for candidate in _sources(module, name):
        try:
            docs = ModuleAnalyzer.for_module(candidate).find_attr_docs()
        except Exception:  # a module that cannot be read (a compiled one)
            continue
        if ("", name) in docs:
            return list(docs[("", name)])
    return None


def _directive(qualified: str, value: Any, *, indexed: bool = True) -> str:
    """The autodoc directive that documents ``value`` under the name ``qualified``
    (without a cross-reference target when not ``indexed``)."""
    flag = "" if indexed else "   :no-index:\n"
    if inspect.isclass(value):
        # A class built on a private one shows that class's members as its own, and
        # not the private base's name.
        inherited = _inherited(value) or "   :show-inheritance:\n"
        return f".. autoclass:: {qualified}\n   :members:\n{inherited}{flag}"
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return f".. autofunction:: {qualified}\n{flag}"
    module, _, name = qualified.rpartition(".")
    comment = data_comment(module, name)
    if comment is None:
        raise ValueError(f"{qualified} has no #: comment to document it")
    body = "".join(f"   {line}\n" if line else "\n" for line in comment)
    return f".. py:data:: {name}\n   :module: {module}\n{_data_options(value)}{flag}\n{body}"


def _data_options(value: Any) -> str:
    """How a piece of data is shown: a type alias by what it stands for, other data by
    its type, and by its value when that is short (a flag such as ``compiled`` depends
    on the machine that builds the site, so it is shown by its type only)."""
    if typing.get_origin(value) is not None or isinstance(value, types.UnionType):
        return f"   :value: {repr(value).replace('typing.', '')}\n"
    text = repr(value)
    options = f"   :type: {type(value).__name__}\n"
    if len(text) <= 70 and " at 0x" not in text and not isinstance(value, bool):
        options += f"   :value: {text}\n"
    return options


def _inherited(cls: type) -> str:
    """The ``:inherited-members:`` option for a public class built on a private class of
    urikit (``URI`` on ``_Reference``): the members of that class are the public class's
    own, while those of builtins and of the compiled core's base are left out."""
    private = [
        base
        for base in cls.__mro__[1:]
        if base.__module__.startswith("urikit") and base.__name__.startswith("_")
    ]
    if not private:
        return ""
    foreign = [
        base.__name__
        for base in cls.__mro__[1:]
        if not base.__module__.startswith("urikit") or base.__module__ == "urikit._speedups"
    ]
    return f"   :inherited-members: {', '.join(foreign)}\n"


def _everyday_name(value: Any, everyday: dict[str, Any]) -> str | None:
    """The name in ``urikit.__all__`` of the class or function ``value``, if it has one."""
    if not (inspect.isclass(value) or callable(value)):
        return None
    for name, other in everyday.items():
        if other is value:
            return name
    return None


def package_page(names: list[str]) -> str:
    lines = [
        _title("urikit"),
        ".. automodule:: urikit\n   :no-members:\n",
        "The everyday API, ``urikit.__all__``: each name has a page of its own.\n",
        ".. toctree::\n   :maxdepth: 1\n",
    ]
    lines += [f"   urikit.{name}" for name in names]
    return "\n".join(lines) + "\n"


def name_page(name: str, value: Any) -> str:
    return "\n".join(
        [
            ".. currentmodule:: urikit\n",
            _title(f"urikit.{name}"),
            _directive(f"urikit.{name}", value),
        ]
    )


def module_page(module: str, everyday: dict[str, Any]) -> str:
    """The page of a public module: its docstring, then each name of its ``__all__``.

    A class or function that ``urikit.__all__`` also holds is shown here too, but its
    cross-reference target is its page as ``urikit.NAME`` (one target per object, so
    that a reference to it is never ambiguous).
    """
    imported = importlib.import_module(module)
    lines = [_title(module), f".. automodule:: {module}\n   :no-members:\n"]
    for name in imported.__all__:
        value = getattr(imported, name)
        same = _everyday_name(value, everyday)
        if same is not None:
            lines.append(f"The same object as :py:obj:`urikit.{same}`.\n")
        lines.append(_directive(f"{module}.{name}", value, indexed=same is None))
    return "\n".join(lines)


CLI_PAGE = (
    _title("The command: urikit")
    + """
Generated from the command's ``argparse`` parser (``urikit.cli.build_parser``):
every subcommand, its options and the examples of its ``--help``.
:doc:`../cli` is the guide.

.. urikit-command::
"""
)


def index_page() -> str:
    lines = [
        _title("Reference"),
        "Generated from the docstrings: the everyday API of ``urikit``, each public "
        "module, and the command.\n",
        ".. toctree::\n   :maxdepth: 1\n",
        "   urikit",
        *(f"   {module}" for module in PUBLIC_MODULES),
        "   cli",
    ]
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Each page's file name and its reStructuredText."""
    urikit = importlib.import_module("urikit")
    names = list(urikit.__all__)
    everyday = {name: getattr(urikit, name) for name in names}
    written = {"index.rst": index_page(), "urikit.rst": package_page(names), "cli.rst": CLI_PAGE}
    for name in names:
        written[f"urikit.{name}.rst"] = name_page(name, getattr(urikit, name))
    for module in PUBLIC_MODULES:
        written[f"{module}.rst"] = module_page(module, everyday)
    return written


def write(folder: Path) -> None:
    """Write the pages into ``folder``, leaving a file that has not changed untouched
    (so that Sphinx rebuilds only what changed), and remove pages of names gone."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for path in folder.glob("*.rst"):
        if path.name not in wanted:
            path.unlink()
    for name, text in wanted.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of ``parser`` (or of a subcommand, as ``urikit query``), in order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _section(title: str) -> nodes.section:
    section = nodes.section(ids=[nodes.make_id(title)], names=[nodes.fully_normalize_name(title)])
    section += nodes.title(title, title)
    return section


def _options(parser: argparse.ArgumentParser) -> nodes.definition_list | None:
    """Each argument and option of ``parser``, with its help as ``--help`` shows it."""
    formatter = parser._get_formatter()
    items = nodes.definition_list()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        invocation = formatter._format_action_invocation(action)
        helped = formatter._expand_help(action) if action.help else ""
        item = nodes.definition_list_item()
        item += nodes.term("", "", nodes.literal(invocation, invocation))
        item += nodes.definition("", nodes.paragraph(helped, helped))
        items += item
    return items if len(items) else None


def _text_block(text: str) -> nodes.literal_block:
    """A block shown as written: no highlighting (usage lines and examples are not Python)."""
    block = nodes.literal_block(text, text)
    block["language"] = "text"
    return block


def _command(name: str, parser: argparse.ArgumentParser, depth: int) -> nodes.section:
    """The section of one (sub)command: its usage, description, options and examples."""
    section = _section(name)
    formatter = parser._get_formatter()
    usage = parser.format_usage().strip()
    section += _text_block(usage)
    if parser.description:
        section += nodes.paragraph(parser.description, parser.description)
    options = _options(parser)
    if options is not None:
        section += options
    if parser.epilog:
        epilog = formatter._fill_text(parser.epilog, 88, "").rstrip()
        section += _text_block(epilog)
    for sub, subparser in _subcommands(parser).items():
        section += _command(f"{name} {sub}", subparser, depth + 1)
    return section


class CommandDirective(SphinxDirective):
    """``.. urikit-command::``: the reference of the ``urikit`` command, from its parser."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from urikit.cli import build_parser

        parser = build_parser()
        top = _command("urikit", parser, 0)
        # The top level's own title is the page's: keep its children only.
        return list(top.children[1:])


def _builder_inited(app: Any) -> None:
    write(Path(app.srcdir) / FOLDER)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _builder_inited)
    app.add_directive("urikit-command", CommandDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
