"""The ``trey`` command: each command parses its options, makes one library call and writes the result. User errors
become a message and exit 1 (see :mod:`trey.cli.app`)."""

# Importing a command module registers its commands; --help lists them in this order.
# isort: off
from trey.cli import game  # noqa: F401
from trey.cli import hand  # noqa: F401
from trey.cli import trust  # noqa: F401
from trey.cli import floor  # noqa: F401
from trey.cli import protect  # noqa: F401
from trey.cli import risk  # noqa: F401
from trey.cli import audit  # noqa: F401
from trey.cli import serve  # noqa: F401
from trey.cli import hold  # noqa: F401

# isort: on
from trey.cli.app import app, main

__all__ = ["app", "main"]
