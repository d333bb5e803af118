#!/usr/bin/env python3
"""scripts/compare must flag a 20 % slowdown of one case as a regression, and nothing else.

    compare_test.py path/to/scripts/compare

Writes result files shaped like dash-bench's (five repetitions with a few percent of spread),
runs scripts/compare on pairs of them and checks its exit code and its verdict per case, also for a
point without a baseline and for files of two MPIs.
"""

import json
import os
import subprocess
import sys
import tempfile

COMPARE = sys.argv[1]


def point(case, median, baseline_median, spread=0.03):
    return {
        "suite": "demo", "case": case, "p": 2, "size": 1024, "reps": 5, "verified": True,
        "median_s": median, "min_s": median * (1 - spread), "max_s": median * (1 + spread),
        "baseline_median_s": baseline_median, "baseline_min_s": baseline_median * (1 - spread),
        "baseline_max_s": baseline_median * (1 + spread), "ratio": baseline_median / median,
    }


def write(directory, name, points, header=None):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"header": header or {}, "results": points}, handle)
    return path


def run(before, after):
    finished = subprocess.run([sys.executable, COMPARE, before, after], capture_output=True, text=True, check=False)
    verdicts = {}
    for line in finished.stdout.splitlines():
        if line.startswith("demo/"):
            case = line.split()[0].split("/")[1]
            verdicts[case] = "regression" if "regression" in line else "improvement" if "improvement" in line else "same"
    return finished.returncode, verdicts, finished.stdout


def expect(condition, message, output):
    if not condition:
        print(f"FAILED: {message}\n{output}")
        sys.exit(1)


def main():
    base = [point("a", 1.0e-3, 2.0e-3), point("b", 5.0e-3, 4.0e-3), point("c", 2.0e-2, 2.0e-2)]
    with tempfile.TemporaryDirectory() as directory:
        reference = write(directory, "a.json", base)
        again = write(directory, "same.json", [point(p["case"], p["median_s"] * 1.01, p["baseline_median_s"]) for p in base])
        slower = write(directory, "slower.json",
                       [point(p["case"], p["median_s"] * (1.2 if p["case"] == "b" else 1.0), p["baseline_median_s"])
                        for p in base])
        faster = write(directory, "faster.json",
                       [point(p["case"], p["median_s"] * (0.8 if p["case"] == "c" else 1.0), p["baseline_median_s"])
                        for p in base])
        everything_slower = write(directory, "machine.json",
                                  [point(p["case"], p["median_s"] * 1.2, p["baseline_median_s"] * 1.2) for p in base])

        code, verdicts, output = run(reference, again)
        expect(code == 0 and set(verdicts.values()) == {"same"}, "a 1 % change within the noise is not flagged", output)

        code, verdicts, output = run(reference, slower)
        expect(code == 1, "an injected 20 % slowdown makes compare exit 1", output)
        expect(verdicts == {"a": "same", "b": "regression", "c": "same"}, "only the slowed case is a regression", output)

        code, verdicts, output = run(reference, faster)
        expect(code == 0 and verdicts["c"] == "improvement", "a 20 % speed-up is an improvement, not a failure", output)

        code, verdicts, output = run(reference, everything_slower)
        expect(code == 1 and "baseline moved too" in output,
               "a slowdown of baseline and implementation alike is flagged and blamed on the machine", output)

        # The same run under MPICH, case "c" without its baseline (dash-bench leaves one out that the build
        # cannot run), and a 20 % slowdown of "c" too: compared on our times, and told the MPIs differ.
        no_baseline = dict(point("c", 2.4e-2, 2.0e-2), baseline_median_s=None, baseline_min_s=None,
                           baseline_max_s=None, ratio=None, baseline_unavailable="FFTW-MPI is unavailable under MPICH")
        mpich = write(directory, "mpich.json", base[:2] + [no_baseline], {"mpi": "MPICH 4.0.2 (ch4:ucx)"})
        open_mpi = write(directory, "open_mpi.json", base, {"mpi": "Open MPI v4.1.4"})
        code, verdicts, output = run(open_mpi, mpich)
        expect(code == 1 and verdicts == {"a": "same", "b": "same", "c": "regression"}
               and "A ran on Open MPI v4.1.4, B on MPICH 4.0.2 (ch4:ucx)" in output,
               "a point without baseline is compared on our times, and files of two MPIs are told apart", output)

        broken = write(directory, "broken.json", [{"suite": "demo"}])
        code, _, output = run(reference, broken)
        expect(code == 2, "a malformed file is refused with exit code 2", output)

        # Fields of the wrong type, a zero time and bytes that are no UTF-8: refused, no traceback.
        for name, damage in (("text.json", {"median_s": "fast"}), ("zero.json", {"min_s": 0}),
                             ("size.json", {"size": "large"})):
            damaged = write(directory, name, [dict(base[0], **damage)] + base[1:])
            finished = subprocess.run([sys.executable, COMPARE, damaged, reference], capture_output=True, text=True,
                                      check=False)
            expect(finished.returncode == 2 and "Traceback" not in finished.stderr,
                   f"a result with {damage} is refused with exit code 2", finished.stderr)
        binary = os.path.join(directory, "binary.json")
        with open(binary, "wb") as handle:
            handle.write(b"\xff\xfe{}")
        code, _, output = run(reference, binary)
        expect(code == 2, "a file that is no UTF-8 is refused with exit code 2", output)
    print("scripts/compare: all checks passed")


if __name__ == "__main__":
    main()
