"""Figures of the suites without a figure of their own (one panel per case: ours and the baseline
against size; a bar per case when each case has one point only) and of sort (throughput per input
distribution, one line per variant)."""

import textwrap

import bench_results
import plot_style


def short_name(text, width=34):
    """The head of an impl/baseline description, wrapped for a legend; the full text is in the report."""
    return textwrap.fill(bench_results.short_description(text), width)


def _by_case(rows):
    cases = {}
    for row in rows:
        cases.setdefault(row["case"], []).append(row)
    return cases


def case_figure(suite, rows, header, outdir):
    """Per case: the metric (when the rows carry one) or the median time, ours and the baseline's, per p."""
    cases = _by_case(rows)
    figure, axes, spare = plot_style.grid(len(cases))
    for extra in spare:
        extra.set_visible(False)
    for ax, (case, points) in zip(axes, cases.items()):
        metric = points[0].get("metric") if all("value" in row for row in points) else None
        ps = sorted({row["p"] for row in points})
        values = []
        for side, key, style in (("impl", "value" if metric else "median_s", "-"),
                                 ("baseline", "baseline_value" if metric else "baseline_median_s", "--")):
            name = short_name(points[0][side])
            for p in ps:
                line = sorted((row["size"], row[key]) for row in points
                              if row["p"] == p and row.get(key) is not None)
                if not line:
                    continue
                label = name + (f" (p = {p})" if len(ps) > 1 else "")
                ax.plot([size for size, _ in line], [value for _, value in line], marker="o" if side == "impl" else "s",
                        linestyle=style, markersize=4, label=label)
                values += [value for _, value in line]
        plot_style.size_axis(ax, [row["size"] for row in points], points[0].get("size_unit", "size"))
        plot_style.value_axis(ax, values, seconds=metric is None)
        ax.set_ylabel(f"{metric} (higher is better)" if metric else "time (median; lower is better)")
        ax.set_title(case)
        ax.legend(loc="best", framealpha=0.7)
    footer = ["Lines: ours (solid) and the case's baseline (dashed); the full descriptions are in the report.",
              plot_style.provenance(header)]
    return plot_style.save(figure, f"{suite}: ours and the baseline per case", footer, outdir, suite)


def single_points(rows):
    """Whether every case of a suite was measured at one size only (at one or more p): sim/run's SMPI
    points, and the quick sweep's fft, gups and stream."""
    return all(len({row["size"] for row in points}) == 1 for points in _by_case(rows).values())


def point_figure(suite, rows, header, outdir):
    """Suites of one size per case: a bar per case. When every row has the same baseline (sim/run's records:
    our algorithms and the MPI's against the MPI's best), it is one dashed line; otherwise each case's bar
    has its baseline's bar beside it. Rates (GB/s, ...) where every row carries one, else median times."""
    metric = rows[0].get("metric") if all("value" in row and "baseline_value" in row for row in rows) else None
    ours_key, theirs_key = ("value", "baseline_value") if metric else ("median_s", "baseline_median_s")
    several_p = {case: len({row["p"] for row in points}) > 1 for case, points in _by_case(rows).items()}
    points = sorted(rows, key=lambda row: (row["case"], row["p"])) if metric else \
        sorted(rows, key=lambda row: row["median_s"])
    labels = [row["case"] + (f" (p = {row['p']})" if several_p[row["case"]] else "") for row in points]
    baselines = {row[theirs_key] for row in points if row.get(theirs_key)}
    shared = len(baselines) == 1 and len(points) > 1
    figure, axes, _ = plot_style.grid(1, columns=1, panel=(9.0, (0.24 if shared else 0.42) * len(points) + 1.2))
    ax = axes[0]
    ours = [".smpi." not in row["case"] and ".native." not in row["case"] for row in points]
    height = 0.8 if shared else 0.4
    ax.barh([index - (0 if shared else height / 2) for index in range(len(points))],
            [row[ours_key] for row in points], height=height,
            color=["#1f77b4" if mine else "#bbbbbb" for mine in ours], label="ours" if all(ours) else None)
    if shared:
        ax.axvline(next(iter(baselines)), color="#d62728", linestyle="--", linewidth=1.2,
                   label=short_name(points[0]["baseline"], 40))
    else:
        named = [(index, row) for index, row in enumerate(points) if row.get(theirs_key)]
        ax.barh([index + height / 2 for index, _ in named], [row[theirs_key] for _, row in named], height=height,
                color="#ff7f0e", label="each case's baseline\n(named at its bar)")
        for index, row in named:  # the baselines differ by case (FFTW-MPI, the same without partial, ...)
            ax.text(row[theirs_key], index + height / 2, " " + bench_results.short_description(row["baseline"]),
                    va="center", ha="left", fontsize=7)
    ax.set_yticks(range(len(points)), labels)
    ax.invert_yaxis()
    values = [row[ours_key] for row in points] + sorted(baselines)
    if max(values) / min(values) > 10:
        ax.set_xscale("log")
    if not shared:  # room for the baselines' names right of the longest bar
        ax.set_xlim(right=max(values) * (12 if ax.get_xscale() == "log" else 2.1))
    if metric:
        ax.set_xlabel(f"{metric} (higher is better)")
    else:
        ax.xaxis.set_major_formatter(plot_style.FuncFormatter(lambda value, _: plot_style.human_seconds(value)))
        ax.set_xlabel("time (median; lower is better)")
    ax.grid(axis="y", visible=False)
    if shared:  # long case names: the panel takes the width, the legend sits inside it
        ax.legend(loc="lower right", framealpha=0.8, fontsize=8)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    row = points[0]
    unit = row.get("size_unit", "")
    size = plot_style.human_bytes(row["size"]) if unit.startswith("bytes") else f"{row['size']:,}"
    ps = sorted({row["p"] for row in points})
    footer = [f"One size per case: {size} {unit.replace('bytes ', '', 1)}; p = {', '.join(map(str, ps))}. "
              + ("Blue: ours, grey: the MPI's own algorithms." if not all(ours) else "Blue: ours.")
              + (" Dashed: the baseline of every case." if shared else " Orange: each case's baseline."),
              plot_style.provenance(header)]
    return plot_style.save(figure, f"{suite}: every case at one size", footer, outdir, suite, right=1.0 if shared else 0.72)


def _distributions(cases):
    """{root case: [variant cases]}: a variant's name is its root's name and a suffix (uint64_no_partial_merge)."""
    roots = [case for case in cases if not any(case.startswith(other + "_") for other in cases if other != case)]
    return {root: [case for case in cases if case.startswith(root + "_")] for root in roots}


def sort_figure(rows, header, outdir):
    cases = _by_case(rows)
    groups = _distributions(cases)
    figure, axes, spare = plot_style.grid(len(groups), columns=2, panel=(5.0, 3.8))
    figure.set_figwidth(figure.get_figwidth() + 2.4)
    for extra in spare:
        extra.set_visible(False)
    unit = rows[0].get("size_unit", "elements")
    total = "in total" in unit  # sizes counted over all ranks, or per rank
    for ax, (root, variants) in zip(axes, groups.items()):
        values = []

        def line(points, key, label, style, marker):
            data = sorted((row["size"], row["size"] * (1 if total else row["p"]) / row[key]) for row in points
                          if row.get(key) is not None)
            if data:
                ax.plot([s for s, _ in data], [r / 1e6 for _, r in data], linestyle=style, marker=marker,
                        markersize=4, label=label)
                values.extend(r / 1e6 for _, r in data)

        line(cases[root], "median_s", "dash::sort", "-", "o")
        line(cases[root], "baseline_median_s", short_name(cases[root][0]["baseline"]), "--", "s")
        for variant in variants:
            line(cases[variant], "baseline_median_s", variant[len(root) + 1:].replace("_", " "), ":", ".")
        plot_style.size_axis(ax, [row["size"] for row in cases[root]], unit)
        plot_style.value_axis(ax, values, seconds=False)
        ax.set_ylabel("Melem/s = n / median time" if total else "Melem/s = n x p / median time")
        ax.set_title(root)
    # The same lines in every panel: one legend at the right, clear of the data.
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="center right", fontsize=8.5, frameon=False)
    footer = ["dash::sort as timed next to the plain-MPI sample sort (its own case); each variant line is the "
              "baseline of the case <distribution>_<variant> (one-process lines: one rank sorts everything).",
              plot_style.provenance(header)]
    return plot_style.save(figure, "sort: throughput against n, per input distribution", footer, outdir, "sort",
                           right=1 - 2.4 / figure.get_figwidth())
