"""Choosing a game: paytables compared and a pay solved for a target house edge."""
