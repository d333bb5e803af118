#!/usr/bin/env python3
"""Merge dash-sim-coll measurements into dash-bench's results format and tabulate them.

    sim/report.py --command "sim/run ..." --json smpi.json --markdown docs/results/smpi.md RAW.json...

RAW files are what dash-sim-coll writes (one per platform and operation). The JSON output has
dash-bench's schema (docs/benchmarks.md): a header and one row per sweep point, here with SMPI's best
native algorithm at that point as the baseline, so scripts/plot draws it; rows carry the platform, the
algorithm and the cost model's prediction as extra keys. The markdown holds the acceptance checks of
issue "Collective layer II" item 6 and one table per platform and operation. Standard library only.
"""

import argparse
import json
import os
import sys
from collections import defaultdict

# Acceptance of issue "Collective layer II", item 6 (P = 512).
TORUS = "torus-8x8x8"
CLOS_QUARTER = "fat-tree-512-mu0.25"
ACCEPTANCE_BYTES = 32768
TORUS_SPEEDUP = 3.0
CLOS_SPEEDUP = 2.5
MODEL_TOLERANCE = 0.25


def fail(message):
    print(f"sim/report.py: {message}", file=sys.stderr)
    sys.exit(2)


def seconds(value):
    if value is None:
        return "-"
    for factor, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if value >= factor:
            return f"{value / factor:.3g} {unit}"
    return f"{value * 1e9:.3g} ns"


def human_size(size):
    for factor, suffix in ((1 << 20, " MiB"), (1 << 10, " KiB")):
        if size >= factor and size % factor == 0:
            return f"{size // factor}{suffix}"
    return f"{size} B"


def load(paths):
    headers, measurements = [], []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as file:
                document = json.load(file)
            headers.append(document["header"])
            measurements.extend(document["measurements"])
        except (OSError, ValueError, KeyError) as error:
            fail(f"cannot read dash-sim-coll output {path}: {error!r}")
    if not measurements:
        fail("no measurements")
    return headers, measurements


def timed(rows):
    return [row for row in rows if "median_s" in row]


def best_native(rows):
    natives = [row for row in timed(rows) if row["mpi"]]
    return min(natives, key=lambda row: row["median_s"]) if natives else None


def prediction(row):
    predicted = row.get("prediction")
    return predicted["seconds"] if predicted else None


def result_rows(points):
    """dash-bench rows: each contender against SMPI's best native algorithm at its point (points without one
    are left out)."""
    rows = []
    for (platform, op, size), point in sorted(points.items()):
        best = best_native(point)
        if best is None:
            continue  # no baseline at this point: the tables show it, the results file does not
        for row in timed(point):
            if row["mpi"]:
                impl = f"SMPI {op} algorithm {row['algorithm']}"
                case = f"{op}.smpi.{row['algorithm']}"
            elif row["contender"] == "selected":
                impl = f"dash::comm::{op} (library's choice: {row['algorithm']})"
                case = op
            else:
                impl = f"dash::comm::{op} algorithm {row['algorithm']}"
                case = f"{op}.{row['algorithm']}"
            result = {
                "suite": f"smpi-{platform}-{op}",
                "case": case,
                "impl": impl,
                "baseline": f"SMPI's best native {op} ({best['algorithm']})",
                "p": row["p"],
                "size": size,
                "size_unit": "bytes per contribution",
                "reps": row["reps"],
                "median_s": row["median_s"],
                "min_s": row["min_s"],
                "max_s": row["max_s"],
                "baseline_median_s": best["median_s"],
                "baseline_min_s": best["min_s"],
                "baseline_max_s": best["max_s"],
                "ratio": best["median_s"] / row["median_s"],
                "verified": row["verified"],
                "platform": platform,
                "algorithm": row["algorithm"],
                "predicted_s": prediction(row),
            }
            rows.append(result)
    return rows


def find(point, contender):
    for row in timed(point):
        if row["contender"] == contender:
            return row
    return None


def acceptance(points):
    lines = ["## Acceptance (issue \"Collective layer II\", item 6; P = 512)", "",
             "| check | measured | required | met |", "|---|---|---|---|"]
    for op in ("allgather", "reduce_scatter"):
        point = points.get((TORUS, op, ACCEPTANCE_BYTES))
        ours = find(point, "selected") if point else None
        best = best_native(point) if point else None
        if ours and best:
            speedup = best["median_s"] / ours["median_s"]
            measured = (f"{seconds(ours['median_s'])} ({ours['algorithm']}) vs {seconds(best['median_s'])} "
                        f"(SMPI {best['algorithm']}): {speedup:.2f}x")
            met = "yes" if speedup >= TORUS_SPEEDUP else "no"
        else:
            measured, met = "not measured", "-"
        lines.append(f"| {TORUS}, {op} {human_size(ACCEPTANCE_BYTES)} per rank: our selected algorithm vs SMPI's "
                     f"best native | {measured} | >= {TORUS_SPEEDUP:g}x | {met} |")
    clos = sorted(key for key in points if key[0] == CLOS_QUARTER and key[1] == "allgather")
    for key in clos:
        halving = find(points[key], "distance_halving")
        doubling = find(points[key], "recursive_doubling")
        if halving and doubling:
            speedup = doubling["median_s"] / halving["median_s"]
            lines.append(f"| {CLOS_QUARTER}, allgather {human_size(key[2])} per rank: distance-halving vs "
                         f"distance-doubling recursive doubling | {seconds(halving['median_s'])} vs "
                         f"{seconds(doubling['median_s'])}: {speedup:.2f}x | >= {CLOS_SPEEDUP:g}x | "
                         f"{'yes' if speedup >= CLOS_SPEEDUP else 'no'} |")
    predicted = [row for point in points.values() for row in timed(point) if prediction(row)]
    within = [row for row in predicted if abs(row["median_s"] / prediction(row) - 1) <= MODEL_TOLERANCE]
    lines.append(f"| simulated time within {MODEL_TOLERANCE:.0%} of the cost model's prediction, our algorithms "
                 f"| {len(within)} of {len(predicted)} points | all | "
                 f"{'yes' if predicted and len(within) == len(predicted) else 'no'} |")
    acceptance_points = [row for key, point in points.items() for row in timed(point)
                         if prediction(row) and key[2] == ACCEPTANCE_BYTES and key[0] in (TORUS, CLOS_QUARTER)
                         and (row["contender"] == "selected" or key[0] == CLOS_QUARTER)]
    if acceptance_points:
        near = [row for row in acceptance_points if abs(row["median_s"] / prediction(row) - 1) <= MODEL_TOLERANCE]
        lines.append(f"| the same at the points above (selected on the torus, every algorithm on the Clos tree) "
                     f"| {len(near)} of {len(acceptance_points)} | all | "
                     f"{'yes' if len(near) == len(acceptance_points) else 'no'} |")
    return lines


def point_tables(points):
    lines = []
    groups = defaultdict(dict)
    for (platform, op, size), point in points.items():
        groups[(platform, op)][size] = point
    for (platform, op), by_size in sorted(groups.items()):
        sizes = sorted(by_size)
        lines += ["", f"### {platform}: {op}", "",
                  "Simulated time per call (slowest rank); in brackets the cost model's prediction for our "
                  "algorithms. **Bold**: the fastest at that size. `selected` is the library's own choice "
                  "(its algorithm in the last rows).", "",
                  "| contender | " + " | ".join(human_size(size) for size in sizes) + " |",
                  "|---|" + "---|" * len(sizes)]
        contenders = []
        for size in sizes:
            for row in by_size[size]:
                label = f"smpi:{row['algorithm']}" if row["mpi"] else row["contender"]
                if label not in contenders:
                    contenders.append(label)
        fastest = {size: min((row["median_s"] for row in timed(by_size[size])), default=None) for size in sizes}
        for label in contenders:
            cells = []
            for size in sizes:
                row = next((row for row in by_size[size]
                            if (f"smpi:{row['algorithm']}" if row["mpi"] else row["contender"]) == label), None)
                if row is None:
                    cells.append("")
                elif "median_s" not in row:
                    cells.append("n/a")
                else:
                    text = seconds(row["median_s"])
                    if row["median_s"] == fastest[size]:
                        text = f"**{text}**"
                    if prediction(row):
                        text += f" [{seconds(prediction(row))}]"
                    if row["verified"] is False:
                        text += " WRONG"
                    cells.append(text)
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        choices = []
        for size in sizes:
            selected = find(by_size[size], "selected")
            choices.append(selected["algorithm"] if selected else "")
        if any(choices):
            lines.append("| selected = | " + " | ".join(choices) + " |")
        unfit = sorted({f"{row['contender']}: {row['skipped']}" for size in sizes for row in by_size[size]
                        if "skipped" in row})
        if unfit:
            lines += ["", "Not run: " + "; ".join(unfit) + "."]
    return lines


def main():
    parser = argparse.ArgumentParser(description="Merge and tabulate dash-sim-coll measurements.")
    parser.add_argument("raw", nargs="+", help="JSON files written by dash-sim-coll")
    parser.add_argument("--command", required=True, help="the command that produced the measurements")
    parser.add_argument("--json", required=True, help="merged results in dash-bench's schema")
    parser.add_argument("--markdown", required=True, help="tables (docs/results/smpi.md)")
    parser.add_argument("--notes", default="", help="markdown placed after the heading (platforms, settings)")
    arguments = parser.parse_args()

    headers, measurements = load(arguments.raw)
    points = defaultdict(list)
    for row in measurements:
        points[(row["platform"], row["op"], row["size"])].append(row)

    first = headers[0]
    header = {
        "tool": "sim/run (dash-sim-coll under SMPI)",
        "command": arguments.command,
        "timestamp": max(h["timestamp"] for h in headers),
        "host": "SimGrid/SMPI simulation",
        "ranks": first["ranks"],
        "mpi_library": first["mpi_library"],
        "git_revision": os.environ.get("DASH_SIM_REVISION", "unknown"),
        "build_type": "Release",
        "timed_reps": first["timed_reps"],
        "warmup_reps": first["warmup_reps"],
        "cost_model": first["cost_model"],
        "platforms": sorted({h["platform"]: h["network"] for h in headers}.items()),
        "fold_bytes": first["fold_bytes"],
    }
    rows = result_rows(points)
    with open(arguments.json, "w", encoding="utf-8") as file:
        json.dump({"header": header, "results": rows}, file, indent=2)
        file.write("\n")

    lines = ["# SMPI at scale: collectives on simulated 512-node machines", "",
             "Generated by `sim/report.py`; do not edit. Command:", "", "```sh", arguments.command, "```", "",
             f"{first['mpi_library']}; {first['ranks']} simulated ranks, one per node; "
             f"{first['timed_reps']} timed call(s) per point after {first['warmup_reps']} untimed "
             f"(the simulation is deterministic); cost model `{first['cost_model']}` (alpha per start-up, "
             f"beta per byte on a link). Measured {header['timestamp']}."]
    if arguments.notes:
        lines += ["", arguments.notes]
    lines += [""] + acceptance(points) + ["", "## All points"] + point_tables(points)
    with open(arguments.markdown, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    print(f"sim/report.py: wrote {arguments.json} ({len(rows)} rows) and {arguments.markdown}")


if __name__ == "__main__":
    main()
