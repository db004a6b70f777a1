#!/usr/bin/env python3
"""Plots parbench runs against message size (or matrix order): `parbench plot` runs this script.

    parbench_plot.py --output FIGURE.png|svg [--metric auto|latency|bandwidth|gflops] [--imb-t]
                     [--title TEXT] -- RUN.json...

Every series (one benchmark at one process count and mode) of every file is drawn on log-log
axes: the median as a line, its 95 % confidence interval as a band, and with --imb-t the suite's
own headline figure (IMB's t_max, PAW's mean) dashed. Several files are overlaid, labelled by file
name. `auto` draws latency and, where rows have a bandwidth, bandwidth beside it; PAW's BLAS rows
give GFlop/s against N, its transfer rows GB/s against bytes. Sizes of 0 bytes have no place on a
log axis and are left out (with a note). Each series is an SVG group whose id is
"series:<label>", so that a figure can be checked without looking at it.

Bad input is one line "parbench: error: ..." on stderr and exit status 2.
"""
import argparse
import json
import math
import os
import sys


class InputError(Exception):
    pass


def load_rows(path):
    """The iteration rows with a size of one parbench JSON file."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}")
    except json.JSONDecodeError:
        raise InputError(f"{path}: not a parbench JSON file (not valid JSON)")
    if (not isinstance(document, dict) or "parbench" not in document.get("context", {})
            or not isinstance(document.get("benchmarks"), list)):
        raise InputError(f"{path}: not a parbench JSON file (no context.parbench or benchmarks)")
    return [b for b in document["benchmarks"]
            if isinstance(b, dict) and b.get("run_type", "iteration") == "iteration"
            and b.get("bytes") is not None and b.get("median_us") is not None]


def series_name(row):
    """The row's name without its size: suite/title/np:Q[/mode:M...]."""
    name = row["name"]
    for marker in ("/bytes:", "/n:"):
        if marker in name:
            return name[:name.rindex(marker)]
    return name


def figures(row, metric):
    """(median, ci_low, ci_high, headline) of a row in the metric's unit, or None."""
    median, low, high = row["median_us"], row["ci_low_us"], row["ci_high_us"]
    if metric == "latency":
        return median, low, high, row["real_time"]
    metrics = row.get("metrics") or {}
    if metric == "gflops":
        flops = metrics.get("flops_paw")
        if not flops or median <= 0:
            return None
        rate = lambda t_us: flops / (t_us * 1e-6) / 1e9 if t_us > 0 else math.nan
        return rate(median), rate(high), rate(low), metrics.get("gflops_paw")
    # bandwidth: the row's rate from the median, scaled to the interval's ends (rate ~ 1/t)
    if row.get("class") == "host_device_transfer":
        at_median, headline = metrics.get("gb_per_s_median"), metrics.get("gb_per_s_mean")
    else:
        at_median, headline = row.get("throughput_median_mib_s"), row.get("throughput_mib_s")
    if at_median is None or median <= 0 or at_median <= 0:
        return None
    band = lambda t_us: at_median * median / t_us if t_us > 0 else math.nan
    return at_median, band(high), band(low), headline


AXES = {
    "latency": ("time per iteration [µs]", "latency"),
    "bandwidth": ("bandwidth [MiB/s]", "bandwidth"),
    "gflops": ("GFlop/s (PAW's flop count)", "GFlop/s"),
}


def panels_for(metric, rows):
    if metric != "auto":
        return [metric]
    if any(r.get("class") == "compute" for r in rows):
        return ["gflops", "latency"]
    if any(r.get("throughput_median_mib_s") is not None or r.get("class") == "host_device_transfer"
           for r in rows):
        return ["latency", "bandwidth"]
    return ["latency"]


def main(argv):
    parser = argparse.ArgumentParser(prog="parbench plot")
    parser.add_argument("--output", required=True)
    parser.add_argument("--metric", default="auto",
                        choices=["auto", "latency", "bandwidth", "gflops"])
    parser.add_argument("--imb-t", action="store_true")
    parser.add_argument("--title", default="")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args(argv)

    extension = os.path.splitext(args.output)[1].lower()
    if extension not in (".png", ".svg"):
        raise InputError(f"-o {args.output}: the figure must end in .png or .svg")
    runs = [(path, load_rows(path)) for path in args.runs]
    all_rows = [r for _, rows in runs for r in rows]
    if not all_rows:
        raise InputError("no rows with a message size or matrix order in "
                         + ", ".join(args.runs))
    panels = panels_for(args.metric, all_rows)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("matplotlib is not installed (Debian: apt-get install "
                         "python3-matplotlib, see scripts/setup.sh)")

    fig, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.8), squeeze=False)
    label_files = len(runs) > 1
    stems = [os.path.splitext(os.path.basename(p))[0] for p, _ in runs]
    if label_files and len(set(stems)) < len(stems):
        stems = list(args.runs)  # same file names in different directories: the paths
    drawn = 0
    zero_sizes = 0
    for panel, ax in zip(panels, axes[0]):
        colour_index = 0
        for stem, (path, rows) in zip(stems, runs):
            by_series = {}
            for row in rows:
                by_series.setdefault(series_name(row), []).append(row)
            for name, series in by_series.items():
                points = []
                for row in sorted(series, key=lambda r: r["bytes"]):
                    if row["bytes"] <= 0:
                        zero_sizes += 1
                        continue
                    values = figures(row, panel)
                    if values is not None:
                        points.append((row["bytes"],) + tuple(values))
                if not points:
                    continue
                label = f"{stem}: {name}" if label_files else name
                colour = f"C{colour_index % 10}"
                colour_index += 1
                x = [p[0] for p in points]
                line, = ax.plot(x, [p[1] for p in points], marker="o", markersize=3,
                                color=colour, label=label)
                line.set_gid(f"series:{label}")
                band = ax.fill_between(x, [p[2] for p in points], [p[3] for p in points],
                                       color=colour, alpha=0.2, linewidth=0)
                band.set_gid(f"ci:{label}")
                if args.imb_t and all(p[4] is not None for p in points):
                    headline, = ax.plot(x, [p[4] for p in points], linestyle="--",
                                        linewidth=1, color=colour)
                    headline.set_gid(f"headline:{label}")
                drawn += 1
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        compute = panel == "gflops"
        ax.set_xlabel("matrix order N" if compute else "message size [bytes]")
        ylabel = AXES[panel][0]
        if panel == "bandwidth":  # PAW's transfer rates are GB/s (10^9 B/s), IMB's MiB/s
            kinds = {r.get("class") == "host_device_transfer" for r in all_rows}
            ylabel = {frozenset({True}): "bandwidth [GB/s]",
                      frozenset({False}): "bandwidth [MiB/s]"}.get(
                          frozenset(kinds), "bandwidth [MiB/s; GB/s for PAW transfers]")
        ax.set_ylabel(ylabel)
        ax.set_title(AXES[panel][1] + ": median, 95% CI band"
                     + (", headline dashed" if args.imb_t else ""), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=6, loc="best")
    if drawn == 0:
        raise InputError(f"nothing to plot as {args.metric}: the rows have no such figure")
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    try:
        fig.savefig(args.output, format=extension[1:], dpi=120)
    except OSError as e:
        raise InputError(f"-o {args.output}: cannot write: {e.strerror}")
    if zero_sizes:
        print(f"parbench plot: {zero_sizes} points at size 0 left out (log axis)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except InputError as e:
        print(f"parbench: error: {e}", file=sys.stderr)
        sys.exit(2)
