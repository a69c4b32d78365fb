"""An output file that is replaced whole or not at all.

``--output PATH`` (and ``urikit data --output FILE``) is written to a new
temporary file in the folder of PATH, which is renamed over PATH (an atomic
``rename`` on the same file system) only when the run completes: every input
read and every record written.  A usage error, an interrupt, a damaged input or
an output error discards the temporary file, and PATH keeps every byte it had.
The file gets the permissions of the file it replaces, or those a new file gets
under the umask.

A PATH that exists and is not a regular file (``/dev/null``, a named pipe, a
terminal) cannot be replaced: it is written directly.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from ._output import OutputError


def _named(path: str, exc: OSError) -> OutputError:
    """``exc`` as an output error that names ``path``."""
    reason = exc.strerror or str(exc)
    return OutputError(OSError(exc.errno, f"{path}: {reason}"))


class Target:
    """Where an output file is written until it is :meth:`commit`-ted to ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path
        #: The file the output is written to: a temporary file, or ``path`` itself.
        self.writing = path
        self.temporary: str | None = None
        real = os.path.realpath(path)
        try:
            status = os.stat(real)
        except FileNotFoundError:
            status = None
        except OSError as exc:
            raise _named(path, exc) from None
        if status is not None and not stat.S_ISREG(status.st_mode):
            if stat.S_ISDIR(status.st_mode):
                raise _named(path, IsADirectoryError(21, "Is a directory"))
            return
        folder, name = os.path.split(real)
        try:
            handle, self.temporary = tempfile.mkstemp(
                prefix=f".{name}.", suffix=".urikit-partial", dir=folder or "."
            )
            os.close(handle)
        except OSError as exc:
            raise _named(path, exc) from None
        self.writing = self.temporary
        self.real = real
        self.mode = stat.S_IMODE(status.st_mode) if status is not None else _new_file_mode()

    def commit(self) -> None:
        """Put the written file in place of ``path``."""
        if self.temporary is None:
            return
        try:
            os.chmod(self.temporary, self.mode)
            os.replace(self.temporary, self.real)
        except OSError as exc:
            self.discard()
            raise _named(self.path, exc) from None
        self.temporary = None

    def discard(self) -> None:
        """Remove what was written; ``path`` is as it was."""
        if self.temporary is not None:
            with contextlib.suppress(OSError):
                Path(self.temporary).unlink()
            self.temporary = None


def _new_file_mode() -> int:
    """The permissions a new file gets: 0o666 less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask
