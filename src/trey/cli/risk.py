"""The command of a wager's risk: risk."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, app, standard_game, user_errors

UNITS = re.compile(r"[0-9]{1,7}(\.[0-9]{1,6})?")  # 250, 12.5: whole units and at most six decimals


def _bankroll(text: str) -> Fraction:
    """A number of units as written (never an exponent, which would choose the work of reading it)."""
    if not UNITS.fullmatch(text.strip()):
        raise typer.BadParameter(f"{text!r} is not a number of units such as 250 or 12.5")
    return Fraction(text.strip())


@app.command()
@user_errors
def risk(
    file: PaytableFile,
    bankroll: Annotated[
        str, typer.Option("--bankroll", help="The bankroll, in units of the initial wager (Antes).", show_default=False)
    ],
    rounds: Annotated[int, typer.Option("--rounds", help="The rounds of the session.", show_default=False)],
    wager: Annotated[str | None, typer.Option("--wager", help="Only this wager (its id).", show_default=False)] = None,
    seen_card: Annotated[
        str | None,
        typer.Option(
            "--seen-card",
            help="Play Ante & Play as a player who sees one dealer card (one), two (two), or the class of one "
            "(ace-face-other, high-low).",
            show_default=False,
        ),
    ] = None,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            help="Play Ante & Play by this strategy instead of the paytable's: optimal, mimic-dealer, always-play "
            "or a hand such as Q-6-4.",
            show_default=False,
        ),
    ] = None,
    loss: Annotated[
        str | None,
        typer.Option(
            "--loss",
            help="Give the chance of ending this many units down or more (default: the bankroll).",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """How long each wager's edge takes to show (N0, desirability index), a session's result and the risk of
    ruin of a bankroll within the rounds and without a limit."""
    from trey.paytable.load import load_spec
    from trey.protect.risk import parse_strategy, risk_report_json
    from trey.protect.risk import risk as run_risk

    spec = standard_game(load_spec(file), "trey risk", file)
    report = run_risk(
        spec,
        bankroll=_bankroll(bankroll),
        rounds=rounds,
        wager=wager,
        seen=seen_card,
        strategy=parse_strategy(strategy) if strategy is not None else None,
        loss=_bankroll(loss) if loss is not None else None,
    )
    if output_format is OutputFormat.JSON:
        print(json.dumps(risk_report_json(report), indent=2))
    else:
        from trey.present.risk_view import print_risk

        print_risk(report)
