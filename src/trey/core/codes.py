"""Every problem code trey reports, with what it means: the one list (``Problem`` refuses a code not in it, and
the documentation's table of codes, docs/commands/validate.md, is generated from :data:`CODE_TABLE` by ``make
generated``). Tools key on a code, which is stable, never on the wording of a message."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """A problem's stable code: ``area.what``."""

    FILE_NOT_FOUND = "file.not-found"
    FILE_DIRECTORY = "file.directory"
    FILE_PERMISSION = "file.permission"
    FILE_UNREADABLE = "file.unreadable"
    FILE_NOT_REGULAR = "file.not-regular"
    FILE_TOO_LARGE = "file.too-large"
    FILE_EMPTY = "file.empty"
    FILE_BINARY = "file.binary"
    FILE_NOT_UTF8 = "file.not-utf8"
    FILE_NAME_NOT_UTF8 = "file.name-not-utf8"
    FILE_NAME_TOO_LONG = "file.name-too-long"
    YAML_SYNTAX = "yaml.syntax"
    YAML_TAB = "yaml.tab"
    YAML_MULTIPLE_DOCUMENTS = "yaml.multiple-documents"
    YAML_TAG = "yaml.tag"
    YAML_MERGE_KEY = "yaml.merge-key"
    YAML_KEY_NOT_TEXT = "yaml.key-not-text"
    YAML_DUPLICATE_KEY = "yaml.duplicate-key"
    YAML_TOO_MANY_VALUES = "yaml.too-many-values"
    YAML_TOO_DEEP = "yaml.too-deep"
    YAML_NUMBER_FORM = "yaml.number-form"
    YAML_BOOLEAN_FORM = "yaml.boolean-form"
    YAML_UNREADABLE_VALUE = "yaml.unreadable-value"
    TEXT_SURROGATE = "text.surrogate"
    TEXT_CONTROL_CHARACTER = "text.control-character"
    TEXT_OUTSIDE_FONTS = "text.outside-fonts"
    FORMAT_VERSION = "format.version"
    SCHEMA_UNKNOWN_KEY = "schema.unknown-key"
    SCHEMA_MISSING_KEY = "schema.missing-key"
    SCHEMA_TYPE = "schema.type"
    SCHEMA_ENUM = "schema.enum"
    SCHEMA_MINIMUM = "schema.minimum"
    SCHEMA_MAXIMUM = "schema.maximum"
    SCHEMA_TOO_LONG = "schema.too-long"
    SCHEMA_TOO_MANY = "schema.too-many"
    NAME_BLANK = "name.blank"
    ODDS_FLOAT = "odds.float"
    ODDS_TYPE = "odds.type"
    ODDS_UNREADABLE = "odds.unreadable"
    ODDS_NEGATIVE = "odds.negative"
    ODDS_ZERO_DENOMINATOR = "odds.zero-denominator"
    ODDS_TOO_LARGE = "odds.too-large"
    ODDS_FOR_BELOW_STAKE = "odds.for-below-stake"
    ODDS_ZERO = "odds.zero"
    ODDS_FOR_WORDING = "odds.for-wording"
    PAYTABLE_RARER_PAYS_LESS = "paytable.rarer-pays-less"
    STRATEGY_UNKNOWN = "strategy.unknown"
    STRATEGY_INVALID = "strategy.invalid"
    STRATEGY_NOT_A_HAND = "strategy.not-a-hand"
    RULES_DEALER_QUALIFIER = "rules.dealer-qualifier"
    RULES_NOT_A_HAND = "rules.not-a-hand"
    TABLE_CURRENCY = "table.currency"
    TABLE_CURRENCY_UNKNOWN = "table.currency-unknown"
    TABLE_CURRENCY_NOT_MONEY = "table.currency-not-money"
    TABLE_LOCALE = "table.locale"
    TABLE_CHIPS_DUPLICATE = "table.chips-duplicate"
    TABLE_CHIP_ZERO = "table.chip-zero"
    TABLE_CHIP_BELOW_MINOR_UNIT = "table.chip-below-minor-unit"
    TABLE_MAXIMUM_BELOW_MINIMUM = "table.maximum-below-minimum"
    TABLE_MIX_UNKNOWN_WAGER = "table.mix-unknown-wager"
    TABLE_MIX_ANTE_PLAY = "table.mix-ante-play"
    TABLE_MIX_SHARE_ABOVE_ONE = "table.mix-share-above-one"
    TABLE_MIX_BET_ZERO = "table.mix-bet-zero"
    TABLE_MIX_WITHOUT_AVERAGE_BET = "table.mix-without-average-bet"
    TABLE_MIX_NO_BETS = "table.mix-no-bets"
    TABLE_OCCUPANCY = "table.occupancy"
    WAGERS_NONE = "wagers.none"
    GAME_WITHOUT_ANTE_PLAY = "game.without-ante-play"
    GAME_SIDE_BETS = "game.side-bets"
    GAME_STRATEGY = "game.strategy"
    GAME_OPTIONS_DUPLICATE = "game.options-duplicate"
    GAME_AT_LEAST = "game.at-least"
    GAME_NOT_YET_SUPPORTED = "game.not-yet-supported"
    GAME_PLAY_PAYS_CONFLICT = "game.play-pays-conflict"
    FORMAT_VERSION_FEATURE = "format.version-feature"
    SIDE_BET_ID = "side-bet.id"
    SIDE_BET_ID_CLASH = "side-bet.id-clash"
    SIDE_BET_UNKNOWN_READING = "side-bet.unknown-reading"
    SIDE_BET_UNKNOWN_OUTCOME = "side-bet.unknown-outcome"
    SIDE_BET_NEVER_PAYS = "side-bet.never-pays"
    SIDE_BET_STAKE_REQUIRED = "side-bet.stake-required"
    SIDE_BET_STAKE_ZERO = "side-bet.stake-zero"
    SIDE_BET_METER_WITHOUT_PROGRESSIVE = "side-bet.meter-without-progressive"
    SIDE_BET_ENVY_ON_FOLD = "side-bet.envy-on-fold"
    PROGRESSIVE_INCREMENT_RANGE = "progressive.increment-range"
    PAY_AMOUNT = "pay.amount"
    PAY_SHARE = "pay.share"
    PAY_SHARE_TOO_LONG = "pay.share-too-long"
    PAY_TYPE = "pay.type"
    PAY_FLOAT = "pay.float"
    PAY_NEGATIVE = "pay.negative"
    PAY_METER_SHARE_RANGE = "pay.meter-share-range"
    PAY_UNREADABLE = "pay.unreadable"
    LOG_NOT_JSON = "log.not-json"
    LOG_FIELD = "log.field"
    LOG_CARD = "log.card"
    LOG_CARD_TWICE = "log.card-twice"
    LOG_WAGER = "log.wager"
    LOG_AMOUNT = "log.amount"
    LOG_BET_LIMITS = "log.bet-limits"
    LOG_DUPLICATE_ROUND = "log.duplicate-round"
    LOG_LINE_TOO_LONG = "log.line-too-long"
    LOG_TOO_MANY = "log.too-many"
    LOG_CSV_HEADER = "log.csv-header"
    LOG_PLAY_SIZE = "log.play-size"
    LOG_RAISE_NOT_ALLOWED = "log.raise-not-allowed"
    ROUND_SEATS = "round.seats"
    ROUND_SEAT_NUMBER = "round.seat-number"
    ROUND_CARD_TWICE = "round.card-twice"
    ROUND_DECK = "round.deck"
    ROUND_DEAL_ORDER = "round.deal-order"
    ROUND_DECK_MIXED = "round.deck-mixed"
    ROUND_LABEL = "round.label"
    ROUND_ROWS = "round.rows"
    SOURCE_UNREACHABLE = "source.unreachable"
    SOURCE_QUERY = "source.query"
    SOURCE_COLUMN = "source.column"
    SOURCE_UNREADABLE = "source.unreadable"
    MAPPING_CARD_CODES = "mapping.card-codes"
    MAPPING_COLUMN_TWICE = "mapping.column-twice"
    PROFILE_SHIPPED_NAME = "profile.shipped-name"
    JSON_SYNTAX = "json.syntax"
    JSON_TOO_DEEP = "json.too-deep"
    JSON_DUPLICATE_KEY = "json.duplicate-key"
    JSON_CONSTANT = "json.constant"
    JSON_VALUE = "json.value"


# Schema findings of other keywords are reported as schema.<keyword> (minItems: schema.min-items).
SCHEMA_KEYWORD_PREFIX = "schema."

# The documentation's table (docs/commands/validate.md): each row's codes and what they mean.
CODE_TABLE: tuple[tuple[tuple[str, ...], str], ...] = (
    ((Code.FILE_NOT_FOUND, Code.FILE_DIRECTORY, Code.FILE_PERMISSION, Code.FILE_UNREADABLE), "the file cannot be read"),
    ((Code.FILE_NOT_REGULAR,), "a FIFO, device or socket: refused before it is opened (no hang, no endless read)"),
    ((Code.FILE_TOO_LARGE,), "over 1 MiB (at most 1 MiB + 1 byte is ever read)"),
    ((Code.FILE_EMPTY, Code.FILE_BINARY, Code.FILE_NOT_UTF8), "not a text paytable"),
    ((Code.FILE_NAME_NOT_UTF8, Code.FILE_NAME_TOO_LONG), "the file's name cannot be printed or opened"),
    ((Code.YAML_SYNTAX, Code.YAML_TAB, Code.YAML_MULTIPLE_DOCUMENTS), "not one well-formed YAML document"),
    ((Code.YAML_TAG, Code.YAML_MERGE_KEY, Code.YAML_KEY_NOT_TEXT), "YAML features a paytable does not use"),
    ((Code.YAML_DUPLICATE_KEY,), "a key given twice"),
    ((Code.YAML_TOO_MANY_VALUES, Code.YAML_TOO_DEEP), "alias expansion or nesting beyond any paytable"),
    (
        (Code.YAML_NUMBER_FORM, Code.YAML_BOOLEAN_FORM),
        "a YAML 1.1 number (`040`, `0x28`, `1_0`, `1:30`) or boolean (`yes`)",
    ),
    ((Code.YAML_UNREADABLE_VALUE,), "a value that cannot be converted (an integer of thousands of digits)"),
    (
        (Code.TEXT_SURROGATE, Code.TEXT_CONTROL_CHARACTER, Code.TEXT_OUTSIDE_FONTS),
        "text that is not printable characters, or that trey's documents cannot print (a script its fonts lack:"
        " Chinese, Armenian, an emoji), which a certificate could not read back",
    ),
    ((Code.FORMAT_VERSION,), "a `trey:` version this trey does not read"),
    (
        (
            Code.SCHEMA_UNKNOWN_KEY,
            Code.SCHEMA_MISSING_KEY,
            Code.SCHEMA_TYPE,
            Code.SCHEMA_ENUM,
            Code.SCHEMA_MINIMUM,
            Code.SCHEMA_MAXIMUM,
            Code.SCHEMA_TOO_LONG,
            Code.SCHEMA_TOO_MANY,
        ),
        "the JSON Schema's findings (other keywords: `schema.<keyword>`)",
    ),
    ((Code.NAME_BLANK,), "a blank game name"),
    (
        (
            Code.ODDS_FLOAT,
            Code.ODDS_TYPE,
            Code.ODDS_UNREADABLE,
            Code.ODDS_NEGATIVE,
            Code.ODDS_ZERO_DENOMINATOR,
            Code.ODDS_TOO_LARGE,
            Code.ODDS_FOR_BELOW_STAKE,
        ),
        "odds that cannot be",
    ),
    ((Code.ODDS_ZERO, Code.ODDS_FOR_WORDING, Code.PAYTABLE_RARER_PAYS_LESS), "warnings"),
    (
        (
            Code.STRATEGY_UNKNOWN,
            Code.STRATEGY_INVALID,
            Code.STRATEGY_NOT_A_HAND,
            Code.RULES_DEALER_QUALIFIER,
            Code.RULES_NOT_A_HAND,
        ),
        "a strategy or qualifier trey cannot read",
    ),
    (
        (
            Code.TABLE_CURRENCY,
            Code.TABLE_CURRENCY_UNKNOWN,
            Code.TABLE_CURRENCY_NOT_MONEY,
            Code.TABLE_LOCALE,
            Code.TABLE_CHIPS_DUPLICATE,
            Code.TABLE_CHIP_ZERO,
            Code.TABLE_CHIP_BELOW_MINOR_UNIT,
            Code.TABLE_MAXIMUM_BELOW_MINIMUM,
        ),
        "the `table:` section (a currency or locale Babel's CLDR data does not know; XXX, XTS, gold and the "
        "other ISO 4217 codes that are not money; a chip finer than the currency's smallest unit, such as 0.50 "
        "JPY)",
    ),
    (
        (Code.TABLE_MIX_UNKNOWN_WAGER, Code.TABLE_MIX_ANTE_PLAY),
        "the table's bet mix (`table: side_bets:`) names a wager the game does not offer, or Ante & Play (whose "
        "average bet is `table: average_bet`)",
    ),
    (
        (Code.TABLE_MIX_SHARE_ABOVE_ONE, Code.TABLE_MIX_BET_ZERO, Code.TABLE_OCCUPANCY),
        "a share of the players on a side bet above 100%, an average bet of 0, an occupancy of 0 or above 100%",
    ),
    (
        (Code.TABLE_MIX_WITHOUT_AVERAGE_BET, Code.TABLE_MIX_NO_BETS),
        "a bet mix (`seats`, `occupancy` or `side_bets` in `table:`) without the average Ante (`average_bet`) of a "
        "game with Ante & Play, or without any wager",
    ),
    ((Code.WAGERS_NONE,), "no wager offered"),
    ((Code.FORMAT_VERSION_FEATURE,), "`side_bets:` in a file that says `trey: 1`; `game:` in one that says 1 or 2"),
    (
        (
            Code.GAME_WITHOUT_ANTE_PLAY,
            Code.GAME_SIDE_BETS,
            Code.GAME_STRATEGY,
            Code.GAME_OPTIONS_DUPLICATE,
            Code.GAME_AT_LEAST,
            Code.GAME_PLAY_PAYS_CONFLICT,
        ),
        "a `game:` section without `ante_play`, beside a side bet it cannot count (with a card face up, one lost on "
        "a fold that reads more than the player's cards, or has a progressive or an envy bonus), with a strategy "
        "other than `optimal`, offering one Play bet twice, requiring a hand "
        "trey cannot read, or paying the Play for a dealer who does not qualify when the Play is decided without "
        "the qualifier",
    ),
    (
        (Code.GAME_NOT_YET_SUPPORTED,),
        "a game other than standard Three Card Poker given to a tool or an option that cannot deal it yet (`trey "
        "hand`, `certify --protection`): refused, never counted as the standard game",
    ),
    (
        (Code.SIDE_BET_ID, Code.SIDE_BET_ID_CLASH),
        "a side bet id that is not lowercase letters, digits and `_`, or that names a preset or `ante_play`",
    ),
    (
        (Code.SIDE_BET_UNKNOWN_READING, Code.SIDE_BET_UNKNOWN_OUTCOME),
        "a reading trey does not have, an outcome its reading cannot produce",
    ),
    ((Code.SIDE_BET_NEVER_PAYS,), "a side bet none of whose listed outcomes wins anything"),
    (
        (Code.SIDE_BET_STAKE_REQUIRED, Code.SIDE_BET_STAKE_ZERO),
        "amounts, meter shares or envy without a (positive) stake",
    ),
    (
        (Code.SIDE_BET_METER_WITHOUT_PROGRESSIVE, Code.PROGRESSIVE_INCREMENT_RANGE),
        "a meter share without a `progressive:` meter; an increment of 100% or more",
    ),
    (
        (Code.SIDE_BET_ENVY_ON_FOLD,),
        "`envy_on_fold` on a bet without an envy bonus, on one that stands on a fold, or `lost` on a bet not paid on "
        "the player's hand",
    ),
    (
        (
            Code.PAY_AMOUNT,
            Code.PAY_SHARE,
            Code.PAY_SHARE_TOO_LONG,
            Code.PAY_TYPE,
            Code.PAY_FLOAT,
            Code.PAY_NEGATIVE,
            Code.PAY_METER_SHARE_RANGE,
            Code.PAY_UNREADABLE,
        ),
        "amounts and shares that cannot be (a share above 100%, a float, a negative reset)",
    ),
    (
        (Code.JSON_SYNTAX, Code.JSON_TOO_DEEP, Code.JSON_DUPLICATE_KEY, Code.JSON_CONSTANT, Code.JSON_VALUE),
        "a JSON document trey reads (a certificate, its embedded evidence) that is not strict JSON: a syntax "
        "error, nesting beyond any certificate, a key given twice, NaN or Infinity, a number that cannot be "
        "read",
    ),
    (
        (Code.LOG_NOT_JSON, Code.LOG_LINE_TOO_LONG, Code.LOG_TOO_MANY),
        "a line of a hand history that is not one strict JSON round (not UTF-8, NaN, a key twice, nesting too "
        "deep), longer than 16 KiB, or beyond 100,000,000 lines",
    ),
    (
        (Code.LOG_FIELD, Code.LOG_CARD, Code.LOG_CARD_TWICE, Code.LOG_WAGER, Code.LOG_AMOUNT),
        "a round without its id (printable ASCII, no space around it), decision, bets or nets, a CSV field holding "
        "a line break, a card that does not exist or is dealt twice, a wager the paytable does not offer (or a "
        "meter for one without a progressive), an amount that is not exact or not below 10,000,000,000,000, a "
        "meter below its reset",
    ),
    (
        (Code.LOG_BET_LIMITS, Code.LOG_DUPLICATE_ROUND),
        "a bet outside the table's limits; a round id logged twice (its round is audited all the same)",
    ),
    (
        (Code.LOG_PLAY_SIZE, Code.LOG_RAISE_NOT_ALLOWED),
        "a round of a family game whose Play bet the game does not offer (or that does not say it when the game "
        "offers several), or that the player's hand may not make (3x on a high card where 3x needs a pair or "
        "better)",
    ),
    ((Code.LOG_CSV_HEADER,), "a CSV log's header that cannot be read or names a column twice: nothing of it is read"),
    (
        (Code.ROUND_SEATS, Code.ROUND_SEAT_NUMBER, Code.ROUND_CARD_TWICE, Code.ROUND_LABEL),
        "a table round without seats or with more than its table's count, a seat number outside the table or given "
        "twice, a card dealt twice in the round (one dealer hand and every seat's: 3 x seats + 3 distinct cards), a "
        "label (dealer, shuffler, shift, time) that is not text or a table's count that is not 1 to 7",
    ),
    (
        (Code.ROUND_DECK, Code.ROUND_DEAL_ORDER, Code.ROUND_DECK_MIXED),
        "a round's deck or input that is not the 52 cards once each, hands that are not the deck's cards in the "
        "order it deals them (three at a time, seats in rising order, the dealer last), a round with a deck in a "
        "log whose first round has none (or without one where the first has one)",
    ),
    (
        (Code.ROUND_ROWS,),
        "rows of one table round (a row per seat: CSV, Parquet, SQL) that disagree on the round's own fields, or "
        "more rows than a table has seats",
    ),
    (
        (Code.SOURCE_UNREACHABLE, Code.SOURCE_QUERY, Code.SOURCE_COLUMN, Code.SOURCE_UNREADABLE),
        "a source of table rounds that cannot be read: a database that does not answer within its deadline, a "
        "query it refuses, a column the format needs (by its mapped name) that the source lacks or names twice, a "
        "Parquet file that is not one",
    ),
    (
        (Code.MAPPING_CARD_CODES,),
        "a mapping's table of card codes (RFID) naming a card that does not exist, or a card twice",
    ),
    (
        (Code.MAPPING_COLUMN_TWICE,),
        "a mapping that reads one column of the source as two fields (`deck` and `input` from one column, a bet "
        "read as a net): each column is one field's",
    ),
    (
        (Code.PROFILE_SHIPPED_NAME,),
        "a profile file that takes the name of a profile trey ships (`generic`) without being that profile",
    ),
)


def is_known_code(code: str) -> bool:
    """Whether ``code`` is one of :class:`Code`, or a schema keyword's ``schema.<keyword>``."""
    return code in Code._value2member_map_ or (
        code.startswith(SCHEMA_KEYWORD_PREFIX) and code[len(SCHEMA_KEYWORD_PREFIX) :].replace("-", "").isalpha()
    )
