"""The paytable workbench in the browser (trey serve)."""
