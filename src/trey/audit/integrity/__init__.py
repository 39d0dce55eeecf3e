"""Deal integrity (issue 32): is the shuffle random? The battery of tests of table rounds and decks, each against
its exact null (:mod:`~trey.audit.integrity.battery`), the laws (:mod:`~trey.audit.integrity.nulls`) and the deal
of rounds from decks (:mod:`~trey.audit.integrity.deal`).

The audit counts each batch of :class:`~trey.audit.deals.DealRecords` it reads into a
:class:`~trey.audit.integrity.battery.BatteryState` (a size fixed whatever the rounds' number) and runs the battery
on it at the end; :func:`deal_integrity` does both for records read at once."""

from trey.audit.integrity.battery import REGISTRY, Battery, BatteryState, Outcome, deal_integrity

__all__ = ["REGISTRY", "Battery", "BatteryState", "Outcome", "deal_integrity"]
