#!/usr/bin/env python3
"""sim/figures.py must draw a sim/run or sim/run-team record's figures beside its tables and link each from one
"## Figures" section, the same after a second run, and refuse bad input with exit 2: a size sweep as one
figure per operation (sim/sweep_plot.py), a one-size record as scripts/plot's bars, sim/run-team's tables.

    figures_test.py path/to/sim/figures.py
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

FIGURES = sys.argv[1]
RESULTS = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "docs", "results")


def run(*arguments):
    return subprocess.run([FIGURES, *arguments], capture_output=True, text=True, check=False)


def figure_links(tables):
    """Runs sim/figures.py on `tables` twice; after each run, one Figures section whose links all exist.
    Returns the links and the text."""
    directory = os.path.dirname(tables)
    for attempt in (1, 2):
        result = run(tables)
        assert result.returncode == 0, result.stderr
        with open(tables, encoding="utf-8") as file:
            text = file.read()
        assert text.count("\n## Figures\n") == 1, f"{tables}, run {attempt}: one Figures section"
        links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text.split("\n## Figures\n")[1])
        for link in links:
            assert os.path.isfile(os.path.join(directory, link)), f"{link} was not drawn"
    return links, text


def main():
    with tempfile.TemporaryDirectory() as directory:
        for extension in ("md", "json"):
            shutil.copy(os.path.join(RESULTS, f"smpi_reduce_sweep.{extension}"), directory)
        links, text = figure_links(os.path.join(directory, "smpi_reduce_sweep.md"))
        assert links == ["smpi_reduce_sweep_plots/smpi_reduce_sweep_reduce.png"], \
            f"a size sweep: one figure per operation (a panel per platform), got {links}"
        assert "## All points" in text, "the tables stay"
        assert not [name for name in os.listdir(os.path.join(directory, "smpi_reduce_sweep_plots"))
                    if name.endswith(".svg")], "PNG only in docs/results"
        # One size per contender (sim/run --quick): scripts/plot's bars, a figure per platform and operation.
        for extension in ("md", "json"):
            shutil.copy(os.path.join(RESULTS, f"smpi.{extension}"), directory)
        links, _ = figure_links(os.path.join(directory, "smpi.md"))
        assert "smpi_plots/smpi-torus-8x8x8-allgather.png" in links and len(links) == 5, links
        # sim/run-team's record: no JSON beside it; the figures come from its split time tables.
        shutil.copy(os.path.join(RESULTS, "team_smpi.md"), directory)
        links, _ = figure_links(os.path.join(directory, "team_smpi.md"))
        assert sorted(links) == ["team_smpi_plots/team_split_smpi_16colors.png",
                                 "team_smpi_plots/team_split_smpi_1colors.png"], links

        sweep_plot = os.path.join(os.path.dirname(FIGURES), "sweep_plot.py")
        for arguments, message in (([os.path.join(directory, "smpi.json"), directory], "one size per contender"),
                                   ([os.path.join(directory, "team_smpi.md"), directory], "cannot read"),
                                   ([directory], "usage")):
            result = subprocess.run([sweep_plot, *arguments], capture_output=True, text=True, check=False)
            assert result.returncode == 2 and message in result.stderr, (arguments, result.stderr)

        result = run(os.path.join(directory, "missing.md"))
        assert result.returncode == 2 and result.stderr.startswith("sim/figures.py: "), result.stderr
        result = run("no_extension")
        assert result.returncode == 2 and "usage" in result.stderr, result.stderr
    print("sim/figures.py: all checks passed")


if __name__ == "__main__":
    main()
