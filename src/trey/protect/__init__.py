"""Game protection: what a player gains from information about the dealer's cards (a seen card, two, the class of
one), exactly, with the strategy such a player follows and the decisions that give it away."""
