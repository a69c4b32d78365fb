"""``python -m urikit`` runs the ``urikit`` command."""

import sys

from .cli import main

sys.exit(main())
