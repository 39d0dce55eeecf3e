"""Speed of `trey certify` and `trey cheatsheet`: whole commands, HTML + PDF (+ JSON), median of 5 runs; and
certify against `trey analyze` of the same file in one run, alternately run by run so that the machine's drift falls
on both (the issue on archival certificates asks for a ratio of 6 or less); certify with `--sign` against certify
without, alternately (signing the PDF may add at most 0.3 s); and `trey verify` of the signed PDF.

.venv/bin/python benchmarks/bench_certify.py
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

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
        keys = Path(out) / "keys"
        subprocess.run(
            [str(TREY), "keygen", "--out", str(keys), "--name", "Bench Lab"], check=True, capture_output=True
        )
        signing = [*certify[:4], str(Path(out) / "signed"), *certify[5:], "--sign", str(keys / "trey-signing-key.pem")]
        plain: list[float] = []
        signed: list[float] = []
        for _ in range(7):
            plain += time_command(certify, runs=1)
            signed += time_command(signing, runs=1)
        report(f"trey certify {STANDARD}, alternately with --sign", plain)
        report(f"trey certify {STANDARD} --sign (the PDF signed as PAdES, the JSON signed)", signed)
        print(f"signing adds {median(signed) - median(plain):+.2f} s (target: at most 0.3 s)")
        pdf = Path(out) / "signed" / "standard.certificate.pdf"
        verify = [str(TREY), "verify", str(pdf), "--trust", str(keys / "trey-signing-cert.pem")]
        report(
            "trey verify the signed PDF (signature, structure, evidence, every page rendered afresh)",
            time_command(verify, runs=3),
        )
        sheet = [str(TREY), "cheatsheet", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
        report(f"trey cheatsheet {STANDARD} (HTML, PDF)", time_command(sheet))
        drill = [str(TREY), "drill", STANDARD, "--out", out, "--level", "full", "--date", "2026-01-01", "--force"]
        report(f"trey drill {STANDARD} --level full (HTML, PDF)", time_command(drill, runs=3))


if __name__ == "__main__":
    main()
