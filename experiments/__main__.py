"""``python -m cogarch.experiments``: the same as the ``cogarch`` command."""

from .cli.command import main

raise SystemExit(main())
