"""Expected stderr of `trey validate FILE` run in tests/data/bad, for every file of the bad-input corpus."""

EXPECTED = {
    "name-chinese.yaml": [
        "name-chinese.yaml:2:7: $.name: the text holds '澳' U+6FB3, which trey's documents cannot print (write it in Latin, Greek or Cyrillic letters: the documents' fonts have no other script, and a certificate must read back what it prints)",
    ],
    "share-ten-digit-denominator.yaml": [
        "share-ten-digit-denominator.yaml:8:26: $.side_bets.jackpot.pays.mini_royal_spades: the meter share '1/1234567890' (text) has a number of more than 9 digits (write each number of the fraction with at most 9 digits, or a percentage such as '12.5%')",
    ],
    "currency-gold.yaml": [
        "currency-gold.yaml:4:13: $.table.currency: XAU is not money a table pays in (gold) (use the ISO 4217 code of the table's currency, such as USD or EUR)",
    ],
    "yen-half-chip.yaml": [
        "yen-half-chip.yaml:5:11: $.table.chips[0]: a chip of 0.50 is finer than the JPY's smallest unit (1) (give chips in whole multiples of 1 JPY)",
    ],
    "too-many-side-bets.yaml": [
        "too-many-side-bets.yaml:4:3: $.side_bets: 17 side bets, more than the 16 allowed (keep 16 at most)",
    ],
    "huge-table-maximum.yaml": [
        "huge-table-maximum.yaml:5:12: $.table.maximum: must be at most 1,000,000,000, got 10,000,000,000,000,000,000,000,000,000",
        "huge-table-maximum.yaml:6:15: $.table.payout_cap: must be at most 1,000,000,000, got 10,000,000,000,000,000,000,000,000,000",
    ],
    "alias-bomb.yaml": [
        "alias-bomb.yaml:3:31: the document expands to more than 10,000 values (YAML aliases (*name) are expanded; a paytable needs only a few dozen values)",
    ],
    "binary-tag.yaml": [
        "binary-tag.yaml:2:7: $.name: unsupported YAML tag tag:yaml.org,2002:binary (paytables hold plain text and numbers only)",
    ],
    "blank-name.yaml": [
        "blank-name.yaml:2:7: $.name: the name is blank (give the game a name)",
    ],
    "bonus-requires-play-text.yaml": [
        "bonus-requires-play-text.yaml:4:29: $.rules.ante_bonus_requires_play: expected true or false, got 'maybe' (text)",
    ],
    "boolean-odds.yaml": [
        "boolean-odds.yaml:5:11: $.wagers.pair_plus.pair: odds must be a whole number or text, got true (true/false) (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ],
    "decimal-ratio-odds.yaml": [
        "decimal-ratio-odds.yaml:5:11: $.wagers.pair_plus.pair: cannot read odds '1.5 to 1' (write N, 'N to M' or 'N for M')",
    ],
    "duplicate-pay.yaml": [
        "duplicate-pay.yaml:7:5: $.wagers.pair_plus.pair: duplicate key 'pair' (it is already given at line 5; keep one)",
    ],
    "duplicate-top-key.yaml": [
        "duplicate-top-key.yaml:3:1: $.name: duplicate key 'name' (it is already given at line 2; keep one)",
    ],
    "float-odds.yaml": [
        "float-odds.yaml:5:11: $.wagers.pair_plus.pair: odds must be exact, not the decimal number 1.5 (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ],
    "for-below-stake.yaml": [
        "for-below-stake.yaml:5:24: $.wagers.prime.three_same_colour: '1 for 2' returns less than the stake, so a win would lose money ('N for M' includes the stake: N must be at least M)",
    ],
    "future-version.yaml": [
        "future-version.yaml:1:7: $.trey: unsupported format version 4 (this trey reads 'trey: 3', 'trey: 2' and 'trey: 1')",
    ],
    "invalid-yaml-tab.yaml": [
        "invalid-yaml-tab.yaml:4:1: invalid YAML: found character '\\t' that cannot start any token (indent with spaces, not tabs)",
    ],
    "invalid-yaml-unclosed.yaml": [
        "invalid-yaml-unclosed.yaml:3:7: invalid YAML: expected ',' or ']', but got ':' (check the indentation and quoting)",
    ],
    "list-odds.yaml": [
        "list-odds.yaml:5:11: $.wagers.pair_plus.pair: odds must be a whole number or text, got a list (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ],
    "many-problems.yaml": [
        "many-problems.yaml:4:9: $.rules.ties: 'sometimes' (text) is not allowed (expected one of: player_wins, push)",
        "many-problems.yaml:7:11: $.wagers.pair_plus.pair: odds must be exact, not the decimal number 0.5 (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
        "many-problems.yaml:8:12: $.wagers.pair_plus.flush: odds cannot be negative: -3 (a losing hand is simply left out)",
        "many-problems.yaml:10:5: $.wagers.six_card_bonus.royal: unknown key 'royal' (did you mean 'royal_flush'?)",
    ],
    "merge-key.yaml": [
        "merge-key.yaml:3:1: $.base: unknown key 'base' (expected one of: description, game, name, operator, rules, side_bets, source, table, trey, wagers)",
        "merge-key.yaml:6:5: $.wagers.pair_plus: YAML merge keys (<<) are not supported (write the keys out)",
    ],
    "missing-name.yaml": [
        "missing-name.yaml:1:1: $: missing required key 'name' (add 'name:')",
    ],
    "missing-trey.yaml": [
        "missing-trey.yaml:1:1: $: missing required key 'trey' (add 'trey: 2' as the first line)",
    ],
    "missing-wagers.yaml": [
        "missing-wagers.yaml:1:1: $: no wager offered (add ante_play, pair_plus, prime or six_card_bonus under wagers:, or a side bet under side_bets:)",
    ],
    "name-is-number.yaml": [
        "name-is-number.yaml:2:7: $.name: expected text, got 42 (a whole number)",
    ],
    "negative-odds.yaml": [
        "negative-odds.yaml:5:11: $.wagers.pair_plus.pair: odds cannot be negative: -1 (a losing hand is simply left out)",
    ],
    "no-wager.yaml": [
        "no-wager.yaml:3:9: $.wagers: no wager offered (add ante_play, pair_plus, prime or six_card_bonus under wagers:, or a side bet under side_bets:)",
    ],
    "non-text-key.yaml": [
        "non-text-key.yaml:5:5: $.wagers.pair_plus: keys must be plain text, got '1' (quote the key)",
    ],
    "null-odds.yaml": [
        "null-odds.yaml:5:10: $.wagers.pair_plus.pair: odds must be a whole number or text, got nothing (null) (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ],
    "pair-plus-on-fold-unknown.yaml": [
        "pair-plus-on-fold-unknown.yaml:4:22: $.rules.pair_plus_on_fold: 'kept' (text) is not allowed (expected one of: lost, stands)",
    ],
    "paytable-is-list.yaml": [
        "paytable-is-list.yaml:5:5: $.wagers.pair_plus: expected a mapping, got a list",
    ],
    "python-object-tag.yaml": [
        "python-object-tag.yaml:2:7: $.name: unsupported YAML tag tag:yaml.org,2002:python/object/apply:os.system (remove the tag)",
    ],
    "qualifier-straight.yaml": [
        "qualifier-straight.yaml:4:21: $.rules.dealer_qualifier: 4-3-2 is a straight, not a high-card hand (name a high-card hand with three different ranks, e.g. Q-6-4)",
    ],
    "rules-is-list.yaml": [
        "rules-is-list.yaml:4:3: $.rules: expected a mapping, got a list",
    ],
    "strategy-extra-key.yaml": [
        "strategy-extra-key.yaml:5:38: $.wagers.ante_play.strategy.also: unknown key 'also' (use optimal, mimic-dealer, always-play or {play_at_least: Q-6-4})",
    ],
    "strategy-pair-threshold.yaml": [
        "strategy-pair-threshold.yaml:6:22: $.wagers.ante_play.strategy.play_at_least: Q-Q-4 is not a high-card hand: its ranks must differ (name a high-card hand with three different ranks, e.g. Q-6-4)",
    ],
    "strategy-straight-threshold.yaml": [
        "strategy-straight-threshold.yaml:5:31: $.wagers.ante_play.strategy.play_at_least: K-Q-J is a straight, not a high-card hand (name a high-card hand with three different ranks, e.g. Q-6-4)",
    ],
    "strategy-threshold-garbage.yaml": [
        "strategy-threshold-garbage.yaml:5:31: $.wagers.ante_play.strategy.play_at_least: not a hand: 'Q-6-X' (use optimal, mimic-dealer, always-play or {play_at_least: Q-6-4})",
    ],
    "strategy-threshold-number.yaml": [
        "strategy-threshold-number.yaml:5:31: $.wagers.ante_play.strategy.play_at_least: expected a hand such as Q-6-4, got 7 (a whole number)",
    ],
    "table-currency.yaml": [
        "table-currency.yaml:4:13: $.table.currency: not a currency code: 'usd' (use a 3-letter ISO 4217 code such as USD)",
    ],
    "table-duplicate-chips.yaml": [
        "table-duplicate-chips.yaml:4:10: $.table.chips: a chip denomination is listed twice (list each chip value once)",
    ],
    "table-min-above-max.yaml": [
        "table-min-above-max.yaml:5:12: $.table.maximum: the maximum 10 is below the minimum 100 (swap them)",
    ],
    "table-zero-cap.yaml": [
        "table-zero-cap.yaml:4:15: $.table.payout_cap: must be at least 1, got 0",
    ],
    "table-mix-problems.yaml": [
        "table-mix-problems.yaml:5:14: $.table.occupancy: an occupancy of 120% (the share of seats occupied is above 0 and at most 100%)",
        "table-mix-problems.yaml:7:16: $.table.side_bets.ante_play: Ante & Play is not a side bet of the mix: every seated player bets it (give the average Ante as table: average_bet)",
        "table-mix-problems.yaml:8:17: $.table.side_bets.pair_pluss: the game offers no side bet 'pair_pluss' (did you mean 'pair_plus'?)",
        "table-mix-problems.yaml:9:29: $.table.side_bets.six_card_bonus.share: a share of 150% of the players on six_card_bonus (a share of players is 0 to 100%)",
        "table-mix-problems.yaml:9:48: $.table.side_bets.six_card_bonus.average_bet: an average bet of 0 on six_card_bonus (leave six_card_bonus out of the mix when nobody bets it)",
    ],
    "table-mix-without-average-bet.yaml": [
        "table-mix-without-average-bet.yaml:4:3: $.table: the table's bet mix has no average Ante (give the seats' average Ante as table: average_bet)",
    ],
    "table-mix-no-bets.yaml": [
        "table-mix-no-bets.yaml:4:3: $.table: the table's bet mix names no wager (list the side bets under table: side_bets, each with its share and average_bet)",
        "table-mix-no-bets.yaml:5:14: $.table.occupancy: an occupancy of 0% (the share of seats occupied is above 0 and at most 100%)",
    ],
    "table-zero-chip.yaml": [
        "table-zero-chip.yaml:4:11: $.table.chips[0]: a chip of 0 (chips are worth something)",
    ],
    "ties-unknown.yaml": [
        "ties-unknown.yaml:4:9: $.rules.ties: 'dealer' (text) is not allowed (expected one of: player_wins, push)",
    ],
    "top-level-list.yaml": [
        "top-level-list.yaml:1:1: $: a paytable file is a mapping of keys, got a list (start with 'trey: 2')",
    ],
    "top-level-scalar.yaml": [
        "top-level-scalar.yaml:1:1: $: a paytable file is a mapping of keys, got 'just some words' (text) (start with 'trey: 2')",
    ],
    "two-documents.yaml": [
        "two-documents.yaml:6:1: a paytable file holds one YAML document (remove the second '---' and what follows)",
    ],
    "unknown-outcome.yaml": [
        "unknown-outcome.yaml:5:5: $.wagers.pair_plus.pairs: unknown key 'pairs' (did you mean 'pair'?)",
    ],
    "unknown-qualifier.yaml": [
        "unknown-qualifier.yaml:4:21: $.rules.dealer_qualifier: unknown dealer qualifier 'Q-hi' (text) (use Q-high, none, J-high, K-high, A-high, pair or a high-card hand such as Q-6-4)",
    ],
    "unknown-rule.yaml": [
        "unknown-rule.yaml:5:3: $.rules.dealer_qualifer: unknown key 'dealer_qualifer' (did you mean 'dealer_qualifier'?)",
    ],
    "unknown-strategy.yaml": [
        "unknown-strategy.yaml:5:15: $.wagers.ante_play.strategy: unknown strategy 'optiml' (did you mean 'optimal'?)",
    ],
    "unknown-top-key.yaml": [
        "unknown-top-key.yaml:1:1: $: missing required key 'name' (add 'name:')",
        "unknown-top-key.yaml:2:1: $.nmae: unknown key 'nmae' (did you mean 'name'?)",
    ],
    "unknown-wager.yaml": [
        "unknown-wager.yaml:4:3: $.wagers.pair_plsu: unknown key 'pair_plsu' (did you mean 'pair_plus'?)",
    ],
    "unreadable-odds.yaml": [
        "unreadable-odds.yaml:5:12: $.wagers.pair_plus.flush: cannot read odds 'three to one' (write N, 'N to M' or 'N for M')",
    ],
    "version-as-text.yaml": [
        "version-as-text.yaml:1:7: $.trey: unsupported format version '1' (this trey reads 'trey: 3', 'trey: 2' and 'trey: 1')",
    ],
    "zero-denominator.yaml": [
        "zero-denominator.yaml:5:15: $.wagers.pair_plus.straight: odds '6 to 0' divide by zero (the second number must be at least 1)",
    ],
    "huge-integer.yaml": [
        "huge-integer.yaml:5:11: $.wagers.pair_plus.pair: cannot read the value '99999999999999999...' (numbers in a paytable are small)",
    ],
    "odds-too-large.yaml": [
        "odds-too-large.yaml:5:18: $.wagers.six_card_bonus.royal_flush: odds '5000000000 to 1' are too large (each number is at most 1,000,000,000)",
        "odds-too-large.yaml:6:22: $.wagers.six_card_bonus.three_of_a_kind: odds '7 to 3000000000' are too large (each number is at most 1,000,000,000)",
    ],
    "octal-odds.yaml": [
        "octal-odds.yaml:4:31: $.wagers.pair_plus.flush: the number 040 is not written in plain decimal (YAML 1.1 would read it as 32) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "sexagesimal-odds.yaml": [
        "sexagesimal-odds.yaml:4:31: $.wagers.pair_plus.flush: the number 1:30 is not written in plain decimal (YAML 1.1 would read it as 90) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "hex-odds.yaml": [
        "hex-odds.yaml:4:31: $.wagers.pair_plus.flush: the number 0x28 is not written in plain decimal (YAML 1.1 would read it as 40) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "binary-odds.yaml": [
        "binary-odds.yaml:4:21: $.wagers.pair_plus.pair: the number 0b11 is not written in plain decimal (YAML 1.1 would read it as 3) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "underscore-odds.yaml": [
        "underscore-odds.yaml:4:21: $.wagers.pair_plus.pair: the number 1_0 is not written in plain decimal (YAML 1.1 would read it as 10) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "yes-boolean.yaml": [
        "yes-boolean.yaml:4:29: $.rules.ante_bonus_requires_play: 'yes' is a YAML 1.1 boolean, not plainly true or false (write true or false, or quote the value if it is text)",
    ],
    "bool-tag-text.yaml": [
        "bool-tag-text.yaml:4:29: $.rules.ante_bonus_requires_play: 'abc' is not a boolean (write true or false, or quote the value if it is text)",
    ],
    "surrogate-name.yaml": [
        "surrogate-name.yaml:2:7: $.name: the text holds \\ud800, half of a UTF-16 pair, which is not a character (remove the escape or write the character itself)",
    ],
    "non-ascii-digits.yaml": [
        "non-ascii-digits.yaml:4:31: $.wagers.pair_plus.flush: cannot read odds '٤ to 1' (write N, 'N to M' or 'N for M')",
    ],
    "lookalike-key.yaml": [
        "lookalike-key.yaml:4:3: $.wagers.pаir_plus: unknown key 'pаir_plus' (did you mean 'pair_plus'? the key contains non-ASCII characters: 'а' U+0430)",
    ],
    "float-integer.yaml": [
        "float-integer.yaml:4:12: $.table.minimum: expected a whole number, got 7.0 (a decimal number)",
    ],
    "leading-zero-limit.yaml": [
        "leading-zero-limit.yaml:4:12: $.table.maximum: the number 0100 is not written in plain decimal (YAML 1.1 would read it as 64) (write the number in decimal digits without leading zeros, '_' or ':', or quote it if it is text)",
    ],
    "control-character-name.yaml": [
        "control-character-name.yaml:2:7: $.name: the text holds the control character \\x0c, which a report cannot show (remove it; text on certificates and sheets is plain characters)",
    ],
    "bidi-override-name.yaml": [
        "bidi-override-name.yaml:2:7: $.name: the text holds the control character \\u202e, which a report cannot show (remove it; text on certificates and sheets is plain characters)",
    ],
    "side-bet-bad-id.yaml": [
        "side-bet-bad-id.yaml:4:3: $.side_bets.Dealer-Bonus: 'Dealer-Bonus' is not a side bet id (use lowercase letters, digits and _, starting with a letter, at most 40 characters)",
    ],
    "side-bet-id-clash.yaml": [
        "side-bet-id-clash.yaml:4:3: $.side_bets.pair_plus: the id 'pair_plus' is the name of a wager trey knows (under wagers:) (choose another id, or give the pair_plus pays under wagers:)",
    ],
    "side-bet-in-format-1.yaml": [
        "side-bet-in-format-1.yaml:3:1: $.side_bets: side_bets are format 2 (write 'trey: 2' as the first line)",
    ],
    "side-bet-never-pays.yaml": [
        "side-bet-never-pays.yaml:6:11: $.side_bets.dealer_bonus.pays: the side bet 'dealer_bonus' can never pay: no listed outcome wins anything (give at least one outcome a pay above 0)",
        "side-bet-never-pays.yaml:6:18: warning: $.side_bets.dealer_bonus.pays.pair: '0 to 1' pays nothing: the bet is returned and nothing more (leave the row out if the hand loses, or give the pay)",
    ],
    "side-bet-unknown-outcome.yaml": [
        "side-bet-unknown-outcome.yaml:6:12: $.side_bets.dealer_bonus.pays.pairs: dealer_hand has no outcome 'pairs' (did you mean 'pair'?)",
        "side-bet-unknown-outcome.yaml:6:22: $.side_bets.dealer_bonus.pays.straight_flsh: dealer_hand has no outcome 'straight_flsh' (did you mean 'straight_flush'?)",
    ],
    "side-bet-unknown-reading.yaml": [
        "side-bet-unknown-reading.yaml:5:12: $.side_bets.dealer_bonus.reads: unknown reading 'dealer_hnd' (did you mean 'dealer_hand'?)",
    ],
    "side-bet-wrong-reading-outcome.yaml": [
        "side-bet-wrong-reading-outcome.yaml:6:32: $.side_bets.colour_bet.pays.mini_royal: colours has no outcome 'mini_royal' (expected one of: six_same_colour, three_same_colour)",
        "side-bet-wrong-reading-outcome.yaml:7:14: $.side_bets.colour_bet.on_fold: 'maybe' (text) is not allowed (expected one of: lost, stands)",
    ],
    "preset-unknown-suit-outcome.yaml": [
        "preset-unknown-suit-outcome.yaml:4:15: $.wagers.pair_plus.mini_royal_spade: unknown key 'mini_royal_spade' (did you mean 'mini_royal_spades'?)",
    ],
    "progressive-bad-amounts.yaml": [
        "progressive-bad-amounts.yaml:7:24: $.side_bets.p.pays.mini_royal: an amount must be exact, not the decimal number 500.5 (write a whole number such as 500, or text with at most two decimals such as '2.50')",
        "progressive-bad-amounts.yaml:7:47: $.side_bets.p.pays.pair: a pay is odds, {amount: ...} or {meter: ...}, not a mapping of ['amount', 'odds'] (write 40, '3 to 2', {amount: 500} or {meter: '100%'})",
        "progressive-bad-amounts.yaml:8:12: $.side_bets.p.envy.mini_royl: player_hand has no outcome 'mini_royl' (did you mean 'mini_royal'?)",
    ],
    "progressive-envy-on-fold.yaml": [
        "progressive-envy-on-fold.yaml:11:5: $.side_bets.no_envy.envy_on_fold: envy_on_fold without an envy bonus (give the bet its envy: amounts, or leave envy_on_fold out)",
        "progressive-envy-on-fold.yaml:17:5: $.side_bets.standing.envy_on_fold: the bet stands on a fold, and its envy bonus with it: envy_on_fold is for a bet lost on a fold (write on_fold: lost for a bet lost with the Ante, or leave envy_on_fold out)",
        "progressive-envy-on-fold.yaml:24:19: $.side_bets.six.envy_on_fold: an envy bonus lost on a fold is counted for a bet on the player's hand only; another bettor's six_cards outcome shares the dealer's cards (read player_hand, or write envy_on_fold: paid)",
        "progressive-envy-on-fold.yaml:31:19: $.side_bets.odd.envy_on_fold: 'maybe' (text) is not allowed (expected one of: lost, paid)",
    ],
    "progressive-float-share.yaml": [
        "progressive-float-share.yaml:7:24: $.side_bets.p.pays.mini_royal: a meter share must be exact, not the decimal number 0.1 (write a percentage such as '100%' or '12.5%', or a fraction such as '1/10')",
    ],
    "progressive-increment-100.yaml": [
        "progressive-increment-100.yaml:8:43: $.side_bets.p.progressive.increment: an increment of 100% of every stake (the meter gets a share of each stake below 100%, e.g. '10%')",
    ],
    "progressive-meter-without-meter.yaml": [
        "progressive-meter-without-meter.yaml:7:24: $.side_bets.p.pays.mini_royal: a meter share needs a progressive meter (add progressive: {reset: 5000, increment: '10%'} to the bet)",
    ],
    "progressive-negative-reset.yaml": [
        "progressive-negative-reset.yaml:8:26: $.side_bets.p.progressive.reset: an amount cannot be negative: -5000 (write a whole number such as 500, or text with at most two decimals such as '2.50')",
    ],
    "progressive-share-above-100.yaml": [
        "progressive-share-above-100.yaml:7:24: $.side_bets.p.pays.mini_royal: a meter share of 150% is not between 0% and 100% (a row pays at most the whole meter: 100%)",
    ],
    "progressive-stake-missing.yaml": [
        "progressive-stake-missing.yaml:5:5: $.side_bets.p: the mini_royal pay is an amount: the bet needs its fixed stake (add 'stake: 1', the wager in the table's currency)",
    ],
    "progressive-stake-zero.yaml": [
        "progressive-stake-zero.yaml:6:12: $.side_bets.p.stake: the stake is 0 (give what one bet costs, e.g. 1)",
    ],
    "table-unknown-currency-locale.yaml": [
        "table-unknown-currency-locale.yaml:3:19: $.table.currency: unknown currency 'EUX' (did you mean 'XEU'?)",
        "table-unknown-currency-locale.yaml:3:32: $.table.locale: unknown locale 'xx_YY' (use a CLDR locale such as en_US or de_DE)",
    ],
    "game-at-least-unknown.yaml": [
        "game-at-least-unknown.yaml:7:17: $.game.options[1].at_least: unknown weakest hand 'two pair' (text) (use pair (a pair or better), Q-high, J-high, K-high, A-high or a high-card hand such as Q-6-4)",
        "game-at-least-unknown.yaml:9:17: $.game.options[2].at_least: Q-J-10 is a straight, not a high-card hand (name a high-card hand with three different ranks, e.g. Q-6-4)",
    ],
    "game-in-format-2.yaml": [
        "game-in-format-2.yaml:3:1: $.game: the game: section is format 3 (write 'trey: 3' as the first line)",
    ],
    "game-options-duplicate.yaml": [
        "game-options-duplicate.yaml:6:13: $.game.options[1].play: a Play bet of 1x is already offered (options[0]) (offer each Play bet once, with its requirement)",
    ],
    "game-out-of-range.yaml": [
        "game-out-of-range.yaml:4:12: $.game.face_up: must be at most 1, got 2",
        "game-out-of-range.yaml:6:13: $.game.options[0].play: must be at most 10, got 11",
        "game-out-of-range.yaml:7:38: $.game.ante_when_dealer_does_not_qualify: 'loses' (text) is not allowed (expected one of: pushes, wins)",
        "game-out-of-range.yaml:9:5: $.game.blind.full_house: unknown key 'full_house' (expected one of: flush, mini_royal, pair, straight, straight_flush, three_of_a_kind)",
        "game-out-of-range.yaml:10:12: $.game.blind.flush: odds must be exact, not the decimal number 1.5 (write a whole number (40 means 40 to 1) or quoted text such as '3 to 2')",
    ],
    "game-side-bets.yaml": [
        "game-side-bets.yaml:9:3: $.side_bets.beaten: a side bet lost on a fold beside a face-up card is counted only on the player's own cards, without a progressive or an envy bonus (let the bet stand on a fold (on_fold: stands), or give it a paytable of its own)",
    ],
    "game-strategy.yaml": [
        "game-strategy.yaml:10:15: $.wagers.ante_play.strategy: a game other than standard Three Card Poker is played with the optimal strategy (write strategy: optimal, or leave it out)",
    ],
    "game-without-ante-play.yaml": [
        "game-without-ante-play.yaml:3:1: $.game: the game: section describes the round of Ante & Play, which the file does not offer (add ante_play under wagers:, or leave game: out)",
    ],
}
