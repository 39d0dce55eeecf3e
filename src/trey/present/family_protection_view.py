"""``trey protect --format table`` of a game of the family other than the standard one (issue 31)."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console

from trey.core.numbers import percent_text
from trey.present.layout import TextTable, figure, label, print_table, say, terminal_console
from trey.protect.family import FamilyProtection


def _signed(value: Fraction) -> str:
    text = percent_text(value)
    return text if text.startswith("-") else f"+{text}"


def print_family_protection(found: FamilyProtection, console: Console | None = None) -> None:
    """Each scenario's informed edge and gain per Ante, against the optimal strategy's, and how often it deviates."""
    console = console or terminal_console()
    say(console, f"{found.spec.name}  (sha256 {found.spec.sha256[:12]})", bold=True)
    say(
        console,
        f"Optimal strategy: house edge {percent_text(found.analysis.house_edge_per_ante)} per Ante. What a player "
        "gains who knows more of the dealer's cards than the game shows, exactly, per Ante:",
    )
    options = [o for o, _ in found.scenarios[0].by_option]
    columns = (
        label("the player knows"),
        figure("player edge"),
        figure("gain"),
        figure("deals off the optimal strategy"),
        *(figure("folds" if o == 0 else f"plays {o}x") for o in options),
    )
    rows = [
        (
            s.scenario,
            _signed(s.stats.mean),
            _signed(s.gain),
            percent_text(Fraction(s.deviations, s.deals), 2),
            *(percent_text(Fraction(n, s.deals), 2) for _, n in s.by_option),
        )
        for s in found.scenarios
    ]
    print_table(console, TextTable(columns, rows, title="Informed play"))
    for c in found.sampled:
        say(
            console,
            f"{c.scenario} (seeded Monte Carlo, {c.samples:,} samples, seed {c.seed}): player edge "
            f"{c.edge:+.4%} per Ante, gain {c.gain:+.4%} (standard error {c.gain_error:.4%})",
        )
    say(
        console,
        "Each decision is the engine's (the option of highest exact expectation given what is known); every deal "
        "counts once, the card seen being any one of the dealer's the game does not show.",
    )
