#!/usr/bin/env python3
"""Speedup of the tuned library over its default, per collective and size, with a 95 % CI.

    speedup.py DIR ROUNDS

Reads DIR/default.R.csv and DIR/tuned.R.csv for R = 1..ROUNDS (piccolo-run-mpi --csv rows of
the library's collectives), DIR/rules.txt (Open MPI) or DIR/rules.json (MPICH), what the file
names per call, and DIR/select.csv
(piccolo's best, if there). Round R gives one ratio
x_R = default median / tuned median (the two jobs of a round run back to back, so a slow spell of
the machine that hits both cancels). The speedup is the median of the ratios and its interval the
distribution-free one for a median: the order statistics x_(j) and x_(n+1-j) with the largest j
for which P(Binomial(n, 1/2) < j) <= 2.5 %, which covers the median with probability >= 95 %
whatever the ratios' distribution; one round that a stall of the host spoiled moves neither the
speedup nor more than one end of the interval. 6 rounds are the fewest for which such a j exists
(j = 1, 96.9 %). A size is "slower" when the whole interval lies below 1. Writes
DIR/speedup.csv and DIR/speedup.md and prints the table.
"""
import csv
import math
import os
import statistics
import sys

def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def medians(path):
    return {(r["collective"], int(r["bytes"])): float(r["median_s"]) for r in rows(path)}


def choices(path):
    out = {}
    for r in rows(path):
        if r["best"] == "1":
            k = f" k={r['k']}" if r["k"] else ""
            out[(r["collective"], int(r["size_bytes"]))] = r["algorithm"] + k
    return out


OMPI_NAMES = {0: "Open MPI's own", 3: "recursive_doubling", 4: "ring"}


def file_names(path, collective, ranks, size):
    """The algorithm the coll_tuned rules file names for a call (coll_tuned_dynamic_rules.c:
    the last communicator rule at or below p, then the last message rule at or below the size,
    Allgather's size being the per-rank bytes x p)."""
    numbers = [int(n) for line in open(path) for n in line.split("#", 1)[0].split()]
    i = 1
    for _ in range(numbers[0]):
        coll_id, n_comm = numbers[i], numbers[i + 1]
        i += 2
        chosen = None
        for _ in range(n_comm):
            comm_size, n_msg = numbers[i], numbers[i + 1]
            rules = [numbers[i + 2 + 4 * r:i + 6 + 4 * r] for r in range(n_msg)]
            i += 2 + 4 * n_msg
            if comm_size <= ranks:
                chosen = rules
        if coll_id == {"allgather": 0, "allreduce": 2}[collective] and chosen:
            msg = size * ranks if collective == "allgather" else size
            algorithm = [r[1] for r in chosen if r[0] <= msg][-1]
            return OMPI_NAMES.get(algorithm, str(algorithm))
    return "Open MPI's own"  # no rule for the collective: its own decision


def mpich_names(path, collective, ranks, size):
    """The algorithm an MPICH selection JSON file names for a call (MPICH 4.0
    src/mpi/coll/src/csel.c: at each level the first key, in file order, whose condition holds;
    Allgather's total_msg_size is the per-rank bytes x p, Allreduce's avg_msg_size the vector,
    its count in doubles, as piccolo-run-mpi calls it; a built-in commutative operation)."""
    import json
    pof2 = 1 << (ranks.bit_length() - 1)
    facts = {"comm_type": "intra", "is_commutative": "yes", "is_op_built_in": "yes",
             "comm_size": ranks,
             "total_msg_size": size * ranks if collective == "allgather" else size,
             "avg_msg_size": size,
             "count": size if collective == "allgather" else size // 8}  # bytes; doubles

    def holds(key):
        for op in ("<=", "<", "="):
            if op in key:
                name, value = key.split(op, 1)
                break
        else:
            return False
        have = facts.get(name)
        if have is None or value == "any":
            return have is not None or value == "any"
        if name == "comm_size" and value == "pow2":
            return ranks & (ranks - 1) == 0
        if name == "count" and value == "pow2":  # count<pow2: below the largest 2^n <= ranks
            return have < pof2
        if isinstance(have, str):
            return op == "=" and have == value
        number = int(value)
        return have <= number if op == "<=" else have < number if op == "<" else have == number

    node = json.load(open(path)).get(f"collective={collective}")
    while isinstance(node, dict) and node:
        algorithm = next((k for k in node if k.startswith("algorithm=")), None)
        if algorithm:
            return algorithm.split("=", 1)[1].replace(f"MPIR_{collective.capitalize()}_intra_", "")
        node = next((node[k] for k in node if holds(k)), None)
    return "MPICH's own"  # no rule for the call: the library's built-in selection


def ranks_of(path):
    for line in open(path):
        if line.startswith("# ranks:"):
            return int(line.split(":")[1])
    sys.exit(f"speedup.py: {path} names no '# ranks:'")


def interval(ratios):
    n, x = len(ratios), sorted(ratios)
    j, below = 0, 0.0  # below = P(Binomial(n, 1/2) < j + 1)
    while True:
        below += math.comb(n, j) / 2**n
        if below > 0.025:
            break
        j += 1
    return statistics.median(x), x[j - 1], x[n - j]


def names(folder, collective, ranks, size):
    if os.path.exists(f"{folder}/rules.json"):
        return mpich_names(f"{folder}/rules.json", collective, ranks, size)
    return file_names(f"{folder}/rules.txt", collective, ranks, size)


def main(folder, rounds):
    default = [medians(f"{folder}/default.{r}.csv") for r in range(1, rounds + 1)]
    tuned = [medians(f"{folder}/tuned.{r}.csv") for r in range(1, rounds + 1)]
    chosen = choices(f"{folder}/select.csv") if os.path.exists(f"{folder}/select.csv") else {}
    ranks = ranks_of(f"{folder}/default.1.csv")
    table = []
    for key in sorted(default[0], key=lambda k: (k[0], k[1])):
        ratios = [d[key] / t[key] for d, t in zip(default, tuned)]
        speedup, low, high = interval(ratios)
        table.append({"collective": key[0], "bytes": key[1], "piccolo_best": chosen.get(key, "-"),
                      "file_names": names(folder, key[0], ranks, key[1]),
                      "default_s": statistics.median(d[key] for d in default),
                      "tuned_s": statistics.median(t[key] for t in tuned),
                      "speedup": speedup, "ci_low": low, "ci_high": high,
                      "verdict": "slower" if high < 1 else "faster" if low > 1 else "same"})
    with open(f"{folder}/speedup.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    lines = [f"| collective | bytes | piccolo's best | the file names | default (us) | tuned (us) | speedup: median "
             f"of {rounds} rounds (95 % interval) | |", "|---|---:|---|---|---:|---:|---|---|"]
    for t in table:
        lines.append(f"| {t['collective']} | {t['bytes']} | {t['piccolo_best']} | {t['file_names']} | "
                     f"{t['default_s'] * 1e6:.2f} | {t['tuned_s'] * 1e6:.2f} | {t['speedup']:.3f} "
                     f"({t['ci_low']:.3f}-{t['ci_high']:.3f}) | {t['verdict']} |")
    slower = sum(t["verdict"] == "slower" for t in table)
    faster = sum(t["verdict"] == "faster" for t in table)
    lines.append(f"\n{faster} of {len(table)} sizes faster with piccolo's file, {slower} slower "
                 "(the whole interval on one side of 1), the rest within their interval.")
    with open(f"{folder}/speedup.md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 6:
        sys.exit("usage: speedup.py DIR ROUNDS (ROUNDS >= 6: fewer give no 95 % interval)")
    main(sys.argv[1], int(sys.argv[2]))
