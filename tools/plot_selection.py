#!/usr/bin/python3
"""Plot `piccolo select` results: speedup over the non-parameterized baseline (the faster of
ring and recursive doubling) against message size, one line per algorithm at its best k, one
panel per collective and scale -- the style of Figs. 5 and 8 of Liu, Rhee, Wilkins, Dinda,
"Parameterized Algorithms and Parameter Selection for Fast GPU-GPU Collective Communication".

Input: any output of `piccolo select` that holds the selection: CSV, JSON or YAML
(`--format csv|json|yaml`, or `--emit csv|json|yaml -o F`). Tuning files (mpich-json,
openmpi-rules, piccl-env) hold only the choices and are refused. Needs Debian's
python3-matplotlib (and python3-yaml for YAML).

    piccolo select --nodes 1,4,16 --format csv -o sel.csv
    python3 tools/plot_selection.py sel.csv -o sel.png
"""

import argparse
import csv
import json
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

ALGORITHM_STYLE = {  # colour, marker
    "ring": ("#7f7f7f", "o"),
    "k-ring": ("#d62728", "s"),
    "rd": ("#8c564b", "v"),
    "rm": ("#1f77b4", "^"),
    "prd": ("#bcbd22", "D"),
    "prm": ("#2ca02c", "P"),
    "bruck": ("#17becf", "X"),
    "knomial": ("#ff7f0e", "<"),
    "binomial": ("#000000", ">"),
    "pairwise": ("#9467bd", "h"),
    "scattered": ("#e377c2", "*"),
}


def size_label(n):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return f"{n}B"


class InputProblem(Exception):
    """A file this script cannot plot: reported in one line, exit status 2."""


TUNING_FILES = {  # what `piccolo select --emit KIND` wrote, recognised by its first bytes
    "mpich-json": "an MPICH tuning file",
    "openmpi-rules": "an Open MPI coll_tuned rules file",
    "piccl-env": "a PICCL settings file",
}


def tuning_kind(text):
    """The tuning-file kind of a text, or None for a selection."""
    body = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    if text.lstrip().startswith("{") and '"collective=' in text[:2000]:
        return "mpich-json"
    if text.lstrip().startswith("# Open MPI coll_tuned") or (body and body[0].split()[0].isdigit()):
        return "openmpi-rules"
    if body and all(l.startswith("PICCL_") for l in body):
        return "piccl-env"
    return None


def load_document(path, text):
    """The JSON or YAML tree of a selection."""
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise InputProblem(f"{path}: not valid JSON ({e})") from None
    try:
        import yaml  # Debian's python3-yaml; only needed for YAML input
    except ImportError:
        raise InputProblem(f"{path}: reading YAML needs python3-yaml (apt-get install "
                           "python3-yaml), or plot the CSV/JSON output") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise InputProblem(f"{path}: not valid YAML ({str(e).splitlines()[0]})") from None


def read_rows(path):
    """One dict per (collective, scale, size, algorithm) with the algorithm's best k."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputProblem(f"{path}: cannot read it ({e})") from None
    kind = tuning_kind(text)
    if kind:
        raise InputProblem(
            f"{path} is {TUNING_FILES[kind]} (piccolo select --emit {kind}), not a selection: "
            "plot the CSV, JSON or YAML output (e.g. piccolo select --emit csv -o sel.csv)")
    if not text.lstrip().startswith("collective,"):
        doc = load_document(path, text)
        if not isinstance(doc, dict) or "selections" not in doc:
            raise InputProblem(f"{path}: no 'selections' (not written by piccolo select)")
        rows = []
        for s in doc["selections"]:
            base = s["baseline"]["time_s"] if s.get("baseline") else None
            best = s["best"]["algorithm"] if s.get("best") else None
            for a in s["algorithms"]:
                if "time_s" not in a:
                    continue
                rows.append({
                    "collective": s["collective"], "nodes": s["nodes"], "ppn": s["ppn"],
                    "ranks": s["ranks"], "bytes": s["size_bytes"], "algorithm": a["algorithm"],
                    "k": a.get("k"), "time": a["time_s"],
                    "speedup": base / a["time_s"] if base else math.nan,
                    "best": a["algorithm"] == best, "machine": doc.get("machine", "?"),
                    "baseline": s["baseline"]["algorithm"] if s.get("baseline") else "",
                    "meaning": doc["size_meaning"].get(s["collective"], "")})
        return rows
    rows = []
    reader = csv.DictReader(text.splitlines())
    missing = {"collective", "time_s", "algorithm", "size_bytes"} - set(reader.fieldnames or [])
    if missing:
        raise InputProblem(f"{path}: not a piccolo select CSV (no column {sorted(missing)[0]})")
    for r in reader:
        if not r["time_s"]:
            continue  # not run at this size (reason in the 'skipped' column)
        rows.append({
            "collective": r["collective"], "nodes": int(r["nodes"]), "ppn": int(r["ppn"]),
            "ranks": int(r["ranks"]), "bytes": int(r["size_bytes"]), "algorithm": r["algorithm"],
            "k": int(r["k"]) if r["k"] else None, "time": float(r["time_s"]),
            "speedup": float(r["speedup_vs_baseline"]), "best": r["best"] == "1",
            "machine": r["machine"], "meaning": r["size_meaning"],
            "baseline": r.get("baseline", "")})
    return rows


def shortest(x):
    """The shortest text that reads back as x, as piccolo writes numbers: 1, not 1.0."""
    text = repr(x)
    return text[:-2] if text.endswith(".0") else text


def write_points(path, panels):
    """The points drawn, panel by panel and line by line, in the order they are drawn."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["collective", "nodes", "ppn", "ranks", "algorithm", "bytes", "k", "speedup",
                      "best"])
        for (coll, (ranks, nodes, ppn)), lines in sorted(panels.items()):
            for algorithm, series in sorted(lines.items()):
                for r in sorted(series, key=lambda r: r["bytes"]):
                    out.writerow([coll, nodes, ppn, ranks, algorithm, r["bytes"],
                                  "" if r["k"] is None else r["k"], shortest(r["speedup"]),
                                  int(r["best"])])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", help="CSV or JSON written by piccolo select")
    ap.add_argument("-o", "--output", default="selection.png", help="PNG (or PDF/SVG) to write")
    ap.add_argument("--collective", action="append", help="only these collectives")
    ap.add_argument("--nodes", type=int, action="append", help="only these node counts")
    ap.add_argument("--no-k-labels", action="store_true", help="do not print k at the markers")
    ap.add_argument("--data", help="also write the plotted points as CSV (one row per marker)")
    args = ap.parse_args()

    try:
        rows = read_rows(args.input)
    except InputProblem as e:
        print(f"plot_selection.py: {e}", file=sys.stderr)
        sys.exit(2)
    if args.collective:
        rows = [r for r in rows if r["collective"] in args.collective]
    if args.nodes:
        rows = [r for r in rows if r["nodes"] in args.nodes]
    if not rows:
        sys.exit(f"{args.input}: no simulated rows to plot (check --collective/--nodes)")

    collectives = sorted({r["collective"] for r in rows})
    scales = sorted({(r["ranks"], r["nodes"], r["ppn"]) for r in rows})
    panels = defaultdict(lambda: defaultdict(list))  # (coll, scale) -> algorithm -> rows
    for r in rows:
        panels[(r["collective"], (r["ranks"], r["nodes"], r["ppn"]))][r["algorithm"]].append(r)

    if args.data:
        write_points(args.data, panels)
    fig, axes = plt.subplots(len(collectives), len(scales), squeeze=False, sharex=True,
                             figsize=(max(7.0, 4.2 * len(scales)), 3.4 * len(collectives)))
    for i, coll in enumerate(collectives):
        for j, scale in enumerate(scales):
            ax = axes[i][j]
            ranks, nodes, ppn = scale
            for algorithm, series in sorted(panels[(coll, scale)].items()):
                series.sort(key=lambda r: r["bytes"])
                colour, marker = ALGORITHM_STYLE.get(algorithm, ("black", "x"))
                xs = [r["bytes"] for r in series]
                ys = [r["speedup"] for r in series]
                ax.plot(xs, ys, color=colour, marker=marker, markersize=4, linewidth=1.2,
                        label=algorithm)
                # Filled markers where this algorithm is the selection.
                best = [(r["bytes"], r["speedup"]) for r in series if r["best"]]
                if best:
                    ax.scatter(*zip(*best), color=colour, marker=marker, s=46, zorder=3,
                               edgecolors="black", linewidths=0.6)
                if not args.no_k_labels and series[0]["k"] is not None:
                    previous = None
                    for r in series:  # label k where it changes, to keep panels readable
                        if r["k"] != previous:
                            ax.annotate(f"k={r['k']}", (r["bytes"], r["speedup"]),
                                        textcoords="offset points", xytext=(0, 5),
                                        fontsize=6, color=colour, ha="center")
                            previous = r["k"]
            ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
            ax.set_xscale("log", base=2)
            ticks = sorted({r["bytes"] for r in rows})
            step = max(1, len(ticks) // 6)
            ax.set_xticks(ticks[::step])
            ax.set_xticklabels([size_label(t) for t in ticks[::step]], fontsize=7)
            ax.tick_params(axis="y", labelsize=7)
            ax.grid(True, which="major", linewidth=0.3)
            ax.set_title(f"{coll}, {nodes} node{'s' if nodes != 1 else ''} x {ppn} = {ranks} ranks",
                         fontsize=9)
            if j == 0:
                # Each collective's baseline (piccolo select: ring and rd; binomial; pairwise).
                baseline = next((r["baseline"] for r in rows
                                 if r["collective"] == coll and r.get("baseline")), "")
                ax.set_ylabel("speedup over best of ring, rd"
                              if coll in ("allgather", "allreduce") or not baseline
                              else f"speedup over {baseline}", fontsize=8)
            meaning = next(r["meaning"] for r in rows if r["collective"] == coll)
            ax.set_xlabel(f"message size ({meaning})", fontsize=8)
            ax.xaxis.set_tick_params(labelbottom=True)
    handles, labels = [], []
    for ax in axes.flat:  # every algorithm once, whichever panel has it
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    order = [a for a in ALGORITHM_STYLE if a in labels] + [l for l in labels
                                                           if l not in ALGORITHM_STYLE]
    handles = [handles[labels.index(a)] for a in order]
    fig.suptitle(f"piccolo select on {rows[0]['machine']}: each algorithm at its best k "
                 "(big markers: the selection)", fontsize=10)
    fig.legend(handles, order, loc="upper center", bbox_to_anchor=(0.5, 0.96), ncol=len(order),
               fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.93 if len(collectives) > 1 else 0.88))
    fig.savefig(args.output, dpi=150)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
