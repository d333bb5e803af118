#!/usr/bin/env python3
"""Tables of dash-sim-team's measurements (sim/run-team): split time per variant and machine size against
MPI_Comm_split and against the conventional variant, memory per process, and the first collective on the new
team (which resolves its peers' ranks).

    team_report.py --command "sim/run-team ..." --markdown OUT.md RAW.json...
"""

import argparse
import json
import sys

VARIANTS = ["conventional", "merge_per_step", "parallel_sort_full_table", "parallel_sort_distributed_table",
            "automatic", "mpi"]
SHORT = {"conventional": "conventional", "merge_per_step": "merge/step", "parallel_sort_full_table": "sort+full",
         "parallel_sort_distributed_table": "sort+distributed", "automatic": "automatic",
         "mpi": "MPI_Comm_split"}


def load(paths):
    rows, headers = [], []
    for path in paths:
        with open(path) as file:
            data = json.load(file)
        headers.append(data["header"])
        rows.extend(data["measurements"])
    return rows, headers


def ms(seconds):
    return f"{seconds * 1e3:.3f}"


def peak_bytes(row):
    return "-" if row["variant"] == "mpi" else str(row["split_peak_bytes_max"])


def table(rows, colors, field, format_value, title):
    points = sorted({row["p"] for row in rows if row["colors"] == colors})
    present = [v for v in VARIANTS if any(row["variant"] == v and row["colors"] == colors for row in rows)]
    lines = [title, "", "| P | " + " | ".join(SHORT[v] for v in present) + " |",
             "|---|" + "---|" * len(present)]
    for p in points:
        cells = []
        for variant in present:
            found = [r for r in rows if r["p"] == p and r["colors"] == colors and r["variant"] == variant]
            if not found:
                cells.append("-")
                continue
            row = found[0]
            cell = format_value(row)
            cells.append(cell if row["verified"] else cell + " (WRONG)")
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    return lines + [""]


def ratios(rows, colors):
    """Per P: MPI_Comm_split / each variant and conventional / each variant (> 1: the variant is faster)."""
    points = sorted({row["p"] for row in rows if row["colors"] == colors})
    ours = [v for v in VARIANTS if v != "mpi"]
    lines = [f"Speed-ups, {colors} color(s): MPI_Comm_split's time / ours, and the conventional variant's / ours",
             "", "| P | " + " | ".join(f"{SHORT[v]} vs MPI" for v in ours) + " | " +
             " | ".join(f"{SHORT[v]} vs conv." for v in ours if v != "conventional") + " |",
             "|---|" + "---|" * (2 * len(ours) - 1)]
    for p in points:
        by_variant = {r["variant"]: r["median_s"] for r in rows if r["p"] == p and r["colors"] == colors}
        cells = [f"{by_variant['mpi'] / by_variant[v]:.2f}" if "mpi" in by_variant and v in by_variant else "-"
                 for v in ours]
        cells += [f"{by_variant['conventional'] / by_variant[v]:.2f}"
                  if "conventional" in by_variant and v in by_variant else "-"
                  for v in ours if v != "conventional"]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    return lines + [""]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--command", required=True)
    parser.add_argument("--markdown", required=True)
    parser.add_argument("raw", nargs="+")
    arguments = parser.parse_args()
    rows, headers = load(arguments.raw)
    if not rows:
        sys.exit("team_report.py: no measurements")
    lines = ["# Team split at simulated scale (SMPI)", "",
             f"Made by `{arguments.command}` on {headers[0]['timestamp']} ({headers[0]['mpi_library']}); "
             "how to read it: docs/teams.md \"Measured\".", "",
             "BG/P-like tori of P nodes, one rank each (α = 6.29 µs per message, 375 MB/s per link and direction, "
             "computation not simulated). Workload: Sack 2011 §2.4's, "
             "every rank's key random in [0, P) (many ties), color rank mod colors. Times: simulated ms of the "
             "slowest rank, median of the timed splits. Every result was verified against the expected "
             "membership (rank, size, and translations of five ranks both ways); \"(WRONG)\" marks a failure.", ""]
    for colors in sorted({row["colors"] for row in rows}):
        lines += table(rows, colors, "median_s", lambda r: ms(r["median_s"]),
                       f"## {colors} color(s)\n\nSplit time (ms)")
        lines += ratios(rows, colors)
        lines += table(rows, colors, "team_bytes_max", lambda r: str(r["team_bytes_max"]),
                       "Memory kept per process for the new team (bytes, largest over the processes): our rank "
                       "table or formula, rows held and cache (TeamStats::bytes); for MPI_Comm_split a table of "
                       "the team's size at 4 bytes a member (its state lives inside the MPI library)")
        lines += table(rows, colors, "split_peak_bytes_max", peak_bytes,
                       "Peak records held while splitting (bytes at 16 a record, largest over the processes; "
                       "not known for MPI_Comm_split)")
        lines += table(rows, colors, "first_allreduce_s",
                       lambda r: f"{ms(r['first_allreduce_s'])} / {ms(r['second_allreduce_s'])}",
                       "An 8-byte allreduce on the new team, first / second call (ms): the first resolves the "
                       "peers' ranks (distributed tables: one-sided reads of rows), the second runs from the cache")
    with open(arguments.markdown, "w") as file:
        file.write("\n".join(lines).rstrip() + "\n")


if __name__ == "__main__":
    main()
