"""The npb figure: our kernel times next to the NPB3.4-MPI reference times of this machine kind,
grouped bars per kernel and class."""

import matplotlib.pyplot as plt

import npb_reference
import plot_style


def figure(rows, header, outdir):
    reference = npb_reference.load()
    ours = {}
    for row in rows:
        klass = npb_reference.npb_class(row)
        if klass is not None and row["p"] == reference.get("np", row["p"]):
            ours[(row["case"], klass)] = npb_reference.timed_seconds(row)
    if not ours:
        return []
    groups = sorted(ours, key=lambda key: (key[0], "SWABCDE".find(key[1])))
    figure_, ax = plt.subplots(figsize=(11.0, 5.6))
    width = 0.4
    drawn = []
    for offset, label, colour, values in (
            (-width / 2, "dash (this run)", "#1f77b4", [ours[key] for key in groups]),
            (width / 2, "NPB3.4-MPI reference (measured separately)", "#ff7f0e",
             [reference["seconds"].get(kernel, {}).get(klass) for kernel, klass in groups])):
        xs = [index + offset for index, value in enumerate(values) if value is not None]
        shown = [value for value in values if value is not None]
        if not shown:
            continue  # e.g. the quick sweep's classes S and W, which the reference does not cover
        bars = ax.bar(xs, shown, width, label=label, color=colour)
        ax.bar_label(bars, [plot_style.human_seconds(value) for value in shown], fontsize=6.5, rotation=90,
                     padding=2)
        drawn += shown
    ax.set_yscale("log")
    ax.set_ylim(top=max(drawn) * 5)  # room for the labels above the tallest bar
    plot_style.value_axis(ax, [], seconds=True)
    ax.set_xticks(range(len(groups)), [f"{kernel.upper()} {klass}" for kernel, klass in groups])
    ax.set_xlabel("kernel and class")
    ax.set_ylabel("time of NPB's timed region (median; lower is better)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    footer = ["Ours: the kernel's own timing of NPB's timed region in this run. Reference: "
              + reference.get("provenance", "") + " Classes without a reference bar have none"
              + (" (the reference covers classes " + ", ".join(sorted({k for c in reference["seconds"].values() for k in c}))
                 + "; this run has none of them)." if len(drawn) == len(groups) else "."),
              plot_style.provenance(header)]
    return plot_style.save(figure_, f"NPB kernels at np = {reference.get('np', '?')}: dash next to NPB3.4-MPI",
                           footer, outdir, "npb")
