"""Three Card Poker's hand order written out plainly, apart from trey's hand keys, for the brute forces that check
trey's counting (a card is rank * 4 + suit, rank 0 a deuce and 12 an ace)."""

from __future__ import annotations


def strength(cards: tuple[int, ...]) -> tuple[int, ...]:
    """A three-card hand's strength, compared as a tuple: straight flush (5), three of a kind, straight, flush,
    pair, high card (0), then the ranks that break ties; A-2-3 is the lowest straight."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    wheel = ranks == [12, 1, 0]
    straight = wheel or (ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1)
    top = [1] if wheel else ranks[:1]  # A-2-3 ranks by its three
    if straight and suited:
        return (5, *top)
    if ranks[0] == ranks[2]:
        return (4, ranks[0])
    if straight:
        return (3, *top)
    if suited:
        return (2, *ranks)
    if ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        return (1, ranks[1], ranks[2] if ranks[0] == ranks[1] else ranks[0])
    return (0, *ranks)
