"""Load a paytable file: safe YAML → JSON Schema → semantic checks → :class:`~trey.paytable.model.GameSpec`.

Every problem is collected and reported together, each located at file:line:column with its JSON path, the
offending value and a hint. Warnings (legal but suspicious tables) are reported beside errors; they fail only
when the caller asks for strictness.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.cards.readings import READINGS, Reading
from trey.cards.readings.base import Seat
from trey.core.errors import Problem, Severity, SpecError
from trey.core.files import display_name, read_bounded
from trey.paytable.model import (
    ANTE_BONUS_OUTCOMES,
    ANTE_PLAY,
    BLIND_OUTCOMES,
    ENVY_ON_FOLD,
    GAME_FORMAT_VERSION,
    PLAY_OUTCOMES,
    PRESETS,
    SIDE_BET_NOT_COUNTED,
    SIDE_BET_ON_FOLD,
    STANDARD_ROUND,
    AntePlay,
    AnteWithoutQualifier,
    DealerQualifier,
    EnvyOnFold,
    GameSpec,
    OnFold,
    Paytable,
    PlayOption,
    Progressive,
    QualifierKind,
    RoundShape,
    Rules,
    SideBet,
    Strategy,
    StrategyKind,
    Table,
    Ties,
    Wagers,
    default_title,
    parse_high_card_hand,
)
from trey.paytable.odds import Odds, OddsError, OddsWording
from trey.paytable.pays import (
    Amount,
    MeterShare,
    exact_number_text,
    parse_money,
    parse_pay,
    parse_share,
    percent_text_exact,
)
from trey.paytable.schema_errors import did_you_mean, schema_problems
from trey.paytable.yamldoc import MAX_FILE_BYTES, JsonPath, Location, YamlDocument, json_path, parse_yaml


@dataclass(frozen=True)
class CheckResult:
    """The outcome of checking one file: the spec when it is valid, and every problem found."""

    spec: GameSpec | None
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The problems that make the file invalid."""
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Problem, ...]:
        """The problems printed but failing only ``trey validate --strict``."""
        return tuple(p for p in self.problems if p.severity is Severity.WARNING)


def read_file(path: str | Path) -> bytes:
    """A paytable file's bytes, or a :class:`SpecError` saying plainly why it cannot be read."""
    name = display_name(path)
    return read_bounded(path, limit=MAX_FILE_BYTES, hint=f"give the files in it, e.g. {name}/*.yaml")


def validation_json(
    results: list[tuple[str, CheckResult]],
    *,
    strict: bool,
    profile_checks: dict[str, list[dict[str, str]]] | None = None,
) -> dict[str, Any]:
    """``trey validate --format json`` (schemas/validation.schema.json): every problem as data, with its code; with
    ``profile_checks`` (by file: a profile's findings as data), a file is valid only when every one passed."""
    files = []
    for name, result in results:
        valid = not result.errors and not (strict and result.warnings)
        entry: dict[str, Any] = {
            "file": name,
            "valid": valid,
            "errors": len(result.errors),
            "warnings": len(result.warnings),
            "problems": [p.as_json() for p in result.problems],
        }
        if profile_checks is not None and name in profile_checks:
            entry["profile_checks"] = profile_checks[name]
            entry["valid"] = valid and all(check["result"] == "PASS" for check in profile_checks[name])
        files.append(entry)
    return {"strict": strict, "valid": all(f["valid"] for f in files), "files": files}


def check_file(path: str | Path) -> CheckResult:
    """Check the paytable file at ``path`` as every command reads it (a bounded read, the YAML, the JSON Schema,
    the game's rules): never raises for bad input, every problem is in the result."""
    try:
        raw = read_file(path)
    except SpecError as exc:
        return CheckResult(None, exc.problems)
    return check_bytes(raw, display_name(path))


def check_bytes(raw: bytes, filename: str) -> CheckResult:
    """Check a paytable's bytes as :func:`check_file` checks a file's; ``filename`` names it in the problems."""
    try:
        doc = parse_yaml(filename, raw)
    except SpecError as exc:
        return CheckResult(None, exc.problems)
    result = check_document(doc)
    if result.spec is None:
        return result
    sha = hashlib.sha256(raw).hexdigest()
    return CheckResult(_with_sha(result.spec, sha), result.problems)


def check_data(data: Any, filename: str) -> CheckResult:
    """Check plain data (e.g. the canonical paytable inside a certificate); problems carry no line numbers."""
    return check_document(YamlDocument(filename, data), locate=False)


def load_spec(path: str | Path) -> GameSpec:
    """Load a valid paytable file, or raise :class:`SpecError` listing its errors (warnings are ignored)."""
    return _unwrap(check_file(path))


def load_spec_bytes(raw: bytes, filename: str) -> GameSpec:
    """Load a valid paytable from its bytes, or raise :class:`SpecError` listing its errors."""
    return _unwrap(check_bytes(raw, filename))


def _unwrap(result: CheckResult) -> GameSpec:
    if result.spec is None:
        raise SpecError(result.errors)
    return result.spec


def _with_sha(spec: GameSpec, sha: str) -> GameSpec:
    return replace(spec, sha256=sha)


def check_document(doc: YamlDocument, *, locate: bool = True) -> CheckResult:
    # A value the reader refused (a tagged scalar) is None to the schema: report the reader's problem only.
    refused = {p.path for p in doc.problems}
    problems = list(doc.problems) + [p for p in schema_problems(doc) if p.path not in refused]
    # Semantic checks read only values of the right type, so they run even when the schema failed elsewhere.
    reported = {p.path for p in problems}
    problems.extend(p for p in _semantic_problems(doc) if p.path not in reported)
    if not locate:
        problems = [replace(p, line=None, column=None) for p in problems]
    problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    if any(p.severity is Severity.ERROR for p in problems):
        return CheckResult(None, tuple(problems))
    return CheckResult(_build_spec(doc.data), tuple(problems))


# --- Semantic checks ----------------------------------------------------------------------------------------


def _get(data: Any, path: JsonPath) -> Any:
    for part in path:
        in_list = isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data)
        if in_list or (isinstance(data, dict) and part in data):
            data = data[part]
        else:
            return None
    return data


def _semantic_problems(doc: YamlDocument) -> Iterator[Problem]:
    data = doc.data
    if not isinstance(data, dict):
        return
    options = _get(data, ("game", "options"))
    option_paths = [("game", "options", i, "at_least") for i in range(len(options) if isinstance(options, list) else 0)]
    hand_paths = [("rules", "dealer_qualifier"), ("wagers", "ante_play", "strategy", "play_at_least"), *option_paths]
    for hand_path in hand_paths:
        text = _get(data, hand_path)
        if isinstance(text, str) and text.count("-") == 2 and text not in ("Q-high", "J-high", "K-high", "A-high"):
            try:
                parse_high_card_hand(text)
            except ValueError as exc:
                yield doc.problem(
                    "rules.not-a-hand",
                    hand_path,
                    str(exc),
                    "name a high-card hand with three different ranks, e.g. Q-6-4",
                )

    table = _get(data, ("table",))
    table = table if isinstance(table, dict) else {}
    yield from _money_style_problems(doc, table)
    yield from _mix_problems(doc, data, table)
    minimum, maximum = table.get("minimum"), table.get("maximum")
    if isinstance(minimum, int) and isinstance(maximum, int) and minimum > maximum:
        yield doc.problem(
            "table.maximum-below-minimum",
            ("table", "maximum"),
            f"the maximum {maximum} is below the minimum {minimum}",
            "swap them",
        )

    yield from _wager_problems(doc, data)
    yield from _game_problems(doc, data)
    for table_path, outcomes in _paytables(data):
        yield from _paytable_problems(doc, table_path, outcomes)


def _money_style_problems(doc: YamlDocument, table: dict[str, Any]) -> Iterator[Problem]:
    """The currency must be one Babel (CLDR) knows, the locale one it has data for; chips above zero."""
    currency, locale = table.get("currency"), table.get("locale")
    if isinstance(currency, str) and currency in NOT_MONEY:
        yield doc.problem(
            "table.currency-not-money",
            ("table", "currency"),
            f"{currency} is not money a table pays in ({NOT_MONEY[currency]})",
            "use the ISO 4217 code of the table's currency, such as USD or EUR",
        )
    elif isinstance(currency, str) and len(currency) == 3 and currency.isupper():
        from babel.numbers import list_currencies

        known = list_currencies()
        if currency not in known:
            yield doc.problem(
                "table.currency-unknown",
                ("table", "currency"),
                f"unknown currency {currency!r}",
                did_you_mean(currency, known)
                if did_you_mean(currency, known).startswith("did")
                else "an ISO 4217 code",
            )
    if isinstance(locale, str):
        from babel import Locale, UnknownLocaleError

        try:
            Locale.parse(locale)
        except (UnknownLocaleError, ValueError):
            yield doc.problem(
                "table.locale",
                ("table", "locale"),
                f"unknown locale {locale!r}",
                "use a CLDR locale such as en_US or de_DE",
            )
    minor = _minor_unit(currency)
    for index, chip in enumerate(table.get("chips") or [] if isinstance(table.get("chips"), list) else []):
        value = _money_or_none(chip)
        if value == 0:
            yield doc.problem("table.chip-zero", ("table", "chips", index), "a chip of 0", "chips are worth something")
        elif value is not None and minor is not None and (value / minor).denominator != 1:
            yield doc.problem(
                "table.chip-below-minor-unit",
                ("table", "chips", index),
                f"a chip of {chip} is finer than the {currency}'s smallest unit ({exact_number_text(minor)})",
                f"give chips in whole multiples of {exact_number_text(minor)} {currency}",
            )


def _offered_side_bets(data: dict[str, Any]) -> list[str]:
    """The ids of the side bets a file offers: the presets under ``wagers:`` and the ``side_bets:``."""
    wagers, own = data.get("wagers"), data.get("side_bets")
    presets = [w for w in wagers if w != ANTE_PLAY] if isinstance(wagers, dict) else []
    return presets + (list(own) if isinstance(own, dict) else [])


def _mix_problems(doc: YamlDocument, data: dict[str, Any], table: dict[str, Any]) -> Iterator[Problem]:
    """The table's bet mix: each side bet one the game offers, shares within 0-100%, bets above 0, an occupancy
    above 0 and at most 100%, and the average Ante when the game has Ante & Play."""
    given = table.get("side_bets")
    mix: dict[str, Any] = given if isinstance(given, dict) else {}
    offered = _offered_side_bets(data)
    for wager, bet in mix.items():
        where = ("table", "side_bets", wager)
        if wager == ANTE_PLAY:
            yield doc.problem(
                "table.mix-ante-play",
                where,
                "Ante & Play is not a side bet of the mix: every seated player bets it",
                "give the average Ante as table: average_bet",
            )
        elif wager not in offered:
            hint = did_you_mean(wager, offered)
            yield doc.problem(
                "table.mix-unknown-wager",
                where,
                f"the game offers no side bet {wager!r}",
                hint if hint.startswith("did") else f"name one it offers: {', '.join(offered) or 'none'}",
            )
        if not isinstance(bet, dict):
            continue
        share = _share_or_none(bet.get("share"))
        if share is not None and share > 1:
            yield doc.problem(
                "table.mix-share-above-one",
                (*where, "share"),
                f"a share of {bet['share']} of the players on {wager}",
                "a share of players is 0 to 100%",
            )
        if _money_or_none(bet.get("average_bet")) == 0:
            yield doc.problem(
                "table.mix-bet-zero",
                (*where, "average_bet"),
                f"an average bet of 0 on {wager}",
                f"leave {wager} out of the mix when nobody bets it",
            )
    occupancy = _share_or_none(table.get("occupancy"))
    if occupancy is not None and not 0 < occupancy <= 1:
        yield doc.problem(
            "table.occupancy",
            ("table", "occupancy"),
            f"an occupancy of {table['occupancy']}",
            "the share of seats occupied is above 0 and at most 100%",
        )
    if not any(key in table for key in ("seats", "occupancy", "side_bets")):
        return
    has_ante = isinstance(data.get("wagers"), dict) and ANTE_PLAY in data["wagers"]
    if has_ante and "average_bet" not in table:
        yield doc.problem(
            "table.mix-without-average-bet",
            ("table",),
            "the table's bet mix has no average Ante",
            "give the seats' average Ante as table: average_bet",
        )
    elif not has_ante and not mix:
        yield doc.problem(
            "table.mix-no-bets",
            ("table",),
            "the table's bet mix names no wager",
            "list the side bets under table: side_bets, each with its share and average_bet",
        )


# ISO 4217 codes that name no money a casino table pays in.
NOT_MONEY = {
    "XXX": "the code for no currency",
    "XTS": "the code reserved for testing",
    "XAU": "gold",
    "XAG": "silver",
    "XPT": "platinum",
    "XPD": "palladium",
    "XDR": "the IMF's special drawing right",
    "XBA": "a European bond-market unit",
    "XBB": "a European bond-market unit",
    "XBC": "a European bond-market unit",
    "XBD": "a European bond-market unit",
    "XSU": "the SUCRE accounting unit",
    "XUA": "the ADB unit of account",
}


def _minor_unit(currency: object) -> Fraction | None:
    """The smallest unit of a currency CLDR knows (1/100 for USD, 1 for JPY), None for anything else."""
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isupper():
        return None
    from babel.numbers import get_currency_precision, list_currencies

    if currency not in list_currencies():
        return None
    return Fraction(1, 10 ** get_currency_precision(currency))


def _paytables(data: dict[str, Any]) -> Iterator[tuple[JsonPath, tuple[str, ...]]]:
    """Every paytable of the file with the outcomes it may list, rarest first."""
    yield ("wagers", "ante_play", "ante_bonus"), ANTE_BONUS_OUTCOMES
    yield ("game", "blind"), BLIND_OUTCOMES
    yield ("game", "play_pays"), PLAY_OUTCOMES
    yield ("game", "bad_beat"), PLAY_OUTCOMES
    for preset in PRESETS.values():
        yield ("wagers", preset.id), READINGS[preset.reads].outcome_slugs
    side_bets = _get(data, ("side_bets",))
    for bet_id, bet in (side_bets or {}).items() if isinstance(side_bets, dict) else ():
        reading = _reading_of(bet)
        if reading is not None:
            yield ("side_bets", bet_id, "pays"), reading.outcome_slugs


def _reading_of(bet: Any) -> Reading | None:
    reads = bet.get("reads") if isinstance(bet, dict) else None
    return READINGS.get(reads) if isinstance(reads, str) else None


def _wager_problems(doc: YamlDocument, data: dict[str, Any]) -> Iterator[Problem]:
    wagers = _get(data, ("wagers",))
    side_bets = _get(data, ("side_bets",))
    if not wagers and not side_bets and "wagers.none" not in {p.code for p in doc.problems}:
        yield doc.problem(
            "wagers.none",
            ("wagers",) if "wagers" in data else (),
            "no wager offered",
            "add ante_play, pair_plus, prime or six_card_bonus under wagers:, or a side bet under side_bets:",
        )
    if not isinstance(side_bets, dict):
        return
    if data.get("trey") == 1 and side_bets:
        yield doc.problem(
            "format.version-feature",
            ("side_bets",),
            "side_bets are format 2",
            "write 'trey: 2' as the first line",
            key=True,
        )
    for bet_id, bet in side_bets.items():
        if bet_id in PRESETS or bet_id == ANTE_PLAY:
            where = "under wagers:" if bet_id in PRESETS else "as the main game"
            yield doc.problem(
                "side-bet.id-clash",
                ("side_bets", bet_id),
                f"the id {bet_id!r} is the name of a wager trey knows ({where})",
                f"choose another id, or give the {bet_id} pays {where}",
                key=True,
            )
        reading = _reading_of(bet)
        pays = bet.get("pays") if isinstance(bet, dict) else None
        if reading is None or not isinstance(pays, dict):
            continue
        for outcome in pays:
            if outcome not in reading.outcome_slugs:
                yield doc.problem(
                    "side-bet.unknown-outcome",
                    ("side_bets", bet_id, "pays", outcome),
                    f"{reading.name} has no outcome {outcome!r}",
                    did_you_mean(outcome, reading.outcome_slugs),
                    key=True,
                )
        yield from _money_problems(doc, ("side_bets", bet_id), bet, reading)
        yield from _envy_on_fold_problems(doc, ("side_bets", bet_id), bet, reading)
        paying = [o for o, raw in pays.items() if o in reading.outcome_slugs and _wins(raw, bet.get("stake"))]
        reachable = [o for o in paying if not reading.unreachable(o)]
        readable = all(o in reading.outcome_slugs and _pay_or_none(raw) is not None for o, raw in pays.items())
        if not reachable and readable:
            yield doc.problem(
                "side-bet.never-pays",
                ("side_bets", bet_id, "pays"),
                f"the side bet {bet_id!r} can never pay: no listed outcome wins anything",
                "give at least one outcome a pay above 0",
            )


def _game_problems(doc: YamlDocument, data: dict[str, Any]) -> Iterator[Problem]:
    """A ``game:`` section is format 3 and describes the round of Ante & Play; another game than the standard one
    is counted with the optimal strategy, beside the side bets the engine can count (not, with a card face up, one
    lost on a fold that reads more than the player's cards); each Play bet once."""
    game = data.get("game")
    if not isinstance(game, dict):
        return
    if data.get("trey") in (1, 2):
        yield doc.problem(
            "format.version-feature",
            ("game",),
            f"the game: section is format {GAME_FORMAT_VERSION}",
            f"write 'trey: {GAME_FORMAT_VERSION}' as the first line",
            key=True,
        )
    options = game.get("options")
    if isinstance(options, list):
        seen: dict[int, int] = {}
        for index, option in enumerate(options):
            multiple = option.get("play") if isinstance(option, dict) else None
            if isinstance(multiple, int) and not isinstance(multiple, bool):
                if multiple in seen:
                    yield doc.problem(
                        "game.options-duplicate",
                        ("game", "options", index, "play"),
                        f"a Play bet of {multiple}x is already offered (options[{seen[multiple]}])",
                        "offer each Play bet once, with its requirement",
                    )
                seen.setdefault(multiple, index)
    if game.get("play_pays_when_dealer_does_not_qualify") is True and game.get("play_needs_qualifier") is False:
        yield doc.problem(
            "game.play-pays-conflict",
            ("game", "play_pays_when_dealer_does_not_qualify"),
            "the Play cannot both be decided against a dealer who does not qualify (play_needs_qualifier: false) "
            "and be paid as a win there",
            "leave play_needs_qualifier out (true), or play_pays_when_dealer_does_not_qualify out",
        )
    wagers = data.get("wagers")
    ante_play = isinstance(wagers, dict) and "ante_play" in wagers
    if not ante_play:
        yield doc.problem(
            "game.without-ante-play",
            ("game",),
            "the game: section describes the round of Ante & Play, which the file does not offer",
            "add ante_play under wagers:, or leave game: out",
            key=True,
        )
    shape = _round_or_none(game)
    if shape is None or shape.is_standard:
        return
    for where in _uncounted_side_bets(data, shape):
        yield doc.problem(
            "game.side-bets",
            where,
            SIDE_BET_NOT_COUNTED,
            "let the bet stand on a fold (on_fold: stands), or give it a paytable of its own",
            key=True,
        )
    strategy = _get(data, ("wagers", "ante_play", "strategy"))
    if ante_play and strategy is not None and strategy != str(StrategyKind.OPTIMAL):
        yield doc.problem(
            "game.strategy",
            ("wagers", "ante_play", "strategy"),
            "a game other than standard Three Card Poker is played with the optimal strategy",
            "write strategy: optimal, or leave it out",
        )


def _uncounted_side_bets(data: dict[str, Any], shape: RoundShape) -> Iterator[JsonPath]:
    """The side bets the engine cannot count beside this round (:func:`~trey.paytable.model.side_bet_counted_beside`):
    with a card face up, those lost on a fold that read more than the player's cards, or carry a progressive or an
    envy bonus."""
    if shape.face_up == 0:
        return
    wagers, side_bets = data.get("wagers"), data.get("side_bets")
    rules = data["rules"] if isinstance(data.get("rules"), dict) else {}
    for preset in PRESETS.values():
        if isinstance(wagers, dict) and preset.id in wagers:
            on_fold = preset.on_fold or OnFold(rules.get("pair_plus_on_fold", DEFAULT_RULES.pair_plus_on_fold))
            seat = READINGS[preset.reads].seat
            if on_fold is OnFold.LOST and seat is not Seat.PLAYER:
                yield ("wagers", preset.id)
    for bet_id, bet in side_bets.items() if isinstance(side_bets, dict) else ():
        reading = _reading_of(bet)
        if reading is None or bet.get("on_fold", str(SIDE_BET_ON_FOLD)) != str(OnFold.LOST):
            continue
        if reading.seat is not Seat.PLAYER or "progressive" in bet or "envy" in bet:
            yield ("side_bets", bet_id)


def _round_or_none(game: dict[str, Any]) -> RoundShape | None:
    """The round a ``game:`` section describes, or None when it cannot be read (its problems are reported apart)."""
    try:
        return _round(game)
    except (KeyError, TypeError, ValueError, AttributeError, OddsError):
        return None


def _round(game: dict[str, Any] | None) -> RoundShape:
    """The round of a ``game:`` section that passed every check (the standard game's when there is none)."""
    if game is None:
        return STANDARD_ROUND
    options = []
    for option in game.get("options", [o.canonical() for o in STANDARD_ROUND.options]):
        at_least = DealerQualifier.parse(option["at_least"]) if "at_least" in option else None
        if at_least is not None and at_least.kind is QualifierKind.NONE:
            at_least = None  # 'none': every hand may take it, as without a requirement
        options.append(PlayOption(option["play"], at_least))
    blind = game.get("blind")
    return RoundShape(
        face_up=game.get("face_up", STANDARD_ROUND.face_up),
        options=tuple(sorted(options, key=lambda o: o.multiple)),
        ante_when_dealer_does_not_qualify=AnteWithoutQualifier(
            game.get("ante_when_dealer_does_not_qualify", STANDARD_ROUND.ante_when_dealer_does_not_qualify)
        ),
        play_needs_qualifier=game.get("play_needs_qualifier", STANDARD_ROUND.play_needs_qualifier),
        blind=_paytable(BLIND_OUTCOMES, blind) if blind is not None else None,
        play_pays=_paytable(PLAY_OUTCOMES, game["play_pays"]) if game.get("play_pays") is not None else None,
        play_pays_on_tie=game.get("play_pays_on_tie", STANDARD_ROUND.play_pays_on_tie),
        play_pays_when_dealer_does_not_qualify=game.get(
            "play_pays_when_dealer_does_not_qualify", STANDARD_ROUND.play_pays_when_dealer_does_not_qualify
        ),
        bad_beat=_paytable(PLAY_OUTCOMES, game["bad_beat"]) if game.get("bad_beat") is not None else None,
    )


def _envy_on_fold_problems(
    doc: YamlDocument, path: JsonPath, bet: dict[str, Any], reading: Reading
) -> Iterator[Problem]:
    """``envy_on_fold`` says what a fold does to the envy bonus of a bet lost on a fold: it needs an envy bonus and
    such a bet, and ``lost`` is counted exactly for a bet on the player's own hand (another bettor's outcome on any
    other reading shares the dealer's cards, which the count by hand does not see)."""
    if "envy_on_fold" not in bet:
        return
    where = (*path, "envy_on_fold")
    if not bet.get("envy"):
        yield doc.problem(
            "side-bet.envy-on-fold",
            where,
            "envy_on_fold without an envy bonus",
            "give the bet its envy: amounts, or leave envy_on_fold out",
            key=True,
        )
    elif bet.get("on_fold", str(SIDE_BET_ON_FOLD)) != str(OnFold.LOST):
        yield doc.problem(
            "side-bet.envy-on-fold",
            where,
            "the bet stands on a fold, and its envy bonus with it: envy_on_fold is for a bet lost on a fold",
            "write on_fold: lost for a bet lost with the Ante, or leave envy_on_fold out",
            key=True,
        )
    elif bet.get("envy_on_fold") == str(EnvyOnFold.LOST) and reading.name != "player_hand":
        yield doc.problem(
            "side-bet.envy-on-fold",
            where,
            f"an envy bonus lost on a fold is counted for a bet on the player's hand only; another bettor's "
            f"{reading.name} outcome shares the dealer's cards",
            "read player_hand, or write envy_on_fold: paid",
        )


def _money_problems(doc: YamlDocument, path: JsonPath, bet: dict[str, Any], reading: Reading) -> Iterator[Problem]:
    """A bet paying amounts, meter shares or envy needs a stake; meter shares need a meter; envy its outcomes."""
    pays = bet.get("pays") or {}
    kinds = {o: type(_pay_or_none(raw)) for o, raw in pays.items()}
    needs_stake = [o for o, kind in kinds.items() if kind in (Amount, MeterShare)]
    if (needs_stake or bet.get("envy")) and "stake" not in bet:
        what = f"the {needs_stake[0]} pay" if needs_stake else "the envy bonus"
        yield doc.problem(
            "side-bet.stake-required",
            path,
            f"{what} is an amount: the bet needs its fixed stake",
            "add 'stake: 1', the wager in the table's currency",
        )
    for outcome, kind in kinds.items():
        if kind is MeterShare and not isinstance(bet.get("progressive"), dict):
            yield doc.problem(
                "side-bet.meter-without-progressive",
                (*path, "pays", outcome),
                "a meter share needs a progressive meter",
                "add progressive: {reset: 5000, increment: '10%'} to the bet",
            )
    stake = _money_or_none(bet.get("stake"))
    if stake == 0:
        yield doc.problem("side-bet.stake-zero", (*path, "stake"), "the stake is 0", "give what one bet costs, e.g. 1")
    meter = bet.get("progressive")
    increment = _share_or_none(meter.get("increment")) if isinstance(meter, dict) else None
    if increment is not None and increment >= 1:
        yield doc.problem(
            "progressive.increment-range",
            (*path, "progressive", "increment"),
            f"an increment of {percent_text_exact(increment)} of every stake",
            "the meter gets a share of each stake below 100%, e.g. '10%'",
        )
    envy = bet.get("envy")
    for outcome in envy if isinstance(envy, dict) else ():
        if outcome not in reading.outcome_slugs:
            yield doc.problem(
                "side-bet.unknown-outcome",
                (*path, "envy", outcome),
                f"{reading.name} has no outcome {outcome!r}",
                did_you_mean(outcome, reading.outcome_slugs),
                key=True,
            )


def _money_or_none(raw: Any) -> Fraction | None:
    try:
        return parse_money(raw) if raw is not None else None
    except OddsError:
        return None


def _share_or_none(raw: Any) -> Fraction | None:
    try:
        return parse_share(raw)
    except OddsError:
        return None


def _pay_or_none(raw: Any) -> object:
    try:
        return parse_pay(raw)
    except OddsError:
        return None


def _wins(raw: Any, stake: Any) -> bool:
    """Whether a pay as written can win anything (a meter share can: the meter grows)."""
    try:
        pay = parse_pay(raw)
    except OddsError:
        return False
    try:
        known: Fraction | None = parse_money(stake)
    except OddsError:
        known = None  # no stake, or one that cannot be read: reported on its own
    return pay.can_win(known)


def _paytable_problems(doc: YamlDocument, table_path: JsonPath, outcomes: tuple[str, ...]) -> Iterator[Problem]:
    pays = _get(doc.data, table_path)
    if not isinstance(pays, dict):
        return
    parsed: dict[str, Odds] = {}
    for outcome, raw in pays.items():
        try:
            pay = parse_pay(raw)
        except OddsError as exc:
            yield doc.problem(exc.code, (*table_path, outcome), str(exc), exc.hint)
            continue
        if not isinstance(pay, Odds):
            continue  # amounts and meter shares: checked with the bet's stake
        odds = parsed[outcome] = pay
        if odds.numerator == 0:
            yield _warning(
                doc,
                "odds.zero",
                (*table_path, outcome),
                f"'{odds}' pays nothing: the bet is returned and nothing more",
                "leave the row out if the hand loses, or give the pay",
            )
        if odds.wording is OddsWording.FOR:
            yield _warning(
                doc,
                "odds.for-wording",
                (*table_path, outcome),
                f"'{odds}' uses 'for' wording",
                f"New Jersey requires 'to' or 'win': write '{odds.to_one_text}'",
            )
    ordered = [o for o in outcomes if o in parsed]
    for i, rarer in enumerate(ordered):
        for commoner in ordered[i + 1 :]:
            if parsed[rarer].net < parsed[commoner].net:
                yield _warning(
                    doc,
                    "paytable.rarer-pays-less",
                    (*table_path, rarer),
                    f"{rarer} ({parsed[rarer]}) pays less than the commoner {commoner} ({parsed[commoner]})",
                    "a rarer hand usually pays more; check the table",
                )


def _warning(doc: YamlDocument, code: str, path: JsonPath, message: str, hint: str) -> Problem:
    return replace(doc.problem(code, path, message, hint), severity=Severity.WARNING)


# --- Model --------------------------------------------------------------------------------------------------


def _paytable(outcomes: tuple[str, ...], pays: dict[str, Any] | None) -> Paytable:
    return Paytable.from_mapping(outcomes, {k: parse_pay(v) for k, v in (pays or {}).items()})


def _progressive(data: dict[str, Any] | None) -> Progressive | None:
    if data is None:
        return None
    return Progressive(parse_money(data["reset"]), parse_share(data["increment"]), data.get("other_bettors", 0))


# The defaults of what a file leaves out: the model's (the schema's defaults are generated from the same).
DEFAULT_RULES, DEFAULT_TABLE = Rules(), Table()


def _build_spec(data: dict[str, Any]) -> GameSpec:
    """Build the model from data that passed every check."""
    rules_data = data.get("rules", {})
    rules = Rules(
        dealer_qualifier=DealerQualifier.parse(
            rules_data.get("dealer_qualifier", DEFAULT_RULES.dealer_qualifier.label)
        ),
        ties=Ties(rules_data.get("ties", DEFAULT_RULES.ties)),
        ante_bonus_requires_play=rules_data.get("ante_bonus_requires_play", DEFAULT_RULES.ante_bonus_requires_play),
        pair_plus_on_fold=OnFold(rules_data.get("pair_plus_on_fold", DEFAULT_RULES.pair_plus_on_fold)),
    )
    table = None
    if "table" in data:
        t = data["table"]
        table = Table(
            currency=t.get("currency", DEFAULT_TABLE.currency),
            minimum=t.get("minimum"),
            maximum=t.get("maximum"),
            chips=tuple(sorted(parse_money(chip) for chip in t.get("chips", ()))),
            payout_cap=t.get("payout_cap"),
            payout_cap_covers_progressive=t.get(
                "payout_cap_covers_progressive", DEFAULT_TABLE.payout_cap_covers_progressive
            ),
            decisions_per_hour=t.get("decisions_per_hour"),
            average_bet=parse_money(t["average_bet"]) if "average_bet" in t else None,
            locale=t.get("locale"),
            seats=t.get("seats"),
            occupancy=parse_share(t["occupancy"]) if "occupancy" in t else None,
            side_bet_mix=tuple(
                (wager, parse_share(bet["share"]), parse_money(bet["average_bet"]))
                for wager, bet in (t.get("side_bets") or {}).items()
            ),
        )
    w = data.get("wagers") or {}
    ante_play = None
    if "ante_play" in w:
        ap = w["ante_play"] or {}
        raw_strategy = ap.get("strategy", str(Strategy().kind))
        if isinstance(raw_strategy, dict):
            strategy = Strategy(StrategyKind.PLAY_AT_LEAST, parse_high_card_hand(raw_strategy["play_at_least"]))
        else:
            strategy = Strategy(StrategyKind(raw_strategy))
        ante_play = AntePlay(_paytable(ANTE_BONUS_OUTCOMES, ap.get("ante_bonus")), strategy)
    else:
        # Without Ante & Play nothing qualifies, ties or folds: the rules are left at their defaults, so that the
        # canonical game (which then omits them) reads back equal, and no document describes rules not in play.
        rules = Rules()
    side_bets = []
    for preset in PRESETS.values():
        if preset.id in w:
            on_fold = preset.on_fold or rules.pair_plus_on_fold
            pays = _paytable(READINGS[preset.reads].outcome_slugs, w[preset.id])
            side_bets.append(SideBet(preset.id, preset.title, preset.reads, pays, on_fold))
    for bet_id, bet in (data.get("side_bets") or {}).items():
        reading = READINGS[bet["reads"]]
        envy = bet.get("envy") or {}
        side_bets.append(
            SideBet(
                bet_id,
                bet.get("title", default_title(bet_id)),
                reading.name,
                _paytable(reading.outcome_slugs, bet["pays"]),
                OnFold(bet.get("on_fold", SIDE_BET_ON_FOLD)) if ante_play is not None else OnFold.STANDS,
                stake=parse_money(bet["stake"]) if "stake" in bet else None,
                envy=tuple((o, parse_money(envy[o])) for o in reading.outcome_slugs if o in envy),
                progressive=_progressive(bet.get("progressive")),
                envy_on_fold=EnvyOnFold(bet.get("envy_on_fold", ENVY_ON_FOLD))
                if ante_play is not None
                else ENVY_ON_FOLD,
            )
        )
    wagers = Wagers(ante_play=ante_play, side_bets=tuple(side_bets))
    return GameSpec(
        name=data["name"],
        wagers=wagers,
        rules=rules,
        table=table,
        operator=data.get("operator"),
        description=data.get("description"),
        source=data.get("source"),
        game=_round(data.get("game")),
    )


__all__ = [
    "CheckResult",
    "Location",
    "check_bytes",
    "check_data",
    "check_file",
    "json_path",
    "load_spec",
    "validation_json",
]
