"""The command of game protection: protect."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from trey.cli.app import OutputFormat, PaytableFile, app, user_errors


@app.command()
@user_errors
def protect(
    file: PaytableFile,
    output_format: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.TABLE,
    classes: Annotated[
        list[str] | None,
        typer.Option(
            "--classes",
            help="A partition of the ranks one dealer card can be told apart by, e.g. 'A,K,Q|J,10,9,8|7,6,5,4,3,2' "
            "(besides the built-in ace-face-other and high-low).",
            show_default=False,
        ),
    ] = None,
    two: Annotated[bool, typer.Option("--two-cards/--no-two-cards", help="Also two dealer cards seen (20 s).")] = True,
) -> None:
    """What a player gains from a seen dealer card, two, or the class of one: exact figures, the informed
    strategy and the decisions that give it away."""
    from trey.paytable.load import load_spec
    from trey.protect.protection import parse_classes, protection_json
    from trey.protect.protection import protect as run_protection

    partitions = tuple(parse_classes(text) for text in classes or ())
    found = run_protection(load_spec(file), classes=partitions, two=two)
    if output_format is OutputFormat.JSON:
        print(json.dumps(protection_json(found), indent=2))
    else:
        from trey.present.protection_view import print_protection

        print_protection(found)
