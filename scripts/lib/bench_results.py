"""Reading dash-bench result files (docs/benchmarks.md) for scripts/report and scripts/compare.

load() checks every field the scripts use for its type, so that a damaged or foreign file is
refused with a message naming the field instead of failing halfway with a traceback.
"""

import json
import math

TIMES = ("median_s", "min_s", "max_s", "baseline_median_s", "baseline_min_s", "baseline_max_s")


class ResultsError(Exception):
    """The file cannot be read as dash-bench results; the message says why."""


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _row_problem(row):
    """What is wrong with one result row, or None."""
    if not isinstance(row, dict):
        return "is not an object"
    for key in ("suite", "case"):
        if key in row and not isinstance(row[key], str):
            return f"has {key} {row[key]!r}, not a string"
    for key, least in (("p", 1), ("size", 0)):
        if key in row and not (_whole(row[key]) and row[key] >= least):
            return f"has {key} {row[key]!r}, not a whole number of at least {least}"
    without_baseline = "baseline_unavailable" in row
    if without_baseline and not isinstance(row["baseline_unavailable"], str):
        return f"has baseline_unavailable {row['baseline_unavailable']!r}, not a string"
    for key in TIMES:
        # A case whose baseline this build cannot run (dash-bench's baseline_unavailable) has none of its times.
        if without_baseline and key.startswith("baseline_"):
            if row.get(key) is not None:
                return f"has {key} {row[key]!r} but says its baseline was unavailable"
        elif key in row and not (_number(row[key]) and row[key] > 0):
            return f"has {key} {row[key]!r}, not a positive number of seconds"
    if "ratio" in row and row["ratio"] is not None and not _number(row["ratio"]):
        return f"has ratio {row['ratio']!r}, not a number"
    # null: not checked (sim/run's SMPI points whose buffers are folded); scripts/report counts it unverified.
    if "verified" in row and row["verified"] is not None and not isinstance(row["verified"], bool):
        return f"has verified {row['verified']!r}, not true, false or null"
    if "size_unit" in row and not isinstance(row["size_unit"], str):
        return f"has size_unit {row['size_unit']!r}, not a string"
    round_trip = row.get("core_round_trip_ns")
    if round_trip is not None and not (isinstance(round_trip, list) and len(round_trip) == 2 and
                                       all(_number(value) and value > 0 for value in round_trip)):
        return f"has core_round_trip_ns {round_trip!r}, not two positive numbers"
    return None


def has_baseline(row):
    """Whether the row's baseline ran (dash-bench leaves out a baseline this build cannot run)."""
    return "baseline_unavailable" not in row


def mpi_name(header):
    """The MPI a results file was measured with, in a few words: "Open MPI v4.1.4", "MPICH 4.0.2 (ch4:ucx)"."""
    if isinstance(header.get("mpi"), str):
        return header["mpi"]
    library = str(header.get("mpi_library", "?"))  # files before the "mpi" key: the library's own text
    return library.splitlines()[0].split(",")[0] if library else "?"


def where(header):
    """Where a run ran: rank 0's host, or with several hosts each with its rank count."""
    hosts = header.get("hosts")
    if isinstance(hosts, list) and len(hosts) > 1 and all(
            isinstance(host, dict) and isinstance(host.get("ranks"), list) for host in hosts):
        counts = ", ".join(f"{host.get('name', '?')}: {len(host['ranks'])} rank" + ("" if len(host["ranks"]) == 1 else "s")
                           for host in hosts)
        return f"{len(hosts)} hosts ({counts})"
    return str(header.get("host", "?"))


def mpi_library_family(header):
    """ "Open MPI", "MPICH" or "the MPI library": whose default decision and native algorithms a coll run measured."""
    name = mpi_name(header)
    for family in ("Open MPI", "MPICH"):
        if family in name:
            return family
    return "the MPI library"


def skipped_points(header, path):
    """The header's "skipped" list (points dash-bench could not set up in the job), each checked."""
    points = header.get("skipped", [])
    if not isinstance(points, list):
        raise ResultsError(f"{path}: the header's skipped is {points!r}, not a list")
    for point in points:
        if not (isinstance(point, dict) and all(isinstance(point.get(key), str) for key in ("suite", "case", "reason"))
                and all(_whole(point.get(key)) for key in ("p", "size"))):
            raise ResultsError(f"{path}: the header's skipped list holds {point!r}, not suite, case, p, size and reason")
    return points


def load(path, required=()):
    """(header, rows) of a results file; raises ResultsError. `required`: keys every row must have."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ResultsError(f"cannot read {path}: {error}") from error
    rows = document.get("results") if isinstance(document, dict) else None
    if not isinstance(rows, list):
        raise ResultsError(f"{path} is not a dash-bench results file (no 'results' list)")
    for row in rows:
        missing = [key for key in required if not isinstance(row, dict) or key not in row]
        if missing:
            raise ResultsError(f"{path}: a result lacks {', '.join(missing)}: {row}")
        problem = _row_problem(row)
        if problem:
            raise ResultsError(f"{path}: a result {problem}: {row}")
    header = document.get("header")
    return header if isinstance(header, dict) else {}, rows


def short_description(text):
    """The head of an impl/baseline description, up to its first ',', ': ' or '(' ("plain MPI",
    "FFTW-MPI", "std::memcpy"): what a legend or a one-line summary has room for."""
    for mark in (",", ": ", "("):
        text = text.split(mark)[0]
    return text.strip()
