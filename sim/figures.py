#!/usr/bin/python3
"""The figures of a sim/run or sim/run-team record beside its tables, in TABLES_plots/, and a "## Figures"
section at the end of TABLES.md that links each (replaced, not added, when run again).

    sim/figures.py docs/results/smpi.md        sim/run's records (TABLES.json): sim/sweep_plot.py for a size
                                               sweep, else scripts/plot (one size: bars per algorithm)
    sim/figures.py docs/results/team_smpi.md   the split time against P per color count (sim/run-team's,
                                               which has no JSON beside it)

sim/run and sim/run-team call it after their reports. Exit status 2 with a message when the record cannot
be read or plotted.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

ROOT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..")
SECTION = "## Figures"


def fail(message):
    print(f"sim/figures.py: {message}", file=sys.stderr)
    sys.exit(2)


def team_figures(tables, plots):
    """sim/run-team's split time tables as figures (scripts/lib/plots_team_smpi.py), PNG only."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
    import plot_style  # noqa: E402  (found through the path set above)
    import plots_team_smpi  # noqa: E402

    plot_style.FORMATS[:] = ["png"]
    os.makedirs(plots, exist_ok=True)
    try:
        plots_team_smpi.figures(tables, plots)
    except (OSError, ValueError) as error:
        fail(f"cannot draw the split times of {tables}: {error}")


def main():
    if len(sys.argv) != 2 or not sys.argv[1].endswith(".md"):
        fail("usage: sim/figures.py TABLES.md (with TABLES.json beside it)")
    tables = sys.argv[1]
    stem = os.path.splitext(tables)[0]
    plots = f"{stem}_plots"
    if os.path.exists(f"{stem}.json"):
        sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
        import sweep_plot  # noqa: E402  (sim/sweep_plot.py, found through the path set above)

        header, rows = sweep_plot.load(f"{stem}.json")
        if sweep_plot.is_sweep(rows):
            source = f"sim/sweep_plot.py on `{os.path.basename(stem)}.json`): per operation, time against message " \
                     "size, one panel per platform, the library's choice and SMPI's selectors as lines"
            sweep_plot.draw_record(header, rows, plots, os.path.basename(stem))
        else:  # one size per contender: scripts/plot's bars, every algorithm against SMPI's best native one
            source = f"scripts/plot on `{os.path.basename(stem)}.json`): per platform and operation, every " \
                     "algorithm against SMPI's best native one"
            plotted = subprocess.run([os.path.join(ROOT, "scripts", "plot"), f"{stem}.json", plots, "--png-only"],
                                     capture_output=True, text=True, check=False)
            if plotted.returncode != 0:
                fail(f"scripts/plot failed on {stem}.json: {plotted.stderr.strip()}")
    else:
        source = "its split time tables): per color count, the split time against P of every variant"
        team_figures(tables, plots)
    figures = sorted(name for name in os.listdir(plots) if name.endswith(".png"))
    try:
        with open(tables, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        fail(f"cannot read {tables}: {error}")
    text = text.split(f"\n{SECTION}\n")[0].rstrip("\n")
    directory = os.path.basename(plots)
    lines = ["", "", SECTION, "",
             f"Drawn by `sim/figures.py {tables}` ({source}.", ""]
    for name in figures:
        lines += [f"![{os.path.splitext(name)[0]}]({directory}/{name})", ""]
    with open(tables, "w", encoding="utf-8") as file:
        file.write(text + "\n".join(lines))
    print(f"sim/figures.py: {len(figures)} figures in {plots}, linked from {tables}")


if __name__ == "__main__":
    main()
