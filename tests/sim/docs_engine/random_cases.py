#!/usr/bin/env python3
"""Random valid schedules (every structural check of schedules/README.md) and random machines
(configs/README.md), as Python objects, plus writers for the XML and YAML formats.

A schedule: {"nodes": p, "tasks": [{"id", "kind", "size", "src", "dst", "deps", "sent_deps"}]}
A machine: a dict in the YAML schema.
"""
import random

COMPUTE_KINDS = ("reduce", "permute", "copy")

FEATURES = ("cpu", "radix", "levels", "device_radix", "fair", "rendezvous", "compute", "tables",
            "odd_times", "elastic_lanes", "mixed_overhead", "capacity")


def _fmt_list(ids):
    return ",".join(str(x) for x in ids) if ids else "-1"


def schedule_to_xml(s, shuffle_rng=None):
    tasks = list(s["tasks"])
    if shuffle_rng is not None:
        shuffle_rng.shuffle(tasks)
    p = s["nodes"]
    out = ['<collective name="allgather" nodes="%d" buffer_size="%d" format="piccolo-1">' % (p, 8 * p)]
    for t in tasks:
        extra = ""
        if t["sent_deps"]:
            extra = ' sent_deps="%s"' % ",".join(str(x) for x in t["sent_deps"])
        if t["kind"] == "transfer":
            out.append('  <transfer id="%d" size="%d" src="%d" dst="%d" deps="%s"%s/>' % (
                t["id"], t["size"], t["src"], t["dst"], _fmt_list(t["deps"]), extra))
        else:
            out.append('  <compute id="%d" rank="%d" size="%d" kind="%s" deps="%s"%s/>' % (
                t["id"], t["src"], t["size"], t["kind"], _fmt_list(t["deps"]), extra))
    out.append("</collective>")
    return "\n".join(out) + "\n"


def _num(x):
    return repr(float(x)) if not isinstance(x, str) else x


def machine_to_yaml(m):
    lines = ["name: %s" % m["name"]]
    for k in ("device_radix", "sharing"):
        if k in m:
            lines.append("%s: %s" % (k, m[k]))
    lines.append("levels:")
    for lv in m["levels"]:
        lines.append("  - name: %s" % lv["name"])
        for k in ("fanout", "radix", "overhead", "rendezvous", "capacity"):
            if k in lv:
                v = lv[k]
                lines.append("    %s: %s" % (k, _num(v) if k == "capacity" else v))
        if "loggp" in lv:
            lines.append("    loggp:")
            for row in lv["loggp"]:
                lines.append("      - {s: %d, L: %r, o_s: %r, o_r: %r, g: %r, G: %r}" % (
                    row["s"], row["L"], row["o_s"], row["o_r"], row["g"], row["G"]))
        else:
            for k in ("L", "o_s", "o_r", "g", "G"):
                lines.append("    %s: %r" % (k, lv[k]))
    if "compute" in m:
        lines.append("compute:")
        for k, v in m["compute"].items():
            lines.append("  %s: %r" % (k, v))
    if "placement" in m:
        lines.append("placement: %s" % m["placement"])
    return "\n".join(lines) + "\n"


def random_schedule(rng, p, ntasks, compute=False, sizes=(1, 2, 3, 5, 8, 11, 16, 64), joined=False):
    """tasks in a random topological order; ids a random increasing-or-shuffled set"""
    tasks = []
    for n in range(ntasks):
        if compute and rng.random() < 0.25:
            r = rng.randrange(p)
            t = {"kind": rng.choice(COMPUTE_KINDS), "src": r, "dst": r}
        else:
            a = rng.randrange(p)
            b = rng.randrange(p - 1)
            if b >= a:
                b += 1
            t = {"kind": "transfer", "src": a, "dst": b}
        t["size"] = rng.choice(sizes)
        deps, sent = [], []
        if n and rng.random() < 0.7:
            for _ in range(rng.choice((1, 1, 2, 3))):
                j = rng.randrange(n)
                if j not in deps:
                    deps.append(j)
        own_sends = [j for j in range(n) if tasks[j]["kind"] == "transfer" and tasks[j]["src"] == t["src"]]
        if own_sends and rng.random() < 0.4:
            j = rng.choice(own_sends)
            if j not in deps:
                sent.append(j)
        if joined and n and rng.random() < 0.5:
            # a cohort: the same dependencies as the task before (what the engine joins)
            prev = tasks[-1]
            deps = list(prev["deps"])
            sent = [j for j in prev["sent_deps"] if tasks[j]["src"] == t["src"]]
            if len(sent) != len(prev["sent_deps"]):
                sent = []
        t["deps"], t["sent_deps"] = deps, sent
        tasks.append(t)
    # ids: a random injective map, not necessarily order-preserving: the engine reads tasks in id
    # order, so a dependency may point to a later id (the verifier then searches for cycles).
    ids = rng.sample(range(3 * ntasks + 5), ntasks)
    if rng.random() < 0.5:
        ids.sort()
    for n, t in enumerate(tasks):
        t["id"] = ids[n]
    for t in tasks:
        t["deps"] = sorted(tasks[j]["id"] for j in t["deps"])
        t["sent_deps"] = sorted(tasks[j]["id"] for j in t["sent_deps"])
    return {"nodes": p, "tasks": tasks}


def _time(rng, odd):
    if odd:
        # arbitrary decimals: fractional femtoseconds, to exercise the rounding
        return rng.choice((0.0, rng.uniform(0, 4e-6)))
    return rng.choice((0, 1, 1, 2, 3, 4, 5)) * 1e-6


def _row(rng, odd):
    r = {"L": _time(rng, odd), "o_s": _time(rng, odd), "o_r": _time(rng, odd), "g": _time(rng, odd)}
    if odd:
        r["G"] = rng.uniform(0, 1e-6)
    else:
        r["G"] = rng.choice((0, 1, 1, 2, 4)) * 1e-7 if rng.random() < 0.5 else rng.choice((1, 2, 5)) * 1e-6
    return r


def random_machine(rng, p, feats):
    nlev = 1
    if "levels" in feats:
        nlev = rng.choice((1, 2, 2, 3))
    levels = []
    ppn = rng.choice((1, 2, 3, 4)) if nlev > 1 else p + rng.choice((0, 0, 1, 2))
    for l in range(nlev):
        lv = {"name": ("node", "group", "system")[l] if nlev == 3 else ("node", "system")[l]}
        if l == 0:
            lv["fanout"] = ppn
        elif l < nlev - 1:
            lv["fanout"] = rng.choice((1, 2, 3))
        if "radix" in feats and l < nlev - 1 and rng.random() < 0.7:
            lv["radix"] = rng.choice((1, 1, 2, 3))
        if "cpu" in feats:
            if "mixed_overhead" in feats:
                lv["overhead"] = rng.choice(("cpu", "offload"))
            else:
                lv["overhead"] = "cpu"
        if "rendezvous" in feats and rng.random() < 0.5:
            lv["rendezvous"] = rng.choice((2, 5, 9, 12))
        odd = "odd_times" in feats
        if "tables" in feats and rng.random() < 0.5:
            sizes = sorted(rng.sample((1, 2, 4, 8, 12, 20, 40), rng.choice((2, 3))))
            rows = []
            for s in sizes:
                r = _row(rng, odd)
                r["s"] = s
                rows.append(r)
            lv["loggp"] = rows
        else:
            lv.update(_row(rng, odd))
        if "capacity" in feats and rng.random() < 0.5:
            lv["capacity"] = rng.choice((1e6, 2e6, 5e6, 1e7))
        levels.append(lv)
    # overhead must be uniform across levels unless mixed_overhead: the first level's choice
    if "cpu" in feats and "mixed_overhead" not in feats:
        ov = rng.choice(("cpu", "offload"))
        for lv in levels:
            lv["overhead"] = ov
    m = {"name": "rnd", "levels": levels}
    if "levels" in feats and nlev > 1 and rng.random() < 0.3:
        m["placement"] = "round-robin"
    if "device_radix" in feats and rng.random() < 0.6:
        m["device_radix"] = rng.choice((1, 1, 2, 3))
    if "fair" in feats:
        m["sharing"] = rng.choice(("fifo", "fair"))
    if "capacity" not in feats or m.get("sharing") != "fair":
        for lv in levels:
            lv.pop("capacity", None)
    if "compute" in feats:
        m["compute"] = {"reduce_per_byte": rng.choice((0, 1e-7, 2e-7)),
                        "permute_latency": rng.choice((0, 1e-6, 2e-6)),
                        "permute_per_byte": rng.choice((0, 1e-7)),
                        "copy_per_byte": rng.choice((0, 1e-7, 3e-7))}
        if "odd_times" in feats:
            for k in m["compute"]:
                m["compute"][k] = rng.uniform(0, 3e-7)
    return m
