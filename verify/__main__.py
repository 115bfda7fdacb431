"""``python -m verify``: the same as the ``verify`` command."""

import sys

from ._cli import main

sys.exit(main())
