#!/usr/bin/python3
"""The figures of a sim/run record beside its tables: scripts/plot on TABLES.json into TABLES_plots/, and a
"## Figures" section at the end of TABLES.md that links each (replaced, not added, when run again).

    sim/figures.py docs/results/smpi.md

sim/run calls it after sim/report.py has written TABLES.md and TABLES.json. Exit status 2 with a message when
the record cannot be read or plotted.
"""
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..")
SECTION = "## Figures"


def fail(message):
    print(f"sim/figures.py: {message}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 2 or not sys.argv[1].endswith(".md"):
        fail("usage: sim/figures.py TABLES.md (with TABLES.json beside it)")
    tables = sys.argv[1]
    stem = os.path.splitext(tables)[0]
    plots = f"{stem}_plots"
    plotted = subprocess.run([os.path.join(ROOT, "scripts", "plot"), f"{stem}.json", plots, "--png-only"],
                             capture_output=True, text=True, check=False)
    if plotted.returncode != 0:
        fail(f"scripts/plot failed on {stem}.json: {plotted.stderr.strip()}")
    figures = sorted(name for name in os.listdir(plots) if name.endswith(".png"))
    try:
        with open(tables, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        fail(f"cannot read {tables}: {error}")
    text = text.split(f"\n{SECTION}\n")[0].rstrip("\n")
    directory = os.path.basename(plots)
    lines = ["", "", SECTION, "",
             f"Drawn by `sim/figures.py {tables}` (scripts/plot on `{os.path.basename(stem)}.json`): per platform "
             "and operation, every algorithm against SMPI's best native one.", ""]
    for name in figures:
        lines += [f"![{os.path.splitext(name)[0]}]({directory}/{name})", ""]
    with open(tables, "w", encoding="utf-8") as file:
        file.write(text + "\n".join(lines))
    print(f"sim/figures.py: {len(figures)} figures in {plots}, linked from {tables}")


if __name__ == "__main__":
    main()
