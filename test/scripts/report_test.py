#!/usr/bin/env python3
"""scripts/report must judge each point by the goal that applies to it and flag failed verification.

    report_test.py path/to/scripts/report

Writes a small result file shaped like dash-bench's, with a known PASS and a known MISS of the coll
floor rule (issue 4), a native algorithm measured while the machine was slower, ratio goals met
and missed, reference points and a failed verification, runs scripts/report on it and checks the
verdicts in the tables and the summary. A second file, as a run under MPICH writes it, has a case
without its baseline and skipped points.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

REPORT = sys.argv[1]
MIB = 1 << 20


def point(suite, case, size, median, baseline_median, verified=True, spread=0.03, p=2, baseline_min=None,
          core_round_trip=None):
    placement = {} if core_round_trip is None else {"core_round_trip_ns": core_round_trip}
    return placement | {
        "suite": suite, "case": case, "impl": f"{case} impl", "baseline": f"{suite} baseline", "p": p,
        "size": size, "size_unit": "bytes per contribution" if suite == "coll" else "elements",
        "reps": 5, "verified": verified,
        "median_s": median, "min_s": median * (1 - spread), "max_s": median * (1 + spread),
        "baseline_median_s": baseline_median,
        "baseline_min_s": baseline_median * (1 - spread) if baseline_min is None else baseline_min,
        "baseline_max_s": baseline_median * (1 + spread), "ratio": baseline_median / median,
    }


POINTS = [
    # allreduce, 4 MiB: bound max(18 / 1.5, 1.1 x 9.5) = 12 ms, ours 10 ms: C3 holds, as do C1 and C2.
    point("coll", "allreduce", 4 * MIB, 10e-3, 20e-3, core_round_trip=[115.0, 120.0]),
    point("coll", "allreduce.floor", 4 * MIB, 9.5e-3, 20e-3),
    point("coll", "allreduce.native.ring", 4 * MIB, 18e-3, 20e-3),
    point("coll", "allreduce.native.basic_linear", 4 * MIB, 25e-3, 20e-3),
    # allgather, 4 MiB: C1 (1.083) and C2 (12.6 / 12 = 1.05) hold, but the bound is
    # max(12.6 / 1.5, 1.1 x 7.65) = 8.415 ms and ours is 12 ms: C3 is missed, beyond noise. Its ranks' cores
    # were far apart after the point (a round trip of 550 ns).
    point("coll", "allgather", 4 * MIB, 12e-3, 13e-3, core_round_trip=[120.0, 550.0]),
    point("coll", "allgather.floor", 4 * MIB, 7.65e-3, 13e-3),
    point("coll", "allgather.native.ring", 4 * MIB, 12.6e-3, 13e-3),
    # reduce_scatter_block, 4 MiB, no floor measured: C3 cannot be judged, C1 and C2 hold.
    point("coll", "reduce_scatter_block", 4 * MIB, 2e-3, 4e-3),
    point("coll", "reduce_scatter_block.native.basic_linear", 4 * MIB, 10e-3, 10e-3),
    # alltoall, 4 MiB: bound max(1 / 1.5, 1.1 x 0.95) = 1.045 ms, ours 1 ms: C3 holds.
    point("coll", "alltoall", 4 * MIB, 1e-3, 1e-3),
    point("coll", "alltoall.floor", 4 * MIB, 0.95e-3, 1e-3),
    point("coll", "alltoall.native.pairwise", 4 * MIB, 1e-3, 1e-3),
    # bcast, 4 KiB: the native algorithm's 4 us beats our 5 us in raw time, but was measured while the
    # default decision next to it took 2 us, against 5 us next to ours: scaled, it is 10 us, so C2 holds.
    point("coll", "bcast", 4096, 5e-6, 5e-6),
    point("coll", "bcast.native.basic_linear", 4096, 4e-6, 2e-6),
    # bcast, 16 MiB: the default decision next to the native algorithm fell into a slow mode in most
    # repetitions (median 18 ms) while its fastest, 11.64 ms, is that next to ours: the drift is judged
    # from the fastest repetitions, so the native 9.8 ms stays 9.8 ms (scaling by the medians would
    # make it 6.5 ms and miss C2), and with no floor measured C3 is n/a.
    point("coll", "bcast", 16 * MIB, 10e-3, 12e-3),
    point("coll", "bcast.native.chain", 16 * MIB, 9.8e-3, 18e-3, baseline_min=11.64e-3),
    point("matvec", "grid_vs_pdgemv", 4096, 1.0, 1.3),
    point("matvec", "rows_vs_pdgemv", 4096, 1.0, 1.1),
    point("halo", "heat_partial", 512, 1.0, 0.98),  # our fastest repetition (0.97) meets H1: within noise
    point("gups", "random_access", 1 << 20, 1.0, 0.9),  # no issue states a number: D, ratio >= 1.0
    point("stream", "copy", 1 << 24, 1.0, 1.2, p=1),
    point("sort", "uniform_double", 1 << 20, 0.01, 0.02, verified=False),
]


def verdicts(markdown):
    """(suite, case, size cell) -> verdict cell of the per-suite tables."""
    found, suite = {}, None
    for line in markdown.splitlines():
        if line.startswith("## "):
            suite = line[3:].strip()
        elif line.startswith("| `"):
            cells = [item.strip() for item in line.strip("|").split(" | ")]
            found[(suite, cells[0].strip("`"), cells[2])] = cells[-1]
    return found


def expect(condition, message, output):
    if not condition:
        print(f"FAILED: {message}\n{output}")
        sys.exit(1)


def main():
    with tempfile.TemporaryDirectory() as directory:
        results = os.path.join(directory, "results.json")
        report = os.path.join(directory, "out", "report.md")
        with open(results, "w", encoding="utf-8") as handle:
            json.dump({"header": {"host": "test", "ranks": 2, "git_revision": "abc"}, "results": POINTS}, handle)
        finished = subprocess.run([sys.executable, REPORT, results, report], capture_output=True, text=True,
                                  check=False)
        expect(finished.returncode == 0 and os.path.isfile(report), "the report is written, exit code 0",
               finished.stdout + finished.stderr)
        with open(report, encoding="utf-8") as handle:
            markdown = handle.read()
        found = verdicts(markdown)

        expect(found[("coll", "allreduce", "4 MiB")] == "PASS", "allreduce meets the floor rule C3", markdown)
        expect(found[("coll", "allgather", "4 MiB")] == "**MISS**", "allgather misses C3, beyond noise", markdown)
        expect(re.search(r"coll/allgather p=2 size=4 MiB: C3: 12 ms > 8\.4\d ms\n", markdown) is not None,
               "the summary lists the allgather miss with C3 alone and its bound", markdown)
        expect(found[("coll", "reduce_scatter_block", "4 MiB")] == "PASS (C3 n/a)",
               "without a floor case C3 is n/a and says so", markdown)
        alltoall = next(line for line in markdown.splitlines() if line.startswith("| `alltoall` |"))
        expect(found[("coll", "alltoall", "4 MiB")] == "PASS" and "C3" in alltoall,
               "alltoall is judged by the floor rule too", markdown)
        expect(found[("coll", "bcast", "4 KiB")] == "PASS",
               "a native algorithm measured on a slower machine is compared through the default decision", markdown)
        expect(found[("coll", "bcast", "16 MiB")] == "PASS (C3 n/a)",
               "the drift between points is judged from the default decision's fastest repetitions", markdown)
        expect(found[("coll", "allreduce.native.ring", "4 MiB")] == "n/a"
               and found[("coll", "allreduce.floor", "4 MiB")] == "n/a", "coll reference points get no verdict",
               markdown)
        expect(found[("matvec", "grid_vs_pdgemv", "4096 (2^12)")] == "PASS"
               and found[("matvec", "rows_vs_pdgemv", "4096 (2^12)")] == "**MISS**",
               "matvec is judged by M1 (>= 1.2 against PDGEMV)", markdown)
        expect(found[("halo", "heat_partial", "512")] == "**MISS** (within noise)",
               "a miss that our fastest repetition would meet is marked within noise", markdown)
        expect(found[("gups", "random_access", "1048576 (2^20)")] == "**MISS**",
               "a case without a stated goal is judged by ratio >= 1.0", markdown)
        expect(found[("stream", "copy", "16777216 (2^24)")] == "n/a", "STREAM is a reference point", markdown)

        expect(found[("sort", "uniform_double", "1048576 (2^20)")] == "**UNVERIFIED**",
               "a failed verification is the verdict, not a goal check", markdown)
        summary = markdown.split("## Goals")[0]
        expect("**VERIFICATION FAILED for 1 of 22 points.**" in summary
               and "**sort/uniform_double p=2 size=1048576 (2^20)**" in summary,
               "the summary opens with the failed verification", markdown)
        expect("Verified: 21 of 22" in summary, "the summary counts verified points", markdown)
        expect("Core placement: 1 of 2 points ran while ranks 0 and 1 sat on far-apart cores" in summary
               and "1 of them missed a goal" in summary, "the summary counts the points run on far-apart cores",
               markdown)
        expect("| 120 / 550 ns |" in markdown, "the coll table shows the round trips before and after", markdown)
        misses = summary.split("Misses:")[1]
        expect("coll/allgather" in misses and "coll/allreduce" not in misses and "sort/" not in misses,
               "only the misses are listed as misses", markdown)

        check_glance(markdown)
        check_html(directory, results, report)
        expect("did not finish" not in markdown, "a finished run is not called unfinished", markdown)
        unfinished = os.path.join(directory, "unfinished.json")
        with open(unfinished, "w", encoding="utf-8") as handle:
            json.dump({"header": {"complete": False}, "results": POINTS[:3]}, handle)
        finished = subprocess.run([sys.executable, REPORT, unfinished, report], capture_output=True, text=True,
                                  check=False)
        with open(report, encoding="utf-8") as handle:
            partial_markdown = handle.read()
        expect(finished.returncode == 0 and "**The run did not finish**" in partial_markdown.split("## ")[0],
               "a file written midway (complete: false) is reported as an unfinished run", partial_markdown)

        broken = os.path.join(directory, "broken.json")
        with open(broken, "w", encoding="utf-8") as handle:
            json.dump({"results": [{"suite": "coll"}]}, handle)
        finished = subprocess.run([sys.executable, REPORT, broken, report], capture_output=True, text=True,
                                  check=False)
        expect(finished.returncode == 2 and "lacks" in finished.stderr, "a malformed file is refused with exit 2",
               finished.stdout + finished.stderr)

        for damage in ({"ratio": None}, {"p": "two"}, {"core_round_trip_ns": []}, {"min_s": 0}):
            with open(broken, "w", encoding="utf-8") as handle:
                json.dump({"results": [dict(POINTS[0], **damage)] + POINTS[1:]}, handle)
            finished = subprocess.run([sys.executable, REPORT, broken, report], capture_output=True, text=True,
                                      check=False)
            expect(finished.returncode == 2 and "Traceback" not in finished.stderr,
                   f"a result with {damage} is refused with exit 2", finished.stdout + finished.stderr)
        check_mpich_run(directory, report)
        check_npb_reference(directory)
    print("scripts/report: all checks passed")


def check_glance(markdown):
    """The first table is the one-screen summary: one row per suite, coll judged by C1-C3 and missed."""
    first = [line for line in markdown.split("## At a glance")[1].split("## ")[0].splitlines() if line.startswith("|")]
    expect(markdown.index("## At a glance") < markdown.index("## Summary") and markdown.count("\n|") >= len(first)
           and first[0].startswith("| suite |"), "the report opens with the summary table", markdown)
    suites = [line.strip("|").split("|")[0].strip() for line in first[2:]]
    expect(suites == ["coll", "matvec", "halo", "gups", "stream", "sort"], "one summary row per suite present", markdown)
    coll = first[2]
    expect("C1" in coll and "C3" in coll and "**no**: of 6, 1 MISS" in coll, "coll's row: its goals and its miss",
           markdown)
    expect("| 1.20 (1.10 - 1.30) | 1.20 |" in first[3] and "**no**: of 2, 1 MISS" in first[3]
           and "**UNVERIFIED**" in first[7],
           "matvec's row: the ratio's median, range, value at the largest size; sort's failed verification", markdown)


def npb_point(case, size, npb_class, seconds):
    """An NPB row: the class in size_unit's "<size> <class>" list, the kernel's own time as <case>_seconds."""
    row = point("npb", case, size, seconds, seconds)
    row["size_unit"] = f"keys (the NPB {case.upper()} class: {size} {npb_class})"
    row["extra"] = [{"name": f"{case}_seconds", "unit": "s", "median": seconds, "min": seconds, "max": seconds}]
    return row


def check_npb_reference(directory):
    """NPB's second summary row: against the official times (bench/npb_reference.json: CG A 0.418 s, IS A
    0.147 s) where the run has a class they cover, else says that it has none; --markdown-only writes no
    report.html."""
    results = os.path.join(directory, "npb.json")
    report = os.path.join(directory, "npb", "report.md")
    for points, expected in (([npb_point("cg", 14000, "A", 0.209), npb_point("is", 8388608, "A", 0.294)],
                              "| 1.25 (0.50 - 2.00) | 1.25 (class A) | reference, no goal | ours faster in 1 of 2: CG A |"),
                             ([npb_point("is", 65536, "S", 0.005)],
                              "| - | - | reference, no goal | n/a: the reference covers classes A, B only |")):
        with open(results, "w", encoding="utf-8") as handle:
            json.dump({"header": {}, "results": points}, handle)
        finished = subprocess.run([sys.executable, REPORT, results, report, "--markdown-only"],
                                  capture_output=True, text=True, check=False)
        with open(report, encoding="utf-8") as handle:
            markdown = handle.read()
        row = next((line for line in markdown.splitlines() if line.startswith("| npb vs NPB3.4-MPI |")), "")
        expect(finished.returncode == 0 and row.endswith(expected), f"the NPB reference row ends with {expected}",
               markdown)
        expect(not os.path.exists(os.path.join(directory, "npb", "report.html")), "--markdown-only: no report.html",
               markdown)


def check_html(directory, results, report):
    """report.html next to report.md: self-contained, the plots embedded when they exist."""
    page = os.path.join(os.path.dirname(report), "report.html")
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    expect("<table>" in text and "<h2>At a glance</h2>" in text and 'src="http' not in text and "<img" not in text,
           "report.html holds the report's tables and no image without plots", text[:2000])
    plots = os.path.join(directory, "figures")
    os.makedirs(plots)
    with open(os.path.join(plots, "coll_time.png"), "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\nfake")
    finished = subprocess.run([sys.executable, REPORT, results, report, "--plots", plots], capture_output=True,
                              text=True, check=False)
    with open(report, encoding="utf-8") as handle:
        markdown = handle.read()
    with open(page, encoding="utf-8") as handle:
        text = handle.read()
    expect(finished.returncode == 0 and "![coll_time](../figures/coll_time.png)" in markdown
           and markdown.index("## Plots") < markdown.index("## Goals"),
           "the plots that exist are linked relative to the report, before the tables", markdown)
    expect('<img alt="coll_time" src="data:image/png;base64,' in text and 'src="http' not in text,
           "report.html embeds the plots", text[:2000])


def no_baseline(point_row, reason):
    """point_row as dash-bench writes a case whose baseline this build cannot run."""
    return dict(point_row, baseline_median_s=None, baseline_min_s=None, baseline_max_s=None, ratio=None,
                baseline_unavailable=reason)


def check_mpich_run(directory, report):
    """A run under MPICH: its own default decision named, an FFT without its FFTW-MPI baseline, skipped points."""
    results = os.path.join(directory, "mpich.json")
    reason = "FFTW-MPI is unavailable under MPICH"
    header = {"mpi": "MPICH 4.0.2 (ch4:ucx)", "mpi_library": "MPICH Version:\t4.0.2\nMPICH Device:\tch4:ucx",
              "skipped": [{"suite": "coll", "case": "allreduce.native.smp", "p": 2, "size": 8,
                           "size_unit": "bytes per contribution", "reason": "smp needs several nodes"}]}
    rows = [point("coll", "allreduce", 4096, 5e-6, 6e-6), point("coll", "allreduce.native.nb", 4096, 7e-6, 6e-6),
            no_baseline(point("fft", "2d", 1024, 0.01, 0.01), reason)]
    with open(results, "w", encoding="utf-8") as handle:
        json.dump({"header": header, "results": rows}, handle)
    finished = subprocess.run([sys.executable, REPORT, results, report], capture_output=True, text=True, check=False)
    expect(finished.returncode == 0, "a run with a case without baseline is reported", finished.stdout + finished.stderr)
    with open(report, encoding="utf-8") as handle:
        markdown = handle.read()
    found = verdicts(markdown)
    summary = markdown.split("## Goals")[0]
    expect(found[("fft", "2d", "1024 (2^10)")] == "n/a" and f"F1: no baseline ({reason})" in markdown,
           "a point without its baseline gets no verdict, and says why", markdown)
    expect("**Without a baseline: 1 points** (fft/2d)" in summary and reason in summary,
           "the summary names the points without a baseline and why", markdown)
    expect("**Skipped: 1 points**" in summary and "coll/allreduce.native.smp p=2 size=8 B: smp needs several nodes"
           in summary, "the summary lists the skipped points with their reason", markdown)
    expect("MPICH 4.0.2 (ch4:ucx)." in markdown.split("## Summary")[0] and "MPICH's default decision" in markdown
           and "Open MPI" not in markdown, "the report names the MPI that ran, not Open MPI", markdown)

    broken = os.path.join(directory, "broken_mpich.json")
    for damage in ({"baseline_median_s": 0.01}, {"baseline_unavailable": 1}):
        with open(broken, "w", encoding="utf-8") as handle:
            json.dump({"header": header, "results": rows[:2] + [dict(rows[2], **damage)]}, handle)
        finished = subprocess.run([sys.executable, REPORT, broken, report], capture_output=True, text=True, check=False)
        expect(finished.returncode == 2 and "Traceback" not in finished.stderr,
               f"a point without baseline but {damage} is refused with exit 2", finished.stdout + finished.stderr)
    with open(broken, "w", encoding="utf-8") as handle:
        json.dump({"header": dict(header, skipped=[{"suite": "coll"}]), "results": rows}, handle)
    finished = subprocess.run([sys.executable, REPORT, broken, report], capture_output=True, text=True, check=False)
    expect(finished.returncode == 2 and "skipped" in finished.stderr and "Traceback" not in finished.stderr,
           "a damaged list of skipped points is refused with exit 2", finished.stdout + finished.stderr)


if __name__ == "__main__":
    main()
