"""The team split figures from an SMPI record of sim/run-team (docs/results/team_smpi.md): split time
against P per split variant and MPI_Comm_split, one figure per color count."""

import re

import matplotlib.pyplot as plt
from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

import plot_style


def split_times(path):
    """{colors: (variants, [(P, [ms per variant or None])])} from the "Split time (ms)" table of each
    "## <k> color(s)" section; raises OSError or ValueError naming the problem."""
    with open(path, encoding="utf-8") as file:
        lines = [line.strip() for line in file]
    sections = {}
    colors = None
    for index, line in enumerate(lines):
        heading = re.fullmatch(r"## (\d+) color\(s\)", line)
        if heading:
            colors = int(heading.group(1))
        if line != "Split time (ms)" or colors is None:
            continue
        table = []
        for row in lines[index + 2:]:
            if not row.startswith("|"):
                break
            table.append([cell.strip() for cell in row.strip("|").split("|")])
        if len(table) < 3 or table[0][0] != "P":
            raise ValueError(f"{path}: the split-time table of {colors} color(s) has no rows")
        try:
            points = [(int(row[0]), [None if cell in ("-", "") else float(cell.split()[0]) for cell in row[1:]])
                      for row in table[2:]]
        except (ValueError, IndexError) as error:
            raise ValueError(f"{path}: unreadable split-time row for {colors} color(s): {error}") from error
        sections[colors] = (table[0][1:], points)
    if not sections:
        raise ValueError(f"{path} holds no \"Split time (ms)\" table under a \"## <k> color(s)\" heading")
    return sections


def figures(path, outdir):
    outputs = []
    for colors, (variants, points) in split_times(path).items():
        figure, ax = plt.subplots(figsize=(7.5, 4.8))
        for column, name in enumerate(variants):
            line = [(p, times[column]) for p, times in points if column < len(times) and times[column] is not None]
            # A marker of its own per variant: variants that take the same path (automatic picks one of
            # the others) draw the same line, and each stays visible.
            ax.plot([p for p, _ in line], [t for _, t in line], marker="osD^vx*"[column % 7],
                    markersize=7 - column % 4, fillstyle="none" if column % 2 else "full", label=name,
                    linestyle="--" if name.startswith("MPI_") else "-")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(FixedLocator([p for p, _ in points]))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.xaxis.set_major_formatter(ScalarFormatter())
        plot_style.value_axis(ax, [t for _, times in points for t in times if t is not None], seconds=False)
        ax.set_xlabel("P (simulated processes)")
        ax.set_ylabel("split time [ms] (median, slowest process)")
        ax.legend(loc="upper left")
        footer = [f"From {path} (sim/run-team under SMPI: a BG/P-like torus, communication only); "
                  "not measured in this run."]
        outputs += plot_style.save(figure, f"Team split time against P, {colors} color(s)", footer, outdir,
                                   f"team_split_smpi_{colors}colors")
    return outputs
