"""The maskers: each turns one output layout into what its golden file holds. What varies from
run to run (dates, machines, paths, versions, timings, stability notes) is masked; what a layout
promises (columns, widths, labels, exact counts) is kept, so that a change to it is a diff.
Some maskers also check a row's layout as they go (pbtest.expect.expect)."""
import json
import re

from pbtest.expect import expect


def version(line):
    return re.sub(r"parbench \d+\.\d+\.\d+", "parbench <version>", line)


def note(line):
    """A row without its stability note (report/stability.hpp: "  ! ...")."""
    return line.split("  ! ")[0]


# --- The fake plugin's canned records (tests/approval): deterministic, compared unmasked ---------

def fake_console(text, parbench, fake):
    text = text.replace(parbench, "parbench").replace(fake, "FAKE")
    text = re.sub(r"^(# (Date|Machine|System|Release|Version) +: ).*$", r"\1<masked>", text,
                  flags=re.M)
    return text


VOLATILE_CONTEXT = {"date", "date_text", "host_name", "executable", "num_cpus", "mhz_per_cpu",
                    "cpu_scaling_enabled", "caches", "load_avg", "library_build_type", "machine",
                    "system", "release", "version", "plugins", "calling_sequence", "startup"}


def json_context(document):
    """The JSON document with the machine-dependent context values masked, as sorted text."""
    context = document["context"]
    for key in list(context):
        if key in VOLATILE_CONTEXT:
            context[key] = "<masked>"
    pb = context["parbench"]
    for key in list(pb):
        if key in VOLATILE_CONTEXT:
            pb[key] = "<masked>"
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


# --- IMB layouts -------------------------------------------------------------------------------

def _imb_header_lines(text, parbench):
    """The lines of an IMB-layout console without its warnings and machine lines (the MPI
    library's too: which one ran depends on the launcher), with the build's paths (the driver,
    the plugin search path) replaced by fixed words."""
    for line in text.splitlines():
        if line.startswith("# WARNING") or re.match(
                r"^# (Date|Machine|System|Release|Version|MPI Library) ", line):
            continue
        line = line.replace(parbench, "parbench")
        yield re.sub(r"--plugin-path \S+", "--plugin-path PLUGINS", line)


def imb_console(text, parbench):
    """IMB-NBC, IMB-EXT and IMB-RMA tables: right-aligned columns, a number becomes N at its
    right edge, widths kept; the CPU-load calibration's rate is masked."""
    out = []
    for line in _imb_header_lines(text, parbench):
        if line.startswith("# CPU load:"):
            line = re.sub(r"\d+ Mflop/s", "N Mflop/s", line)
        if re.match(r"^ +\d", line):
            line = re.sub(r"\s+!.*$", "", line)
            # "no-CI" (fewer than six samples) depends on how many batches the timing chose
            line = line.replace("no-CI", "    N")
            line = re.sub(r"\d+(\.\d+)?", lambda m: "N".rjust(len(m.group(0))), line)
        out.append(line + "\n")
    return "".join(out)


def imb_io_console(text, parbench):
    """IMB-IO tables: as imb_console, but the leading integers (#bytes where there is one,
    #repetitions) are exact, a '-' figure is masked too, and the I/O directory is."""
    out = []
    for line in _imb_header_lines(text, parbench):
        line = re.sub(r"--io-dir \S+", "--io-dir DIR", line)
        if re.match(r"^ +\d", line):
            line = note(line)
            exact, kept = 0, 0
            for m in re.finditer(r"\S+", line):
                if not re.fullmatch(r"\d+", m.group(0)) or kept == 2:
                    break
                exact, kept = m.end(), kept + 1
            line = line[:exact] + re.sub(r"no-CI|\d+(\.\d+)?|-",
                                         lambda m: "N".rjust(len(m.group(0))), line[exact:])
        out.append(line.rstrip() + "\n")
    return "".join(out)


# --- OSU layouts -------------------------------------------------------------------------------

def osu_console(text):
    """Every timing-dependent figure (d.dd) becomes <value> in its own field's width, so the
    columns' right edges stay where OSU puts them."""
    out = []
    for line in text.splitlines():
        if line.startswith("# WARNING") or line.startswith("# ! "):  # stability footnotes vary
            continue
        line = note(line)
        if re.match(r"\d+ ", line) or re.match(r" +\d+\.\d\d", line):
            line = re.sub(r" *\d+\.\d\d", lambda m: f"{'<value>':>{len(m.group(0))}}", line)
        out.append(version(line))
    return "\n".join(out) + "\n"


def osu_one_sided_console(text):
    """OSU 7's one-sided rows, "%-10d%18.2f": checks that the value ends in column 28, then masks
    it."""
    out = []
    for line in text.splitlines():
        if line.startswith("# WARNING") or line.startswith("# ! "):  # stability footnotes vary
            continue
        m = re.fullmatch(r"(\d+) +(\d+\.\d\d)", line)
        if m:
            expect(len(line) == 28 and line.index(m.group(2)) + len(m.group(2)) == 28,
                   f"row not in OSU's %-10d%18.2f layout: {line!r}")
            line = f"{m.group(1):<10}{'<value>':>18}"
        out.append(version(line))
    return "\n".join(out) + "\n"


# --- PAW layouts -------------------------------------------------------------------------------

def paw_console(text, parbench):
    out = []
    for line in text.splitlines():
        if line.startswith("# WARNING"):
            continue
        line = note(line)
        line = line.replace(parbench, "parbench")
        line = re.sub(r"^(# (date|host|calling_sequence|timer threshold) +: ).*$", r"\1<masked>",
                      line)
        # times (e-format, fixed width) lose their digits; fixed-point figures (ci95, rates),
        # whose width varies with the value, become one token each
        line = re.sub(r"\d\.\d{5}e[-+]\d\d", "n.nnnnne-nn", line)
        line = re.sub(r" +\d+\.\d\d(?= |$)", " <f>", line)
        line = re.sub(r" +no-CI(?= |$)", " <f>", line)  # fewer than six repetitions
        out.append(line)
    return "\n".join(out) + "\n"


def paw_dat(text):
    return re.sub(r"\d\.\d{6}e[-+]\d\d", "n.nnnnnne-nn", text)


# --- The overlap suite (COMB-style) and the coarray suite ----------------------------------------

def overlap_console(text):
    """Checks that each row's columns end where the heading's do (figures below 10^8 us), then
    masks its figures."""
    out = []
    for line in text.splitlines():
        line = note(line)
        if line.startswith("# WARNING") or "# note:" in line:
            continue
        for label in ("Date", "Machine", "MPI library"):
            if line.startswith(f"# {label} "):
                line = line[:line.index(":") + 1] + " <masked>"
        if line.startswith("# ") and "parbench run overlap" in line:
            line = "# <calling sequence>"
        line = version(line)
        m = re.fullmatch(r"  (\w+) +(-?[\d.]+) +(-?[\d.]+) +(-?[\d.]+) +(-?[\d.]+) +(-?[\d.]+|-)", line)
        if m:
            expect(len(line) == 79 and all(len(g) <= 9 for g in m.groups()[1:]),
                   f"row not in the overlap layout: {line!r}")
            line = f"  {m.group(1):<10} {'<t>':>13} {'<t>':>13} {'<t>':>13} {'<t>':>14} {'<avail>':>9}"
        out.append(line)
    return "\n".join(out) + "\n"


def caf_console(text):
    """The layout without the numbers: header values that vary are masked, every number in a
    table row becomes N, runs of spaces one space."""
    kept = []
    for line in text.splitlines():
        if re.match(r"# (Date|Machine|Coarray runtime|Compiler|MPI Version) ", line):
            line = line.split(":")[0] + ": <masked>"
        elif line.startswith("# ") and "parbench" in line and " run caf" in line:
            line = "# <calling sequence>"
        elif line.startswith("# WARNING: ") and "rows are unstable" in line:
            continue  # depends on the machine's load, like the '!' notes below
        elif re.match(r" *-?\d", line):  # a table row: numbers, and notes that may vary
            line = note(line).replace("no-CI", "N")  # like a CI: depends on the samples
            line = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", line.replace("within noise", ""))
            line = re.sub(r" +", " ", line).strip()
        elif not line.startswith("#"):  # column names
            line = re.sub(r" +", " ", line).strip()
        kept.append(line)
    return "\n".join(kept) + "\n"

