"""trey's version, stated once (``pyproject.toml`` says the same; a test holds the two equal): every module that
writes it into an output imports it from here, below every layer, never from the package's top."""

from __future__ import annotations

__version__ = "0.5.0"
