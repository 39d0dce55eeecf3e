"""Speed of `trey certify` (issue 4) and `trey cheatsheet`: whole commands, HTML + PDF (+ JSON), median of 5 runs.

.venv/bin/python benchmarks/bench_certify.py
"""

from __future__ import annotations

import tempfile

from common import TREY, report, time_command

STANDARD = "paytables/standard.yaml"


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        certify = [str(TREY), "certify", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
        report(f"trey certify {STANDARD} (HTML, PDF, JSON)", time_command(certify), limit=5.0)
        sheet = [str(TREY), "cheatsheet", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
        report(f"trey cheatsheet {STANDARD} (HTML, PDF)", time_command(sheet))


if __name__ == "__main__":
    main()
