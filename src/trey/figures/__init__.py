"""What trey says of a wager: the registry of figures (name, label, unit, rounding), their JSON form and the
theoretical win. Everything that prints a figure takes it from here."""
