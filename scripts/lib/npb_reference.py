"""The official NPB3.4-MPI times of this machine kind (bench/npb_reference.json) and the NPB class and
timed-region seconds of an npb result row, for scripts/plot and scripts/report."""

import json
import os
import re

PATH = os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "bench", "npb_reference.json")


def load():
    """{"provenance", "np", "seconds": {kernel: {class: seconds}}}; raises OSError or ValueError."""
    with open(PATH, encoding="utf-8") as handle:
        reference = json.load(handle)
    if not (isinstance(reference, dict) and isinstance(reference.get("seconds"), dict)):
        raise ValueError(f"{PATH} has no \"seconds\" object")
    return reference


def npb_class(row):
    """The NPB class letter of an npb row: its size_unit lists "<size> <class>" pairs, e.g. "65536 S"."""
    match = re.search(rf"(?<!\d){int(row['size'])} ([A-Z])\b", row.get("size_unit", ""))
    return match.group(1) if match else None


def timed_seconds(row):
    """The kernel's own timing of NPB's timed region (extra <kernel>_seconds, median), as the reference
    measures it; the row's median time when the row has none."""
    for extra in row.get("extra", []):
        if isinstance(extra, dict) and extra.get("name") == f"{row['case']}_seconds":
            return extra["median"]
    return row["median_s"]
