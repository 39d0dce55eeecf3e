"""A paytable file: its model (:mod:`~trey.paytable.model`), its pays and odds, the YAML reader that keeps locations,
the JSON Schema and the loader that turns a file into a :class:`~trey.paytable.model.GameSpec` or problems."""
