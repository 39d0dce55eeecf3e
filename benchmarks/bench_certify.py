"""Speed of `trey certify` and `trey cheatsheet`: whole commands, HTML + PDF (+ JSON), median of 5 runs; and
certify against `trey analyze` of the same file in one run, alternately run by run so that the machine's drift falls
on both (the issue on archival certificates asks for a ratio of 6 or less).

.venv/bin/python benchmarks/bench_certify.py
"""

from __future__ import annotations

import tempfile

from common import TREY, median, report, time_command

STANDARD = "paytables/standard.yaml"


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        certify = [str(TREY), "certify", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
        analyze = [str(TREY), "analyze", STANDARD, "--format", "json"]
        certified: list[float] = []
        analyzed: list[float] = []
        for _ in range(7):
            certified += time_command(certify, runs=1)
            analyzed += time_command(analyze, runs=1)
        report(f"trey certify {STANDARD} (HTML, PDF/A-3b with the evidence embedded, JSON)", certified, limit=5.0)
        report(f"trey analyze {STANDARD} --format json, alternately with certify", analyzed)
        print(f"certify / analyze: x{median(certified) / median(analyzed):.1f} (target: 6 or less)")
        sheet = [str(TREY), "cheatsheet", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
        report(f"trey cheatsheet {STANDARD} (HTML, PDF)", time_command(sheet))
        drill = [str(TREY), "drill", STANDARD, "--out", out, "--level", "full", "--date", "2026-01-01", "--force"]
        report(f"trey drill {STANDARD} --level full (HTML, PDF)", time_command(drill, runs=3))


if __name__ == "__main__":
    main()
