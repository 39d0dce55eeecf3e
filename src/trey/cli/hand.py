"""The command about one hand's decision: hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, app, standard_game, user_errors
from trey.core.errors import TreyError
from trey.paytable.model import GameSpec


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
    up: Annotated[
        str | None,
        typer.Option(
            "--up",
            help="A game of the family with a card face up: the dealer's face-up card (7h); without it, every rank.",
            show_default=False,
        ),
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Show exact fractions beside the decimals.")] = False,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
) -> None:
    """One hand's exact expected value of playing and of folding, the margin and the decision (per Ante); in a game
    of the family, of every option open to it, by face-up card."""
    from trey.paytable.load import load_spec
    from trey.protect.family_hand import parse_up
    from trey.protect.hand import hand as weigh_hand
    from trey.protect.hand import hand_json, parse_hand, parse_seen

    try:  # the hand and the seen cards are read before the file: a typo is a usage error, whatever the file
        _, _, given = parse_hand(cards)
        if seen is not None:
            parse_seen(seen, given)
        if up is not None:
            parse_up(up, given)
    except TreyError as exc:
        raise typer.BadParameter(f"{exc.message} ({exc.hint})") from None
    spec = load_spec(file)
    if not spec.game.is_standard:
        _family_hand(spec, cards, up, seen, exact, output_format, file)
        return
    if up is not None:
        raise TreyError(
            f"{spec.name}: the standard game shows no dealer card face up, so --up has nothing to name",
            hint="--seen weighs the hand for a player who sees a dealer card",
        )
    report = weigh_hand(standard_game(spec, "trey hand", file), cards, seen=seen)
    if output_format is OutputFormat.JSON:
        print(json.dumps(hand_json(report), indent=2))
    else:
        from trey.present.terminal import print_hand

        print_hand(report, exact=exact)


def _family_hand(
    spec: GameSpec, cards: str, up: str | None, seen: str | None, exact: bool, output_format: OutputFormat, file: Path
) -> None:
    """``trey hand`` of a game of the family other than the standard one (issue 31): by face-up card."""
    from trey.core.files import display_name
    from trey.protect.family_hand import family_hand, family_hand_json

    if seen is not None:
        raise TreyError(
            f"{display_name(file)}: --seen is for the standard game; in {spec.name} the hand is weighed against the "
            "face-up card (--up)",
            hint="trey protect weighs a hole card seen beyond the face-up one",
        )
    report = family_hand(spec, cards, up=up)
    if output_format is OutputFormat.JSON:
        print(json.dumps(family_hand_json(report), indent=2))
    else:
        from trey.present.terminal import print_family_hand

        print_family_hand(report, exact=exact)
