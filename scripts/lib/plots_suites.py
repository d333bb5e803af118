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
    """Whether every case of a suite was measured at one p and size only (sim/run's SMPI points)."""
    return all(len({(row["p"], row["size"]) for row in points}) == 1 for points in _by_case(rows).values())


def point_figure(suite, rows, header, outdir):
    """Suites of one point per case: a bar per case (its median time), the baseline's as a dashed line."""
    points = sorted(rows, key=lambda row: row["median_s"])
    figure, axes, _ = plot_style.grid(1, columns=1, panel=(9.0, 0.24 * len(points) + 1.2))
    ax = axes[0]
    ours = [".smpi." not in row["case"] and ".native." not in row["case"] for row in points]
    ax.barh(range(len(points)), [row["median_s"] for row in points],
            color=["#1f77b4" if mine else "#bbbbbb" for mine in ours])
    ax.set_yticks(range(len(points)), [row["case"] for row in points])
    ax.invert_yaxis()
    baselines = {row["baseline_median_s"] for row in points if row.get("baseline_median_s")}
    for baseline in sorted(baselines):
        ax.axvline(baseline, color="#d62728", linestyle="--", linewidth=1.2,
                   label=short_name(points[0]["baseline"], 60))
    times = [row["median_s"] for row in points] + sorted(baselines)
    if max(times) / min(times) > 10:
        ax.set_xscale("log")
    ax.xaxis.set_major_formatter(plot_style.FuncFormatter(lambda value, _: plot_style.human_seconds(value)))
    ax.set_xlabel("time (median; lower is better)")
    ax.grid(axis="y", visible=False)
    if baselines:
        ax.legend(loc="lower right", framealpha=0.8)
    row = points[0]
    footer = [f"One point per case: p = {row['p']}, {plot_style.human_bytes(row['size'])} "
              f"{row.get('size_unit', '').replace('bytes ', '', 1)}; blue: ours, grey: the MPI's own algorithms.",
              plot_style.provenance(header)]
    return plot_style.save(figure, f"{suite}: every case at one point", footer, outdir, suite)


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
