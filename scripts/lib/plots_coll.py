"""The coll suite's figures: time per call against message size per operation (coll_time) and the
library's choice against the MPI's default decision as an operation x size heat map (coll_ratio_heatmap).

Case names (docs/benchmarks.md, coll): `<op>` is the library's choice timed next to the MPI's default
decision (its baseline), `<op>.native.<alg>` the MPI's algorithm alg forced, `<op>.floor` the
memory-traffic floor."""

import math

import matplotlib.pyplot as plt
from matplotlib.colors import LogNorm

import bench_results
import plot_style

OPERATIONS = ("allreduce", "allgather", "reduce_scatter_block", "alltoall", "bcast")


def _largest_p(rows):
    """The rows at the run's largest p: one figure answers one job size."""
    p = max(row["p"] for row in rows)
    return p, [row for row in rows if row["p"] == p]


def _series(rows, case):
    return {row["size"]: row for row in rows if row["case"] == case}


def time_figure(rows, header, outdir):
    p, rows = _largest_p(rows)
    operations = [op for op in OPERATIONS if _series(rows, op)]
    if not operations:
        return []
    mpi = bench_results.mpi_library_family(header)
    # One more cell than operations holds the legend (the sixth of 3 x 2 for the five operations).
    figure, axes, spare = plot_style.grid(len(operations) + 1)
    legend_axis = axes.pop()
    for extra in spare:
        extra.set_visible(False)
    for ax, op in zip(axes, operations):
        ours = _series(rows, op)
        floor = _series(rows, op + ".floor")
        native = {}
        for row in rows:
            if row["case"].startswith(op + ".native."):
                best = native.get(row["size"])
                native[row["size"]] = row["median_s"] if best is None else min(best, row["median_s"])
        sizes = sorted(ours)
        curves = [
            ("library's choice (dash)", {s: r["median_s"] for s, r in ours.items()}, "C0", "o", "-"),
            (f"{mpi}'s default decision",
             {s: r["baseline_median_s"] for s, r in ours.items() if bench_results.has_baseline(r)}, "C3", "s", "--"),
            (f"{mpi}'s best forced algorithm", native, "C1", "^", ":"),
            ("memory-traffic floor", {s: r["median_s"] for s, r in floor.items()}, "0.4", "", "-."),
        ]
        values = []
        for label, points, color, marker, style in curves:
            xs = sorted(points)
            if xs:
                ax.plot(xs, [points[x] for x in xs], marker=marker, linestyle=style, color=color,
                        label=label, markersize=4)
                values += [points[x] for x in xs]
        plot_style.size_axis(ax, sizes + sorted(native) + sorted(floor), "bytes per contribution")
        ax.set_yscale("log")
        plot_style.value_axis(ax, values, seconds=True)
        ax.set_ylabel("time per call (median)")
        ax.set_title(op)
    lines = {}  # label -> handle over every panel: an operation may lack a floor or native cases
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            lines.setdefault(label, handle)
    legend_axis.axis("off")
    legend_axis.legend(list(lines.values()), list(lines), loc="center", fontsize=9, frameon=False)
    footer = [f"p = {p}; medians of each point as measured (the report compares them scaled through the "
              f"default decision timed next to each). Best forced: the fastest of {mpi}'s algorithms forced "
              f"one by one (coll/<op>.native.*) at that size.", plot_style.provenance(header)]
    return plot_style.save(figure, "Collectives: time per call against message size", footer, outdir,
                           "coll_time")


def ratio_heatmap(rows, header, outdir):
    p, rows = _largest_p(rows)
    operations = [op for op in OPERATIONS if _series(rows, op)]
    sizes = sorted({row["size"] for op in operations for row in _series(rows, op).values()})
    if not operations:
        return []
    ratios = [[math.nan] * len(sizes) for _ in operations]
    for i, op in enumerate(operations):
        for size, row in _series(rows, op).items():
            if row.get("ratio") is not None:
                ratios[i][sizes.index(size)] = row["ratio"]
    known = [value for line in ratios for value in line if not math.isnan(value)]
    if not known:
        return []
    # Symmetric on a log scale around 1: 2x faster and 2x slower get equally strong colours.
    reach = max(1.1, max(max(known), 1 / min(known)))
    figure, ax = plt.subplots(figsize=(1.0 * len(sizes) + 3.2, 0.55 * len(operations) + 2.4))
    image = ax.imshow(ratios, cmap="RdBu", norm=LogNorm(vmin=1 / reach, vmax=reach), aspect="auto")
    for i, line in enumerate(ratios):
        for j, value in enumerate(line):
            if not math.isnan(value):
                strong = abs(math.log(value)) > 0.6 * math.log(reach)
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if strong else "black")
    ax.set_xticks(range(len(sizes)), [plot_style.human_bytes(size) for size in sizes])
    ax.set_yticks(range(len(operations)), operations)
    ax.grid(False)
    ax.set_xlabel("message size (bytes per contribution)")
    bar = figure.colorbar(image, ax=ax, fraction=0.04, pad=0.02)
    steps = [2.0 ** k for k in range(-6, 7) if 1 / reach <= 2.0 ** k <= reach]
    bar.set_ticks(steps, labels=[f"{step:g}" for step in steps])
    bar.ax.minorticks_off()
    bar.set_label("default / ours (> 1: dash faster)")
    mpi = bench_results.mpi_library_family(header)
    footer = [f"p = {p}; ratio = median of {mpi}'s default decision / median of the library's choice "
              "(coll/<op>), both timed at the same point.", plot_style.provenance(header)]
    return plot_style.save(figure, f"Collectives: library's choice vs {mpi}'s default decision", footer,
                           outdir, "coll_ratio_heatmap")


def figures(rows, header, outdir):
    return time_figure(rows, header, outdir) + ratio_heatmap(rows, header, outdir)
