"""The paytable workbench in the browser (trey serve)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from trey.core.errors import TreyError


def shipped_paytables() -> Path:
    """The paytables shipped with trey, the workbench's folder when none is given: package data (``trey/paytables``
    in the wheel; in a checkout, a link to the repository's ``paytables/``), found through :mod:`importlib.resources`
    (never a path beside the package: from a wheel that was ``<site-packages>/../paytables``)."""
    found = resources.files("trey").joinpath("paytables")
    if not isinstance(found, Path):
        raise TreyError("the shipped paytables are not in a folder", hint="give the folder: trey serve DIR")
    return found
