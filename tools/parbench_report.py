#!/usr/bin/env python3
"""Writes one self-contained HTML page of parbench runs: `parbench report` runs this script.

    parbench_report.py [--comparison FILE] [--parbench-version V] [--title TEXT] -- RUN.json...
        > REPORT.html

The page holds a summary of every run (machine, MPI, processes, placement where recorded,
parbench version and methodology, date; unstable rows, defects, skipped benchmarks, warnings
and the sizes at which IMB 2021's time-out. or out-of-mem. rows ended a benchmark up front), the comparison of every later run with the first (with several runs), and per suite
and benchmark its figures against size (parbench_figures.py, shared with `parbench plot`: one
colour per run, one line style per series, the suite's console units) and the raw numbers of
every row. The figures are matplotlib SVG, inline: the file needs no network and no other file.

The comparison is not computed here: the driver (apps/parbench/report_command.hpp) makes it with
the code of `parbench compare` (Mann-Whitney U per row, geometric mean per suite) and hands it
over as JSON (--comparison). Without it (the script run by hand) the page has no comparison.

The page goes to stdout; the driver writes it through its output layer. Every problem is one line
"parbench: error: ..." on stderr (exit 2 for bad input), never a traceback.
"""
import argparse
import html
import io
import json
import os
import re
import sys

from parbench_figures import (run_command, QUANTITIES, InputError, axis_label, benchmark_name,
                              bandwidth_unit, colour, draw_panel, figures, import_matplotlib,
                              is_number, line_style, load_document, log_axes, printable, quantities_for,
                              read_input, series_name, suite_name, x_label)

# Processes listed one by one in the summary's placement line; the rest are counted.
PLACEMENT_SHOWN = 8


class ArgumentParser(argparse.ArgumentParser):
    """argparse's errors as one line (its own are a usage block and exit 2)."""

    def error(self, message):
        raise InputError(message)


def esc(text):
    return html.escape(str(text), quote=True)


def fmt(value, digits=4):
    if not is_number(value):
        return "–"
    if value != 0 and (abs(value) >= 1e7 or abs(value) < 1e-3):
        return f"{value:.{digits - 1}e}"
    return f"{value:.{digits}g}" if abs(value) < 10 ** digits else f"{value:.0f}"


def size_text(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n:g} B" if isinstance(n, float) else f"{n} B"


class Ids:
    """HTML ids from names: letters, digits, '-' and '_', each one used once."""

    def __init__(self):
        self.used = set()

    def make(self, *parts):
        base = re.sub(r"[^A-Za-z0-9_-]+", "-", "-".join(str(p) for p in parts)).strip("-")
        base = base or "x"
        candidate, k = base, 2
        while candidate in self.used:
            candidate, k = f"{base}-{k}", k + 1
        self.used.add(candidate)
        return candidate


# --- the runs -----------------------------------------------------------------------------------

class Part:
    """One parbench JSON file of a run: its context."""

    def __init__(self, path, document, rows):
        self.path, self.document, self.rows = path, document, rows
        self.context = document["context"]
        parbench = self.context.get("parbench")
        self.parbench = parbench if isinstance(parbench, dict) else {}
        plugin = self.parbench.get("plugin_context")
        self.plugin = plugin if isinstance(plugin, dict) else {}
        self.suite = str(self.parbench.get("suite") or (suite_name(rows[0]) if rows else "?"))

    def field(self, key):
        """A value the run recorded, in parbench's context or its plugin's."""
        for source in (self.parbench, self.plugin, self.context):
            value = source.get(key)
            if value not in (None, "", [], {}):
                return value
        return None

    def skipped(self):
        listed = self.parbench.get("benchmark_list")
        measured = {benchmark_name(r) for r in self.rows}
        return [f"{self.suite} {b}" for b in listed if isinstance(b, str) and b not in measured] \
            if isinstance(listed, list) else []

    def warnings(self):
        w = self.parbench.get("warnings")
        return [f"{self.suite}: {x}" for x in w] if isinstance(w, list) else []

    def time_outs(self):
        """The sizes at which IMB 2021's rules ended a benchmark unmeasured (the JSON's
        context.parbench.time_outs): its -time budget ran out ("time-out"; files that name no
        reason) or its buffers would exceed -mem ("out-of-mem", with the bytes needed)."""
        listed = self.parbench.get("time_outs")
        out = []
        for o in listed if isinstance(listed, list) else []:
            if not isinstance(o, dict):
                continue
            reason = o.get("reason") if isinstance(o.get("reason"), str) else "time-out"
            need = o.get("need_bytes")
            needed = (f" ({size_text(need)} per process needed)"
                      if is_number(need) and need >= 0 else "")
            out.append(f"{o.get('name', '?')}: {reason}{needed}")
        return out


class Run:
    """One run: a file, or a directory of files (one per suite, as `parbench compare` reads)."""

    def __init__(self, index, path, label, parts):
        self.index, self.path, self.label, self.parts = index, path, label, parts
        self.rows = [r for part in parts for r in part.rows]

    def unstable_rows(self):
        return [r for r in self.rows if isinstance(r.get("stability"), dict)
                and r["stability"].get("stable") is False]

    def defect_rows(self):
        return [r for r in self.rows if is_number(r.get("defects")) and r["defects"] > 0]

    def skipped(self):
        return [b for part in self.parts for b in part.skipped()]

    def warnings(self):
        return [w for part in self.parts for w in part.warnings()]

    def time_outs(self):
        return [t for part in self.parts for t in part.time_outs()]

    def cell(self, text_of):
        """A summary cell: the value if every file of the run has the same, else one line per
        file named by its suite."""
        texts = [text_of(part) for part in self.parts]
        if len(set(texts)) == 1:
            return texts[0]
        return "<br>".join(f"<em>{esc(part.suite)}</em>: {text}"
                           for part, text in zip(self.parts, texts))


def run_files(path):
    """The files of a run: the file, or a directory's *.json files (not recursive), sorted."""
    if os.path.isdir(path):
        files = sorted(os.path.join(path, name) for name in os.listdir(path)
                       if name.endswith(".json"))
        if not files:
            raise InputError(f"{path}: a directory without .json files")
        return files
    return [path]


def mpi_text(run):
    library = run.field("mpi_library")
    if not isinstance(library, str):
        plugins = run.parbench.get("plugins")
        names = [p.get("name") for p in plugins if isinstance(p, dict)] \
            if isinstance(plugins, list) else []
        return ("not recorded" if "mpi" in names else "none (no MPI plugin in this run)"), None
    lines = [line.strip() for line in library.splitlines() if line.strip()]
    keep = [line for line in lines if re.match(r"(MPICH|MVAPICH)[^:]*(Version|Device)", line)]
    short = ", ".join(re.sub(r"\s+", " ", line) for line in (keep or lines[:1]))
    return short[:200], library


def machine_text(run):
    parts = []
    host = run.context.get("host_name")
    if host:
        parts.append(str(host))
    arch = run.parbench.get("machine")
    system = " ".join(str(run.parbench.get(k)) for k in ("system", "release")
                      if run.parbench.get(k))
    if arch or system:
        parts.append(" ".join(x for x in (system, str(arch or "")) if x))
    cpus, mhz = run.context.get("num_cpus"), run.context.get("mhz_per_cpu")
    if cpus:
        parts.append(f"{cpus} CPUs" + (f" at {mhz} MHz" if mhz else ""))
    return ", ".join(parts) if parts else "not recorded"


def methodology_text(run):
    parts = []
    title = run.parbench.get("title")
    if title:
        parts.append(str(title))
    timer = run.plugin.get("timer")
    if timer:
        resolution = run.plugin.get("timer_resolution_s")
        parts.append(f"timer {timer}" + (f" (resolution {resolution * 1e9:.3g} ns)"
                                         if is_number(resolution) else ""))
    return "; ".join(parts) if parts else "not recorded"


def launcher_text(run):
    launcher = run.parbench.get("launcher")
    if not isinstance(launcher, dict) or not launcher.get("name"):
        return "not recorded"
    processes = launcher.get("processes")
    return str(launcher["name"]) + (f", {processes} processes" if is_number(processes) else "")


def placement_of(run):
    """The MPI plugin's placement record (nodes, processes_per_node, processes), or None."""
    placement = run.field("placement")
    return placement if isinstance(placement, dict) else None


def nodes_text(run):
    placement = placement_of(run)
    if placement is None or not is_number(placement.get("nodes")):
        return "not recorded"
    return str(placement["nodes"])


def ranks_per_node_text(run):
    placement = placement_of(run)
    counts = placement.get("processes_per_node") if placement else None
    if isinstance(counts, list) and counts:
        if len(set(map(str, counts))) == 1:
            return f"{counts[0]} on each node"
        return ", ".join(f"node {i}: {c}" for i, c in enumerate(counts))
    ranks = run.field("ranks_per_node")  # the BLAS plugin's count
    return str(ranks) if ranks is not None else "not recorded"


def binding_text(run):
    placement = placement_of(run)
    processes = placement.get("processes") if placement else None
    if not isinstance(processes, list) or not processes:
        return "not recorded"
    parts = []
    for p in processes[:PLACEMENT_SHOWN]:
        if isinstance(p, dict):
            parts.append(f"rank {p.get('rank')}: node {p.get('node')} ({p.get('host')}), "
                         f"CPUs {p.get('cpus') or '?'}, NUMA {p.get('numa') or '?'}")
    if len(processes) > PLACEMENT_SHOWN:
        parts.append(f"... {len(processes) - PLACEMENT_SHOWN} more in the JSON")
    return "; ".join(parts)


def duration_text(run):
    for key in ("duration_s", "elapsed_s"):
        value = run.field(key)
        if is_number(value):
            return f"{value:.1f} s"
    return "not recorded"


def summary_section(runs, out):
    out.append('<section id="summary"><h2>Summary</h2>')
    fields = [
        ("files", lambda p: f'<code title="{esc(p.path)}">{esc(os.path.basename(p.path))}</code>'),
        ("suite", lambda p: esc(p.suite)),
        ("machine", lambda p: esc(machine_text(p))),
        ("MPI library", lambda p: (lambda t: f'<span title="{esc(t[1] or "")}">{esc(t[0])}'
                                   "</span>")(mpi_text(p))),
        ("processes", lambda p: esc(p.field("processes") or "not recorded")),
        ("launcher", lambda p: esc(launcher_text(p))),
    ]
    fields += [
        ("nodes", lambda p: esc(nodes_text(p))),
        ("ranks per node", lambda p: esc(ranks_per_node_text(p))),
        ("placement", lambda p: esc(binding_text(p))),
    ]
    fields += [
        ("parbench version", lambda p: esc(p.parbench.get("parbench_version") or "not recorded")),
        ("methodology", lambda p: esc(methodology_text(p))),
        ("date", lambda p: esc(p.context.get("date") or p.parbench.get("date_text")
                               or "not recorded")),
        ("duration", lambda p: esc(duration_text(p))),
        ("completed", lambda p: "yes" if p.parbench.get("completed") is True
         else '<strong class="bad">no: the run was stopped early</strong>'
         if p.parbench.get("completed") is False else "not recorded"),
        ("command", lambda p: f'<code>{esc(p.parbench.get("calling_sequence") or "")}</code>'),
    ]
    attention_fields = [
        ("rows", lambda r: str(len(r.rows))),
        ("unstable rows", lambda r: attention(len(r.unstable_rows()),
                                              [x["name"] for x in r.unstable_rows()])),
        ("rows with defects", lambda r: attention(len(r.defect_rows()),
                                                  [f'{x["name"]}: {x["defects"]}'
                                                   for x in r.defect_rows()])),
        ("skipped benchmarks", lambda r: attention(len(r.skipped()), r.skipped())),
        ("warnings", lambda r: attention(len(r.warnings()), r.warnings())),
    ]
    # IMB 2021's time-out. and out-of-mem. rows end a benchmark: a row of the summary only where
    # some run has one.
    if any(run.time_outs() for run in runs):
        attention_fields.append(("benchmarks ended unmeasured (IMB 2021)",
                                 lambda r: attention(len(r.time_outs()), r.time_outs())))
    out.append('<table class="summary"><thead><tr><th scope="col">run</th>')
    for run in runs:
        out.append(f'<th scope="col"><span class="swatch" style="background:{colour(run.index)}">'
                   f'</span>{esc(run.label)}</th>')
    out.append("</tr></thead><tbody>")
    # Unstable rows, defects, skipped benchmarks and warnings first: what a reader must see.
    for label, cell in attention_fields:
        out.append(f'<tr><th scope="row">{esc(label)}</th>'
                   + "".join(f"<td>{cell(run)}</td>" for run in runs) + "</tr>")
    for label, cell in fields:
        out.append(f'<tr><th scope="row">{esc(label)}</th>'
                   + "".join(f"<td>{run.cell(cell)}</td>" for run in runs) + "</tr>")
    out.append("</tbody></table></section>")


def attention(count, items):
    if count == 0:
        return "none"
    listed = "".join(f"<li>{esc(printable(i))}</li>" for i in items[:200])
    more = f"<li>… and {len(items) - 200} more</li>" if len(items) > 200 else ""
    return (f'<details class="attention"><summary><strong class="bad">{count}</strong>'
            f"</summary><ul>{listed}{more}</ul></details>")


# --- the comparison -----------------------------------------------------------------------------

def load_comparison(path, run_count):
    if not path:
        return []
    try:
        document = json.loads(read_input(path).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"--comparison {path}: not the driver's comparison JSON")
    pairs = document.get("pairs") if isinstance(document, dict) else None
    if not isinstance(pairs, list) or any(
            not isinstance(p, dict) or p.get("old") not in range(run_count)
            or p.get("new") not in range(run_count) for p in pairs):
        raise InputError(f"--comparison {path}: not the driver's comparison JSON")
    return pairs


def percent(ratio):
    return f"{100 * (ratio - 1):+.1f}%" if is_number(ratio) else "–"


def comparison_rows_table(rows, table_class):
    out = [f'<table class="{table_class}"><thead><tr><th>benchmark</th>'
           "<th>old median [µs]</th><th>new median [µs]</th><th>change</th><th>p-value</th>"
           "<th>verdict</th></tr></thead><tbody>"]
    for r in rows:
        verdict = str(r.get("verdict", "")) + ("!" if r.get("unstable") else "")
        out.append(f'<tr class="{esc(r.get("verdict", ""))}"><td><code>{esc(r.get("name"))}'
                   f'</code></td><td>{fmt(r.get("old_median_us"))}</td>'
                   f'<td>{fmt(r.get("new_median_us"))}</td>'
                   f'<td>{percent((r.get("change") or 0) + 1) if is_number(r.get("change")) else "–"}'
                   f'</td><td>{fmt(r.get("p_value"), 3)}</td><td>{esc(verdict)}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def comparison_section(runs, pairs, significance, out):
    out.append('<section id="comparison"><h2>Comparison with the first run</h2>')
    out.append(f'<p class="note">As <code>parbench compare</code>: rows matched by name, medians '
               f"compared, per-batch samples tested with the Mann–Whitney U test at level "
               f"{esc(significance)}; per suite the geometric mean of the new/old median times "
               "(above 1: slower). '!' marks a row flagged unstable in a run.</p>")
    for pair in pairs:
        old, new = runs[pair["old"]], runs[pair["new"]]
        pair_id = f"cmp-{pair['new']}"
        out.append(f'<section class="pair" id="{pair_id}"><h3>'
                   f'<span class="swatch" style="background:{colour(new.index)}"></span>'
                   f"{esc(new.label)} against {esc(old.label)}</h3>")
        if "error" in pair:
            out.append(f'<p class="bad">Not compared: {esc(pair["error"])}</p></section>')
            continue
        out.append('<table class="geomean"><thead><tr><th>suite</th><th>rows</th>'
                   "<th>geometric mean new/old</th><th>change</th><th>slower</th><th>faster</th>"
                   "</tr></thead><tbody>")
        for s in pair.get("suites", []):
            ratio = s.get("geomean_ratio")
            # the suite as a whole: slower when its geometric mean is above 1
            cls = ("slower" if ratio > 1 else "faster" if ratio < 1 else "") \
                if is_number(ratio) else ""
            out.append(f'<tr class="{cls}"><td>{esc(s.get("suite") or "(no suite)")}</td>'
                       f'<td>{esc(s.get("rows"))}</td><td>{fmt(ratio)}</td>'
                       f"<td>{percent(ratio)}</td><td>{esc(s.get('slower'))}</td>"
                       f"<td>{esc(s.get('faster'))}</td></tr>")
        out.append("</tbody></table>")
        rows = pair.get("rows", [])
        slower = sorted((r for r in rows if r.get("verdict") == "slower"),
                        key=lambda r: -(r.get("change") or 0))
        if slower:
            out.append(f'<h4 class="bad">{len(slower)} rows significantly slower</h4>')
            out.append(comparison_rows_table(slower[:15], "regressions"))
            if len(slower) > 15:
                out.append(f"<details><summary>The other {len(slower) - 15} significantly slower "
                           f'rows</summary>{comparison_rows_table(slower[15:], "regressions")}'
                           "</details>")
        else:
            out.append("<p>No row is significantly slower.</p>")
        notes = []
        if pair.get("only_old") or pair.get("only_new"):
            notes.append(f"{pair.get('only_old', 0)} rows only in {esc(old.label)}, "
                         f"{pair.get('only_new', 0)} only in {esc(new.label)} (not compared)")
        untested = sum(1 for r in rows if r.get("verdict") == "untested")
        if untested:
            notes.append(f"{untested} rows without batch samples in a run: medians only")
        if notes:
            out.append("<p class=\"note\">" + "; ".join(notes) + "</p>")
        out.append(f"<details><summary>All {len(rows)} compared rows</summary>"
                   f'{comparison_rows_table(rows, "compared")}</details></section>')
    out.append("</section>")


# --- the benchmarks -----------------------------------------------------------------------------

def group_rows(runs):
    """suite -> benchmark -> [(run, rows)], in the order first seen."""
    suites = {}
    for run in runs:
        for row in run.rows:
            per_benchmark = suites.setdefault(suite_name(row), {})
            per_run = per_benchmark.setdefault(benchmark_name(row), {})
            per_run.setdefault(run.index, []).append(row)
    return suites


def short_series(name, suite):
    return name[len(suite) + 1:] if name.startswith(suite + "/") else name


def svg_of(fig, plt):
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]  # no XML declaration or DOCTYPE inside HTML
    # Path coordinates to a hundredth of a point (matplotlib writes six decimals): a third of
    # the page's size, invisible at any zoom a reader uses.
    return re.sub(r'( d="[^"]*")', lambda m: re.sub(r"(\d+\.\d\d)\d+", r"\1", m.group(1)), text)


def ratio_points(pair, rows_by_name):
    """(bytes, ratio, significant, series) of the compared rows of one benchmark."""
    points = []
    for r in pair.get("rows", []):
        row = rows_by_name.get(r.get("name"))
        old, new = r.get("old_median_us"), r.get("new_median_us")
        if row is None or not is_number(row.get("bytes")) or row["bytes"] <= 0:
            continue
        if not (is_number(old) and is_number(new) and old > 0 and new > 0):
            continue
        points.append((row["bytes"], new / old, r.get("verdict") in ("slower", "faster"),
                       series_name(row)))
    return points


def draw_unsized(ax, curves, gid):
    """Rows without a size (Barrier): each run's median with its CI as a point per series."""
    labels = []
    for position, curve in enumerate(curves):
        row = curve["rows"][0]
        median = row["median_us"]
        low = row.get("ci_low_us") if is_number(row.get("ci_low_us")) else median
        high = row.get("ci_high_us") if is_number(row.get("ci_high_us")) else median
        container = ax.errorbar([position], [median], yerr=[[median - low], [high - median]],
                                fmt=curve["style"][1], color=curve["colour"], capsize=3)
        container.lines[0].set_gid(gid("series", curve))
        labels.append(curve["short"])
    ax.set_xticks(range(len(curves)))
    ax.set_xticklabels(labels, rotation=20, fontsize=6, ha="right")
    ax.set_xlim(-0.5, len(curves) - 0.5)
    ax.set_ylabel(QUANTITIES["latency"][1], fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(True, axis="y", alpha=0.3)
    return len(curves)


def benchmark_figure(plt, matplotlib, fig_id, suite, per_run, runs, pairs):
    """The SVG of one benchmark: a panel per quantity (and the ratio with several runs)."""
    all_rows = [r for rows in per_run.values() for r in rows]
    names = list(dict.fromkeys(series_name(r) for r in all_rows))
    curves = []
    for run in runs:
        by_series = {}
        for row in per_run.get(run.index, []):
            by_series.setdefault(series_name(row), []).append(row)
        for name, rows in by_series.items():
            s = names.index(name)
            curves.append({"rows": rows, "label": f"{run.label}: {short_series(name, suite)}",
                           "short": f"{run.label}: {short_series(name, suite)}",
                           "colour": colour(run.index), "style": line_style(s),
                           "gid": f"r{run.index}s{s}"})
    sized = [c for c in curves if any(is_number(r.get("bytes")) for r in c["rows"])]
    for c in sized:
        c["rows"] = [r for r in c["rows"] if is_number(r.get("bytes"))]
    sized_rows = [r for c in sized for r in c["rows"]]
    panels = quantities_for(sized_rows) if sized else []
    ratio_pairs = [p for p in pairs if "error" not in p] if sized else []
    rows_by_name = {r["name"]: r for r in per_run.get(0, [])}
    ratio_pairs = [p for p in ratio_pairs if ratio_points(p, rows_by_name)]
    count = max(1, len(panels) + (1 if ratio_pairs else 0))
    columns = min(count, 3)
    lines = (count + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(4.3 * columns, 3.3 * lines),
                             squeeze=False)
    flat = [ax for line in axes for ax in line]
    for ax in flat[count:]:
        ax.set_visible(False)
    drawn = 0

    def gid(quantity):
        return lambda kind, c: f"{fig_id}-{quantity}-{kind}-{c['gid']}"

    if not sized:
        drawn += draw_unsized(flat[0], curves, gid("latency"))
        flat[0].set_title("time per call (no size): median, 95% CI", fontsize=8)
    for ax, quantity in zip(flat, panels):
        panel_drawn, _ = draw_panel(ax, quantity, sized, headline=True, gid=gid(quantity))
        drawn += panel_drawn
        ax.set_xlabel(x_label(sized_rows), fontsize=8)
        ax.set_ylabel(axis_label(quantity, sized_rows), fontsize=8)
        ax.set_title(QUANTITIES[quantity][0] + ": median" +
                     (", 95% CI band, headline ×" if QUANTITIES[quantity][2] else ""), fontsize=8)
        ax.tick_params(which="both", labelsize=7)
    if ratio_pairs:
        ax = flat[len(panels)]
        for pair in ratio_pairs:
            points = ratio_points(pair, rows_by_name)
            for name in dict.fromkeys(p[3] for p in points):
                mine = sorted((p for p in points if p[3] == name), key=lambda p: p[0])
                linestyle, marker = line_style(names.index(name))
                c = colour(pair["new"])
                line, = ax.plot([p[0] for p in mine], [p[1] for p in mine], color=c,
                                linestyle=linestyle, linewidth=1.2)
                line.set_gid(f"{fig_id}-ratio-series-r{pair['new']}s{names.index(name)}")
                for filled in (True, False):
                    chosen = [p for p in mine if p[2] == filled]
                    if chosen:
                        ax.plot([p[0] for p in chosen], [p[1] for p in chosen], linestyle="none",
                                marker=marker, markersize=4, color=c,
                                markerfacecolor=c if filled else "white")
        ax.axhline(1.0, color="black", linewidth=0.8)
        log_axes(ax, True)
        ax.set_xlabel(x_label(sized_rows), fontsize=8)
        ax.set_ylabel("median time, run / first run", fontsize=8)
        ax.set_title("ratio (>1 slower); filled: significant", fontsize=8)
        ax.grid(True, which="major", alpha=0.35)
        ax.tick_params(which="both", labelsize=7)
    if len(names) > 1:  # the line styles: one per series
        from matplotlib.lines import Line2D
        handles = [Line2D([], [], color="0.3", linestyle=line_style(i)[0],
                          marker=line_style(i)[1], markersize=3.5,
                          label=short_series(n, suite)) for i, n in enumerate(names)]
        flat[0].legend(handles=handles, fontsize=6, loc="best")
    fig.tight_layout()
    return svg_of(fig, plt), drawn


def key_figures(quantities, rows):
    """One line of a run's figures for one benchmark: the smallest latency, the peak rates."""
    parts = []
    for quantity in quantities:
        points = [(r["bytes"], figures(r, quantity)) for r in rows
                  if is_number(r.get("bytes")) and r["bytes"] > 0]
        points = [(b, v[0]) for b, v in points if v is not None]
        if not points:
            continue
        if quantity == "latency":
            b, v = min(points, key=lambda p: (p[0], p[1]))
            parts.append(f"{fmt(v)} µs at {size_text(b)}" if rows[0].get("class") != "compute"
                         else f"{fmt(v)} µs at N = {b}")
        else:
            b, v = max(points, key=lambda p: p[1])
            unit = {"gflops": "GFlop/s", "msgrate": "messages/s", "overlap": "% overlap",
                    "availability": "% available"}.get(quantity)
            if quantity == "bandwidth":
                unit = bandwidth_unit(rows[0]).split(" (")[0]
            at = f"N = {b}" if rows[0].get("class") == "compute" else size_text(b)
            parts.append(f"peak {fmt(v)} {unit} at {at}")
    if not parts and rows:
        parts.append(f"{fmt(rows[0]['median_us'])} µs median")
    return "; ".join(parts)


RAW_COLUMNS = [
    ("size", lambda r: str(r["bytes"]) if is_number(r.get("bytes")) else "–"),
    ("repetitions", lambda r: str(r.get("iterations", "–"))),
    ("t_min [µs]", lambda r: fmt(r.get("t_min_us"))),
    ("t_max [µs]", lambda r: fmt(r.get("t_max_us"))),
    ("t_avg [µs]", lambda r: fmt(r.get("t_avg_us"))),
    ("median [µs]", lambda r: fmt(r.get("median_us"))),
    ("CI low [µs]", lambda r: fmt(r.get("ci_low_us"))),
    ("CI high [µs]", lambda r: fmt(r.get("ci_high_us"))),
    ("samples", lambda r: str(r.get("samples", "–"))),
]


def raw_table(suite, per_run, runs, table_id):
    all_rows = [r for rows in per_run.values() for r in rows]
    extra = [q for q in ("bandwidth", "msgrate", "gflops", "overlap", "availability")
             if any(figures(r, q) is not None for r in all_rows)]
    headings = ["run", "series"] + [c[0] for c in RAW_COLUMNS]
    for q in extra:
        unit = axis_label(q, all_rows)
        headings.append(f"{unit} (median)" if q != "overlap" and q != "availability" else unit)
    has_defects = any(r.get("defects") is not None for r in all_rows)
    if has_defects:
        headings.append("defects")
    headings.append("stable")
    out = [f'<table class="raw" id="{table_id}"><thead><tr>'
           + "".join(f'<th scope="col">{esc(h)}</th>' for h in headings) + "</tr></thead><tbody>"]
    for run in runs:
        for row in per_run.get(run.index, []):
            stability = row.get("stability") if isinstance(row.get("stability"), dict) else {}
            unstable = stability.get("stable") is False
            cells = [f'<span class="swatch" style="background:{colour(run.index)}"></span>'
                     f"{esc(run.label)}", f"<code>{esc(short_series(series_name(row), suite))}"
                                          "</code>"]
            cells += [esc(c[1](row)) for c in RAW_COLUMNS]
            for q in extra:
                v = figures(row, q)
                cells.append(fmt(v[0]) if v else "–")
            if has_defects:
                cells.append(esc(row.get("defects") if row.get("defects") is not None else "–"))
            flags = ", ".join(str(f) for f in stability.get("flags", []) or [])
            cells.append("no" + (f" ({esc(flags)})" if flags else "") if unstable else "yes")
            out.append(f'<tr class="{"unstable" if unstable else ""}">'
                       + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


STYLE = """
:root { --fg: #1b1b1b; --muted: #5a5a5a; --line: #d0d0d0; --bad: #b00020; --bg-bad: #fde8eb;
        --bg-good: #e6f4ea; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--fg); margin: 0; display: grid; grid-template-columns: 16rem 1fr; }
nav#toc { position: sticky; top: 0; height: 100vh; overflow-y: auto; padding: 1rem;
          border-right: 1px solid var(--line); background: #fafafa; font-size: 13px; }
nav#toc ul { list-style: none; padding-left: 0.8rem; margin: 0.2rem 0; }
nav#toc > ul { padding-left: 0; }
nav#toc a { color: #0b57d0; text-decoration: none; }
nav#toc .hidden, section.benchmark.hidden { display: none; }
main { padding: 1rem 2rem; min-width: 0; }
h1 { font-size: 1.5rem; margin: 0.2rem 0 0.5rem; }
h2 { font-size: 1.25rem; border-bottom: 2px solid var(--line); padding-bottom: 0.2rem;
     margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 0.3rem; }
input#filter { width: 100%; padding: 0.3rem; margin: 0.5rem 0; font: inherit; }
table { border-collapse: collapse; margin: 0.4rem 0; font-size: 12px; }
th, td { border: 1px solid var(--line); padding: 0.15rem 0.45rem; text-align: right;
         vertical-align: top; }
th { background: #f2f2f2; }
table.summary th[scope=row], table.summary td { text-align: left; }
table.summary td { max-width: 32rem; overflow-wrap: anywhere; }
td:first-child, td:nth-child(2) { text-align: left; }
table.raw td:first-child, table.raw td:nth-child(2) { white-space: nowrap; }
tr.unstable td { color: var(--muted); font-style: italic; }
tr.slower td { background: var(--bg-bad); }
tr.faster td { background: var(--bg-good); }
.bad { color: var(--bad); }
.note { color: var(--muted); font-size: 12px; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.35em;
          border-radius: 2px; vertical-align: baseline; }
ul.legend { list-style: none; padding: 0; margin: 0.2rem 0; font-size: 12.5px; }
ul.legend .run { font-weight: 600; }
section.benchmark { border-top: 1px solid var(--line); padding-top: 0.3rem; }
figure.panel { margin: 0.3rem 0; }
figure.panel svg { max-width: 100%; height: auto; }
p.key { margin: 0.2rem 0; font-size: 12.5px; }
details > summary { cursor: pointer; color: #0b57d0; margin: 0.3rem 0; }
@media print {
  body { display: block; font-size: 11px; }
  nav#toc, input#filter, .noprint { display: none; }
  main { padding: 0; }
  section.benchmark { break-before: page; break-inside: avoid-page; border: none; }
  section.benchmark.hidden { display: block; }
  details > summary { color: var(--fg); }
  table { font-size: 9px; }
  th, td { padding: 0.05rem 0.3rem; }
  a { color: inherit; text-decoration: none; }
}
"""

SCRIPT = """
(function () {
  var filter = document.getElementById('filter');
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.benchmark'));
  function apply() {
    var words = filter.value.toLowerCase().split(/\\s+/).filter(function (w) { return w; });
    sections.forEach(function (s) {
      var text = (s.getAttribute('data-suite') + ' ' + s.getAttribute('data-benchmark'))
        .toLowerCase();
      var shown = words.every(function (w) { return text.indexOf(w) >= 0; });
      s.classList.toggle('hidden', !shown);
      var link = document.querySelector('nav#toc li[data-target="' + s.id + '"]');
      if (link) link.classList.toggle('hidden', !shown);
    });
    document.querySelectorAll('section.suite').forEach(function (suite) {
      var any = suite.querySelector('section.benchmark:not(.hidden)') !== null;
      var entry = document.querySelector('nav#toc li[data-target="' + suite.id + '"]');
      if (entry) entry.classList.toggle('hidden', !any);
    });
  }
  filter.addEventListener('input', apply);
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('section.benchmark details').forEach(function (d) {
      d.open = true;
    });
  });
})();
"""


def page(runs, pairs, significance, title, version, plt, matplotlib):
    ids = Ids()
    suites = group_rows(runs)
    body, nav = [], []
    drawn_total = 0
    for suite, benchmarks in suites.items():
        suite_id = ids.make("suite", suite)
        nav.append(f'<li data-target="{suite_id}"><a href="#{suite_id}">{esc(suite)}</a><ul>')
        body.append(f'<section class="suite" id="{suite_id}"><h2>{esc(suite)}</h2>')
        for benchmark, per_run in benchmarks.items():
            bench_id = ids.make("bench", suite, benchmark)
            nav.append(f'<li data-target="{bench_id}"><a href="#{bench_id}">{esc(benchmark)}'
                       "</a></li>")
            svg, drawn = benchmark_figure(plt, matplotlib, bench_id, suite, per_run, runs,
                                          pairs)
            drawn_total += drawn
            body.append(f'<section class="benchmark" id="{bench_id}" data-suite="{esc(suite)}" '
                        f'data-benchmark="{esc(benchmark)}"><h3>{esc(suite)} · {esc(benchmark)}'
                        "</h3>")
            present = [run for run in runs if run.index in per_run]
            quantities = quantities_for([r for rows in per_run.values() for r in rows])
            body.append('<ul class="legend">' + "".join(
                f'<li><span class="swatch" style="background:{colour(run.index)}"></span>'
                f'<span class="run">{esc(run.label)}</span>: <span class="key">'
                f"{esc(key_figures(quantities, per_run[run.index]))}</span></li>"
                for run in present) + "</ul>")
            body.append(f'<figure class="panel" id="{bench_id}-figure">{svg}</figure>')
            body.append(f"<details><summary>Raw numbers ({sum(len(r) for r in per_run.values())}"
                        f" rows)</summary>{raw_table(suite, per_run, runs, bench_id + '-raw')}"
                        "</details></section>")
        nav.append("</ul></li>")
        body.append("</section>")
    title = title or ("parbench report: " + ", ".join(r.label for r in runs))
    head = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta name="generator" content="parbench {esc(version)}">',
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
            '<nav id="toc"><strong>Contents</strong>',
            '<input id="filter" type="search" placeholder="Filter benchmarks" '
            'aria-label="Filter benchmarks">',
            '<ul><li><a href="#summary">Summary</a></li>']
    if pairs:
        head.append('<li><a href="#comparison">Comparison</a></li>')
    head += nav
    head.append("</ul></nav><main>")
    head.append(f"<h1>{esc(title)}</h1>")
    head.append(f'<p class="note">Made by parbench {esc(version)} from {len(runs)} run'
                f'{"s" if len(runs) > 1 else ""}. Figures: the median per size with its 95% '
                "confidence band; × the suite's own headline figure (IMB's t_max, OSU's "
                "average, PAW's mean); one colour per run, one line style per series. "
                "Bandwidth in the suite's console unit: MB/s = 10<sup>6</sup> B/s for OSU, "
                "Mbytes/sec = 2<sup>20</sup> B/s for IMB (as IMB defines it).</p>")
    out = head
    summary_section(runs, out)
    if pairs:
        comparison_section(runs, pairs, significance, out)
    out += body
    out.append(f"</main><script>{SCRIPT}</script></body></html>\n")
    return "".join(out), drawn_total


def write_page(text):
    if os.isatty(1):
        raise InputError("the report is HTML: redirect stdout to a file (or use parbench report "
                         "-o REPORT.html)")
    view = memoryview(text.encode("utf-8"))
    try:
        while view:
            view = view[os.write(1, view):]
    except OSError as e:
        raise InputError(f"stdout: cannot write the report: {e.strerror}")


def main(argv):
    parser = ArgumentParser(prog="parbench report")
    parser.add_argument("--comparison", default="")
    parser.add_argument("--parbench-version", default="")
    parser.add_argument("--title", default="")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args(argv)
    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in args.title):
        raise InputError(f"--title '{printable(args.title)}': control characters have no place "
                         "in a title")
    loaded = [[Part(f, *load_document(f)) for f in run_files(path)] for path in args.runs]
    stems = [os.path.splitext(os.path.basename(os.path.normpath(p)))[0] for p in args.runs]
    if len(set(stems)) < len(stems):
        stems = list(args.runs)  # same names in different directories: the paths
    runs = [Run(i, path, stem, parts)
            for i, (stem, path, parts) in enumerate(zip(stems, args.runs, loaded))]
    if not any(run.rows for run in runs):
        raise InputError("no measured rows in " + ", ".join(args.runs))
    pairs = load_comparison(args.comparison, len(runs))
    significance = 0.05
    if args.comparison:
        significance = json.loads(read_input(args.comparison)).get("significance", 0.05)
    matplotlib, plt = import_matplotlib()
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: small, searchable
    matplotlib.rcParams["svg.hashsalt"] = "parbench-report"  # the same page for the same runs
    text, drawn = page(runs, pairs, significance, args.title, args.parbench_version, plt,
                       matplotlib)
    if drawn == 0:
        raise InputError("nothing to draw: the runs have no figure")
    write_page(text)
    return 0


def run(argv):
    return run_command(main, argv, "report")


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
