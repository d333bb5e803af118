#!/usr/bin/python3
"""The figures of a sim/run size sweep: per operation, time against message size with one line per contender
(the library's choice and each of SMPI's selectors) and one panel per platform.

    sweep_plot.py RECORD.json OUTDIR

RECORD.json is a sim/run record (dash-bench's results form: a header and rows with suite
"smpi-<platform>-<op>", case "<op>" for the library's choice and "<op>.smpi.<selector>" for SMPI's).
Writes <stem>_<op>.png per operation. Exit status 2 with a message naming the problem for a file that is
not such a record or measures a single size (sim/figures.py plots those as bars instead).

/usr/bin/python3: Debian's matplotlib (python3-matplotlib), also where another python3 comes first on PATH.
"""
import os
import sys
from collections import defaultdict

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import record_rows  # noqa: E402  (sim/record_rows.py)

plot_style = record_rows.png_plot_style()

TOOL = "sim/sweep_plot.py"
FIELDS = ("suite", "case", "platform", "p", "size", "median_s")


def load(path):
    """(header, rows) of a sim/run record; ends the script with exit status 2 on bad input."""
    document, rows = record_rows.load(TOOL, path, "results", FIELDS, "a sim/run record")
    return document.get("header", {}), rows


def is_sweep(rows):
    """True when some contender was measured at more than one size (a line can be drawn)."""
    sizes = defaultdict(set)
    for row in rows:
        sizes[(row["suite"], row["case"])].add(row["size"])
    return any(len(values) > 1 for values in sizes.values())


def contender(row):
    """The legend's name: SMPI's selector for <op>.smpi.<selector>, else the library's choice."""
    _, _, selector = row["case"].partition(".smpi.")
    return f"SMPI {selector}" if selector else "dash (library's choice)"


def draw(rows, op, header, outdir, stem):
    platforms = defaultdict(list)
    for row in rows:
        platforms[row["platform"]].append(row)
    names = sorted({contender(row) for row in rows}, key=lambda name: (name.startswith("SMPI"), name))
    palette = plot_style.plt.get_cmap("tab10").colors
    colours = {name: palette[index % len(palette)] for index, name in enumerate(names[1:])}
    figure, axes, spare = plot_style.grid(len(platforms), columns=2,
                                          panel=(6.0, 4.0) if len(platforms) == 1 else plot_style.PANEL)
    for ax in spare:
        ax.set_visible(False)
    handles = {}
    for ax, (platform, points) in zip(axes, sorted(platforms.items())):
        lines = defaultdict(list)
        for row in points:
            lines[contender(row)].append(row)
        for name in names:
            line = sorted(lines.get(name, []), key=lambda row: row["size"])
            if not line:
                continue
            ours = not name.startswith("SMPI")
            style = ({"color": "black", "linewidth": 2.2, "marker": "o", "markersize": 4, "zorder": 3} if ours else
                     {"color": colours[name], "linestyle": "--", "linewidth": 1.2, "marker": "s", "markersize": 3})
            ax.plot([row["size"] for row in line], [row["median_s"] for row in line], label=name, **style)
        plot_style.size_axis(ax, [row["size"] for row in points], points[0].get("size_unit", "bytes"))
        plot_style.value_axis(ax, [row["median_s"] for row in points], seconds=True)
        ax.set_ylabel("time per call (simulated)")
        ax.set_title(f"{platform}, P = {points[0]['p']}")
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    single = len(platforms) == 1  # one panel: the legend inside it, so that the figure stays narrow
    if single:
        axes[0].legend(fontsize=8, loc="upper left")
    else:
        figure.legend(list(handles.values()), list(handles.keys()), loc="center right", frameon=False)
    where = (f"{header.get('mpi_library', 'SMPI').split('. Copyright')[0]}; "
             f"command: {header.get('command', '?')}")
    return plot_style.save(figure, f"{op}: time against message size (simulated)",
                           [where, "Bold: the library's choice (dash::comm); dashed: SMPI's selectors (the "
                            "algorithm each MPI library's decision picks). Platforms: sim/README.md."],
                           outdir, f"{stem}_{op}", right=1.0 if single else 0.78)


def draw_record(header, rows, outdir, stem):
    """Every operation's figure; returns the files written."""
    os.makedirs(outdir, exist_ok=True)
    operations = defaultdict(list)
    for row in rows:
        operations[row["case"].split(".")[0]].append(row)
    return [output for op, points in sorted(operations.items())
            for output in draw(points, op, header, outdir, stem)]


def main():
    if len(sys.argv) != 3:
        record_rows.fail(TOOL, "usage: sweep_plot.py RECORD.json OUTDIR")
    path, outdir = sys.argv[1:]
    header, rows = load(path)
    if not is_sweep(rows):
        record_rows.fail(TOOL, f"{path} measures one size per contender: no sweep to draw")
    for output in draw_record(header, rows, outdir, os.path.splitext(os.path.basename(path))[0]):
        print(output)


if __name__ == "__main__":
    main()
