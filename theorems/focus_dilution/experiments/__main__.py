"""``python -m theorems.focus_dilution.experiments``: see the package docstring."""

from ._cli import main

raise SystemExit(main())
