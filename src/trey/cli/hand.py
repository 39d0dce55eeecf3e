"""The command about one hand's decision: hand."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, app, standard_game, user_errors
from trey.core.errors import TreyError


@app.command()
@user_errors
def hand(
    file: PaytableFile,
    cards: Annotated[
        str,
        typer.Argument(
            help="The player's hand: its ranks (Q-6-3, every hand of them) or its cards (Qh-6d-3c).",
            show_default=False,
            metavar="HAND",
        ),
    ],
    seen: Annotated[
        str | None,
        typer.Option(
            "--seen", help="Also for a player who sees these dealer cards (7h, or '7h Kd').", show_default=False
        ),
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside the decimals.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """One hand's exact expected value of playing and of folding, the margin and the decision (per Ante)."""
    from trey.paytable.load import load_spec
    from trey.protect.hand import hand as weigh_hand
    from trey.protect.hand import hand_json, parse_hand, parse_seen

    try:  # the hand and the seen cards are read before the file: a typo is a usage error, whatever the file
        _, _, given = parse_hand(cards)
        if seen is not None:
            parse_seen(seen, given)
    except TreyError as exc:
        raise typer.BadParameter(f"{exc.message} ({exc.hint})") from None
    report = weigh_hand(standard_game(load_spec(file), "trey hand", file), cards, seen=seen)
    if output_format is OutputFormat.JSON:
        print(json.dumps(hand_json(report), indent=2))
    else:
        from trey.present.terminal import print_hand

        print_hand(report, exact=exact)
