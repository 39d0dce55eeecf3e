"""The command of a wager's risk: risk."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, Seed, app, standard_game, user_errors
from trey.core.errors import TreyError

if TYPE_CHECKING:
    from trey.paytable.model import GameSpec

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
        str | None,
        typer.Option(
            "--bankroll", help="The bankroll, in units of the initial wager (Antes); with --rounds.", show_default=False
        ),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="The rounds of the session; with --bankroll.", show_default=False)
    ] = None,
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
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            help="Instead of a session: one round's payout at a table of this many seats (1-7) sharing the dealer's "
            "hand; with --pays-over.",
            show_default=False,
        ),
    ] = None,
    pays_over: Annotated[
        str | None,
        typer.Option(
            "--pays-over",
            help="With --seats: the chance that one round's total net to the players is more than this many units "
            "(every seat betting one unit).",
            show_default=False,
        ),
    ] = None,
    simulate_rounds: Annotated[
        int | None,
        typer.Option(
            "--simulate-rounds",
            help="With --seats: the rounds of the simulated table (0 to 10,000,000; 0: none; default 1,000,000).",
            show_default=False,
        ),
    ] = None,
    seed: Seed = 34,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """How long each wager's edge takes to show (N0, desirability index), a session's result and the risk of
    ruin of a bankroll within the rounds and without a limit (--bankroll, --rounds); or, with --seats and
    --pays-over, how often one round at a table pays the players more than X units in all."""
    from trey.paytable.load import load_spec
    from trey.protect.risk import parse_strategy, risk_report_json
    from trey.protect.risk import risk as run_risk

    table = seats is not None or pays_over is not None
    if table:
        session = [n for n, v in (("--bankroll", bankroll), ("--rounds", rounds), ("--loss", loss)) if v is not None]
        session += [n for n, v in (("--seen-card", seen_card), ("--strategy", strategy)) if v is not None]
        if session:
            raise TreyError(
                f"{', '.join(session)} belong to a session's risk, not to a round at a table (--seats)",
                hint="give --seats and --pays-over, or --bankroll and --rounds",
            )
        if seats is None or pays_over is None:
            raise TreyError(
                "a round at a table needs both --seats and --pays-over", hint="give --seats K --pays-over X"
            )
    else:
        if simulate_rounds is not None:
            raise TreyError("--simulate-rounds simulates a table", hint="give it with --seats and --pays-over")
        if bankroll is None or rounds is None:
            raise TreyError(
                "trey risk needs --bankroll and --rounds (a session's risk) or --seats and --pays-over (a round at "
                "a table)",
                hint="give --bankroll B --rounds N, or --seats K --pays-over X",
            )
    over = _bankroll(pays_over) if pays_over is not None else None
    spec = standard_game(load_spec(file), "trey risk", file)
    if seats is not None:
        assert over is not None
        _table_round(spec, seats, over, wager, simulate_rounds, seed, output_format)
        return
    assert bankroll is not None and rounds is not None
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


def _table_round(
    spec: GameSpec,
    seats: int,
    pays_over: Fraction,
    wager: str | None,
    simulate_rounds: int | None,
    seed: int,
    output_format: OutputFormat,
) -> None:
    from trey.play.table_round import DEFAULT_ROUNDS, table_round, table_round_json

    report = table_round(
        spec,
        seats=seats,
        pays_over=pays_over,
        wager=wager,
        rounds=DEFAULT_ROUNDS if simulate_rounds is None else simulate_rounds,
        seed=seed,
    )
    if output_format is OutputFormat.JSON:
        print(json.dumps(table_round_json(report), indent=2))
    else:
        from trey.present.risk_view import print_table_round

        print_table_round(report)
