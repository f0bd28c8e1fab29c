"""What telling the variant from the record costs: validation with the variant given against
validation where each untagged game's variant is inferred.

    .venv/bin/python bench/inference.py [--games 2000] [--repeat 3]

Inputs: OCA 2.0 (English, no GameType tag; from ``../shared/data`` when present) and random
legal Russian and International games (bench/validate.py's generator), written once with
their GameType tag and once without. Timed: reading and replaying every game in this process
(``validate_sources`` with one job), CPU time of this process, best of ``--repeat`` runs, so
that other work on the machine disturbs the figures little.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from validate import random_games  # noqa: E402

from replay.rules.variants import Variant, get_variant  # noqa: E402
from replay.validate.reports import validate_sources  # noqa: E402

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"


def cpu_seconds(path: Path, variant: Variant | None, repeat: int) -> tuple[float, str]:
    """Best CPU time of validating ``path``, and the variants the reports name."""
    best, names = float("inf"), set()
    for _ in range(repeat):
        start = time.process_time()
        names = {report.variant for report in validate_sources([str(path)], variant, jobs=1)
                 if not isinstance(report, str)}
        best = min(best, time.process_time() - start)
    return best, ",".join(sorted(names))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        inputs: list[tuple[str, Path, str]] = []
        if OCA.is_file():
            inputs.append(("OCA 2.0 (no GameType)", OCA, "english"))
        for name in ("russian", "international"):
            text = "\n".join(random_games(name, args.games))
            tagged = Path(folder, f"{name}-tagged.pdn")
            tagged.write_text(text, encoding="utf-8")
            untagged = Path(folder, f"{name}-untagged.pdn")
            untagged.write_text(re.sub(r'\[GameType "[^"]*"\]\n', "", text), encoding="utf-8")
            inputs += [(f"{args.games} random {name}, tagged", tagged, name),
                       (f"{args.games} random {name}, no GameType", untagged, name)]
        print(f"{'input':<42} {'--variant given':>16} {'inferred':>10} {'cost':>7}  variants")
        for label, path, name in inputs:
            told, _ = cpu_seconds(path, get_variant(name), args.repeat)
            inferred, names = cpu_seconds(path, None, args.repeat)
            cost = (inferred / told - 1) * 100
            print(f"{label:<42} {told:>14.2f} s {inferred:>8.2f} s {cost:>+6.1f}%  {names}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
