"""Deal integrity (issue 32): is the shuffle random? The battery of tests of table rounds and decks, each against
its exact null (:mod:`~trey.audit.integrity.battery`), the laws (:mod:`~trey.audit.integrity.nulls`) and the deal
of rounds from decks (:mod:`~trey.audit.integrity.deal`).

The audit calls :func:`deal_integrity` with the :class:`~trey.audit.deals.DealRecords` of the rounds it read."""

from trey.audit.integrity.battery import REGISTRY, Battery, Outcome, deal_integrity

__all__ = ["REGISTRY", "Battery", "Outcome", "deal_integrity"]
