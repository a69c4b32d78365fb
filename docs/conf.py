"""Sphinx configuration of urikit's documentation site.

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (warnings are errors, so
a broken cross-reference or a docstring that is not valid reStructuredText fails).
The Markdown pages are read by MyST; the reference (``docs/api/``) is written at
each build by ``_ext/urikit_reference.py`` from the package's ``__all__`` lists.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import urikit  # noqa: E402

project = "urikit"
author = "the urikit authors"
copyright = "the urikit authors"
release = urikit.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "urikit_reference",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
# Quotes and dashes stay as written: ``'--json'`` and ``"http://a/"`` are typed text.
smartquotes = False

# MyST: GitHub's heading anchors, so that links written for the repository
# (``cli.md#files-and-cores---input---output---jobs``) resolve on the site too.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {"members": True}
autodoc_member_order = "bysource"
# A method shows its own docstring only (not that of httpx or requests it overrides).
autodoc_inherit_docstrings = False
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"urikit {release}"
html_static_path: list[str] = []
