"""The figure code `parbench plot` (parbench_plot.py) and `parbench report` (parbench_report.py)
share: reading a parbench JSON file, the figures of a row in the unit its suite's console prints,
and drawing one panel of series with matplotlib.

Units follow the consoles (docs/user-guide.md, "parbench report"):
  latency        µs per iteration, the median with its 95 % CI band; the headline figure
                 (IMB's t_max, OSU's average, PAW's mean) as crosses
  bandwidth      OSU: MB/s = 10^6 B/s (its metric bandwidth_mb_s); IMB and the other MPI suites:
                 Mbytes/sec as IMB defines it, 2^20 B/s (throughput_mib_s); PAW transfers: GB/s
  message rate   messages/s (OSU mbw_mr, IMB-P2P)
  GFlop/s        PAW's flop count over the time, against the matrix order N
  overlap        % (IMB-NBC/IMB-RMA overlap, OSU's nonblocking collectives), linear axis
  availability   % (the overlap suite), linear axis
A rate's band is the median's interval mapped through rate ~ 1/time.

Every problem is raised as InputError with one line; the scripts print it and exit 2.
"""
import json
import logging
import math
import os
import stat
import sys
import warnings

# plot_command.hpp and report_command.hpp (tool_script.hpp) check the same bound first.
MAX_INPUT_BYTES = 64 << 20


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
        too_large = f"{path}: larger than {MAX_INPUT_BYTES} bytes; not a parbench result file"
        if mode.st_size > MAX_INPUT_BYTES:
            raise InputError(too_large)
        chunks, size = [], 0
        while True:  # never past the bound, should the file grow meanwhile
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_INPUT_BYTES:
                raise InputError(too_large)
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


def number_or_none(value):
    """A figure from a row's optional fields: a finite number, or None (drawn as absent)."""
    return value if is_number(value) else None


def checked_row(path, row):
    """The row with the fields the figures read, each a finite number where one is needed."""
    name = row.get("name")
    if not isinstance(name, str):
        raise InputError(f"{path}: not a parbench JSON file (a row without a name)")
    if not is_number(row.get("median_us")):
        raise InputError(f"{path}: row {name}: median_us {json.dumps(row.get('median_us'))} is "
                         "not a number")
    if row.get("bytes") is not None and not is_number(row["bytes"]):
        raise InputError(f"{path}: row {name}: bytes {json.dumps(row['bytes'])} is not a number")
    for field in ("ci_low_us", "ci_high_us", "real_time"):
        if field in row and row[field] is not None and not is_number(row[field]):
            raise InputError(f"{path}: row {name}: {field} {json.dumps(row[field])} is not a "
                             "number")
    return row


def load_document(path):
    """(document, rows): a parbench JSON file and its iteration rows with a median (sized or
    not)."""
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
    rows = [checked_row(path, b) for b in document["benchmarks"]
            if isinstance(b, dict) and b.get("run_type", "iteration") == "iteration"
            and b.get("median_us") is not None]
    return document, rows


def load_rows(path):
    """The iteration rows with a size of one parbench JSON file."""
    return [r for r in load_document(path)[1] if r.get("bytes") is not None]


def series_name(row):
    """The row's name without its size: suite/title/np:Q[/mode:M...]."""
    name = row["name"]
    for marker in ("/bytes:", "/n:"):
        if marker in name:
            return name[:name.rindex(marker)]
    return name


def benchmark_name(row):
    """The benchmark as its suite names it (PingPong, latency, dgemm)."""
    name = row.get("benchmark")
    if isinstance(name, str) and name:
        return name
    parts = series_name(row).split("/")
    return parts[1] if len(parts) > 1 else parts[0]


def suite_name(row):
    suite = row.get("suite")
    return suite if isinstance(suite, str) and suite else row["name"].split("/")[0]


def metrics_of(row):
    metrics = row.get("metrics")
    return metrics if isinstance(metrics, dict) else {}


def is_osu(row):
    return suite_name(row) == "osu" or "bandwidth_mb_s" in metrics_of(row)


# quantity -> (title, axis label, log axis)
QUANTITIES = {
    "gflops": ("GFlop/s", "GFlop/s (PAW's flop count)", True),
    "latency": ("time", "time per iteration [µs]", True),
    "bandwidth": ("bandwidth", "bandwidth", True),
    "msgrate": ("message rate", "messages/s", True),
    "overlap": ("overlap", "overlap [%]", False),
    "availability": ("availability", "availability [%]", False),
}


def bandwidth_unit(row):
    """The unit of a row's bandwidth as its console prints it."""
    if row.get("class") == "host_device_transfer":
        return "GB/s (10^9 B/s, as PAW)"
    if is_osu(row):
        return "MB/s (10^6 B/s, as OSU)"
    if number_or_none(metrics_of(row).get("mbytes_per_s")) is not None:
        return "Mbytes/sec (10^6 B/s, as IMB 2021)"  # the IMB 2021 methodology's column
    if suite_name(row).startswith("imb") or suite_name(row) in ("pairs", "paw"):
        return "Mbytes/sec (2^20 B/s, as IMB)"
    return "MiB/s (2^20 B/s)"


def rate_from_median(headline_rate, row):
    """A rate the suite computes from its headline time, moved to the median (rate ~ 1/t): the
    median's value and the CI band's ends. None when the row has no such rate."""
    median = row["median_us"]
    headline_time = number_or_none(row.get("real_time"))
    if headline_rate is None or headline_rate <= 0 or median <= 0 or not headline_time:
        return None
    at_median = headline_rate * headline_time / median
    low = number_or_none(row.get("ci_low_us")) or median
    high = number_or_none(row.get("ci_high_us")) or median
    band = lambda t_us: at_median * median / t_us if t_us > 0 else math.nan
    return at_median, band(high), band(low), headline_rate


def figures(row, quantity):
    """(median, band low, band high, headline) of a row in the quantity's unit, or None."""
    median = row["median_us"]
    metrics = metrics_of(row)
    low, high = number_or_none(row.get("ci_low_us")), number_or_none(row.get("ci_high_us"))
    low, high = median if low is None else low, median if high is None else high
    if quantity == "latency":
        return median, low, high, number_or_none(row.get("real_time"))
    if quantity == "gflops":
        flops = number_or_none(metrics.get("flops_paw"))
        if not flops or median <= 0:
            return None
        rate = lambda t_us: flops / (t_us * 1e-6) / 1e9 if t_us > 0 else math.nan
        return rate(median), rate(high), rate(low), number_or_none(metrics.get("gflops_paw"))
    if quantity == "bandwidth":
        if row.get("class") == "host_device_transfer":
            at_median = number_or_none(metrics.get("gb_per_s_median"))
            if at_median is None or median <= 0:
                return None
            band = lambda t_us: at_median * median / t_us if t_us > 0 else math.nan
            return at_median, band(high), band(low), number_or_none(metrics.get("gb_per_s_mean"))
        if is_osu(row):
            return rate_from_median(number_or_none(metrics.get("bandwidth_mb_s")), row)
        if number_or_none(metrics.get("mbytes_per_s")) is not None:  # IMB 2021: 10^6 B/s
            return rate_from_median(number_or_none(metrics.get("mbytes_per_s")), row)
        at_median = number_or_none(row.get("throughput_median_mib_s"))
        if at_median is None or at_median <= 0 or median <= 0:
            return None
        band = lambda t_us: at_median * median / t_us if t_us > 0 else math.nan
        return at_median, band(high), band(low), number_or_none(row.get("throughput_mib_s"))
    if quantity == "msgrate":
        return rate_from_median(number_or_none(metrics.get("messages_per_s")), row)
    if quantity == "overlap":
        overlap = row.get("overlap")
        value = number_or_none(overlap.get("overlap_percent")) if isinstance(overlap, dict) \
            else number_or_none(metrics.get("overlap_percent"))
        return None if value is None else (value, value, value, None)
    if quantity == "availability":
        availability = row.get("availability")
        value = number_or_none(availability.get("avail_percent")) \
            if isinstance(availability, dict) else None
        return None if value is None else (value, value, value, None)
    return None


def quantities_for(rows):
    """The panels a group of rows calls for, in order: what the class and the figures say."""
    out = []
    for quantity in ("gflops", "latency", "bandwidth", "msgrate", "overlap", "availability"):
        if any(figures(r, quantity) is not None for r in rows):
            out.append(quantity)
    return out


def axis_label(quantity, rows):
    if quantity != "bandwidth":
        return QUANTITIES[quantity][1]
    units = sorted({bandwidth_unit(r) for r in rows if figures(r, "bandwidth") is not None})
    return "bandwidth [" + "; ".join(units) + "]"


def x_label(rows):
    compute = [r.get("class") == "compute" for r in rows]
    if all(compute):
        return "matrix order N"
    if any(compute):
        return "message size [bytes]; matrix order N"
    return "message size [bytes]"


# Colours: one per run (matplotlib's tab10, then tab20's light shades); line styles: one per
# benchmark (series), with a marker each so that they stay apart in print.
RUN_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
               "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896",
               "#c5b0d5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5"]
LINE_STYLES = [("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"), ((0, (5, 1)), "v"),
               ((0, (3, 1, 1, 1, 1, 1)), "P"), ((0, (1, 3)), "X"), ((0, (8, 2, 2, 2)), "*")]


def colour(index):
    return RUN_COLOURS[index % len(RUN_COLOURS)]


def line_style(index):
    return LINE_STYLES[index % len(LINE_STYLES)]


def import_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("matplotlib is not installed (Debian: apt-get install "
                         "python3-matplotlib, see scripts/setup.sh)")
    # Row names and titles are text, not TeX: '$' in a name must not start mathtext.
    matplotlib.rcParams["text.parse_math"] = False
    return matplotlib, plt


def draw_panel(ax, quantity, curves, headline=True, gid=None):
    """Draws `curves` on `ax`: each a dict with rows, label, colour, style (line, marker).
    Returns how many curves had a point. `gid(kind, curve)` names the SVG groups (series, ci,
    headline) so that a figure can be checked without looking at it."""
    drawn = 0
    zero_sizes = 0
    for curve in curves:
        points = []
        for row in sorted(curve["rows"], key=lambda r: r["bytes"]):
            if row["bytes"] <= 0:
                zero_sizes += 1
                continue
            values = figures(row, quantity)
            if values is not None:
                points.append((row["bytes"],) + tuple(values))
        if not points:
            continue
        linestyle, marker = curve["style"]
        x = [p[0] for p in points]
        line, = ax.plot(x, [p[1] for p in points], marker=marker, markersize=3.5,
                        linestyle=linestyle, linewidth=1.4, color=curve["colour"],
                        label=curve["label"])
        if gid:
            line.set_gid(gid("series", curve))
        if QUANTITIES[quantity][2]:
            band = ax.fill_between(x, [p[2] for p in points], [p[3] for p in points],
                                   color=curve["colour"], alpha=0.18, linewidth=0)
            if gid:
                band.set_gid(gid("ci", curve))
        if headline and all(p[4] is not None for p in points):
            mark, = ax.plot(x, [p[4] for p in points], linestyle="none", marker="x",
                            markersize=4, color=curve["colour"], alpha=0.8)
            if gid:
                mark.set_gid(gid("headline", curve))
        drawn += 1
    log_axes(ax, QUANTITIES[quantity][2])
    ax.grid(True, which="major", alpha=0.35)
    ax.grid(True, which="minor", axis="y", alpha=0.12)
    return drawn, zero_sizes


def size_label(value, _position=None):
    """A tick of the size axis: 1, 64, 1K, 4M (powers of 2^10)."""
    if value <= 0:
        return ""
    for suffix, scale in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def log_axes(ax, log_y, log_y_base=10):
    """Log axes with plain-number ticks: row names are drawn as text, not TeX
    (text.parse_math off), so matplotlib's default $10^{k}$ tick labels would show their TeX."""
    from matplotlib import ticker
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(ticker.LogLocator(base=2, numticks=12))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(size_label))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    if log_y:
        ax.set_yscale("log", base=log_y_base)
        low, high = ax.get_ylim()
        plain = ticker.FuncFormatter(lambda v, _p=None: f"{v:.3g}")
        ax.yaxis.set_major_formatter(plain)
        # Less than a decade: every minor tick carries a label; up to three: 2 and 5 of each
        # decade; more: only the decades.
        decades = math.log(high / low, log_y_base) if low > 0 and high > low else 99
        if log_y_base != 10:
            minor = plain if decades < 3 else ticker.NullFormatter()
        elif decades < 1:
            minor = plain
        elif decades < 3:
            minor = ticker.FuncFormatter(
                lambda v, _p=None: f"{v:.3g}" if f"{v:.1e}"[0] in "25" else "")
        else:
            minor = ticker.NullFormatter()
        ax.yaxis.set_minor_formatter(minor)


# --- The scripts' entry point: every way out an exit status and at most one line ---------------

def report_warning(message, category=None, filename=None, lineno=None, file=None, line=None):
    print(f"parbench: warning: {printable(message)}", file=sys.stderr)


class OneLineHandler(logging.Handler):
    """matplotlib's log messages (tick locators, fonts) as parbench warnings: one escaped line."""

    def emit(self, record):
        report_warning(record.getMessage())


def run_command(main, argv, command):
    """main(argv) of `parbench COMMAND` with every way out turned into an exit status and at
    most one line: 2 for bad input, 130 for an interrupt, 1 for anything else."""
    warnings.showwarning = report_warning
    logging.getLogger().addHandler(OneLineHandler())
    try:
        return main(argv)
    except InputError as e:
        print(f"parbench: error: {printable(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"parbench: error: {command} interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"parbench: error: {command}: out of memory", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - a bug or a matplotlib failure: still one line
        print(f"parbench: error: {command} failed: {type(e).__name__}: {printable(e)}",
              file=sys.stderr)
        return 1
