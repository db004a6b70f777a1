#!/usr/bin/env python3
"""Plots parbench runs against message size (or matrix order): `parbench plot` runs this script.

    parbench_plot.py --format png|svg [--metric auto|latency|bandwidth|gflops] [--imb-t]
                     [--title TEXT] -- RUN.json... > FIGURE

Every series (one benchmark at one process count and mode) of every file is drawn on log-log
axes: the median as a line, its 95 % confidence interval as a band, and with --imb-t the suite's
own headline figure (IMB's t_max, PAW's mean) dashed. Several files are overlaid, labelled by file
name. `auto` draws latency and, where rows have a bandwidth, bandwidth beside it; PAW's BLAS rows
give GFlop/s against N, its transfer rows GB/s against bytes. Sizes of 0 bytes have no place on a
log axis and are left out (with a note). Each series is an SVG group whose id is
"series:<label>", so that a figure can be checked without looking at it.

The figure's bytes go to stdout: the driver writes the file through its output layer
(report/output_file.hpp), which refuses devices and FIFOs and replaces the file atomically.

Inputs are regular files of at most MAX_INPUT_BYTES (a device, a FIFO or a huge file would block
or exhaust memory), and at most MAX_SERIES series are drawn. Every problem, bad input or not, is
one line "parbench: error: ..." on stderr (exit 2 for bad input), and every warning one line
"parbench: warning: ...": never a traceback, never a raw control character.
"""
import argparse
import io
import json
import logging
import math
import os
import stat
import sys
import warnings

# plot_command.hpp checks the same bound first; both name it in their message.
MAX_INPUT_BYTES = 64 << 20
# A legend of more series than this cannot be read, and each one costs matplotlib time.
MAX_SERIES = 200


class InputError(Exception):
    pass


def printable(text):
    """Control characters shown escaped (\\n, \\x1b), as the driver does: one line, no terminal
    control from a file name, a title or a row name."""
    out = []
    for c in str(text):
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif ord(c) < 0x20 or ord(c) == 0x7f:
            out.append(f"\\x{ord(c):02x}")
        else:
            out.append(c)
    return "".join(out)


def read_input(path):
    """The text of a regular file of bounded size; O_NONBLOCK so that a FIFO cannot block."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file")
    except OSError as e:
        raise InputError(f"{path}: cannot open for reading: {e.strerror}")
    try:
        mode = os.fstat(fd)
        if stat.S_ISDIR(mode.st_mode):
            raise InputError(f"{path}: is a directory, not a file")
        if not stat.S_ISREG(mode.st_mode):
            raise InputError(f"{path}: not a regular file (a device, FIFO or socket)")
        if mode.st_size > MAX_INPUT_BYTES:
            raise InputError(f"{path}: larger than {MAX_INPUT_BYTES} bytes; "
                             "not a parbench result file to plot")
        chunks, size = [], 0
        while True:  # never past the bound, should the file grow meanwhile
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_INPUT_BYTES:
                raise InputError(f"{path}: larger than {MAX_INPUT_BYTES} bytes; "
                                 "not a parbench result file to plot")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}")
    finally:
        os.close(fd)


def reject_constant(name):
    raise InputError(f"{name} is not valid JSON")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def checked_row(path, row):
    """The row with the fields the figure reads, each a finite number where one is needed."""
    name = row.get("name")
    if not isinstance(name, str):
        raise InputError(f"{path}: not a parbench JSON file (a row without a name)")
    for field in ("bytes", "median_us"):
        if not is_number(row[field]):
            raise InputError(f"{path}: row {name}: {field} {json.dumps(row[field])} is not a "
                             "number")
    for field in ("ci_low_us", "ci_high_us", "real_time"):
        if field in row and row[field] is not None and not is_number(row[field]):
            raise InputError(f"{path}: row {name}: {field} {json.dumps(row[field])} is not a "
                             "number")
    return row


def load_rows(path):
    """The iteration rows with a size of one parbench JSON file."""
    text = read_input(path)
    try:
        document = json.loads(text.decode("utf-8"), parse_constant=reject_constant)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a parbench JSON file (not UTF-8 text)")
    except (json.JSONDecodeError, RecursionError):
        raise InputError(f"{path}: not a parbench JSON file (not valid JSON)")
    except InputError as e:
        raise InputError(f"{path}: not a parbench JSON file ({e})")
    context = document.get("context") if isinstance(document, dict) else None
    if (not isinstance(context, dict) or "parbench" not in context
            or not isinstance(document.get("benchmarks"), list)):
        raise InputError(f"{path}: not a parbench JSON file (no context.parbench or benchmarks)")
    return [checked_row(path, b) for b in document["benchmarks"]
            if isinstance(b, dict) and b.get("run_type", "iteration") == "iteration"
            and b.get("bytes") is not None and b.get("median_us") is not None]


def series_name(row):
    """The row's name without its size: suite/title/np:Q[/mode:M...]."""
    name = row["name"]
    for marker in ("/bytes:", "/n:"):
        if marker in name:
            return name[:name.rindex(marker)]
    return name


def number_or_none(value):
    """A figure from a row's optional fields: a finite number, or None (drawn as absent)."""
    return value if is_number(value) else None


def figures(row, metric):
    """(median, ci_low, ci_high, headline) of a row in the metric's unit, or None."""
    median = row["median_us"]
    low, high = number_or_none(row.get("ci_low_us")), number_or_none(row.get("ci_high_us"))
    low, high = median if low is None else low, median if high is None else high
    if metric == "latency":
        return median, low, high, number_or_none(row.get("real_time"))
    metrics = row.get("metrics")
    metrics = metrics if isinstance(metrics, dict) else {}
    if metric == "gflops":
        flops = number_or_none(metrics.get("flops_paw"))
        if not flops or median <= 0:
            return None
        rate = lambda t_us: flops / (t_us * 1e-6) / 1e9 if t_us > 0 else math.nan
        return rate(median), rate(high), rate(low), number_or_none(metrics.get("gflops_paw"))
    # bandwidth: the row's rate from the median, scaled to the interval's ends (rate ~ 1/t)
    if row.get("class") == "host_device_transfer":
        at_median, headline = metrics.get("gb_per_s_median"), metrics.get("gb_per_s_mean")
    else:
        at_median, headline = row.get("throughput_median_mib_s"), row.get("throughput_mib_s")
    at_median, headline = number_or_none(at_median), number_or_none(headline)
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


def report_warning(message, category=None, filename=None, lineno=None, file=None, line=None):
    print(f"parbench: warning: {printable(message)}", file=sys.stderr)


class OneLineHandler(logging.Handler):
    """matplotlib's log messages (tick locators, fonts) as parbench warnings: one escaped line."""

    def emit(self, record):
        report_warning(record.getMessage())


def main(argv):
    parser = ArgumentParser(prog="parbench plot")
    parser.add_argument("--format", required=True, choices=["png", "svg"])
    parser.add_argument("--metric", default="auto",
                        choices=["auto", "latency", "bandwidth", "gflops"])
    parser.add_argument("--imb-t", action="store_true")
    parser.add_argument("--title", default="")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args(argv)

    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in args.title):
        raise InputError(f"--title '{printable(args.title)}': control characters have no place "
                         "in a title")
    runs = [(path, load_rows(path)) for path in args.runs]
    all_rows = [r for _, rows in runs for r in rows]
    if not all_rows:
        raise InputError("no rows with a message size or matrix order in "
                         + ", ".join(args.runs))
    series_count = sum(len({series_name(r) for r in rows}) for _, rows in runs)
    if series_count > MAX_SERIES:
        raise InputError(f"{series_count} series to draw, more than {MAX_SERIES}: a legend that "
                         "long cannot be read; plot fewer files or rows")
    panels = panels_for(args.metric, all_rows)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("matplotlib is not installed (Debian: apt-get install "
                         "python3-matplotlib, see scripts/setup.sh)")
    # Row names and titles are text, not TeX: '$' in a name must not start mathtext.
    matplotlib.rcParams["text.parse_math"] = False

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
    figure = io.BytesIO()
    fig.savefig(figure, format=args.format, dpi=120)
    write_figure(figure.getvalue())
    if zero_sizes:
        print(f"parbench plot: {zero_sizes} points at size 0 left out (log axis)", file=sys.stderr)
    return 0


def run(argv):
    """main() with every way out turned into an exit status and at most one line."""
    warnings.showwarning = report_warning
    logging.getLogger().addHandler(OneLineHandler())
    try:
        return main(argv)
    except InputError as e:
        print(f"parbench: error: {printable(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("parbench: error: plot interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print("parbench: error: plot: out of memory", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - a bug or a matplotlib failure: still one line
        print(f"parbench: error: plot failed: {type(e).__name__}: {printable(e)}",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
