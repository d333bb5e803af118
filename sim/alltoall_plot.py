#!/usr/bin/python3
"""The figures of sim/run-alltoall, in the form of Kowalewski (2021, ch. 7): time against block size, one line
per variant, one panel per P.

    alltoall_plot.py TABLES.json OUTDIR

TABLES.json is what sim/alltoall_report.py writes (docs/results/smpi_alltoall.json). Writes, as PNG:
  <stem>_exchange  all-to-all: every contender of ours (solid; the library's choice bold) and SMPI's
                   algorithms and selectors (dashed), one panel per P
  <stem>_merge     all-to-all + merge: every variant, one panel per P, merge threads and progress setting
  <stem>_overlap   overlap ratio (Eq. 7.1) against block size: every contender with manual progress (solid) and
                   with a progress thread (dashed), one panel per P
Exit status 2 with a message naming the problem for a file that is not such a record.

/usr/bin/python3: Debian's matplotlib (python3-matplotlib), also where another python3 comes first on PATH.
"""
import os
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import record_rows  # noqa: E402  (sim/record_rows.py)

plot_style = record_rows.png_plot_style()

FIELDS = ("workload", "contender", "mpi", "p", "size", "median_s")


def fail(message):
    record_rows.fail("sim/alltoall_plot.py", message)


def load(path):
    document, rows = record_rows.load("sim/alltoall_plot.py", path, "measurements", FIELDS,
                                      "a sim/alltoall_report.py record")
    return document.get("runs", [{}])[0], rows


def draw_lines(ax, rows, style_of, colours):
    """One line per contender, in the order they first appear, each in its colour across all panels."""
    by_contender = defaultdict(list)
    for row in rows:
        by_contender[row["contender"]].append(row)
    for contender, points in by_contender.items():
        points.sort(key=lambda row: row["size"])
        style = {"color": colours[contender], **style_of(contender, points[0])}
        ax.plot([row["size"] for row in points], [row["median_s"] for row in points], label=contender, **style)


def exchange_style(contender, row):
    if contender == "selected":
        return {"color": "black", "linewidth": 2.2, "marker": "o", "markersize": 4, "zorder": 3}
    return {"linestyle": "--" if row["mpi"] else "-", "linewidth": 1.0, "marker": "." if row["mpi"] else "x",
            "markersize": 4}


def merge_style(contender, row):
    if contender == "blocking":
        return {"color": "black", "linewidth": 2.0, "marker": "o", "markersize": 4}
    return {"linestyle": "--" if row["mpi"] else "-", "linewidth": 1.2, "marker": "x", "markersize": 4}


def time_panel(style_of):
    """Draws a panel of time against block size, one line per contender styled by style_of."""
    def draw(ax, points, colours):
        draw_lines(ax, points, style_of, colours)
        plot_style.size_axis(ax, [row["size"] for row in points], "bytes per pair of ranks")
        plot_style.value_axis(ax, [row["median_s"] for row in points], seconds=True)
        ax.set_ylabel("time (simulated, slowest rank)")
    return draw


def overlap_panel(ax, points, colours):
    """Overlap ratio against block size: a contender keeps its colour, manual progress solid, the progress thread
    dashed, the library's choice bold."""
    lines = defaultdict(list)
    for row in points:
        lines[(row["contender"], row["progress"])].append(row)
    for (contender, progress), line in lines.items():
        line.sort(key=lambda row: row["size"])
        bold = contender == "selected"
        ax.plot([row["size"] for row in line], [row["overlap_ratio"] for row in line],
                label=f"{contender}, {'progress thread' if progress == 'thread' else 'manual'}",
                color="black" if bold else colours[contender], linestyle="--" if progress == "thread" else "-",
                linewidth=2.0 if bold else 1.1, marker="o" if bold else "x", markersize=4)
    plot_style.size_axis(ax, [row["size"] for row in points], "bytes per pair of ranks")
    ax.set_ylim(min(0.0, min(row["overlap_ratio"] for row in points)) - 0.05, 1.05)
    ax.set_ylabel("overlap ratio (Eq. 7.1)")


def panels(rows, key, outdir, name, title, describe, draw, footer, right=0.8):
    """A figure with one panel per value of key(row), each drawn by draw(ax, rows, colours), a shared legend on
    the right."""
    groups = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    # tab20: up to 20 contenders in distinct colours, the same in every panel.
    palette = plot_style.plt.get_cmap("tab20").colors
    contenders = list(dict.fromkeys(row["contender"] for row in rows))
    colours = {contender: palette[index % len(palette)] for index, contender in enumerate(contenders)}
    figure, axes, spare = plot_style.grid(len(groups), columns=2)
    for ax in spare:
        ax.set_visible(False)
    handles = {}
    for ax, (group, points) in zip(axes, sorted(groups.items())):
        draw(ax, points, colours)
        ax.set_title(describe(group))
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    figure.legend(list(handles.values()), list(handles.keys()), loc="center right", frameon=False)
    return plot_style.save(figure, title, footer, outdir, name, right=right)


def merge_group(row):
    return row["p"], row.get("merge_threads") or 1, row.get("progress_every_s") or 0


def describe_merge(group):
    p, threads, progress = group
    text = f"P = {p}, merges by {threads:g} thread" + ("" if threads == 1 else "s")
    return text + (f", tests every {progress * 1e6:.2g} us" if progress else "")


def main():
    if len(sys.argv) != 3:
        fail("usage: alltoall_plot.py TABLES.json OUTDIR")
    path, outdir = sys.argv[1:]
    header, rows = load(path)
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(path))[0]
    where = (f"{header.get('mpi_library', 'SMPI')}, platform {header.get('platform', '?')}; medians of the timed "
             "calls of each run, simulated seconds of the slowest rank (sim/run-alltoall, sim/alltoall_report.py).")
    written = []
    exchange = [row for row in rows if row["workload"] == "exchange"]
    if exchange:
        written += panels(exchange, lambda row: row["p"], outdir, f"{stem}_exchange",
                          "All-to-all at simulated scale: time against block size", lambda p: f"P = {p}",
                          time_panel(exchange_style),
                          [where, "Solid: ours (bold: the library's choice; NAME@W: sliding window W); dashed: SMPI's "
                           "algorithms and its selectors (smpi: ...)."])
    merge = [row for row in rows if row["workload"] == "merge"]
    if merge:
        written += panels(merge, merge_group, outdir, f"{stem}_merge",
                          "All-to-all + merge at simulated scale: time against block size", describe_merge,
                          time_panel(merge_style),
                          [where, "Bold: blocking exchange, then merge; partial: runs merged as they arrive "
                           "(partial:ALGORITHM@W over that schedule); mpi: MPI_Alltoall, then merge."])
    overlap = [row for row in rows if row["workload"] == "overlap"]
    for row in overlap:
        if row.get("progress") not in ("manual", "thread") or not isinstance(row.get("overlap_ratio"), (int, float)):
            fail(f"{path}: an overlap row lacks progress (manual or thread) or a numeric overlap_ratio: {row}")
    if overlap:
        written += panels(overlap, lambda row: row["p"], outdir, f"{stem}_overlap",
                          "Overlap of a non-blocking all-to-all with as long a computation", lambda p: f"P = {p}",
                          overlap_panel,
                          [where.replace("medians", "overlap ratios from the medians"),
                           "Solid: the collective tested while computing (manual progress); dashed: a progress thread "
                           "on a spare core. Bold: the library's choice; smpi:ialltoall: SMPI's MPI_Ialltoall."],
                          right=0.72)
    for output in written:
        print(output)


if __name__ == "__main__":
    main()
