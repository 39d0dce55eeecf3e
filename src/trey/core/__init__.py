"""The bottom layer: problems and their codes, text safety, bounded file reading, strict JSON, exact numbers and money,
output files, the fonts' glyphs and background work. It imports nothing else of trey."""
