"""What sim/'s figure scripts (alltoall_plot.py, sweep_plot.py) share: the figure style of scripts/plot, and
reading a JSON record: a list of rows, each with the fields a figure needs and a positive median time. Bad input ends the script with exit status 2
and a message that names the script, the file and the problem."""
import json
import os
import sys


def png_plot_style():
    """scripts/lib/plot_style.py, set to write PNG only: the figures are kept in docs/results, without SVG
    copies."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "scripts", "lib"))
    import plot_style  # noqa: E402  (found through the path set above)

    plot_style.FORMATS[:] = ["png"]
    return plot_style


def fail(tool, message):
    print(f"{tool}: {message}", file=sys.stderr)
    sys.exit(2)


def load(tool, path, list_key, fields, what):
    """(document, rows): rows = document[list_key], a non-empty list of objects with every one of `fields`
    and a positive median_s. `what` names the record for the message, e.g. "a sim/run record"."""
    try:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(tool, f"cannot read {path}: {error}")
    rows = document.get(list_key) if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows:
        fail(tool, f"{path} is not {what} (no '{list_key}' list)")
    for row in rows:
        missing = [key for key in fields if not isinstance(row, dict) or key not in row]
        if missing:
            fail(tool, f"{path}: a row lacks {', '.join(missing)}: {row}")
        if not (isinstance(row["median_s"], (int, float)) and row["median_s"] > 0):
            fail(tool, f"{path}: a row has median_s {row['median_s']!r}, not a positive number of seconds")
    return document, rows
