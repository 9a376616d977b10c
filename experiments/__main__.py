"""``python -m cogarch.experiments``: the same as the ``cogarch`` command."""

from .cli import main

raise SystemExit(main())
