#!/usr/bin/env python3
"""scripts/plot must write its figures as valid PNGs and refuse bad input with exit 2 and a message.

    plot_test.py path/to/scripts/plot

Runs the script (through its shebang: Debian's python3 with python3-matplotlib) on a small results
file with coll, sort, npb and an unknown suite, then on docs/results/full_run/results.json with the
SMPI team record and on sim/run's docs/results/smpi.json, and checks the PNG files; then on damaged files.
"""

import json
import os
import subprocess
import sys
import tempfile

PLOT = sys.argv[1]
ROOT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def row(suite, case, size, median, baseline_median, **extra):
    return {"suite": suite, "case": case, "impl": f"{case} impl, ours", "baseline": f"{suite} baseline: theirs",
            "p": 2, "size": size, "size_unit": "bytes per contribution" if suite == "coll" else "elements in total",
            "reps": 3, "verified": True, "median_s": median, "min_s": median, "max_s": median,
            "baseline_median_s": baseline_median, "baseline_min_s": baseline_median,
            "baseline_max_s": baseline_median, "ratio": baseline_median / median} | extra


ROWS = [row("coll", case, size, 1e-6 * size ** 0.5 * factor, 2e-6 * size ** 0.5)
        for size in (8, 4096, 1 << 20)
        for case, factor in (("allreduce", 1.0), ("allreduce.floor", 0.3), ("allreduce.native.ring", 1.5),
                             ("allreduce.native.linear", 2.5), ("bcast", 1.0))]
ROWS += [row("sort", case, size, size * 1e-8, size * 2e-8) for size in (1 << 20, 1 << 22)
         for case in ("uniform_double", "uniform_double_no_partial_merge")]
ROWS += [row("npb", "is", 8388608, 0.2, 0.25,
             size_unit="keys (the NPB IS class: 65536 S, 1048576 W, 8388608 A, 33554432 B)")]
ROWS += [row("newsuite", "walk", size, 1e-3, 2e-3, metric="GB/s", value=5.0, baseline_value=2.5)
         for size in (10, 100, 1000)]
# The quick sweep's stream and fft: one size per case, at p = 1 and 2, each case with its own baseline.
ROWS += [row("onesize", case, 1 << 24, 1e-3 * p, 2e-3, metric="GB/s", value=5.0 / p, baseline_value=2.5,
             baseline=f"{case} baseline", p=p) for case in ("copy", "triad") for p in (1, 2)]


def expect(condition, message, output=""):
    if not condition:
        print(f"FAILED: {message}\n{output}")
        sys.exit(1)


def run(*arguments):
    return subprocess.run([PLOT, *arguments], capture_output=True, text=True, check=False)


def expect_pngs(directory, names, output):
    for name in names:
        path = os.path.join(directory, name + ".png")
        expect(os.path.isfile(path), f"{name}.png is written", output)
        with open(path, "rb") as handle:
            expect(handle.read(8) == PNG_SIGNATURE, f"{name}.png is a PNG", output)


def main():
    with tempfile.TemporaryDirectory() as directory:
        results = os.path.join(directory, "results.json")
        with open(results, "w", encoding="utf-8") as handle:
            json.dump({"header": {"host": "test", "ranks": 2, "mpi": "Open MPI v4.1.4"}, "results": ROWS}, handle)
        plots = os.path.join(directory, "plots")
        finished = run(results, plots)
        output = finished.stdout + finished.stderr
        expect(finished.returncode == 0, "a small results file is plotted, exit code 0", output)
        expect_pngs(plots, ("coll_time", "coll_ratio_heatmap", "sort", "npb", "newsuite", "onesize"), output)
        expect(not os.path.exists(os.path.join(plots, "halo.png")), "a suite without rows has no figure", output)

        full = os.path.join(directory, "full")
        finished = run(os.path.join(ROOT, "docs/results/full_run/results.json"), full,
                       "--team-smpi", os.path.join(ROOT, "docs/results/team_smpi.md"))
        output = finished.stdout + finished.stderr
        expect(finished.returncode == 0, "the full run's results are plotted", output)
        expect_pngs(full, ("coll_time", "coll_ratio_heatmap", "sort", "npb", "halo", "fft", "matvec", "gups",
                           "stream", "array", "alltoall_merge", "overlap", "team", "team_emulation",
                           "team_split_smpi_1colors", "team_split_smpi_16colors"), output)

        # sim/run's record: one point per case (a bar per case), points not checked (verified null).
        smpi = os.path.join(directory, "smpi")
        finished = run(os.path.join(ROOT, "docs/results/smpi.json"), smpi)
        output = finished.stdout + finished.stderr
        expect(finished.returncode == 0, "sim/run's SMPI record is plotted", output)
        expect_pngs(smpi, ("smpi-torus-8x8x8-allgather", "smpi-torus-8x8x8-reduce_scatter",
                           "smpi-fat-tree-512-mu1-allgather"), output)

        broken = os.path.join(directory, "broken.json")
        for content, named in ((json.dumps({"results": [dict(ROWS[0], median_s=-1.0)]}), "median_s"),
                               (json.dumps({"results": [{"suite": "coll"}]}), "lacks"),
                               (json.dumps({"results": []}), "holds no results"),
                               ("{not json", "cannot read")):
            with open(broken, "w", encoding="utf-8") as handle:
                handle.write(content)
            finished = run(broken, plots)
            expect(finished.returncode == 2 and finished.stderr.startswith("scripts/plot: ") and named in finished.stderr
                   and "Traceback" not in finished.stderr, f"bad input is refused with exit 2 naming '{named}'",
                   finished.stdout + finished.stderr)
        finished = run(results, plots, "--team-smpi", results)
        expect(finished.returncode == 2 and "Split time (ms)" in finished.stderr,
               "a team record without its tables is refused with exit 2", finished.stdout + finished.stderr)
    print("scripts/plot: all checks passed")


if __name__ == "__main__":
    main()
