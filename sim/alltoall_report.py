#!/usr/bin/env python3
"""The tables of sim/run-alltoall (docs/results/smpi_alltoall.md) from dash-sim-alltoall's files, with links to
the figures sim/alltoall_plot.py draws beside them.

    alltoall_report.py --commands FILE --markdown OUT.md [--json OUT.json] RAW.json...

All-to-all: per P and block size, the library's choice, our fastest contender, SMPI's fastest and its MPICH
(smpirun's default here) and Intel MPI selectors (the dissertation's baseline was Intel MPI 2019), with ratios
(above 1: ours faster). All-to-all + merge: per P and block
size, each variant and the ratios of the fastest partial consumption to the blocking exchange and to
MPI_Alltoall. Overlap: per P and block size, each contender's overlap ratio (Kowalewski 2021, Eq. 7.1) with
manual progress and with a progress thread, and the exchange's time alone.
"""
import argparse
import json
import os
from collections import defaultdict


def microseconds(seconds):
    return f"{seconds * 1e6:.3g} us" if seconds < 1e-3 else f"{seconds * 1e3:.3g} ms"


def verified_mark(rows):
    marks = {row.get("verified") for row in rows}
    return "no (folded)" if marks == {None} else "yes" if marks == {True} else "FAILED"


def exchange_tables(rows):
    lines = []
    for p in sorted({row["p"] for row in rows}):
        lines += [f"### All-to-all, P = {p}", "",
                  "| block | library's choice | our fastest | SMPI's fastest | SMPI mpich selector | SMPI impi selector | "
                  "choice vs SMPI's fastest | choice vs mpich selector | choice vs impi selector | verified |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        by_size = defaultdict(list)
        for row in rows:
            if row["p"] == p:
                by_size[row["size"]].append(row)
        for size, points in sorted(by_size.items()):
            ours = [r for r in points if not r["mpi"]]
            theirs = [r for r in points if r["mpi"]]
            chosen = next((r for r in ours if r["contender"] == "selected"), None)
            best_ours = min(ours, key=lambda r: r["median_s"]) if ours else None
            best_theirs = min(theirs, key=lambda r: r["median_s"]) if theirs else None
            mpich = next((r for r in theirs if r["algorithm"] == "mpich"), None)
            impi = next((r for r in theirs if r["algorithm"] == "impi"), None)

            def time_of(row, name_key):
                return f"{microseconds(row['median_s'])} ({row[name_key]})" if row else "-"

            def ratio(row):
                return f"{row['median_s'] / chosen['median_s']:.2f}" if row and chosen else "-"

            lines.append(f"| {size} B | {time_of(chosen, 'algorithm')} | {time_of(best_ours, 'contender')} | "
                         f"{time_of(best_theirs, 'algorithm')} | {microseconds(mpich['median_s']) if mpich else '-'} | "
                         f"{microseconds(impi['median_s']) if impi else '-'} | "
                         f"{ratio(best_theirs)} | {ratio(mpich)} | {ratio(impi)} | {verified_mark(points)} |")
        lines.append("")
    return lines


def merge_tables(rows):
    lines = []
    def kind(row):
        return row["p"], row.get("merge_threads", 1), row.get("progress_every_s", 0)

    for p, threads, progress in sorted({kind(row) for row in rows}):
        merging = "one thread, as on this machine" if threads == 1 else f"charged 1/{threads:g} of this machine's time"
        if progress:
            merging += (f", the exchange tested every {progress * 1e6:g} us of merging (a progress thread) and "
                        "the stored runs merged while the last two are awaited")
        selected = [row for row in rows if kind(row) == (p, threads, progress)]
        variants = list(dict.fromkeys(row["contender"] for row in selected))
        lines += [f"### All-to-all + merge, P = {p}, merges {merging}", "",
                  "| run per pair | " + " | ".join(variants) +
                  " | best partial vs blocking | best partial vs mpi | verified |",
                  "|---" * (len(variants) + 4) + "|"]
        by_size = defaultdict(dict)
        for row in selected:
            by_size[row["size"]][row["contender"]] = row
        for size, points in sorted(by_size.items()):
            cells = [microseconds(points[v]["median_s"]) if v in points else "-" for v in variants]
            partials = [row for name, row in points.items() if name.startswith("partial")]
            best = min(partials, key=lambda row: row["median_s"]) if partials else None

            def ratio(base):
                if best is None or base not in points:
                    return "-"
                return f"{points[base]['median_s'] / best['median_s']:.2f} ({best['contender']})"

            lines.append(f"| {size} B | " + " | ".join(cells) + f" | {ratio('blocking')} | {ratio('mpi')} | "
                         f"{verified_mark(points.values())} |")
        lines.append("")
    return lines


def overlap_tables(rows):
    lines = []
    for p in sorted({row["p"] for row in rows}):
        selected = [row for row in rows if row["p"] == p]
        contenders = list(dict.fromkeys(row["contender"] for row in selected))
        tests = max(row.get("tests_per_compute", 0) for row in selected)
        lines += [f"### Overlap ratio, P = {p}", "",
                  f"r = (t_comm + t_compute - T) / max(t_comm, t_compute) with t_compute = t_comm; each cell: r with "
                  f"manual progress ({tests} tests while computing) / r with a progress thread; t_comm: start + wait "
                  "alone; T vs SMPI: smpi:ialltoall's T over the library's choice's, manual progress / progress thread "
                  "(above 1: ours faster).", "",
                  "| block | t_comm (library's choice) | t_comm (smpi:ialltoall) | " + " | ".join(contenders) +
                  " | T vs SMPI | verified |",
                  "|---" * (len(contenders) + 5) + "|"]
        by_size = defaultdict(lambda: defaultdict(dict))
        for row in selected:
            by_size[row["size"]][row["contender"]][row["progress"]] = row
        for size, points in sorted(by_size.items()):
            def comm(name):
                row = next(iter(points[name].values()), None) if name in points else None
                return microseconds(row["t_comm_s"]) if row else "-"

            def ratios(name):
                modes = points.get(name, {})
                return " / ".join(f"{modes[mode]['overlap_ratio']:.2f}" if mode in modes else "-"
                                  for mode in ("manual", "thread"))

            def against_smpi():
                ours, theirs = points.get("selected", {}), points.get("smpi:ialltoall", {})
                return " / ".join(f"{theirs[mode]['median_s'] / ours[mode]['median_s']:.2f}"
                                  if mode in ours and mode in theirs else "-" for mode in ("manual", "thread"))

            everything = [row for modes in points.values() for row in modes.values()]
            lines.append(f"| {size} B | {comm('selected')} | {comm('smpi:ialltoall')} | " +
                         " | ".join(ratios(name) for name in contenders) +
                         f" | {against_smpi()} | {verified_mark(everything)} |")
        lines.append("")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", required=True, help="a file with the commands that made the raw files")
    parser.add_argument("--markdown", required=True)
    parser.add_argument("--json", help="every run's header and measurements in one file")
    parser.add_argument("raw", nargs="+")
    arguments = parser.parse_args()
    rows, headers = [], []
    for path in arguments.raw:
        with open(path) as file:
            data = json.load(file)
        headers.append(data["header"])
        rows += data["measurements"]
    header = headers[0]
    reps = ", ".join(str(r) for r in sorted({h["timed_reps"] for h in headers}))
    with open(arguments.commands) as file:
        # A line may end in " # note" (e.g. that a run was stopped): the note follows the command.
        commands = ", ".join(
            f"`{line.split(' # ')[0].strip()}`" + (f" ({line.split(' # ', 1)[1].strip()})" if " # " in line else "")
            for line in file if line.strip())
    workloads = {row["workload"] for row in rows}
    parts = [name for workload, name in (("exchange", "all-to-all"), ("merge", "all-to-all + merge"),
                                         ("overlap", "overlap with computation")) if workload in workloads]
    title = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    lines = [f"# {title[0].upper() + title[1:]} at simulated scale (SMPI)", "",
             f"Generated by {commands} (sim/alltoall_report.py), {header['timestamp']}, "
             f"{header['mpi_library']}, platform `{header['platform']}` (sim/platforms/{header['platform']}.xml: "
             "a SuperMUC-NG-like non-blocking fat tree, 100 Gbit/s links, 2 ranks per node), "
             f"median of {reps} timed calls (each run's own) after {header['warmup_reps']} warm-up, simulated "
             "seconds of the slowest rank. Merges are timed on the machine that ran the simulation and charged "
             "1.15 times that (smpi/host-speed, calibrated on all-to-all + merge at P = 2 against dash-bench; the "
             "1/24 tables charge a 24th of it, as if 24 threads merged); the overlap tables' computation is charged "
             "simulated time that touches no memory; other computation is not simulated, every message costs its "
             "receiver 0.2 us (a non-blocking send costs its sender nothing), an idle test 0.1 us, doubling in a row "
             "up to 0.8 us (sim/run-alltoall, sim/alltoall_sim.cpp). Ratios above 1: ours faster. Blocks: bytes per "
             "pair of ranks; `NAME@W`: sliding window W (`@S/R`: S sends, R receives); `partial:ALGORITHM@W`: partial consumption over that "
             "algorithm.", ""]
    # The figures sim/alltoall_plot.py draws next to this file from the same record.
    stem = os.path.splitext(os.path.basename(arguments.markdown))[0]
    figures = {"exchange": "All-to-all: time against block size per P",
               "merge": "All-to-all + merge: time against block size per P",
               "overlap": "Overlap ratio against block size per P"}
    for workload, caption in figures.items():
        if workload in workloads:
            lines += [f"![{caption}]({stem}_{workload}.png)", ""]
    lines += exchange_tables([r for r in rows if r["workload"] == "exchange"])
    lines += merge_tables([r for r in rows if r["workload"] == "merge"])
    lines += overlap_tables([r for r in rows if r["workload"] == "overlap"])
    with open(arguments.markdown, "w") as file:
        file.write("\n".join(lines))
    if arguments.json:
        with open(arguments.json, "w") as file:
            json.dump({"runs": headers, "measurements": rows}, file, indent=1)
            file.write("\n")


if __name__ == "__main__":
    main()
