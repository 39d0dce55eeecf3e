"""Rounds as they are played: settlement of one deal, simulation, the chi-square test and what a table pays in chips."""
