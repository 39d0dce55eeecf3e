"""trey: exact mathematics, certificates and dealer sheets for Three Card Poker paytables.

The library is the product; each ``trey`` command parses its options, makes one of these calls and writes what it
returns::

    import trey
    spec = trey.load_spec("paytables/standard.yaml")
    analysis = trey.analyze(spec)
    family = trey.analyze_family(trey.load_spec("paytables/family/face-up-ultimate.yaml"))  # another game's round
    made = trey.certify(raw_bytes, "standard.yaml", issue_date=date(2026, 1, 1))  # .files: bytes by file name
    trey.verify(Path("standard.certificate.pdf"))
    trey.risk(spec, bankroll=Fraction(250), rounds=2500, seen="one")  # N0, a session's result, the risk of ruin
    trey.table_round(spec, seats=7, pays_over=Fraction(300), seed=34)  # how often a round at 7 seats pays > 300

The packages show the layers, each importing only those below it: ``core`` → ``cards`` → ``paytable`` →
``rules`` → ``engine`` → ``figures`` → ``play``, ``choose``, ``protect`` → ``trust``, ``floor`` → ``audit`` →
``present`` → ``documents`` → ``cli``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from trey.core.version import __version__

if TYPE_CHECKING:
    from trey.audit.audit import audit
    from trey.choose.compare import compare
    from trey.choose.solve import grid, solve
    from trey.documents.make import certify, dealer_sheet, drill
    from trey.documents.verify import verify
    from trey.engine import GameAnalysis, analyze
    from trey.engine.family import analyze_family
    from trey.paytable.load import check_file, load_spec
    from trey.play.simulate import simulate
    from trey.play.table_round import table_round
    from trey.protect.family_hand import family_hand
    from trey.protect.hand import hand
    from trey.protect.protection import protect
    from trey.protect.risk import risk
    from trey.trust.validation import validate

# Each name of the API and the module that states it. Imported when first used, so that `import trey` (and so
# every start of the command) does not pay for numpy, jsonschema or WeasyPrint it may not use.
_API = {
    "GameAnalysis": "trey.engine",
    "analyze": "trey.engine",
    "analyze_family": "trey.engine.family",
    "audit": "trey.audit.audit",
    "certify": "trey.documents.make",
    "check_file": "trey.paytable.load",
    "compare": "trey.choose.compare",
    "dealer_sheet": "trey.documents.make",
    "drill": "trey.documents.make",
    "grid": "trey.choose.solve",
    "family_hand": "trey.protect.family_hand",
    "hand": "trey.protect.hand",
    "load_spec": "trey.paytable.load",
    "protect": "trey.protect.protection",
    "risk": "trey.protect.risk",
    "simulate": "trey.play.simulate",
    "solve": "trey.choose.solve",
    "table_round": "trey.play.table_round",
    "validate": "trey.trust.validation",
    "verify": "trey.documents.verify",
}

__all__ = [  # the names of _API (a test holds the two equal)
    "GameAnalysis",
    "__version__",
    "analyze",
    "analyze_family",
    "audit",
    "certify",
    "check_file",
    "compare",
    "dealer_sheet",
    "drill",
    "family_hand",
    "grid",
    "hand",
    "load_spec",
    "protect",
    "risk",
    "simulate",
    "solve",
    "table_round",
    "validate",
    "verify",
]


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(import_module(_API[name]), name)
    raise AttributeError(f"module 'trey' has no attribute {name!r}")
