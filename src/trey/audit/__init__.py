"""Audits of played rounds: hand histories read as a stream, re-settled by the one settlement, and totalled
against the exact figures."""
