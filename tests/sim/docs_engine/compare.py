#!/usr/bin/env python3
"""Compare piccolo's engine with the docs-only engine (docs_engine.py) on random cases and on a
few generated schedules. Per-rank finish times are compared exactly, in femtoseconds.

    python3 tests/sim/docs_engine/compare.py --cases 500 [--subset NAME] [--seed S]
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import docs_engine  # noqa: E402
import random_cases as rc  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PICCOLO = os.path.join(ROOT, "build", "release", "bin", "piccolo")

# feature subsets, simplest first (each adds to the one before)
SUBSETS = [
    ("base", ()),                                    # one level, offload, FIFO, no radix
    ("device_radix", ("device_radix",)),
    ("compute", ("device_radix", "compute")),
    ("rendezvous", ("device_radix", "compute", "rendezvous")),
    ("cpu", ("device_radix", "compute", "rendezvous", "cpu")),
    ("levels+radix", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix")),
    ("tables+odd", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix", "tables",
                    "odd_times")),
    ("mixed_overhead", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix",
                        "mixed_overhead")),
    ("fair", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix", "fair")),
    ("fair+capacity", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix", "fair",
                       "capacity")),
    # cohorts: neighbouring tasks with the same dependencies (sim/engine/README.md "Performance")
    ("joined_runs", ("device_radix", "compute", "rendezvous", "cpu", "levels", "radix", "joined")),
]


def piccolo_finish(xml_path, yaml_path):
    r = subprocess.run([PICCOLO, "sim", xml_path, "-m", yaml_path, "--json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "error: " + (r.stderr.strip() or r.stdout.strip())[:300]
    d = json.loads(r.stdout)
    return [int(round(x * docs_engine.FS)) for x in d["rank_finish_s"]]


def docs_finish(xml_path, machine):
    try:
        return docs_engine.simulate(xml_path, copy.deepcopy(machine))
    except NotImplementedError as e:
        return "not implemented: %s" % e


def run_case(sched, mach, tmp, shuffle_seed=None):
    xml = os.path.join(tmp, "s.xml")
    yml = os.path.join(tmp, "m.yaml")
    with open(xml, "w") as f:
        f.write(rc.schedule_to_xml(sched, random.Random(shuffle_seed) if shuffle_seed is not None else None))
    with open(yml, "w") as f:
        f.write(rc.machine_to_yaml(mach))
    a = piccolo_finish(xml, yml)
    b = docs_finish(xml, docs_engine.load_yaml(yml))
    return trim(a, sched["nodes"]), b


def trim(a, p):
    """piccolo reports one finish per device of the nodes it uses (nodes x ppn), not per rank of
    the file: the extra ranks have no tasks and must finish at 0"""
    if isinstance(a, list) and len(a) > p:
        if any(a[p:]):
            return a + ["extra ranks nonzero"]
        return a[:p]
    return a


TOL_FS = 3  # sim/engine/README.md: flows' times "may differ ... by a few femtoseconds"


def disagree(a, b):
    return a != b


# Flows' times are computed in floating point (sim/engine/README.md, "Fair sharing"): two engines that
# add the same shares in another order differ by rounding, a few fs, or about 1e-13 of the time.
TOL_REL = 1e-13


def within_tol(a, b):
    return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
        all(abs(x - y) <= max(TOL_FS, TOL_REL * max(abs(x), abs(y))) for x, y in zip(a, b))


def drop_task(sched, tid):
    s = copy.deepcopy(sched)
    s["tasks"] = [t for t in s["tasks"] if t["id"] != tid]
    for t in s["tasks"]:
        t["deps"] = [d for d in t["deps"] if d != tid]
        t["sent_deps"] = [d for d in t["sent_deps"] if d != tid]
    return s


def shrink(sched, mach, tmp):
    """remove tasks, dependencies, levels and knobs while the two engines still disagree"""
    def bad(s, m):
        if not s["tasks"]:
            return False
        a, b = run_case(s, m, tmp)
        return isinstance(a, list) and disagree(a, b) and not within_tol(a, b)

    changed = True
    while changed:
        changed = False
        for t in list(sched["tasks"]):
            s2 = drop_task(sched, t["id"])
            if bad(s2, mach):
                sched, changed = s2, True
        for t in sched["tasks"]:
            for key in ("deps", "sent_deps"):
                for d in list(t[key]):
                    s2 = copy.deepcopy(sched)
                    t2 = next(x for x in s2["tasks"] if x["id"] == t["id"])
                    t2[key].remove(d)
                    if bad(s2, mach):
                        sched, changed = s2, True
                        break
        # machine knobs
        for k in ("device_radix", "compute"):
            if k in mach:
                m2 = copy.deepcopy(mach)
                del m2[k]
                if bad(sched, m2):
                    mach, changed = m2, True
        if mach.get("sharing") == "fair":
            pass
        for li, lv in enumerate(mach["levels"]):
            for k in ("radix", "rendezvous", "capacity"):
                if k in lv:
                    m2 = copy.deepcopy(mach)
                    del m2["levels"][li][k]
                    if bad(sched, m2):
                        mach, changed = m2, True
        if len(mach["levels"]) == 3:
            m2 = copy.deepcopy(mach)
            del m2["levels"][1]
            if bad(sched, m2):
                mach, changed = m2, True
        # renumber ids 0..n-1 in order (only the order matters)
        ids = sorted(t["id"] for t in sched["tasks"])
        if ids != list(range(len(ids))):
            s2 = copy.deepcopy(sched)
            mp = {x: n for n, x in enumerate(ids)}
            for t in s2["tasks"]:
                t["id"] = mp[t["id"]]
                t["deps"] = [mp[d] for d in t["deps"]]
                t["sent_deps"] = [mp[d] for d in t["sent_deps"]]
            if bad(s2, mach):
                sched, changed = s2, True
    return sched, mach


def gen_cases(tmp):
    """piccolo gen schedules on delta and laptop-mpi"""
    out = []
    for mname in ("delta", "laptop-mpi"):
        ypath = os.path.join(ROOT, "configs", "machines", mname + ".yaml")
        mach = docs_engine.load_yaml(ypath)
        for coll in ("allgather", "allreduce"):
            for p in range(4, 9):
                algos = [("ring", None), ("rd", None), ("rm", 3), ("rm", p)]
                if p % 2 == 0:
                    algos.append(("k-ring", 2))
                for algo, k in algos:
                    for style in ("mpi", "nccl", "pipelined"):
                        for size in ("8", "4KiB", "64KiB"):
                            xml = os.path.join(tmp, "g.xml")
                            cmd = [PICCOLO, "gen", "-c", coll, "-a", algo, "-p", str(p), "-b", size,
                                   "--style", style, "-o", xml]
                            if k:
                                cmd += ["-k", str(k)]
                            if subprocess.run(cmd, capture_output=True).returncode != 0:
                                continue
                            a = trim(piccolo_finish(xml, ypath), p)
                            b = docs_finish(xml, mach)
                            out.append(("%s %s p=%d k=%s %s %s on %s" % (coll, algo, p, k, style, size, mname), a, b))
    return out


def compare_folder(folder):
    """Every schedule of `folder` with its machine: piccolo sim against the docs engine."""
    names = sorted(f[:-4] for f in os.listdir(folder) if f.endswith(".xml"))
    agree = near = 0
    bad = []
    for name in names:
        xml, yml = os.path.join(folder, name + ".xml"), os.path.join(folder, name + ".yaml")
        machine = docs_engine.load_yaml(yml)
        a = piccolo_finish(xml, yml)
        b = docs_finish(xml, machine)
        if isinstance(a, list) and isinstance(b, list):
            a = a[:len(b)] if not any(a[len(b):]) else a
        if a == b:
            agree += 1
        elif machine.get("sharing") == "fair" and within_tol(a, b):
            near += 1
        else:
            bad.append((name, a, b))
    print("%s: %d cases, %d agree exactly, %d within %d fs, %d disagree" % (
        folder, len(names), agree, near, TOL_FS, len(bad)))
    for name, a, b in bad[:8]:
        print("  %s\n    piccolo fs: %s\n    docs    fs: %s" % (name, a, b))
    return 0 if names and not bad else 1


def main():
    global PICCOLO
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200, help="random cases per feature subset")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--subset", action="append", help="only these subsets (names above)")
    ap.add_argument("--no-gen", action="store_true", help="skip the piccolo gen schedules")
    ap.add_argument("--max-shown", type=int, default=2, help="shrunk disagreements shown per subset")
    ap.add_argument("--cases-dir", help="instead of random cases: every NAME.xml with NAME.yaml "
                    "in this folder (e.g. the property tests' cases, PICCOLO_PROPERTY_CASES)")
    ap.add_argument("--piccolo", default=None, help="the piccolo binary (default: build/release/bin/piccolo)")
    ap.add_argument("--opt", action="append", default=[],
                    help="flip a GUESS of docs_engine.OPTS, e.g. --opt w_round_product=0")
    args = ap.parse_args()
    PICCOLO = args.piccolo or PICCOLO
    for kv in args.opt:
        k, v = kv.split("=", 1)
        cur = docs_engine.OPTS[k]
        docs_engine.OPTS[k] = (v not in ("0", "false", "False")) if isinstance(cur, bool) else v
    if args.cases_dir:
        return compare_folder(args.cases_dir)
    total_cases = total_agree = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, feats in SUBSETS:
            if args.subset and name not in args.subset:
                continue
            rng = random.Random("%s-%d" % (name, args.seed))
            agree = errors = near = 0
            bad = []
            for c in range(args.cases):
                p = rng.randint(2, 8)
                sched = rc.random_schedule(rng, p, rng.randint(1, 30), compute="compute" in feats,
                                           joined="joined" in feats)
                mach = rc.random_machine(rng, p, feats)
                a, b = run_case(sched, mach, tmp, shuffle_seed=c)
                if isinstance(a, str):
                    errors += 1
                    if errors <= 2:
                        print("  [%s] piccolo refused case %d: %s" % (name, c, a))
                    continue
                if a == b:
                    agree += 1
                elif "fair" in feats and within_tol(a, b):
                    near += 1
                else:
                    bad.append((c, sched, mach, a, b))
            n = args.cases - errors
            total_cases += n
            total_agree += agree + near
            print("%-16s %4d cases, %4d agree exactly, %3d within %d fs, %3d disagree%s" % (
                name, n, agree, near, TOL_FS, len(bad),
                (", %d refused by piccolo" % errors) if errors else ""))
            for c, sched, mach, a, b in bad[:args.max_shown]:
                s2, m2 = shrink(sched, mach, tmp)
                a2, b2 = run_case(s2, m2, tmp)
                print("  case %d shrunk to %d tasks:" % (c, len(s2["tasks"])))
                print("    " + rc.schedule_to_xml(s2).replace("\n", "\n    ").rstrip())
                print("    " + rc.machine_to_yaml(m2).replace("\n", "\n    ").rstrip())
                print("    piccolo fs: %s" % a2)
                print("    docs    fs: %s" % b2)
                sys.stdout.flush()
        if not args.no_gen:
            res = gen_cases(tmp)
            ok = sum(1 for _, a, b in res if a == b)
            print("piccolo gen      %4d cases, %4d agree, %3d disagree" % (len(res), ok, len(res) - ok))
            shown = 0
            for label, a, b in res:
                if a != b and shown < 8:
                    shown += 1
                    print("  %s\n    piccolo fs: %s\n    docs    fs: %s" % (label, a, b))
            total_cases += len(res)
            total_agree += ok
    print("total %d cases, %d agree (exactly, or within %d fs where flows are involved)" % (
        total_cases, total_agree, TOL_FS))
    # A disagreement, or a case piccolo refused, fails the run (ctest reads the exit status).
    return 0 if total_agree == total_cases and total_cases > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
