"""Rendering: Jinja2 templates, matplotlib charts and WeasyPrint PDFs. Only the commands that write reports
import this package, so `trey analyze` never pays for it."""
