"""Figures for people and spreadsheets: the terminal, CSV and XLSX, the solve tables and the words for hands and
situations."""
