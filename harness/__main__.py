"""``python -m harness`` is the ``frontier`` command."""

from harness.cli.main import main

main()
