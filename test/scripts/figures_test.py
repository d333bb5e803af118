#!/usr/bin/env python3
"""sim/figures.py must draw a sim/run or sim/run-team record's figures beside its tables and link each from one
"## Figures" section, the same after a second run, and refuse bad input with exit 2.

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
        assert len(links) == 4, f"a link per platform and operation, got {links}"
        assert "## All points" in text, "the tables stay"
        assert not [name for name in os.listdir(os.path.join(directory, "smpi_reduce_sweep_plots"))
                    if name.endswith(".svg")], "PNG only in docs/results"
        # sim/run-team's record: no JSON beside it; the figures come from its split time tables.
        shutil.copy(os.path.join(RESULTS, "team_smpi.md"), directory)
        links, _ = figure_links(os.path.join(directory, "team_smpi.md"))
        assert sorted(links) == ["team_smpi_plots/team_split_smpi_16colors.png",
                                 "team_smpi_plots/team_split_smpi_1colors.png"], links

        result = run(os.path.join(directory, "missing.md"))
        assert result.returncode == 2 and result.stderr.startswith("sim/figures.py: "), result.stderr
        result = run("no_extension")
        assert result.returncode == 2 and "usage" in result.stderr, result.stderr
    print("sim/figures.py: all checks passed")


if __name__ == "__main__":
    main()
