"""The certificate as HTML: every figure formatted here, once, so the template only places strings."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trey.cards.readings import READINGS
from trey.core.numbers import (
    break_even_text,
    decimal_text,
    fraction_text,
    one_in_text,
    percent_text,
    sqrt_decimal,
    to_decimal,
)
from trey.documents.charts import (
    Contribution,
    Contributions,
    chart_groups,
    chart_scale,
    contribution_svg,
    rtp_meter_svg,
)
from trey.documents.environment import render
from trey.documents.hold_view import hold_confidence
from trey.engine.progressive import ProgressiveAnalysis
from trey.engine.results import AntePlayAnalysis, WagerAnalysis
from trey.engine.stats import OutcomeRow, WagerStats
from trey.figures.registry import (
    AVERAGE_WAGER,
    CYCLE,
    DEALER_QUALIFIES,
    ELEMENT_OF_RISK,
    HIT_FREQUENCY,
    HOUSE_EDGE,
    LARGEST_WIN,
    RANGE_CONFIDENCE,
    RANGE_ROUNDS,
    RTP,
    STD_DEV,
    VARIANCE,
    VOLATILITY_INDEX_90,
    VOLATILITY_INDEX_95,
    rtp_ranges,
)
from trey.figures.theo import theo_sentence, theoretical_wins
from trey.paytable.model import ANTE_PLAY, GameSpec, money_style
from trey.paytable.odds import Odds
from trey.paytable.pays import percent_text_exact
from trey.paytable.yamldoc import canonical_yaml
from trey.present.labels import (
    HAND_ORDER,
    hand_label,
    outcome_label,
    pay_label,
    qualifier_sentence,
    resolution_rows,
    strategy_kind_words,
    variant_rows,
)
from trey.protect.protection import strategy_words
from trey.trust.certificate import Certificate, python_version
from trey.trust.compliance import Verdict, judged_figure_sentence

FOOTER_NAME_CHARS = 60  # the footer names the game after the certificate ID; a longer name is cut to one line

NOTICE = (
    "This certificate is a mathematical evaluation of the paytable identified above, produced by software. "
    "It is not a regulator's approval: only the competent authority approves a game and its paytables."
)


def with_fraction(value: Fraction, places: int = 4) -> str:
    return f"{percent_text(value, places)} ({fraction_text(value)})"


PLACES = 4  # of a percentage in the PAR tables (and on the chart's bars, which print the table's text)


def _par_rows(result: WagerAnalysis) -> list[OutcomeRow]:
    """A wager's PAR table: its outcomes, then for Ante & Play the Ante Bonus rows, paid on top."""
    return [*result.outcomes, *(result.ante_bonus if isinstance(result, AntePlayAnalysis) else ())]


def _par_row(row: OutcomeRow, wager: str) -> dict[str, str]:
    return {
        "outcome": outcome_label(row.outcome, wager=wager, bonus=not row.returns_stake),
        "pays": fraction_text(row.pays) if row.pays >= 0 or row.returns_stake else "",
        "combinations": f"{row.combinations:,}",
        "probability": decimal_text(row.probability, 8),
        "exact": fraction_text(row.probability),
        "one_in": one_in_text(row.one_in).removeprefix("1 in "),
        "contribution": percent_text(row.contribution, PLACES),
        "return": percent_text(row.expected_net, PLACES),
    }


def _contributions(result: WagerAnalysis) -> list[Contribution]:
    """The rows of the wager's PAR table that contribute to RTP (not the side bets' losing rows, nor a fold), each
    with its contribution as the table gives it."""
    return [
        Contribution(
            outcome_label(r.outcome, wager=result.wager, bonus=not r.returns_stake),
            float(r.contribution * 100),
            percent_text(r.contribution, PLACES),
        )
        for r in _par_rows(result)
        if r.contribution
    ]


def _by_hand(result: AntePlayAnalysis) -> dict[str, Any]:
    """Ante & Play's outcomes by the player's hand, the rows that happen under the strategy."""
    rows = [
        {
            "hand": hand_label(r.hand),
            "outcome": r.situation.label,
            "pays": fraction_text(r.pays),
            "combinations": f"{r.combinations:,}",
            "probability": decimal_text(r.probability, 8),
            "return": percent_text(r.expected_net, PLACES),
        }
        for r in result.by_hand
        if r.combinations
    ]
    never = len(result.by_hand) - len(rows)
    return {
        "rows": rows,
        "total_combinations": f"{sum(r.combinations for r in result.by_hand):,}",
        "total_return": percent_text(sum((r.expected_net for r in result.by_hand), Fraction(0)), PLACES),
        "never": never,
    }


BEYOND = "†"  # marks a range bound no session can reach: the normal approximation fails there


def _rtp_ranges(results: list[WagerAnalysis]) -> list[dict[str, Any]]:
    """The range of each wager's realised RTP after each session length, at each confidence; a bound below the
    lowest RTP a session can have (every round its largest loss) is marked."""
    wagers = []
    for result in results:
        ranges = {(r.rounds, r.confidence): r for r in rtp_ranges(result.stats)}
        floor = to_decimal(1 + min(r.net for r in result.net_results))
        rows = []
        for rounds in RANGE_ROUNDS:
            cells = [ranges[rounds, confidence] for confidence, _ in RANGE_CONFIDENCE]
            texts = [
                f"{decimal_text(c.low * 100, PLACES)}%{' ' + BEYOND if c.low < floor else ''} to "
                f"{decimal_text(c.high * 100, PLACES)}%"
                for c in cells
            ]
            rows.append({"rounds": f"{rounds:,}", "cells": texts})
        wagers.append({"title": result.title, "rtp": percent_text(result.stats.rtp, PLACES), "rows": rows})
    return wagers


@dataclass(frozen=True)
class MeterRange:
    """The meters a progressive's chart spans: from the reset to twice the break-even meter (or to twice the reset
    when the break-even is not above it); ``marked``: the break-even meter when the chart shows it."""

    top: Fraction
    marked: Fraction | None

    @classmethod
    def of(cls, p: ProgressiveAnalysis) -> MeterRange:
        break_even = p.break_even()
        top = 2 * break_even if break_even is not None and break_even > p.reset else 2 * p.reset + 1
        marked = break_even if break_even is not None and p.reset <= break_even <= top else None
        return cls(top, marked)

    def points(self, p: ProgressiveAnalysis) -> list[tuple[float, float]]:
        meters = (p.reset + (self.top - p.reset) * Fraction(i, 40) for i in range(41))
        return [(float(m), float(p.rtp_at(m))) for m in meters]


@dataclass(frozen=True)
class MeterChart:
    """A progressive's RTP against its meter: (meter, RTP) points, the break-even meter when shown, the currency."""

    points: list[tuple[float, float]]
    break_even: float | None
    currency: str


def footer_name(name: str) -> str:
    """The game's name as the footer gives it, cut to one line."""
    return name if len(name) <= FOOTER_NAME_CHARS else name[: FOOTER_NAME_CHARS - 1] + "…"


@dataclass(frozen=True)
class ChartInputs:
    """What a certificate's charts show, as plain data: they may be drawn in another process."""

    contributions: tuple[Contributions, ...]
    meters: dict[str, MeterChart]  # by progressive wager


@dataclass(frozen=True)
class CertificateCharts:
    """Every chart of a certificate, as SVG."""

    contribution: tuple[str, ...]  # one chart per page's worth of wagers (charts.chart_groups)
    meters: dict[str, str]  # by progressive wager: its RTP against its meter


def chart_inputs(cert: Certificate) -> ChartInputs:
    """The data of every chart of the certificate, drawn by :func:`draw_charts`."""
    results = cert.analysis.wagers.values()
    currency = money_style(cert.spec.table).currency
    meters = {}
    for r in results:
        if r.progressive is not None:
            meter_range = MeterRange.of(r.progressive)
            marked = None if meter_range.marked is None else float(meter_range.marked)
            meters[r.wager] = MeterChart(meter_range.points(r.progressive), marked, currency)
    return ChartInputs(
        contributions=tuple(Contributions(r.title, _contributions(r)) for r in results),
        meters=meters,
    )


def draw_charts(inputs: ChartInputs) -> CertificateCharts:
    """The certificate's charts: the contributions to RTP drawn once for all its wagers, and each progressive's
    meter."""
    if not inputs.contributions:  # a family game's certificate draws none (issue 31)
        return CertificateCharts((), {})
    scale = chart_scale(inputs.contributions)
    return CertificateCharts(
        contribution=tuple(contribution_svg(group, scale) for group in chart_groups(inputs.contributions)),
        meters={wager: rtp_meter_svg(m.points, m.break_even, m.currency) for wager, m in inputs.meters.items()},
    )


def _progressive(result: WagerAnalysis, spec: GameSpec, charts: CertificateCharts) -> dict[str, Any] | None:
    """A progressive's section: its parameters as regulators list them, the RTP against the meter, envy."""
    p = result.progressive
    if p is None:
        return None
    bet = spec.wagers.side_bet(result.wager)
    style = money_style(spec.table)
    money = style.money

    parameters = [
        ("Wager (stake)", money(p.stake)),
        ("Reset (the meter at the start and after a 100% jackpot, seeded by the house)", money(p.reset)),
        ("Increment (share of every stake added to the meter)", percent_text_exact(p.increment)),
        *((f"Meter share: {outcome_label(o)}", pay.words(money)) for o, pay in bet.pays if pay.reads_meter),
        *((f"Envy, when another bettor holds: {outcome_label(o)}", money(a)) for o, a in bet.envy),
        ("Other progressive bettors assumed", str(p.other_bettors)),
    ]
    break_even = p.break_even()
    exact_break_even = f" ({fraction_text(break_even)})" if break_even is not None and break_even >= p.reset else ""
    envied = f"with {p.other_bettors} other bettors' envy"
    figures = [
        (
            "RTP at a meter M (exact coefficients)",
            f"{fraction_text(p.fixed)} + {fraction_text(p.meter_coefficient)} × M"
            + (f" + {fraction_text(p.envy_per_bettor)} × other bettors" if p.envy_per_bettor else ""),
        ),
        (f"RTP at the reset ({money(p.reset)}), lone bettor: the wager's RTP", with_fraction(p.rtp_at_reset)),
        ("Break-even meter (RTP = 100%), lone bettor", break_even_text(break_even, p.reset, money) + exact_break_even),
        (
            "Long-run RTP, lone bettor (model: the meter fed by the increment of every stake, reseeded to the reset "
            "by the house after every 100% jackpot; every contributed amount is paid out in the long run)",
            with_fraction(p.long_run_rtp),
        ),
        *(
            [
                (f"RTP at the reset, {envied}", with_fraction(p.rtp_at_reset_with_envy)),
                (f"Long-run RTP, {envied}", with_fraction(p.long_run_rtp_with_envy)),
            ]
            if p.other_bettors
            else []
        ),
        ("Hit frequency / standard deviation at reset", _stats_text(p.stats_at_reset)),
    ]
    if p.stats_at_break_even is not None:
        figures.append(
            ("Hit frequency / standard deviation at the break-even meter", _stats_text(p.stats_at_break_even))
        )
    envy = [
        (
            str(row.other_bettors),
            percent_text(row.rtp_at_reset, 4),
            break_even_text(row.break_even_meter, p.reset, money),
            percent_text(row.long_run_rtp, 4),
        )
        for row in p.envy_table()
    ]
    meters = MeterRange.of(p)
    caption = (
        f"{result.title}: a lone bettor's RTP against the meter, from the reset to {money(meters.top)}; the dashed "
        "line is 100%" + ("." if meters.marked is None else ", the red line the break-even meter.")
    )
    return {
        "parameters": parameters,
        "figures": figures,
        "chart": charts.meters[result.wager],
        "caption": caption,
        "envy": envy,
    }


def _stats_text(stats: WagerStats) -> str:
    sd = decimal_text(sqrt_decimal(stats.variance), STD_DEV.places)
    return f"{percent_text(stats.hit_frequency, HIT_FREQUENCY.places)} / {sd} per unit staked"


def _wager(wager: str, result: WagerAnalysis, spec: GameSpec, charts: CertificateCharts) -> dict[str, Any]:
    rows = [_par_row(r, wager) for r in _par_rows(result)]
    at_reset = " at the reset, lone bettor" if result.progressive is not None else ""
    figures = [(CYCLE.document_title, f"{CYCLE.text(result)} equally likely deals")]
    for figure in (RTP, HOUSE_EDGE, HIT_FREQUENCY, VARIANCE):
        label = figure.document_title + (at_reset if figure in (RTP, HOUSE_EDGE) else "")
        figures.append((label, f"{figure.text(result)} ({figure.exact_text(result)})"))
    figures += [(f.document_title, f.text(result)) for f in (STD_DEV, VOLATILITY_INDEX_90, VOLATILITY_INDEX_95)]
    figures.append((LARGEST_WIN.document_title, LARGEST_WIN.text(result)))
    unit = "per unit bet"
    if result.progressive is not None:
        reset = money_style(spec.table).money(result.progressive.reset)
        unit = (
            f"per unit staked, with the meter at its reset ({reset}); pays are net "
            "(an amount or a meter share is paid for the stake, which is not returned besides)"
        )
    unit += "; return = probability × pays, the rows adding up to −house edge"
    by_hand = None
    if isinstance(result, AntePlayAnalysis):
        unit = (
            "per Ante. Pays: the net of Ante and Play together (a lost hand costs 2 Antes), the Ante Bonus rows paid "
            "on top; contribution to RTP = probability × (1 + pays), an Ante Bonus row's probability × pays; return "
            "= probability × pays, the rows adding up to −house edge"
        )
        figures += [
            (AVERAGE_WAGER.document_title, f"{AVERAGE_WAGER.text(result)} Antes ({AVERAGE_WAGER.exact_text(result)})"),
            (ELEMENT_OF_RISK.document_title, f"{ELEMENT_OF_RISK.text(result)} ({ELEMENT_OF_RISK.exact_text(result)})"),
            (
                DEALER_QUALIFIES.label,
                f"{DEALER_QUALIFIES.text(result)} ({DEALER_QUALIFIES.exact_text(result)}) of all deals",
            ),
            ("Strategy", f"{strategy_kind_words(result.strategy.kind)}: {result.strategy.rule}"),
            ("Hands played / folded", f"{result.strategy.hands_played:,} / {result.strategy.hands_folded:,} of 22,100"),
        ]
        by_hand = _by_hand(result)
    par = _par_rows(result)
    return {
        "key": wager,
        "title": result.title,
        "unit": unit,
        "rows": rows,
        "total_combinations": f"{sum(r.combinations for r in result.outcomes):,}",
        "total_contribution": percent_text(sum((r.contribution for r in par), Fraction(0)), PLACES),
        "total_return": percent_text(sum((r.expected_net for r in par), Fraction(0)), PLACES),
        "figures": figures,
        "by_hand": by_hand,
        "progressive": _progressive(result, spec, charts),
    }


def _paytables(cert: Certificate) -> list[dict[str, Any]]:
    wagers = cert.spec.wagers
    tables = []
    for wager in wagers.ids:
        paytable = wagers.paytable(wager)
        style = money_style(cert.spec.table)
        rows = [
            (outcome_label(o), pay_label(pay, style), isinstance(pay, Odds) and pay.wording.value == "for")
            for o, pay in paytable
        ]
        if wager == ANTE_PLAY:
            tables.append({"title": "Ante & Play: Ante Bonus", "rows": rows, "empty": "no Ante Bonus", "reads": ""})
        else:
            bet = wagers.side_bet(wager)
            reads = f"Paid on {READINGS[bet.reads].title}; a deal is paid by the rarest row it fits."
            tables.append({"title": bet.title, "rows": rows, "empty": "no paying row", "reads": reads})
    return tables


def _reads_three_card_hands(spec: GameSpec) -> bool:
    """Whether a wager is settled on a three-card hand's rank (the hand order in force applies to it)."""
    return spec.wagers.ante_play is not None or any(
        READINGS[b.reads].ranks_three_card_hands for b in spec.wagers.side_bets
    )


def _method(cert: Certificate) -> list[str]:
    """How each wager of this certificate is counted, and only those."""
    lines = []
    for result in cert.analysis.wagers.values():
        if isinstance(result, AntePlayAnalysis):
            lines.append(
                "Ante & Play counts, for each of the 22,100 player hands, the 18,424 dealer hands by outcome using "
                "inclusion–exclusion over the player's three cards."
            )
            continue
        bet = cert.spec.wagers.side_bet(result.wager)
        reading = READINGS[bet.reads]
        line = f"{result.title} counts {reading.title} over all {reading.cycle:,} equally likely deals of them"
        if result.cycle != reading.cycle:  # lost on a fold: over the player/dealer deals
            line += (
                f"; as it is lost when the player folds, it is counted over the {result.cycle:,} player/dealer "
                "deals, those the player folds lost"
            )
        lines.append(line + ".")
    return lines


def _disclosure(cert: Certificate) -> list[str]:
    lines = []
    for result in cert.analysis.wagers.values():
        if isinstance(result, AntePlayAnalysis):
            kind = result.strategy.kind
            strategy = "optimal strategy" if kind == "optimal" else f"the strategy '{strategy_kind_words(kind)}'"
            lines.append(
                f"Ante & Play: theoretical return to player with {strategy}: "
                f"{percent_text(1 - result.element_of_risk, 2)} of the total amount wagered "
                f"(house edge {percent_text(result.stats.house_edge, 2)} of the Ante)."
            )
        elif result.progressive is not None:
            p = result.progressive
            reset = money_style(cert.spec.table).money(p.reset)
            lines.append(
                f"{result.title}: theoretical return to player {percent_text(p.rtp_at_reset, 2)} with the meter at "
                f"the reset of {reset}, rising with the meter; {percent_text(p.long_run_rtp, 2)} in the long run "
                "(the meter fed by every stake and reseeded by the house); both for a player alone at the table."
            )
        else:
            lines.append(
                f"{result.title}: theoretical return to player {percent_text(result.stats.rtp, 2)} "
                f"(house edge {percent_text(result.stats.house_edge, 2)})."
            )
    return lines


def simulation_rows(cert: Certificate) -> dict[str, Any] | None:
    sim = cert.simulation
    if sim is None:
        return None
    rows = []
    for w in sim.wagers.values():
        low, high = w.interval_95
        rows.append(
            {
                "wager": w.title,
                "observed": percent_text(w.observed_rtp, 4),
                "exact": percent_text(w.exact_rtp, 4),
                "interval": f"{low:.4%} to {high:.4%}",
                "z": f"{w.z_score:+.2f}",
                "chi": f"{w.chi_square:.2f} ({w.degrees_of_freedom} df), p = {w.p_value:.4g}",
                "result": str(Verdict.of(w.passed)),
            }
        )
    return {
        "rounds": f"{sim.rounds:,}",
        "seed": str(sim.seed),
        "generator": sim.generator,
        "rows": rows,
        "result": str(Verdict.of(sim.passed)),
    }


def reader_commands(cert: Certificate, json_name: str, paytable_name: str) -> dict[str, str]:
    """The commands printed for the reader to paste: every file name quoted for a POSIX shell, so that a name
    such as ``$(touch x).yaml`` is text, never code."""
    data = cert.data
    certify = ["trey", "certify", paytable_name, "--out", "DIR", "--date", data["issue_date"]]
    # A custom profile is a file whose path the certificate does not record: PROFILE.yaml stands for it.
    profile = cert.profile.name if "profile_sha256" not in data else "PROFILE.yaml"
    certify += ["--profile", profile, "--paper", data["paper"]]
    if data["simulation"] is not None:
        certify += ["--simulate", str(data["simulation"]["rounds"]), "--seed", str(data["simulation"]["seed"])]
    return {
        "analyze_command": shlex.join(["trey", "analyze", paytable_name, "--format", "json"]),
        "certify_command": shlex.join(certify),
        "verify_command": shlex.join(["trey", "verify", json_name, "--paytable", paytable_name]),
        "verify_pdf_command": shlex.join(["trey", "verify", json_name.removesuffix(".json") + ".pdf"]),
    }


def signed_by_line(block: dict[str, str] | None) -> str:
    """The cover's signer line: the name the signer gives, its algorithm and key (a reader checks the PDF signature
    in its signature panel; trey verify --trust names the trusted key)."""
    if not block:
        return "not signed"
    algorithm, key = block["algorithm"], block["fingerprint"]
    return f"{block['signer']} ({algorithm}, key {key}); the PDF carries the lab's PDF signature"


# The certificate's numbered sections, in order; game protection only when the certificate has it.
SECTIONS = (
    "scope",
    "rules",
    "paytables",
    "method",
    "wagers",
    "checks",
    "simulation",
    "protection",
    "ranges",
    "charts",
    "disclosure",
)


def section_numbers(*, protection: bool) -> dict[str, int]:
    """Each section's number: consecutive, whichever sections the certificate has."""
    present = [s for s in SECTIONS if protection or s != "protection"]
    return {name: number for number, name in enumerate(present, 1)}


def certificate_context(
    cert: Certificate, *, json_name: str, paytable_name: str, charts: CertificateCharts | None = None
) -> dict[str, Any]:
    """Every string the certificate template places; ``charts``: the charts when drawn already (elsewhere,
    meanwhile), else they are drawn here."""
    data = cert.data
    charts = charts or draw_charts(chart_inputs(cert))
    spec = cert.spec
    wagers = [_wager(w, r, spec, charts) for w, r in cert.analysis.wagers.items()]
    style = money_style(spec.table)
    for view, theo in zip(wagers, theoretical_wins(cert.analysis).values(), strict=True):
        view["figures"].append(("Theoretical win", theo_sentence(theo, style)))
    ranges = _rtp_ranges(list(cert.analysis.wagers.values()))
    ante = cert.analysis.ante_play
    strategy_text = None
    if ante is not None:
        how = {
            "optimal": "optimal: for each of the 22,100 player hands the exact expected value of playing (over the "
            "18,424 dealer hands left) is compared with that of folding, and the better decision is taken",
            "mimic-dealer": "mimic the dealer: play exactly the hands with which the dealer would qualify",
            "always-play": "always play",
            "play_at_least": "a fixed rule",
        }[str(ante.strategy.kind)]
        strategy_text = f"{how}. The player's decisions: {ante.strategy.sentence}."
    return {
        "paper": data["paper"],
        "certificate_id": data["certificate_id"],
        "revision": data["revision"],
        "issue_date": data["issue_date"],
        "game": spec.name,
        "footer_game": footer_name(spec.name),
        "operator": spec.operator or "not stated",
        "description": spec.description or "",
        "source": spec.source or "not stated",
        "profile_title": cert.profile.title,
        "profile_name": cert.profile.name if "profile_sha256" not in data else cert.profile_label,
        "profile_description": cert.profile.description,
        "trey_version": data["trey_version"],
        "overall": data["overall"],
        "signed_by": signed_by_line(data.get("signature")),
        "artefacts": [
            {
                "file": data["paytable"]["file"],
                "size": f"{data['paytable']['size']:,} bytes",
                "sha256": data["paytable"]["sha256"],
            },
        ],
        "paytable_name": paytable_name,
        **reader_commands(cert, json_name, paytable_name),
        "notice": NOTICE,
        "wager_titles": [w["title"] for w in wagers],
        "has_progressive": any(w["progressive"] for w in wagers),
        "judged_figure": judged_figure_sentence(cert.profile.progressive_rtp)
        if any(w["progressive"] for w in wagers)
        else None,
        "hand_order": HAND_ORDER if _reads_three_card_hands(spec) else [],
        "method": _method(cert),
        "qualifier": qualifier_sentence(spec),
        "resolution": resolution_rows(spec) if spec.wagers.ante_play is not None else [],
        "variants": variant_rows(spec),
        "paytables": _paytables(cert),
        "strategy_text": strategy_text,
        "cycles": [(w["title"], f"{r.cycle:,}") for w, r in zip(wagers, cert.analysis.wagers.values(), strict=True)],
        "wagers": wagers,
        "charts": charts,
        "checks": [
            {
                "wager": spec.wagers.title(c.wager),
                "requirement": c.requirement,
                "detail": c.detail,
                "result": str(c.verdict),
            }
            for c in cert.checks
        ],
        "simulation": simulation_rows(cert),
        "protection": _protection(cert),
        "section": section_numbers(protection=cert.protection is not None),
        "rtp_ranges": ranges,
        "range_confidences": [confidence for confidence, _ in RANGE_CONFIDENCE],
        "range_beyond": BEYOND if any(BEYOND in c for w in ranges for r in w["rows"] for c in r["cells"]) else None,
        "disclosure": _disclosure(cert),
        "canonical_yaml": canonical_yaml(data["paytable"]["canonical"]),
        "python_version": python_version(),
        "hold_confidence": hold_confidence(cert.analysis),
        "table_money": _table_money(cert),
    }


def _table_money(cert: Certificate) -> dict[str, Any] | None:
    """Appendix E, when the paytable's ``table:`` describes a bet mix (the certificate's own figures)."""
    from trey.documents.money_view import money_lines

    return None if cert.money is None else money_lines(cert.money, cert.spec)


def _protection(cert: Certificate) -> dict[str, Any] | None:
    """The game protection section (certify --protection), from the certificate's data."""
    found = cert.protection
    if found is None:
        return None
    ante = cert.analysis.ante_play
    assert ante is not None
    one = found.scenarios[0]
    by_rank: dict[str, list[str]] = {}
    for line in one.chart:
        by_rank.setdefault(strategy_words(line.weakest_played), []).append(line.seen)
    chart = "; ".join(f"{rule} on a seen {', '.join(ranks)}" for rule, ranks in by_rank.items())
    bets = "; ".join(
        f"{b.title} {percent_text(b.rtp, 2)}"
        + ("" if b.informed_rtp == b.rtp else f", informed {percent_text(b.informed_rtp, 2)}" if b.informed_rtp else "")
        + f" ({b.why})"
        for b in found.side_bets
    )
    return {
        "normal": f"player edge {percent_text(ante.stats.mean, 4)}",
        "scenarios": [
            {
                "knows": play.scenario,
                "edge": percent_text(play.stats.mean, 4),
                "gain": f"{decimal_text(play.gain * 100, 4)} pt",
                "hit": percent_text(play.stats.hit_frequency, 4),
                "sd": decimal_text(sqrt_decimal(play.stats.variance), 4),
            }
            for play in found.scenarios
        ],
        "chart": chart,
        "side_bets": bets,
    }


def render_certificate_html(
    cert: Certificate, *, json_name: str, paytable_name: str, charts: CertificateCharts | None = None
) -> str:
    if cert.family is not None:  # a game of the family other than the standard one (issue 31)
        from trey.documents.family_certificate_view import render_family_certificate_html

        return render_family_certificate_html(cert, json_name=json_name, paytable_name=paytable_name)
    context = certificate_context(cert, json_name=json_name, paytable_name=paytable_name, charts=charts)
    return render("certificate.html.j2", **context)
