#!/usr/bin/env python3
"""Plots parbench runs against message size (or matrix order): `parbench plot` runs this script.

    parbench_plot.py --format png|svg [--metric auto|latency|bandwidth|gflops|msgrate|overlap|
                     availability] [--imb-t] [--title TEXT] [--suite S]... [--benchmark B]...
                     -- RUN.json... > FIGURE

Every series (one benchmark at one process count and mode) of every file is drawn on log axes:
the median as a line, its 95 % confidence interval as a band, and with --imb-t the suite's own
headline figure (IMB's t_max, OSU's average, PAW's mean) as crosses. Several files are overlaid,
labelled by file name: one colour per run, one line style (and marker) per series; a single run
gets a colour per series as well. `auto` draws every figure the rows have (parbench_figures.py:
GFlop/s for PAW's BLAS rows, latency, bandwidth in the suite's console unit, message rate,
overlap, availability). --suite and --benchmark keep the rows of those suites and benchmarks.
Sizes of 0 bytes have no place on a log axis and are left out (with a note). Each series is an
SVG group whose id is "series:<label>", so that a figure can be checked without looking at it.

The figure's bytes go to stdout: the driver writes the file through its output layer
(report/output_file.hpp), which refuses devices and FIFOs and replaces the file atomically.

Inputs are regular files of at most parbench_figures.MAX_INPUT_BYTES (a device, a FIFO or a huge file would block
or exhaust memory), and at most MAX_SERIES series are drawn. Every problem, bad input or not, is
one line "parbench: error: ..." on stderr (exit 2 for bad input), and every warning one line
"parbench: warning: ...": never a traceback, never a raw control character.
"""
import argparse
import io
import os
import sys

from parbench_figures import (run_command, InputError, axis_label, colour, draw_panel, import_matplotlib,
                              line_style, load_rows, printable, quantities_for, series_name,
                              suite_name, benchmark_name, x_label, QUANTITIES)

# A legend of more series than this cannot be read, and each one costs matplotlib time.
MAX_SERIES = 200


class ArgumentParser(argparse.ArgumentParser):
    """argparse's errors as one line (its own are a usage block and exit 2)."""

    def error(self, message):
        raise InputError(message)


def write_figure(data):
    """The figure's bytes to stdout (the driver's pipe, or a file the shell opened)."""
    if os.isatty(1):
        raise InputError("the figure is binary: redirect stdout to a file (or use parbench plot "
                         "-o FIGURE)")
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(1, view):]
    except OSError as e:
        raise InputError(f"stdout: cannot write the figure: {e.strerror}")


def main(argv):
    parser = ArgumentParser(prog="parbench plot")
    parser.add_argument("--format", required=True, choices=["png", "svg"])
    parser.add_argument("--metric", default="auto", choices=["auto"] + list(QUANTITIES))
    parser.add_argument("--imb-t", action="store_true")
    parser.add_argument("--title", default="")
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("--benchmark", action="append", default=[])
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args(argv)

    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in args.title):
        raise InputError(f"--title '{printable(args.title)}': control characters have no place "
                         "in a title")
    runs = [(path, load_rows(path)) for path in args.runs]
    if not any(rows for _, rows in runs):
        raise InputError("no rows with a message size or matrix order in "
                         + ", ".join(args.runs))
    if args.suite or args.benchmark:
        runs = [(path, [r for r in rows
                        if (not args.suite or suite_name(r) in args.suite)
                        and (not args.benchmark or benchmark_name(r) in args.benchmark)])
                for path, rows in runs]
        if not any(rows for _, rows in runs):
            wanted = " ".join([f"--suite {s}" for s in args.suite]
                              + [f"--benchmark {b}" for b in args.benchmark])
            raise InputError(f"no rows of {printable(wanted)} in " + ", ".join(args.runs))
    all_rows = [r for _, rows in runs for r in rows]
    series_count = sum(len({series_name(r) for r in rows}) for _, rows in runs)
    if series_count > MAX_SERIES:
        raise InputError(f"{series_count} series to draw, more than {MAX_SERIES}: a legend that "
                         "long cannot be read; plot fewer files or rows (--suite, --benchmark)")
    panels = quantities_for(all_rows) if args.metric == "auto" else [args.metric]
    if not panels:
        raise InputError("nothing to plot: the rows have no figure to draw")

    matplotlib, plt = import_matplotlib()
    fig, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.8), squeeze=False)
    several = len(runs) > 1
    stems = [os.path.splitext(os.path.basename(p))[0] for p, _ in runs]
    if several and len(set(stems)) < len(stems):
        stems = list(args.runs)  # same file names in different directories: the paths
    # One line style per series, the same in every run; one colour per run (per series when
    # there is one run).
    names = list(dict.fromkeys(series_name(r) for r in all_rows))
    curves = []
    for run_index, (stem, (path, rows)) in enumerate(zip(stems, runs)):
        by_series = {}
        for row in rows:
            by_series.setdefault(series_name(row), []).append(row)
        for name, series in by_series.items():
            style_index = names.index(name)
            curves.append({"rows": series, "label": f"{stem}: {name}" if several else name,
                           "colour": colour(run_index if several else style_index),
                           "style": line_style(style_index)})
    drawn = 0
    zero_sizes = 0
    for panel, ax in zip(panels, axes[0]):
        panel_drawn, zero_sizes = draw_panel(ax, panel, curves, headline=args.imb_t,
                                             gid=lambda kind, c: f"{kind}:{c['label']}")
        drawn += panel_drawn
        ax.set_xlabel(x_label(all_rows))
        ax.set_ylabel(axis_label(panel, all_rows))
        ax.set_title(QUANTITIES[panel][0] + ": median" + (", 95% CI band"
                                                          if QUANTITIES[panel][2] else "")
                     + (", headline x" if args.imb_t else ""), fontsize=9)
        if ax.lines:
            ax.legend(fontsize=6, loc="best")
    if drawn == 0:
        raise InputError(f"nothing to plot as {args.metric}: the rows have no such figure")
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    figure = io.BytesIO()
    fig.savefig(figure, format=args.format, dpi=120)
    write_figure(figure.getvalue())
    if zero_sizes:
        print(f"parbench plot: {zero_sizes} points at size 0 left out (log axis)", file=sys.stderr)
    return 0


def run(argv):
    return run_command(main, argv, "plot")


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
