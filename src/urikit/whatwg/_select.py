"""The one choice between the readable store and the compiled one, for ``urikit.whatwg``.

:func:`compiled_module` is read once, when ``urikit.whatwg`` is imported.  It answers
``urikit._whatwg`` (the compiled WHATWG parser) unless ``URIKIT_NO_EXTENSIONS`` is set to
anything but "" or "0", or the module cannot be imported; ``None`` means the readable
Python (``_pure.RecordStore``).
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

__all__ = ["compiled_module"]


def compiled_module() -> ModuleType | None:
    """``urikit._whatwg``, or ``None`` for the readable Python."""
    if os.environ.get("URIKIT_NO_EXTENSIONS", "") not in ("", "0"):
        return None
    try:
        from .._whatwg import Store
    except ImportError:
        return None
    return sys.modules[Store.__module__]
