"""The workbench's form: every value of a paytable as a field named by its JSON path, and back.

The form is made from the paytable's canonical data (what the loader makes of the file), so it has a field for
everything the file says — rules, every pay, side bets (reading, outcomes, on_fold), progressive parameters, table
limits — and the page sends back the same data with its edits. That data is written as YAML and read by the one
loader every file goes through, so a problem is found and worded as ``trey validate`` finds and words it, and is
shown at the field its JSON path names.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from trey.choose.solve import ROUND_TABLES
from trey.core.text import printable
from trey.core.version import __version__
from trey.paytable.model import ANTE_PLAY
from trey.paytable.yamldoc import canonical_yaml

MAX_FIELDS = 2_000  # a paytable has a few hundred values at most (17 wagers of 32 rows)
MAX_SIDE_BETS = 16  # the format's bound (the schema's side_bets maxProperties)
YAML_TEXTS = 16  # tables' YAML remembered (the latest edits'), each of at most YAML_REMEMBERED_BYTES of JSON
YAML_REMEMBERED_BYTES = 64 << 10  # a shipped table is 1 to 3 KiB: a larger one is written each time

# The words of each fixed value, as a manager reads them (the value itself is what the file says).
CHOICE_WORDS: dict[str, str] = {
    "push": "push (Ante and Play returned)",
    "player_wins": "player wins (Ante and Play win)",
    "lost": "lost with the Ante",
    "stands": "stands (settled on its own)",
    "paid": "paid",
    "wins": "wins 1 to 1",
    "pushes": "pushes (returned)",
    "Q-high": "Q-high (Q-3-2 or better)",
    "J-high": "J-high (J-3-2 or better)",
    "K-high": "K-high (K-3-2 or better)",
    "A-high": "A-high (A-3-2 or better)",
    "none": "none (the dealer always qualifies)",
    "pair": "a pair or better",
    "optimal": "optimal (derived hand by hand)",
    "mimic-dealer": "play what the dealer needs to qualify",
    "always-play": "always play",
    "player_hand": "the player's three cards",
    "dealer_hand": "the dealer's three cards",
    "six_cards": "the best five of all six cards",
    "colours": "the colours of the cards",
    "bad_beat": "the player's hand beaten by the dealer's",
}
CUSTOM = "a hand such as Q-6-4…"  # the choice of a hand of one's own (the qualifier, the strategy's hand)
PLAY_AT_LEAST = "play_at_least"
STRATEGY = ("wagers", ANTE_PLAY, "strategy")
MONEY_KEYS = frozenset({"minimum", "maximum", "payout_cap", "average_bet", "stake", "reset", "amount", "chips"})
TABLE_DEFAULTS: dict[str, Any] = {
    "currency": "USD",
    "locale": "en_US",
    "minimum": 5,
    "maximum": 500,
    "chips": [1, 5, 25, 100],
    "payout_cap": 50000,
    "payout_cap_covers_progressive": False,
    "decisions_per_hour": 60,
    "average_bet": 10,
    "seats": 7,  # the bet mix (issue 34): the format's defaults, written down to be changed
    "occupancy": "100%",
}
MIX_KEYS = ("seats", "occupancy")
MIX_SIDE_BET = {"share": "50%", "average_bet": 5}  # a side bet added to the bet mix, to be changed
GAME_TEXTS = ("operator", "description", "source")


@dataclass(frozen=True)
class Field:
    """One value of the paytable: its JSON path, how it is edited (``kind``: "int", "text", "bool", "list",
    "money", "odds", "select", "hand" — a choice or a hand of one's own — or "strategy"), its value as text, the
    choices of a fixed set, its label, and whether it may be removed."""

    path: tuple[str | int, ...]
    kind: str
    value: str
    solve: str | None = None  # the wager whose row this pay is, when trey solve can solve it
    choices: tuple[tuple[str, str], ...] = ()  # (value, words) of a select
    title: str = ""
    help: str = ""
    custom: str = ""  # a hand of one's own (kind "hand" or "strategy")
    removable: bool = True
    unit: str = ""  # the currency of a money field
    removes: tuple[str | int, ...] | None = None  # what its remove button removes, when not itself (a whole option)

    @property
    def remove_json(self) -> str:
        return json.dumps(list(self.removes if self.removes is not None else self.path))

    @property
    def path_json(self) -> str:
        return json.dumps(list(self.path))

    @property
    def label(self) -> str:
        return self.title or " ".join(str(p).replace("_", " ") for p in self.path[2:] or self.path[-1:])

    @property
    def row(self) -> str:
        """The row as ``trey solve --row`` names it: ``flush``, or a row of a family game's round tables with its
        table (``blind.flush``, ``play_pays.pair``, ``bad_beat.straight``)."""
        if len(self.path) == 3 and self.path[0] == "game":
            return f"{self.path[1]}.{self.path[2]}"
        return str(self.path[-1])

    @property
    def chosen(self) -> str:
        """The select's value: the value itself, or the custom choice for a hand of one's own."""
        if self.kind == "strategy":
            return PLAY_AT_LEAST if self.custom else self.value
        if self.kind == "hand":
            return "" if self.custom else self.value
        return self.value


@dataclass(frozen=True)
class Addition:
    """What may be added to a section: its words, and the values it sets (JSON path, value), as JSON."""

    label: str
    sets: tuple[tuple[tuple[str | int, ...], Any], ...]

    @property
    def sets_json(self) -> str:
        return json.dumps([[list(path), value] for path, value in self.sets])


@dataclass(frozen=True)
class Section:
    title: str
    fields: list[Field]
    path: tuple[str | int, ...] = ()  # what its fields are under: () the game's, ("rules",), ("wagers", "prime")...
    additions: tuple[Addition, ...] = ()

    @property
    def path_json(self) -> str:
        return json.dumps(list(self.path))

    @property
    def removable(self) -> bool:
        """A wager or side bet may be removed whole (the game, its rules and table may not)."""
        return len(self.path) == 2 and self.path[0] in ("wagers", "side_bets")


@cache
def _schema() -> dict[str, Any]:
    from trey.paytable.schema import paytable_schema

    return paytable_schema()


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target = _schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def schema_at(path: tuple[str | int, ...]) -> dict[str, Any]:
    """The schema of the value at ``path`` (its $refs resolved; {} where the schema says nothing)."""
    node = _schema()
    for key in path:
        node = _resolve(node)
        props = node.get("properties", {})
        if isinstance(key, str) and key in props:
            node = props[key]
        elif isinstance(node.get("additionalProperties"), dict):
            node = node["additionalProperties"]
        elif isinstance(node.get("items"), dict):
            node = node["items"]
        else:
            for branch in map(_resolve, node.get("anyOf", [])):
                if isinstance(key, str) and key in branch.get("properties", {}):
                    node = branch["properties"][key]
                    break
            else:
                return {}
    return _resolve(node)


def _words(value: object) -> str:
    return CHOICE_WORDS.get(str(value), str(value).replace("_", " "))


def _enum_of(node: dict[str, Any]) -> list[Any] | None:
    if "enum" in node:
        return list(node["enum"])
    for branch in map(_resolve, node.get("anyOf", [])):
        if "enum" in branch:
            return list(branch["enum"])
    return None


def _reading(data: dict[str, Any], path: tuple[str | int, ...]) -> Any:
    """The reading of the side bet or preset a path is inside, or None."""
    from trey.cards.readings import READINGS
    from trey.paytable.model import PRESETS

    if len(path) >= 2 and path[0] == "side_bets":
        bets = data.get("side_bets")
        bet = bets.get(path[1], {}) if isinstance(bets, dict) else None
        reads = bet.get("reads") if isinstance(bet, dict) else None
        return READINGS.get(reads) if isinstance(reads, str) else None
    if len(path) >= 2 and path[0] == "wagers" and path[1] in PRESETS:
        return READINGS.get(PRESETS[str(path[1])].reads)
    return None


def _outcome_title(reading: Any, slug: str) -> str:
    try:
        return str(reading.outcome(slug).title)
    except KeyError:
        return slug.replace("_", " ")


def _title(data: dict[str, Any], path: tuple[str | int, ...], node: dict[str, Any]) -> str:
    if len(path) >= 4 and path[0] == "side_bets" and path[2] in ("pays", "envy"):
        reading = _reading(data, path)
        said = _outcome_title(reading, str(path[3])) if reading is not None else str(path[3]).replace("_", " ")
        if path[2] == "envy":
            return f"envy: {said}"
        if len(path) == 5:
            return f"{said} ({'share of the meter' if path[4] == 'meter' else 'amount'})"
        return said
    title = node.get("title")
    if len(path) == 4 and path[:2] == ("game", "options"):
        return f"Option {int(path[2]) + 1}: {str(title).lower()}"
    if len(path) == 3 and path[:2] == ("game", "blind"):
        return f"Blind: {title}"
    if len(path) == 4 and path[:2] == ("table", "side_bets"):  # the bet mix: whose share, whose bet
        return f"{str(path[2]).replace('_', ' ').capitalize()}: {str(title).lower()}"
    if len(path) == 4 and path[2] == "ante_bonus":
        return f"Ante Bonus: {title or path[3]}"
    if isinstance(title, str) and title not in ("Odds", "Pay", "Money", "Share"):
        return title
    return " ".join(str(p).replace("_", " ") for p in path[2:] or path[-1:])


def _field(data: dict[str, Any], path: tuple[str | int, ...], value: Any) -> Field:
    node = schema_at(path)
    title = _title(data, path, node)
    helping = str(node.get("description", ""))[:400]
    removable = path not in (("name",),) and path[-1] != "reads"
    unit = str(data.get("table", {}).get("currency", "USD")) if isinstance(data.get("table"), dict) else "USD"
    if path == STRATEGY:
        choices = (*((v, _words(v)) for v in _enum_of(node) or ()), (PLAY_AT_LEAST, CUSTOM))
        custom = str(value.get(PLAY_AT_LEAST, "")) if isinstance(value, dict) else ""
        shown = PLAY_AT_LEAST if isinstance(value, dict) else str(value)
        return Field(path, "strategy", shown, None, choices, title, helping, custom, removable)
    enum = _enum_of(node)
    if enum is not None and not isinstance(value, bool | dict | list):
        choices = tuple((str(v), _words(v)) for v in enum)
        if "enum" not in node:  # an enum or a hand such as Q-6-4
            custom = "" if str(value) in enum else str(value)
            return Field(path, "hand", str(value), None, (*choices, ("", CUSTOM)), title, helping, custom, removable)
        if str(value) not in enum:
            choices = (*choices, (str(value), str(value)))
        return Field(path, "select", str(value), None, choices, title, helping, removable=removable)
    if path == ("game", "face_up"):
        choices = (("0", "none (all three face down)"), ("1", "one of the dealer's cards"))
        return Field(path, "select-int", str(value), None, choices, title, helping, removable=True)
    if len(path) == 4 and path[:2] == ("game", "options") and path[3] == "play":
        return Field(path, "int", str(value), None, (), title, helping, removable=True, removes=path[:3])
    kind = _kind(value)
    envy = len(path) == 4 and path[0] == "side_bets" and path[2] == "envy"
    if kind in ("int", "text") and (str(path[-1]) in MONEY_KEYS or envy):
        kind = "money"
    elif kind == "list" and path[-1] == "chips":
        kind = "money-list"
    solve = _solvable(path, value)
    if solve is not None:
        kind = "odds"
    return Field(path, kind, _text(value), solve, (), title, helping, removable=removable, unit=unit)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, list):
        return "list"
    return "text"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _solvable(path: tuple[str | int, ...], value: Any) -> str | None:
    """The wager of a pay written as odds (what trey solve solves), else None."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if len(path) == 3 and path[0] == "wagers" and path[1] != ANTE_PLAY:
        return str(path[1])
    if len(path) == 4 and path[:3] == ("wagers", ANTE_PLAY, "ante_bonus"):
        return ANTE_PLAY
    if len(path) == 4 and path[0] == "side_bets" and path[2] == "pays":
        return str(path[1])
    if len(path) == 3 and path[0] == "game" and path[1] in ROUND_TABLES:  # a family game's Blind, Play, bad beat
        return ANTE_PLAY
    return None


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _absent(present: Any, keys: list[str]) -> list[str]:
    have = present if isinstance(present, dict) else {}
    return [k for k in keys if k not in have]


def _additions(data: dict[str, Any], section: tuple[str | int, ...]) -> tuple[Addition, ...]:
    """What the section at ``section`` can still be given: the outcomes its reading can still pay, the optional
    values it does not have yet (each with the format's default, or a common value)."""
    from trey.paytable.model import PRESETS

    found: list[Addition] = []
    here: Any = data
    for key in section:
        here = here.get(key, {}) if isinstance(here, dict) else {}
    if section == ("game",):
        found += _round_additions(data, _mapping(here))
    elif section == ("rules",):
        props = schema_at(("rules",)).get("properties", {})
        for key in _absent(here, list(props)):
            found.append(Addition(str(props[key].get("title", key)), ((("rules", key), props[key].get("default")),)))
    elif section == ("table",):
        props = schema_at(("table",)).get("properties", {})
        # A bet mix needs the seats' average Ante: what starts one gives it too, when the table has none.
        ante = () if "average_bet" in _mapping(here) else ((("table", "average_bet"), TABLE_DEFAULTS["average_bet"]),)
        for key in _absent(here, list(TABLE_DEFAULTS)):
            also = ante if key in MIX_KEYS else ()
            title = str(props.get(key, {}).get("title", key))
            found.append(Addition(title, ((("table", key), TABLE_DEFAULTS[key]), *also)))
        found += _mix_additions(data, _mapping(here), ante)
    elif section == ():
        props = _schema()["properties"]
        for key in _absent(data, list(GAME_TEXTS)):
            found.append(Addition(str(props[key]["title"]), (((key,), ""),)))
        wagers = _mapping(data.get("wagers"))
        if ANTE_PLAY not in wagers:
            found.append(Addition("Ante & Play", ((("wagers", ANTE_PLAY), {"strategy": "optimal"}),)))
        for preset in PRESETS.values():
            if preset.id not in wagers:
                outcomes = list(schema_at(("wagers", preset.id)).get("properties", {}))
                found.append(Addition(f"{preset.title} (preset)", ((("wagers", preset.id), {outcomes[-1]: 1}),)))
        found += _new_side_bets(data)
    elif section[0] == "wagers" and section[1] == ANTE_PLAY:
        bonus = schema_at(("wagers", ANTE_PLAY, "ante_bonus")).get("properties", {})
        for key in _absent(here.get("ante_bonus") if isinstance(here, dict) else {}, list(bonus)):
            found.append(
                Addition(f"Ante Bonus: {bonus[key]['title']}", ((("wagers", ANTE_PLAY, "ante_bonus", key), 1),))
            )
        if "strategy" not in (here if isinstance(here, dict) else {}):
            found.append(Addition("Player strategy", (((*STRATEGY,), "optimal"),)))
    elif section[0] == "wagers":
        props = schema_at(section).get("properties", {})
        for key in _absent(here, list(props)):
            found.append(Addition(str(props[key]["title"]), (((*section, key), 1),)))
    elif section[0] == "side_bets" and isinstance(here, dict):
        found += _side_bet_additions(data, section, here)
    return tuple(found)


def _round_additions(data: dict[str, Any], game: dict[str, Any]) -> list[Addition]:
    """The round's parts a table can still be given (format 3, issue 31): a face-up card, an option, the Ante's
    and the Play's rule without a qualifier, a Blind and its rows. Each makes the file format 3."""
    props = schema_at(("game",)).get("properties", {})
    three = ((("trey",), 3),) if data.get("trey") != 3 else ()
    found = []
    defaults: dict[str, Any] = {
        "face_up": 1,
        "ante_when_dealer_does_not_qualify": "pushes",
        "play_needs_qualifier": False,
        "blind": {"straight_flush": 5},
    }
    given = game.get("options")
    options: list[Any] = given if isinstance(given, list) else [{"play": 1}]
    for key, value in defaults.items():
        if key not in game:
            found.append(Addition(str(props[key]["title"]), (*three, (("game", key), value))))
    if len(options) < int(props["options"].get("maxItems", 4)):
        taken = {o.get("play") for o in options if isinstance(o, dict) and isinstance(o.get("play"), int)}
        play = next(n for n in range(1, 11) if n not in taken)
        found.append(
            Addition(f"an option: play {play}× the Ante", (*three, (("game", "options"), [*options, {"play": play}])))
        )
    blind = game.get("blind")
    if isinstance(blind, dict):
        rows = schema_at(("game", "blind")).get("properties", {})
        for key in _absent(blind, list(rows)):
            found.append(Addition(f"Blind: {rows[key]['title']}", ((("game", "blind", key), 1),)))
    return found


def _side_bet_additions(data: dict[str, Any], section: tuple[str | int, ...], bet: dict[str, Any]) -> list[Addition]:
    found: list[Addition] = []
    reading = _reading(data, section)
    slugs = list(reading.outcome_slugs) if reading is not None else []
    staked = "stake" in bet
    for slug in _absent(bet.get("pays"), slugs):
        said = _outcome_title(reading, slug)
        found.append(Addition(said, (((*section, "pays", slug), 1),)))
        if staked:
            found.append(Addition(f"{said} (an amount)", (((*section, "pays", slug), {"amount": 100}),)))
            if "progressive" in bet:
                found.append(Addition(f"{said} (all of the meter)", (((*section, "pays", slug), {"meter": "100%"}),)))
    stake = () if staked else (((*section, "stake"), 1),)
    if "envy" in bet:
        for slug in _absent(bet.get("envy"), slugs):
            found.append(Addition(f"envy: {_outcome_title(reading, slug)}", (((*section, "envy", slug), 100),)))
    elif slugs:
        found.append(Addition("an envy bonus", (((*section, "envy"), {slugs[0]: 100}), *stake)))
    if "progressive" not in bet:
        meter = {"reset": 5000, "increment": "10%"}
        found.append(Addition("a progressive meter", (((*section, "progressive"), meter), *stake)))
    props = schema_at(section).get("properties", {})
    defaults = {"title": str(section[1]).replace("_", " ").title(), "stake": 1, "on_fold": "stands"}
    if "envy" in bet and bet.get("on_fold") == "lost":
        defaults["envy_on_fold"] = "paid"
    for key, value in defaults.items():
        if key not in bet:
            found.append(Addition(str(props.get(key, {}).get("title", key)), (((*section, key), value),)))
    return found


def _mix_additions(
    data: dict[str, Any], table: dict[str, Any], ante: tuple[tuple[tuple[str, ...], Any], ...]
) -> list[Addition]:
    """Each side bet the table offers and its bet mix does not list yet: its share of players and their bet."""
    from trey.paytable.model import PRESETS

    mixed = _mapping(table.get("side_bets"))
    titles = {w: PRESETS[w].title if w in PRESETS else w for w in _mapping(data.get("wagers")) if w != ANTE_PLAY}
    for bet, item in _mapping(data.get("side_bets")).items():
        title = _mapping(item).get("title")
        titles[bet] = title if isinstance(title, str) and title else bet
    return [
        Addition(f"Bet mix: {title}", ((("table", "side_bets", bet), dict(MIX_SIDE_BET)), *ante))
        for bet, title in titles.items()
        if bet not in mixed
    ]


def _new_side_bets(data: dict[str, Any]) -> list[Addition]:
    """A side bet on each reading (and a progressive on the player's hand), under an id not yet taken."""
    from trey.cards.readings import READINGS

    bets = _mapping(data.get("side_bets"))
    if len(bets) >= MAX_SIDE_BETS:
        return []

    def free(stem: str) -> str:
        taken = set(bets) | set(_mapping(data.get("wagers")))
        n = 1
        while (name := stem if n == 1 else f"{stem}_{n}") in taken:
            n += 1
        return name

    found = []
    for reading in READINGS.values():
        slugs = reading.outcome_slugs
        bet_id = free(f"{reading.name}_bet")
        bet = {"reads": reading.name, "pays": {slugs[-1]: 1}, "on_fold": "stands"}
        found.append(Addition(f"a side bet on {_words(reading.name)}", ((("side_bets", bet_id), bet),)))
    if "player_hand" in READINGS:
        slugs = READINGS["player_hand"].outcome_slugs
        progressive = {
            "title": "Progressive",
            "reads": "player_hand",
            "stake": 1,
            "pays": {slugs[0]: {"meter": "100%"}, "straight_flush": {"amount": 100}},
            "progressive": {"reset": 5000, "increment": "10%"},
            "on_fold": "stands",
        }
        found.append(
            Addition("a progressive on the player's hand", ((("side_bets", free("progressive")), progressive),))
        )
    return found


def sections(data: dict[str, Any]) -> list[Section]:
    """The form's sections: the game, rules, table, then each wager and side bet, and what can be added."""
    found: dict[str, list[Field]] = {}
    count = 0

    def walk(value: Any, path: tuple[str | int, ...], section: str) -> None:
        nonlocal count
        if isinstance(value, dict) and path != STRATEGY:
            for key, item in value.items():
                walk(item, (*path, key), section)
            return
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):  # the round's options
            for index, item in enumerate(value):
                walk(item, (*path, index), section)
            return
        fields = found.setdefault(section, [])
        if count >= MAX_FIELDS:
            return
        count += 1
        fields.append(_field(data, path, value))

    paths: dict[str, tuple[str | int, ...]] = {"Game": (), "Round": ("game",), "Rules": ("rules",), "Table": ("table",)}
    found["Game"] = []
    for key, value in data.items():
        if key in ("wagers", "side_bets") and isinstance(value, dict):
            for wager, item in value.items():
                title = f"{'Side bet' if key == 'side_bets' else 'Wager'}: {_wager_title(key, wager, item)}"
                paths[title] = (key, wager)
                found.setdefault(title, [])
                walk(item, (key, wager), title)
        elif key == "trey":
            continue
        elif key == "game":
            walk(value, (key,), "Round")
        else:
            walk(value, (key,), {"rules": "Rules", "table": "Table"}.get(key, "Game"))
    for title in ("Round", "Rules", "Table"):
        found.setdefault(title, [])
    fixed = ("Game", "Round", "Rules", "Table")
    order = [*fixed, *[t for t in found if t not in fixed]]
    made = [Section(t, found[t], paths[t], _additions(data, paths[t])) for t in order]
    made[0] = Section("Game", made[0].fields, (), tuple(a for a in made[0].additions if a.sets[0][0][0] in GAME_TEXTS))
    adding = tuple(a for a in _additions(data, ()) if a.sets[0][0][0] not in GAME_TEXTS)
    made.append(Section("Add a wager or side bet", [], ("wagers",), adding))
    return made


def _wager_title(key: str, wager: str, item: Any) -> str:
    from trey.paytable.model import PRESETS, default_title

    if key == "wagers":
        return "Ante & Play" if wager == ANTE_PLAY else PRESETS[wager].title if wager in PRESETS else wager
    title = item.get("title") if isinstance(item, dict) else None
    return str(title) if isinstance(title, str) and title else default_title(wager)


def yaml_text(data: Any, origin: str | None = None) -> str:
    """The paytable as a YAML file: canonical (the loader's keys, in its order), with a comment naming its origin
    when one is given (the downloaded file; what is checked, analysed and certified is the text without it)."""
    plain = json.dumps(data)  # plain dicts (the strict reader's are a subclass)
    body = _yaml_body(plain) if len(plain) <= YAML_REMEMBERED_BYTES else canonical_yaml(json.loads(plain))
    return body if origin is None else origin_comment(origin) + body


@lru_cache(maxsize=YAML_TEXTS)
def _yaml_body(plain: str) -> str:
    # Remembered by its JSON text: an edit's table is written as it was sent and again as the loader read it, the
    # same table (and text) unless a row was added or removed; PyYAML's writer takes 5 ms of each edit's 50.
    return canonical_yaml(json.loads(plain))


def origin_comment(origin: str, sha256: str | None = None) -> str:
    """The first line of a downloaded paytable: the file it started from (and that file's SHA-256), as one YAML
    comment line."""
    digest = f" (SHA-256 {sha256})" if sha256 else ""
    return f"# Edited in the trey workbench (trey {__version__}), starting from {comment_text(origin)}{digest}.\n"


# What YAML reads as a line break besides CR and LF (YAML 1.1, as PyYAML reads it: NEL, LINE SEPARATOR, PARAGRAPH
# SEPARATOR), a byte-order mark, and what it refuses in a stream (U+FFFE, U+FFFF); printable() escapes the rest.
_YAML_BREAKS = re.compile("[\x85\u2028\u2029\ufeff\ufffe\uffff]")


def comment_text(text: str) -> str:
    """``text`` made safe inside a one-line YAML comment: every character YAML reads as a line break (or refuses)
    written as an escape, so a file's name cannot end the comment and add keys to the paytable."""
    said = printable(text)[:200]
    return _YAML_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", said)
