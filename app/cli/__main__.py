"""``python -m app.cli``: the ``aer`` command without its console script."""

from app.cli import main

main()
