"""Cards, three-card hands and their exact tables, and the readings: what a side bet reads from a deal (the player's
hand, the dealer's, six cards, colours). Imports only :mod:`trey.core`."""
