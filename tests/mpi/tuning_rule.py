#!/usr/bin/python3
"""Finds the rule of a tuning file that an MPI library applies to one call, and writes copies of
the file with that rule (or every other rule of the collective) replaced, so that a run can show
which rule the library obeyed.

    tuning_rule.py which  KIND FILE COLLECTIVE RANKS BYTES
    tuning_rule.py poison KIND FILE COLLECTIVE RANKS BYTES ALGORITHM OUT [--others]

KIND: mpich-json or openmpi-rules. COLLECTIVE: allgather, allreduce, bcast, reduce, reduce_scatter
(MPI_Reduce_scatter_block) or alltoall. BYTES as piccolo select: Allgather per-rank contribution,
Allreduce vector size, Bcast and Reduce buffer, Reduce_scatter recvcount x type size, Alltoall
sendcount x type size. The lookup is written from the libraries' sources, independently of
piccolo's emitters: MPICH v4.0.2 src/mpi/coll/src/csel.c (MPIR_Csel_search: siblings in file
order, the first whose condition holds), Open MPI v4.1.4 ompi/mca/coll/tuned/
coll_tuned_dynamic_rules.c (the rule with the largest size <= the call's, else the first).
"""

import json
import re
import sys
from collections import OrderedDict


# csel.c: total_msg_size is the size x comm size; avg_msg_size (Allreduce, Bcast, Reduce,
# Alltoall) the size itself, and the only size key of the others' rules.
TOTAL_ONLY = ("allgather", "reduce_scatter")


def mpich_holds(key, ranks, size_bytes, collective):
    """Whether an MPICH operator key holds for a commutative built-in op (MPI_SUM of MPI_INT) on
    one node, with separate send and receive buffers."""
    total = size_bytes * ranks if collective in TOTAL_ONLY else size_bytes
    if key.endswith("=any") or key == "comm_type=intra":
        return True
    if key == "comm_size=pow2":
        return ranks & (ranks - 1) == 0
    if key == "is_commutative=no":
        return False  # MPI_SUM
    if key == "is_sendbuf_inplace=yes":
        return False
    if key in ("is_op_built_in=yes", "is_op_built_in=no"):
        return key.endswith("yes")  # MPI_SUM
    if key == "count<pow2":  # csel.c: count < comm->coll.pof2; collectives_check sends MPI_INT
        pof2 = 1
        while pof2 * 2 <= ranks:
            pof2 *= 2
        return size_bytes // 4 < pof2
    m = re.fullmatch(r"(comm_size|comm_avg_ppn|avg_msg_size|total_msg_size)<=(\d+)", key)
    if m:
        value = {"comm_size": ranks, "comm_avg_ppn": ranks,  # one node: ppn = comm size
                 "avg_msg_size": total, "total_msg_size": total}[m.group(1)]
        return value <= int(m.group(2))
    if key == "comm_type=inter":
        return False
    sys.exit(f"tuning_rule.py: key {key!r} is not one this script evaluates")


def mpich_leaves(node, path=()):
    """Every (path, algorithm leaf) of a subtree."""
    for key, child in node.items():
        if key.startswith("algorithm="):
            yield path, node
            return
        yield from mpich_leaves(child, path + (key,))


def mpich_find(node, ranks, size_bytes, collective, path=()):
    for key, child in node.items():
        if key.startswith("algorithm="):
            return path
        if mpich_holds(key, ranks, size_bytes, collective):
            return mpich_find(child, ranks, size_bytes, collective, path + (key,))
    sys.exit("tuning_rule.py: no sibling holds (the file breaks MPICH's grammar)")


def at(node, path):
    for key in path:
        node = node[key]
    return node


def mpich(args):
    mode, _, file, collective, ranks, size_bytes = args[:6]
    with open(file, encoding="utf-8") as f:
        tree = json.load(f, object_pairs_hook=OrderedDict)
    # piccolo's reduce_scatter is MPI_Reduce_scatter_block
    name = "reduce_scatter_block" if collective == "reduce_scatter" else collective
    entry = tree[f"collective={name}"]
    path = mpich_find(entry, int(ranks), int(size_bytes), collective)
    leaf = at(entry, path)
    if mode == "which":
        name = next(iter(leaf))[len("algorithm="):]
        params = "".join(f" {p}" for p in leaf[next(iter(leaf))])
        return print(name + params)
    algorithm, out = args[6], args[7]
    targets = [p for p, _ in mpich_leaves(entry) if (p != path) == ("--others" in args)]
    for p in targets:
        node = at(entry, p)
        node.clear()
        node[f"algorithm={algorithm}"] = {}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(tree, f, indent=1)
    print(len(targets))


def openmpi_tokens(text):
    """Numbers with the line each is on; '#' comments dropped (coll_base_util.c)."""
    tokens = []
    for line_no, line in enumerate(text.split("\n")):
        for m in re.finditer(r"\d+", line.split("#", 1)[0]):
            tokens.append((int(m.group()), line_no, m.start(), m.end()))
    return tokens


def openmpi(args):
    mode, _, file, collective, ranks, size_bytes = args[:6]
    ranks, size_bytes = int(ranks), int(size_bytes)
    with open(file, encoding="utf-8") as f:
        text = f.read()
    tokens, i = openmpi_tokens(text), 1
    # COLLTYPE, ompi/mca/coll/base/coll_base_functions.h; the sizes: coll_tuned_decision_dynamic.c
    wanted = {"allgather": 0, "allreduce": 2, "alltoall": 3, "bcast": 7, "reduce": 11,
              "reduce_scatter": 13}[collective]
    times_p = collective in ("allgather", "alltoall", "reduce_scatter")
    msg = size_bytes * ranks if times_p else size_bytes
    found, algorithm_tokens = None, []
    for _ in range(tokens[0][0]):
        coll_id, n_comm = tokens[i][0], tokens[i + 1][0]
        i += 2
        comm_rules = []
        for _ in range(n_comm):
            comm_size, n_msg = tokens[i][0], tokens[i + 1][0]
            i += 2
            rules = [tokens[i + 4 * r:i + 4 * r + 4] for r in range(n_msg)]
            i += 4 * n_msg
            comm_rules.append((comm_size, rules))
        if coll_id != wanted:
            continue
        comm = comm_rules[0]
        for c in comm_rules:
            if c[0] <= ranks:
                comm = c
        rule = comm[1][0]
        for r in comm[1]:
            if r[0][0] <= msg:
                rule = r
        found = rule
        algorithm_tokens = [r[1] for _, rules in comm_rules for r in rules]
    if found is None:
        sys.exit(f"tuning_rule.py: {file} has no {collective} rules")
    if mode == "which":
        return print(found[1][0])
    algorithm, out = args[6], args[7]
    targets = [t for t in algorithm_tokens if (t != found[1]) == ("--others" in args)]
    lines = text.split("\n")
    for t in sorted(targets, key=lambda t: -t[2]):
        line = lines[t[1]]
        lines[t[1]] = line[:t[2]] + algorithm + line[t[3]:]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(len(targets))


def main():
    args = sys.argv[1:]
    if len(args) < 6 or args[0] not in ("which", "poison") or (args[0] == "poison" and len(args) < 8):
        sys.exit(__doc__.split("\n\n")[1])
    {"mpich-json": mpich, "openmpi-rules": openmpi}[args[1]](args)


if __name__ == "__main__":
    main()
