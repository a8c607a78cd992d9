"""``python -m pyrummy``: the same as the ``pyrummy`` command."""

from pyrummy.cli.main import main

raise SystemExit(main())
