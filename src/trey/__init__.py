"""trey: exact mathematics, certificates and dealer sheets for Three Card Poker paytables.

The library is the product; the ``trey`` command is a thin layer over these calls::

    import trey
    spec = trey.load_spec("paytables/standard.yaml")
    analysis = trey.analyze(spec)
    made = trey.certify(raw_bytes, "standard.yaml", issue_date=date(2026, 1, 1))  # .files: bytes by file name
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.3.0"

if TYPE_CHECKING:
    from trey.documents.make import certify, dealer_sheet, payout_drill
    from trey.documents.verify import verify
    from trey.engine import GameAnalysis, analyze
    from trey.paytable.load import check_file, load_spec

__all__ = [
    "GameAnalysis",
    "__version__",
    "analyze",
    "certify",
    "check_file",
    "dealer_sheet",
    "load_spec",
    "payout_drill",
    "verify",
]


def __getattr__(name: str) -> Any:
    # Lazy, so that `import trey` (and so every CLI start) does not pay for numpy or jsonschema it may not use.
    if name in ("analyze", "GameAnalysis"):
        from trey import engine

        return getattr(engine, name)
    if name in ("load_spec", "check_file"):
        from trey.paytable import load as loader

        return getattr(loader, name)
    if name in ("certify", "dealer_sheet", "payout_drill"):  # trey.floor.drill is the module that chooses the hands
        from trey.documents import make as documents

        return getattr(documents, name)
    if name == "verify":
        from trey.documents import verify as verification

        return verification.verify
    raise AttributeError(f"module 'trey' has no attribute {name!r}")
