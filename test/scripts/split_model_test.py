#!/usr/bin/env python3
"""scripts/split_model must recover the constants of its own model and extrapolate with them.

    split_model_test.py path/to/scripts/split_model

Writes team_emulation results shaped like dash-bench's whose phase times follow the documented
formulas exactly (known constants, n = 1M .. 32M, p = 2 .. 64, splitter searches growing with lg n),
in three files of which one is ten times slower (the median over files must ignore it), runs the
script and checks the fitted constants, the extrapolated cells at 64M and 128M next to Sack 2011's
Table 2.1, the speed-ups, and the refusal of unusable input.
"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile

MODEL = sys.argv[1]
MI = 1 << 20
SIZES = [MI << k for k in range(6)]
SORTERS = [2, 4, 8, 16, 32, 64]
KNEE = 20  # lg of the collection's knee m_c
C = {"a1": 2e-8, "a3": 1e-8, "b1": 1.5e-8, "b2": 2e-8, "d1": 5e-6, "d2": 1e-9, "d3": 4e-9,
     "e1": 2e-8, "e2": 6e-9, "e3": 3e-6, "f1": 5e-9, "g1": 1.5e-8, "g2": 4e-9, "g3": 1e-5}


def lg(x):
    return math.log2(x)


def counts(n, p):
    rounds = 3
    return {"splitter_rounds": rounds, "splitter_messages": lg(p) * (1 + 2 * rounds),
            "splitter_bytes": 3000.0 * p * p, "splitter_searches": p * (p - 1) * lg(n) / 2}


def phases(n, p):
    m = n // p
    c = counts(n, p)
    return {"collect": collect(m),
            "splitters": C["d1"] * c["splitter_messages"] + C["d2"] * c["splitter_bytes"]
            + C["d3"] * c["splitter_searches"] * lg(m),
            "exchange": C["e1"] * m / 2 if p == 2 else C["e2"] * m * (p - 1) / p + C["e3"] * (p - 1),
            "merge": C["f1"] * m * lg(p),
            "table_allgather": C["g1"] * n / 2 if p == 2 else C["g2"] * n * (p - 1) / p + C["g3"] * lg(p)}


def collect(m):
    return C["b1"] * m + C["b2"] * max(0, m - (1 << KNEE))


def conventional(n):
    return {"collect": C["a1"] * n, "sort": C["a3"] * n * lg(n)}


def row(case, n, impl, scale):
    base = conventional(n)
    names = ["collect", "collect_comm", "sort", "splitters", "exchange", "merge", "table_allgather",
             "splitter_rounds", "splitter_messages", "splitter_bytes", "splitter_searches"]
    extra = []
    for name in names:
        unit = "" if name.startswith("splitter_") and name != "splitters" else "s"
        factor = scale if unit == "s" else 1
        value, baseline = impl.get(name, 0.0) * factor, base.get(name, 0.0) * factor
        extra.append({"name": name, "unit": unit, "median": value, "min": value, "max": value,
                      "baseline_median": baseline, "baseline_min": baseline, "baseline_max": baseline})
    total = sum(impl.get(name, 0.0) for name in ["collect", "splitters", "exchange", "merge"]) * scale
    return {"suite": "team_emulation", "case": case, "impl": case, "baseline": "conventional", "p": 2, "size": n,
            "size_unit": "simulated processes", "reps": 5, "verified": True, "median_s": total, "min_s": total,
            "max_s": total, "baseline_median_s": sum(base.values()) * scale, "ratio": 1.0, "extra": extra}


def results(scale):
    rows = [{"suite": "stream", "case": "copy", "p": 1, "size": 1}]  # other suites are ignored
    for n in SIZES:
        rows.append(row("merge_per_step", n, {"collect": collect(n)}, scale))
        for p in SORTERS:
            rows.append(row(f"parallel_sort_p{p}", n, {**phases(n, p), **counts(n, p)}, scale))
    return {"header": {"tool": "dash-bench"}, "results": rows}


def expect(condition, message, output=""):
    if not condition:
        print(f"FAILED: {message}\n{output}")
        sys.exit(1)


def run(*arguments):
    return subprocess.run([sys.executable, MODEL, *arguments], capture_output=True, text=True, check=False)


def cells(markdown, heading, n_label, phase):
    """The cells of row (n, phase) in the table after the paragraph starting with `heading`."""
    lines = markdown[markdown.index(heading):].splitlines()
    current = None
    for line in lines[2:]:
        if not line.startswith("|"):
            if current is not None:
                break
            continue
        parts = [part.strip() for part in line.strip("|").split("|")]
        current = parts[0] or current
        if current == n_label and parts[1] == phase:
            return parts[2:]
    return None


with tempfile.TemporaryDirectory() as directory:
    paths = []
    for index, scale in enumerate([1.0, 10.0, 1.0]):
        paths.append(os.path.join(directory, f"r{index}.json"))
        with open(paths[-1], "w", encoding="utf-8") as handle:
            json.dump(results(scale), handle)
    output_path = os.path.join(directory, "model.md")
    done = run(*paths, "-o", output_path)
    expect(done.returncode == 0, f"exit code {done.returncode}", done.stderr)
    with open(output_path, encoding="utf-8") as handle:
        markdown = handle.read()

    for name in C:
        found = re.search(rf"\b{name} = ([0-9.e+-]+)", markdown)
        expect(found and math.isclose(float(found.group(1)), C[name], rel_tol=2e-3),
               f"constant {name}: expected {C[name]:.3g}", markdown)

    expect(f"m_c = 2^{KNEE}" in markdown, f"collection knee 2^{KNEE}", markdown)

    heading = "The model next to Table 2.1"
    for n, label in [(64 * MI, "64M"), (128 * MI, "128M")]:
        for phase in ["collect", "splitters", "exchange", "merge", "**total**"]:
            row_cells = cells(markdown, heading, label, phase)
            expect(row_cells is not None and len(row_cells) == len(SORTERS), f"row {label} {phase}", markdown)
            for p, cell in zip(SORTERS, row_cells):
                values = phases(n, p)
                values["**total**"] = sum(values[name] for name in ["collect", "splitters", "exchange", "merge"])
                ours, published = cell.split(" / ")
                expect(abs(float(ours) - values[phase]) < 6e-4, f"{label} {phase} p = {p}: {cell}", markdown)
                expect(re.fullmatch(r"\d\.\d\d", published), f"{label} {phase} p = {p}: Sack 2011 cell {published}", markdown)
    expect(cells(markdown, heading, "128M", "**total**")[-1].endswith("/ 0.37"), "Sack 2011's 0.37 at 128M, p = 64",
           markdown)
    expect(cells(markdown, heading, "8M", "collect")[0].endswith("/ 0.16"), "Sack 2011's 0.16 at 8M, p = 2", markdown)

    # Speed-ups at 128M: conventional / merge per step, the best p of each variant.
    n = 128 * MI
    conv = sum(conventional(n).values())
    merge_per_step = collect(n)
    totals = {p: sum(phases(n, p)[name] for name in ["collect", "splitters", "exchange", "merge"]) for p in SORTERS}
    best = min(SORTERS, key=lambda p: totals[p])
    line = next(line for line in markdown.splitlines() if line.startswith("| 128M |") and "(p = " in line)
    expect(f"| {conv / merge_per_step:.1f}x |" in line, f"merge per step speed-up {conv / merge_per_step:.1f}x", line)
    expect(f"(p = {best}) | {merge_per_step / totals[best]:.1f}x | {conv / totals[best]:.1f}x |" in line,
           f"distributed table at p = {best}", line)
    expect("| Sack 2011 |" in markdown and "up to 14x" in markdown and "60x" in markdown, "Sack 2011's speed-ups", markdown)

    malformed = os.path.join(directory, "bad.json")
    with open(malformed, "w", encoding="utf-8") as handle:
        handle.write("{not json")
    done = run(malformed)
    expect(done.returncode == 2 and "cannot read" in done.stderr, "malformed file refused", done.stderr)
    other = os.path.join(directory, "other.json")
    with open(other, "w", encoding="utf-8") as handle:
        json.dump({"results": [{"suite": "stream", "case": "copy", "p": 1, "size": 1}]}, handle)
    done = run(other)
    expect(done.returncode == 2 and "no team_emulation rows" in done.stderr, "file without the suite refused",
           done.stderr)

print("split_model: constants recovered, Table 2.1 cells and speed-ups as the formulas give")
