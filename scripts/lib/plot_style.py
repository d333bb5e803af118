"""The look every scripts/plot figure shares: headless matplotlib, human tick labels, the provenance
footer, the panel grid and saving as PNG and SVG."""

import math
import os
import textwrap

import matplotlib

matplotlib.use("Agg")  # headless: no display on CI or in the demo
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullLocator  # noqa: E402

import bench_results  # noqa: E402

PANEL = (4.6, 3.4)  # inches per panel: room for the tick labels at 8-9 pt
DPI = 110
# What save() writes: SVG as well for the demo's results; PNG only for the records kept in docs/results.
FORMATS = ["png", "svg"]
plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "legend.fontsize": 7.5,
                     "axes.grid": True, "grid.alpha": 0.3})


def human_bytes(size):
    for factor, suffix in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= factor:
            return f"{size / factor:.3g} {suffix}"
    return f"{size:.3g} B"


def power_of_two(size):
    return size >= 1024 and size & (size - 1) == 0


def human_power(size):
    """2^k: how sweeps of powers of two grow."""
    return f"$2^{{{int(round(size)).bit_length() - 1}}}$"


def human_seconds(value):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if value >= scale * 0.9999:
            return f"{value / scale:.3g} {unit}"
    return f"{value / 1e-9:.3g} ns"


def size_axis(ax, sizes, unit):
    """x: the sweep's sizes as ticks, log when they span more than a decade."""
    sizes = sorted(set(sizes))
    if sizes and sizes[0] > 0 and sizes[-1] / sizes[0] > 10:
        ax.set_xscale("log")
    if unit.startswith("bytes"):
        label = human_bytes
    elif all(power_of_two(size) for size in sizes):
        label = human_power
    else:
        label = lambda value: f"{int(round(value)):,}"  # noqa: E731  (a one-line formatter)
    ax.xaxis.set_major_locator(FixedLocator(sizes))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: label(value)))
    if len(sizes) > 4 and unit.startswith("bytes"):  # 256 KiB and 1 MiB collide unrotated
        plt.setp(ax.get_xticklabels(), rotation=35, ha="right")
    ax.set_xlabel(textwrap.fill(unit or "size", 48))


def value_axis(ax, values, seconds):
    """y: log when the values span more than a decade; human time units when they are seconds."""
    values = [value for value in values if value is not None and value > 0]
    if values and max(values) / min(values) > 10:
        ax.set_yscale("log")
    text = human_seconds if seconds else (lambda value: f"{value:g}")
    if ax.get_yscale() == "log":
        # Labels at 1, 2 and 5 per decade when the axis spans few decades, so that it is never unlabelled.
        few = not values or max(values) / min(values) < 1000
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if few else (1.0,)))
        ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: text(value)))


def provenance(header):
    """Where and how the run was made; fields the header does not know (sim/run's records) are left out."""
    def known(key):
        return header.get(key) not in (None, "", "?", "unknown")
    parts = [bench_results.where(header), f"{header['ranks']} ranks" if known("ranks") else None,
             f"git {header['git_revision']}" if known("git_revision") else None,
             f"{header['build_type']} build" if known("build_type") else None,
             f"{header['sweep']} sweep" if known("sweep") else None, bench_results.mpi_name(header)]
    return ", ".join(part for part in parts if part)


def grid(count, columns=3, panel=PANEL):
    """A figure of `count` panels, `columns` wide; the unused cells are returned as spare axes."""
    columns = min(columns, count)
    rows = math.ceil(count / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(panel[0] * columns, panel[1] * rows + 0.9),
                                squeeze=False)
    flat = list(axes.flat)
    return figure, flat[:count], flat[count:]


def save(figure, title, footer, outdir, name, right=1.0):
    """Title on top, the footer (provenance, notes) wrapped in small type at the bottom; FORMATS (PNG, SVG).
    right: the share of the width for the panels (the rest holds a figure legend)."""
    width_chars = int(figure.get_figwidth() * 16)  # ~16 characters of 7-pt text per inch
    footer_text = "\n".join(textwrap.fill(part, width_chars) for part in footer if part)
    lines = footer_text.count("\n") + 1
    height = figure.get_figheight()
    figure.suptitle(title, fontsize=12)
    figure.text(0.01, 0.005, footer_text, fontsize=7, color="#444444", va="bottom", ha="left")
    figure.tight_layout(rect=(0, (lines * 0.14 + 0.15) / height, right, 1 - 0.35 / height))
    outputs = []
    for extension in FORMATS:
        path = os.path.join(outdir, f"{name}.{extension}")
        figure.savefig(path, dpi=DPI)
        outputs.append(path)
    plt.close(figure)
    return outputs
