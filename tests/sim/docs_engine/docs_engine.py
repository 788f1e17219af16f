#!/usr/bin/env python3
"""An independent re-implementation of piccolo's replay engine, written only from
sim/engine/README.md, schedules/README.md and configs/README.md (never from the engine's source).

Usage: docs_engine.py SCHEDULE.xml MACHINE.yaml  -> prints JSON {"rank_finish_fs": [...], "makespan_fs": N}

Times are integer femtoseconds (sim/engine/README.md, "Time"). Where the docs leave a choice open,
the choice taken is marked GUESS in a comment (see README.md of this folder).
"""
import heapq
import json
import math
import sys
import xml.etree.ElementTree as ET

FS = 10 ** 15

# event kinds in their order at one time (sim/engine/README.md, "Events and ties")
FLOW_DATA, FLOW_END, WAKE, RECEIVED, INJECT, ARRIVE, LAND, READY = range(8)
KIND_NAMES = ["FLOW_DATA", "FLOW_END", "WAKE", "RECEIVED", "INJECT", "ARRIVE", "LAND", "READY"]

# pools of one owner, for WAKE (id = the owner rank); GUESS: order among pools of one rank =
# the order the table lists them.
P_SEND, P_RECV, P_PROC, P_SPORT, P_RPORT = range(5)

OPTS = {
    # GUESS: W = round((m-1) * G) in fs ("priced once per (level, size)") rather than (m-1)*round(G)
    "w_round_product": True,
    # GUESS: compute cost = round(size * per_byte) (+ round(latency)) rather than size*round(per_byte)
    "compute_round_product": True,
    # GUESS: cpu receive port frees g after the reception's end ("spaced by g like injections")
    "rport_gap": "end_plus_g",
    # GUESS: LAND is an event only when an ingress lane delayed the first byte
    "land_only_if_delayed": True,
    # GUESS: WAKEs of one rank at one time are served in push order, not in the table's pool order
    "wake_pool_order": False,
    # GUESS: a transfer's flow meets the capacity of the lowest common unit only ("the unit it
    # stays inside"), not of the units above it ("all")
    "capacity_scope": "lowest",
    # GUESS: bytes a flow puts on a capacity per unit of work: m / max(g, W) ("m/work"), or
    # m / W ("m/W"), or 1/G ("1/G")
    "capacity_rate": "m/work",
    # GUESS: flow predictions are rounded up ("ceil", matches) or to the nearest fs ("round")
    "flow_round": "ceil",
}


def fs(x):
    """seconds -> femtoseconds, rounded once (GUESS: to nearest, halves away from zero)"""
    return int(math.floor(x * FS + 0.5))


# ----------------------------------------------------------------------------- input
def parse_list(text):
    text = (text or "").strip()
    if text == "" or text == "-1":
        return []
    out = []
    for part in text.split(","):
        part = part.strip()
        if part == "-1" or part == "":
            continue
        if "-" in part[1:]:
            a, b = part.split("-", 1)
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def read_schedule(path):
    root = ET.parse(path).getroot()
    nodes = int(root.get("nodes"))
    tasks = {}
    for el in root:
        tid = int(el.get("id"))
        t = {"id": tid, "size": int(el.get("size")), "deps": parse_list(el.get("deps")),
             "sent_deps": parse_list(el.get("sent_deps"))}
        if el.tag == "transfer":
            t.update(kind="transfer", src=int(el.get("src")), dst=int(el.get("dst")))
        elif el.tag == "compute":
            r = int(el.get("rank"))
            t.update(kind=el.get("kind"), src=r, dst=r)
        else:
            raise ValueError("unknown element " + el.tag)
        tasks[tid] = t
    # tasks are read in id order
    order = sorted(tasks)
    return nodes, [tasks[i] for i in order]


def load_yaml(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f)


class Level:
    def __init__(self, d):
        self.name = d["name"]
        self.fanout = int(d.get("fanout", 0) or 0)
        r = d.get("radix", None)
        self.radix = None if (r is None or r == "unlimited") else int(r)
        self.overhead = d.get("overhead", "offload")
        self.rendezvous = d.get("rendezvous", None)
        c = d.get("capacity", None)
        self.capacity = None if (c is None or c == "unlimited") else float(c)
        if "loggp" in d:
            lg = d["loggp"]
            rows = lg if isinstance(lg, list) else [lg]
        else:
            rows = [{k: d[k] for k in ("L", "o_s", "o_r", "g", "G")}]
        self.rows = [(float(r.get("s", 0)), {k: float(r[k]) for k in ("L", "o_s", "o_r", "g", "G")})
                     for r in rows]
        self.cache = {}

    def params(self, m):
        """(L, o_s, o_r, g, W) in fs for a message of m bytes: table interpolated linearly, flat
        outside the rows; every parameter rounded once."""
        if m in self.cache:
            return self.cache[m]
        rows = self.rows
        if len(rows) == 1 or m <= rows[0][0]:
            p = rows[0][1]
        elif m >= rows[-1][0]:
            p = rows[-1][1]
        else:
            for i in range(len(rows) - 1):
                s0, p0 = rows[i]
                s1, p1 = rows[i + 1]
                if s0 <= m <= s1:
                    f = (m - s0) / (s1 - s0)
                    p = {k: p0[k] + (p1[k] - p0[k]) * f for k in p0}
                    break
        if OPTS["w_round_product"]:
            W = fs((m - 1) * p["G"])
        else:
            W = (m - 1) * fs(p["G"])
        res = (fs(p["L"]), fs(p["o_s"]), fs(p["o_r"]), fs(p["g"]), W)
        self.cache[m] = res
        return res


class Machine:
    def __init__(self, d):
        dr = d.get("device_radix", None)
        self.device_radix = None if (dr is None or dr == "unlimited") else int(dr)
        self.sharing = d.get("sharing", "fifo")
        self.levels = [Level(x) for x in d["levels"]]
        c = d.get("compute", {}) or {}
        self.reduce_pb = float(c.get("reduce_per_byte", 0))
        self.permute_lat = float(c.get("permute_latency", 0))
        self.permute_pb = float(c.get("permute_per_byte", 0))
        self.copy_pb = float(c.get("copy_per_byte", 0))
        self.placement = d.get("placement", "block")

    def compute_cost(self, kind, size):
        def pb(x):
            return fs(size * x) if OPTS["compute_round_product"] else size * fs(x)
        if kind == "reduce":
            return pb(self.reduce_pb)
        if kind == "permute":
            return fs(self.permute_lat) + pb(self.permute_pb)
        if kind == "copy":
            return pb(self.copy_pb)
        raise ValueError(kind)


# ----------------------------------------------------------------------------- engine
class Pool:
    """FCFS servers: free[i] is the time server i frees (None: not known yet)."""
    __slots__ = ("free", "queue")

    def __init__(self, n):
        self.free = [0] * n
        self.queue = []


class Sim:
    def __init__(self, nranks, tasks, mach):
        self.p = nranks
        self.tasks = tasks
        self.m = mach
        self.idx = {t["id"]: i for i, t in enumerate(tasks)}
        lv = mach.levels
        ppn = lv[0].fanout
        nnodes = -(-nranks // ppn)
        if mach.placement == "block":
            self.node = [r // ppn for r in range(nranks)]
        elif mach.placement == "round-robin":
            self.node = [r % nnodes for r in range(nranks)]
        else:
            self.node = list(mach.placement["list"])
        # unit of level l of a node: node // prod(fanout[1..l])
        self.div = [1]
        for l in range(1, len(lv)):
            self.div.append(self.div[-1] * (lv[l].fanout if l < len(lv) - 1 else 1))
        self.heap = []
        self.seq = 0
        self.lanes = {}
        n = len(tasks)
        self.succ_deliv = [[] for _ in range(n)]
        self.succ_sent = [[] for _ in range(n)]
        self.missing = [0] * n
        self.latest = [0] * n
        for i, t in enumerate(tasks):
            for d in t["deps"]:
                self.succ_deliv[self.idx[d]].append(i)
                self.missing[i] += 1
            for d in t["sent_deps"]:
                self.succ_sent[self.idx[d]].append(i)
                self.missing[i] += 1
        self.finish = [0] * nranks
        self.st = [dict() for _ in range(n)]
        dr = mach.device_radix
        self.pools = {}
        self.elastic = [[] for _ in range(nranks)]
        self.flows = Flows(self)

    # -- helpers
    def push(self, t, kind, tid, data=None):
        self.seq += 1
        # GUESS: WAKEs of one owner at one time (several pools) in the order they were pushed
        sub = data if (kind == WAKE and OPTS["wake_pool_order"]) else 0
        heapq.heappush(self.heap, (t, kind, tid, sub, self.seq, data))

    def level_of(self, a, b):
        na, nb = self.node[a], self.node[b]
        if na == nb:
            return 0
        for l in range(1, len(self.m.levels)):
            if l == len(self.m.levels) - 1 or na // self.div[l] == nb // self.div[l]:
                return l
        return len(self.m.levels) - 1

    def crossed_units(self, a, lvl):
        """units of levels 0..lvl-1 containing rank a whose radix is limited"""
        out = []
        n = self.node[a]
        for l in range(lvl):
            R = self.m.levels[l].radix
            if R is not None:
                out.append((l, n // self.div[l], R))
        return out

    def capacities(self, a, lvl, m):
        """capacity constraints of a transfer at level lvl from rank a"""
        out = []
        n = self.node[a]
        levels = range(lvl, lvl + 1) if OPTS["capacity_scope"] == "lowest" else range(lvl, len(self.m.levels))
        for l in levels:
            C = self.m.levels[l].capacity
            if C is not None:
                unit = 0 if l == len(self.m.levels) - 1 else n // self.div[l]
                out.append(((l, unit, "cap"), C / FS))
        return out

    def pool(self, rank, kind):
        key = (rank, kind)
        p = self.pools.get(key)
        if p is None:
            if kind in (P_SEND, P_RECV):
                p = Pool(self.m.device_radix)
            else:
                p = Pool(1)
            self.pools[key] = p
        return p

    # -- pools: request / release / wake
    def request(self, now, rank, pkind, cb):
        p = self.pool(rank, pkind)
        if not p.queue:
            for i, f in enumerate(p.free):
                if f is not None and f <= now:
                    p.free[i] = None
                    cb(now, i)
                    return
        p.queue.append(cb)
        self.schedule_wake(now, rank, pkind)

    def schedule_wake(self, now, rank, pkind):
        p = self.pool(rank, pkind)
        if not p.queue:
            return
        known = [f for f in p.free if f is not None]
        if known:
            self.push(max(now, min(known)), WAKE, rank, pkind)

    def release(self, now, rank, pkind, server, t):
        p = self.pool(rank, pkind)
        p.free[server] = t
        if p.queue:
            self.push(max(now, t), WAKE, rank, pkind)

    def on_wake(self, now, rank, pkind):
        p = self.pool(rank, pkind)
        while p.queue:
            srv = None
            for i, f in enumerate(p.free):
                if f is not None and f <= now:
                    srv = i
                    break
            if srv is None:
                break
            p.free[srv] = None
            cb = p.queue.pop(0)
            cb(now, srv)
        if p.queue:
            known = [f for f in p.free if f is not None and f > now]
            if known:
                self.push(min(known), WAKE, rank, pkind)

    # -- completions
    def completed(self, i, t, sent):
        succ = self.succ_sent[i] if sent else self.succ_deliv[i]
        for s in succ:
            self.missing[s] -= 1
            if t > self.latest[s]:
                self.latest[s] = t
            if self.missing[s] == 0:
                self.push(self.latest[s], READY, s)

    def delivered(self, i, t):
        task = self.tasks[i]
        r = task["dst"]
        if t > self.finish[r]:
            self.finish[r] = t
        self.completed(i, t, False)

    # -- the run
    def run(self):
        for i, t in enumerate(self.tasks):
            if self.missing[i] == 0:
                self.push(0, READY, i)
        while self.heap:
            now, kind, tid, _, _, data = heapq.heappop(self.heap)
            if kind == WAKE:
                self.on_wake(now, tid, data)
            elif kind == READY:
                self.on_ready(now, tid)
            elif kind == INJECT:
                self.on_inject(now, tid)
            elif kind == ARRIVE:
                self.on_arrive(now, tid)
            elif kind == LAND:
                self.on_land(now, tid)
            elif kind == RECEIVED:
                self.on_received(now, tid)
            elif kind == FLOW_DATA:
                self.on_flow_data(now, tid, data)
            elif kind == FLOW_END:
                self.on_flow_end(now, tid, data)
            else:
                raise NotImplementedError(KIND_NAMES[kind])
        return self.finish

    def on_ready(self, now, i):
        t = self.tasks[i]
        s = self.st[i]
        if t["kind"] != "transfer":
            cost = self.m.compute_cost(t["kind"], t["size"])
            def granted(tp, srv, i=i, cost=cost, rank=t["src"]):
                end = tp + cost
                self.release(tp, rank, P_PROC, srv, end)
                self.delivered(i, end)
            self.request(now, t["src"], P_PROC, granted)
            return
        a, b = t["src"], t["dst"]
        lvl = self.level_of(a, b)
        L, o_s, o_r, g, W = self.m.levels[lvl].params(t["size"])
        rdv = self.m.levels[lvl].rendezvous
        s.update(lvl=lvl, L=L, o_s=o_s, o_r=o_r, g=g, W=W,
                 rdv=(rdv is not None and t["size"] >= int(rdv)),
                 cpu=(self.m.levels[lvl].overhead == "cpu"),
                 egress=self.crossed_units(a, lvl), ingress=self.crossed_units(b, lvl),
                 cap=self.capacities(a, lvl, t["size"]))
        if s["cpu"]:
            def port_granted(tq, srv, i=i, a=a):
                self.st[i]["sport"] = srv
                def proc_granted(tp, psrv, i=i, a=a):
                    st = self.st[i]
                    self.release(tp, a, P_PROC, psrv, tp + st["o_s"])
                    st["ts"] = tp
                    self.push(tp + st["o_s"], INJECT, i)
                self.request(tq, a, P_PROC, proc_granted)
            self.request(now, a, P_SPORT, port_granted)
        elif self.m.device_radix is None:
            self.elastic_send(now, i, a)
        else:
            def slot_granted(ts, srv, i=i):
                self.st[i]["slot"] = srv
                self.send_start(ts, ts, i)
            self.request(now, a, P_SEND, slot_granted)

    def elastic_send(self, now, i, a):
        slots = self.elastic[a]
        chosen = None
        for sl in slots:
            if sl["free"] is not None and sl["free"] <= now:
                chosen = sl
                start = now
                break
        if chosen is None:
            gaps = [sl for sl in slots if sl["data_end"] is not None and sl["data_end"] <= now < sl["free"]]
            if gaps:
                chosen = min(gaps, key=lambda sl: sl["free"])
                start = chosen["free"]
        if chosen is None:
            chosen = {}
            slots.append(chosen)
            start = now
        chosen["data_end"] = None
        chosen["free"] = None
        self.st[i]["eslot"] = chosen
        self.send_start(now, start, i)

    def is_flow(self, s):
        return self.m.sharing == "fair" and bool(s["egress"] or s["ingress"] or s["cap"])

    def send_start(self, now, ts, i):
        """offload: o_s runs on the send slot from ts"""
        s = self.st[i]
        s["ts"] = ts
        if (s["egress"] and self.m.sharing == "fifo") or self.is_flow(s):
            self.push(ts + s["o_s"], INJECT, i)
        else:
            self.inject(now, i, ts + s["o_s"])

    def on_inject(self, now, i):
        self.inject(now, i, now)

    def inject(self, now, i, t_inj):
        s = self.st[i]
        W, g, L = s["W"], s["g"], s["L"]
        if self.is_flow(s):
            start = t_inj
            s["inj_start"] = start
            self.flows.start(now, i, s)
        else:
            start = t_inj
            chosen = []
            for (l, u, R) in s["egress"]:
                lanes = self.lanes.setdefault((l, u, "out"), [0] * R)
                j = min(range(R), key=lambda k: lanes[k])
                chosen.append((lanes, j))
                start = max(start, lanes[j])
            hold = max(g, W)
            for lanes, j in chosen:
                lanes[j] = start + hold
            s["inj_start"] = start
            self.data_gone(now, i, start + W)
        arrival = start + L
        need_arrive = (s["ingress"] and self.m.sharing == "fifo") or s["cpu"] or \
            (self.m.device_radix is not None)
        if need_arrive:
            self.push(arrival, ARRIVE, i)
        else:
            self.reception(now, i, arrival)

    def data_gone(self, now, i, end):
        """the injection's last byte has left at `end`, known at `now`"""
        s = self.st[i]
        g, o_s = s["g"], s["o_s"]
        a = self.tasks[i]["src"]
        s["inj_end"] = end
        if s["cpu"]:
            self.release(now, a, P_SPORT, s["sport"], max(now, end + g - o_s))
        elif "eslot" in s:
            sl = s["eslot"]
            sl["data_end"] = end
            sl["free"] = end + max(0, g - o_s)
        else:
            self.release(now, a, P_SEND, s["slot"], end + max(0, g - o_s))
        if not s["rdv"]:
            self.completed(i, end, True)
        if "recv_start" in s and "recv_end" not in s:
            self.reception_end(now, i)

    def on_flow_data(self, now, i, ver):
        if self.flows.data_event(now, i, ver):
            self.data_gone(now, i, now)

    def on_flow_end(self, now, i, ver):
        self.flows.end_event(now, i, ver)

    def on_arrive(self, now, i):
        s = self.st[i]
        if s["ingress"] and self.m.sharing == "fifo":
            start = now
            chosen = []
            for (l, u, R) in s["ingress"]:
                lanes = self.lanes.setdefault((l, u, "in"), [0] * R)
                j = min(range(R), key=lambda k: lanes[k])
                chosen.append((lanes, j))
                start = max(start, lanes[j])
            for lanes, j in chosen:
                lanes[j] = start + max(s["g"], s["W"])
            if start > now or not OPTS["land_only_if_delayed"]:
                self.push(start, LAND, i)
                return
        self.ask_receive(now, i)

    def on_land(self, now, i):
        self.ask_receive(now, i)

    def ask_receive(self, now, i):
        s = self.st[i]
        b = self.tasks[i]["dst"]
        if s["cpu"]:
            def granted(r, srv, i=i):
                self.st[i]["rport"] = srv
                self.reception(r, i, r)
            self.request(now, b, P_RPORT, granted)
        elif self.m.device_radix is not None:
            def granted(r, srv, i=i):
                self.st[i]["rslot"] = srv
                self.reception(r, i, r)
            self.request(now, b, P_RECV, granted)
        else:
            self.reception(now, i, now)

    def reception(self, now, i, r):
        s = self.st[i]
        s["recv_start"] = r
        if "inj_end" in s:
            self.reception_end(now, i)
        # else: a reception under way; FLOW_DATA ends it

    def reception_end(self, now, i):
        s = self.st[i]
        b = self.tasks[i]["dst"]
        r = s["recv_start"]
        end = max(r + s["W"], s["inj_end"] + s["L"])
        s["recv_end"] = end
        if s["rdv"]:
            self.completed(i, end, True)
        if s["cpu"]:
            gap = OPTS["rport_gap"]
            if gap == "end_plus_g":
                rel = end + s["g"]
            elif gap == "end_plus_g_minus_or":
                rel = max(now, end + s["g"] - s["o_r"])
            else:  # "end"
                rel = end
            self.release(now, b, P_RPORT, s["rport"], rel)
            self.push(end, RECEIVED, i)
        else:
            d = end + s["o_r"]
            if "rslot" in s:
                self.release(now, b, P_RECV, s["rslot"], d)
            self.delivered(i, d)

    def on_received(self, now, i):
        b = self.tasks[i]["dst"]
        def granted(tp, srv, i=i, b=b):
            d = tp + self.st[i]["o_r"]
            self.release(tp, b, P_PROC, srv, d)
            self.delivered(i, d)
        self.request(now, b, P_PROC, granted)


class Flows:
    """fair sharing: progressive filling over the constraints the flows touch"""

    def __init__(self, sim):
        self.sim = sim
        self.active = {}      # task index -> flow dict
        self.by_con = {}      # constraint key -> set of task indices
        self.caps = {}        # constraint key -> capacity (flows at full speed, or bytes per fs)

    def start(self, now, i, s):
        work = max(s["g"], s["W"])
        m = self.sim.tasks[i]["size"]
        cons = []
        for (l, u, R) in s["egress"]:
            cons.append(((l, u, "out"), float(R), None))
        for (l, u, R) in s["ingress"]:
            cons.append(((l, u, "in"), float(R), None))
        for key, C in s["cap"]:
            rate = OPTS["capacity_rate"]
            if rate == "m/work":
                w = (m / work) if work > 0 else float("inf")
            elif rate == "m/W":
                w = (m / s["W"]) if s["W"] > 0 else float("inf")
            else:
                G = s["W"] / (m - 1) if m > 1 else 0.0
                w = (1.0 / G) if G > 0 else float("inf")
            cons.append((key, C, w))
        f = {"i": i, "work": work, "tail": work - s["W"], "rem": float(work), "rate": 0.0,
             "last": now, "cons": cons, "ver": 0, "data": False}
        self.active[i] = f
        for key, cap, w in cons:
            self.by_con.setdefault(key, set()).add(i)
            self.caps[key] = cap
        self.refill(now, self.component([i]))

    def component(self, seeds):
        seen = set()
        stack = [x for x in seeds if x in self.active]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            for key, _, _ in self.active[x]["cons"]:
                for y in self.by_con.get(key, ()):
                    if y not in seen:
                        stack.append(y)
        return seen

    def refill(self, now, comp):
        flows = [self.active[x] for x in comp]
        for f in flows:
            f["rem"] -= f["rate"] * (now - f["last"])
            if f["rem"] < 0:
                f["rem"] = 0.0
            f["last"] = now
        # progressive filling
        frozen = {}
        unfrozen = set(f["i"] for f in flows)
        level = 0.0
        while unfrozen:
            # the level at which the next constraint saturates (or 1 = full speed)
            best = 1.0
            used = {}
            for f in flows:
                x = frozen.get(f["i"])
                for key, cap, w in f["cons"]:
                    ww = 1.0 if w is None else w
                    u = used.setdefault(key, [0.0, 0.0])
                    if x is not None:
                        u[0] += ww * x
                    else:
                        u[1] += ww
            sat = set()
            for key, (fixed, slope) in used.items():
                if slope <= 0:
                    continue
                cap = self.caps[key]
                lam = (cap - fixed) / slope
                if lam < best - 1e-15:
                    best = lam
                    sat = {key}
                elif abs(lam - best) <= 1e-15:
                    sat.add(key)
            level = max(best, 0.0)
            if level >= 1.0 and not sat:
                for x in unfrozen:
                    frozen[x] = 1.0
                break
            newly = set()
            for f in flows:
                if f["i"] in unfrozen and any(key in sat for key, _, _ in f["cons"]):
                    newly.add(f["i"])
            if not newly:
                for x in unfrozen:
                    frozen[x] = min(level, 1.0)
                break
            for x in newly:
                frozen[x] = level
            unfrozen -= newly
        for f in flows:
            f["rate"] = frozen[f["i"]]
            f["ver"] += 1
            self.predict(now, f)

    def _at(self, now, work, rate):
        if work <= 0:
            return now
        if rate <= 0:
            return None
        dt = work / rate
        if OPTS["flow_round"] == "ceil":
            return now + int(math.ceil(dt))
        return now + int(math.floor(dt + 0.5))

    def predict(self, now, f):
        if not f["data"]:
            t = self._at(now, f["rem"] - f["tail"], f["rate"])
            if t is not None:
                self.sim.push(t, FLOW_DATA, f["i"], f["ver"])
        t = self._at(now, f["rem"], f["rate"])
        if t is not None:
            self.sim.push(t, FLOW_END, f["i"], f["ver"])

    def data_event(self, now, i, ver):
        f = self.active.get(i)
        if f is None or f["ver"] != ver or f["data"]:
            return False
        f["data"] = True
        return True

    def end_event(self, now, i, ver):
        f = self.active.get(i)
        if f is None or f["ver"] != ver:
            return
        if not f["data"]:
            f["data"] = True
            self.sim.data_gone(now, i, now)
        del self.active[i]
        neigh = set()
        for key, _, _ in f["cons"]:
            st = self.by_con[key]
            st.discard(i)
            neigh |= st
        if neigh:
            self.refill(now, self.component(neigh))


def simulate(sched_path, machine):
    nranks, tasks = read_schedule(sched_path)
    if isinstance(machine, str):
        machine = load_yaml(machine)
    sim = Sim(nranks, tasks, Machine(machine))
    fin = sim.run()
    return fin


def main():
    fin = simulate(sys.argv[1], sys.argv[2])
    print(json.dumps({"rank_finish_fs": fin, "makespan_fs": max(fin)}))


if __name__ == "__main__":
    main()
