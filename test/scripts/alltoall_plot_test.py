#!/usr/bin/env python3
"""sim/alltoall_plot.py must draw its figures from a sim/alltoall_report.py record as valid PNGs and refuse
bad input with exit 2 and a message naming the problem.

    alltoall_plot_test.py path/to/sim/alltoall_plot.py

Runs the script (through its shebang: Debian's python3 with python3-matplotlib) on
docs/results/smpi_alltoall.json, docs/results/smpi_overlap.json and on small records with the merge or the
overlap workload only, then on damaged records.
"""

import json
import os
import subprocess
import sys
import tempfile

PLOT = sys.argv[1]
ROOT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(*arguments):
    return subprocess.run([PLOT, *arguments], capture_output=True, text=True, check=False)


def expect_pngs(directory, names):
    for name in names:
        path = os.path.join(directory, f"{name}.png")
        with open(path, "rb") as file:
            assert file.read(8) == PNG_SIGNATURE, f"{path} is not a PNG"


def merge_row(contender, size, seconds, **extra):
    return {"workload": "merge", "contender": contender, "mpi": contender == "mpi", "p": 16, "size": size,
            "median_s": seconds, "merge_threads": 24.0} | extra


def expect_only(directory, name, rows, drawn, absent):
    """Writes `rows` as the record <name>.json; the script must draw <name>_<drawn>.png and not <name>_<absent>.png."""
    record = os.path.join(directory, f"{name}.json")
    with open(record, "w", encoding="utf-8") as file:
        json.dump({"runs": [{"platform": "test"}], "measurements": rows}, file)
    result = run(record, directory)
    assert result.returncode == 0, result.stderr
    expect_pngs(directory, (f"{name}_{drawn}",))
    assert not os.path.exists(os.path.join(directory, f"{name}_{absent}.png")), f"no {absent} rows, no figure"


def overlap_row(contender, size, progress, ratio):
    return {"workload": "overlap", "contender": contender, "mpi": contender.startswith("smpi:"), "p": 64,
            "size": size, "median_s": 1e-5, "progress": progress, "overlap_ratio": ratio}


def main():
    with tempfile.TemporaryDirectory() as directory:
        result = run(os.path.join(ROOT, "docs", "results", "smpi_alltoall.json"), directory)
        assert result.returncode == 0, result.stderr
        expect_pngs(directory, ("smpi_alltoall_exchange", "smpi_alltoall_merge"))
        result = run(os.path.join(ROOT, "docs", "results", "smpi_overlap.json"), directory)
        assert result.returncode == 0, result.stderr
        expect_pngs(directory, ("smpi_overlap_overlap",))

        rows = [overlap_row(contender, size, progress, ratio) for size in (1, 1024, 131072)
                for contender in ("selected", "smpi:ialltoall")
                for progress, ratio in (("manual", -0.1 if size == 1 else 0.5), ("thread", 0.99))]
        expect_only(directory, "overlap_only", rows, "overlap", "merge")

        rows = [merge_row(contender, size, size * factor * 1e-9) for size in (256, 4096, 65536)
                for contender, factor in (("blocking", 2.0), ("partial", 1.5), ("mpi", 2.5))]
        rows.append(merge_row("partial", 4096, 5e-6, progress_every_s=5e-7))
        expect_only(directory, "merge_only", rows, "merge", "exchange")

        damaged = {"no measurements": ({"runs": []}, "no 'measurements' list"),
                   "a missing field": ({"measurements": [{"workload": "merge"}]}, "a row lacks contender"),
                   "a bad time": ({"measurements": [merge_row("partial", 256, -1.0)]},
                                  "a row has median_s -1.0, not a positive number of seconds"),
                   "an overlap row without a ratio": (
                       {"measurements": [{**overlap_row("selected", 1024, "manual", 0.5), "overlap_ratio": None}]},
                       "an overlap row lacks progress (manual or thread) or a numeric overlap_ratio")}
        for what, (document, message) in damaged.items():
            path = os.path.join(directory, "damaged.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump(document, file)
            result = run(path, directory)
            assert result.returncode == 2, f"{what}: exit {result.returncode}"
            assert result.stderr.startswith("sim/alltoall_plot.py: ") and message in result.stderr, \
                f"{what}: {result.stderr}"
        result = run(os.path.join(directory, "missing.json"), directory)
        assert result.returncode == 2 and "cannot read" in result.stderr, result.stderr
    print("sim/alltoall_plot.py: all checks passed")


if __name__ == "__main__":
    main()
