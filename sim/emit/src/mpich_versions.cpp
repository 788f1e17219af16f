// Facts about MPICH releases, read from pmodels/mpich at the tag named per fact:
//  - JSON algorithm names: src/mpi/coll/src/csel_container.c (the "algorithm=..." strings it
//    compares) and their parameters (the "k=" keys it parses for that algorithm);
//  - restrictions: src/mpi/coll/coll_algorithms.txt ("restrictions: power-of-two",
//    "restrictions: commutative"). MPICH checks them only for algorithms forced with a CVAR
//    (maint/gen_coll.py, dump_fallback()); a tuning file's choice is run as it is, so the
//    emitter must never name an algorithm where it cannot run (v4.0.2's recursive doubling
//    Allgather asserts on a size that is not a power of 2:
//    src/mpi/coll/allgather/allgather_intra_recursive_doubling.c, line 45);
//  - operator keys of the reader: src/mpi/coll/src/csel.c, parse_json_tree(). Every series
//    reads the keys piccolo writes (comm_size<=, comm_size=any, comm_avg_ppn<=, avg_msg_size<=,
//    avg_msg_size=any, total_msg_size<=, total_msg_size=any, comm_size=pow2, is_commutative=no,
//    is_sendbuf_inplace=yes); 4.0 and 4.1 spell "=any" per operator and have no
//    comm_avg_ppn=any, so the emitter never writes it.
//
// Mapping of piccolo's algorithms (schedules/README.md):
//   ring: the ring, p-1 steps (Allreduce: reduce-scatter ring + allgather ring).
//   rd:   recursive doubling.
//   rm k: k-1 partners k^(r-1) apart in round r, ranks beyond the core folded in: MPICH's
//         "recursive exchange" with distance doubling (Allgather recexch_doubling, Allreduce
//         recexch) and, from 4.3, Allreduce recursive_multiplying.
//   prm k, prd: partners far first: MPICH's Allgather recexch_halving (prd = k 2).
//   bruck k: MPICH's Allgather k_brucks (from 4.1, "k="); k 2 also MPICH's brucks, the radix-2
//         original (src/mpi/coll/allgather/allgather_intra_brucks.c: MPIC_Sendrecv of pof2
//         blocks to rank - pof2 while pof2 <= p/2, then the remaining p - pof2), the only Bruck
//         a 4.0 tuning file can name.
//   k-ring: no MPICH equivalent in any series.
// Bcast, Reduce (root 0; MPICH's rules do not look at the root), Reduce_scatter (piccolo's size is
// recvcount x type size of MPI_Reduce_scatter_block) and Alltoall (sendcount x type size), the
// names in csel_container.c at each tag:
//   binomial: MPIR_Bcast_intra_binomial, MPIR_Reduce_intra_binomial (every series).
//   knomial k: MPICH's k-nomial tree whose children set the digits below a rank's lowest nonzero
//         base-k digit, highest digit first (src/mpi/coll/algorithms/treealgo/treeutil.c,
//         MPII_Treeutil_tree_knomial_2_init; tree type MPIR_TREE_TYPE_KNOMIAL_2 = 2 in
//         src/mpi/coll/include/coll_types.h), the tree schedules/src/bcast_knomial.cpp builds:
//         MPIR_Bcast_intra_tree with "tree_type=" and "k=" from 4.1. 4.1.2 and 4.2.3 read the tree
//         type with atoi() ("tree_type=2"); 4.3.2 with get_tree_type_from_string()
//         (src/mpi/coll/src/coll_impl.c: "kary", "knomial_1", "knomial_2", anything else kary), so
//         4.3 needs "tree_type=knomial_2". knomial k = 2 is also the binomial tree, the only one
//         4.0 names. The blocking Reduce has no k-nomial tree in any series: knomial k = 2 only.
//   scatter-rd, scatter-ring: MPIR_Bcast_intra_scatter_recursive_doubling_allgather and
//         MPIR_Bcast_intra_scatter_ring_allgather (every series; src/mpi/coll/bcast/, the
//         schedules schedules/src/bcast_scatter_rd.cpp and bcast_scatter_ring.cpp follow).
//         coll_algorithms.txt restricts neither (only the nonblocking Ibcast's recursive
//         doubling is "restrictions: power-of-two"): at p not a power of 2 the blocking one runs
//         its recursive-halving branch, which schedules/src/bcast_scatter_rd.cpp follows; MPICH's
//         own generic.json names it only for powers of 2 and 12 KiB..512 KiB.
//   rabenseifner (Reduce): MPIR_Reduce_intra_reduce_scatter_gather, in every series (the
//         schedule schedules/src/reduce_rabenseifner.cpp follows; unchanged from v4.0.2 to
//         v4.3.2). coll_algorithms.txt: "restrictions: size-ge-pof2, builtin-op", and it asserts
//         both (reduce_intra_reduce_scatter_gather.c: MPIR_Assert(HANDLE_IS_BUILTIN(op)),
//         MPIR_Assert(count >= pof2), line 88 at v4.0.2), so its leaf sits under
//         "is_op_built_in=yes" and, after "count<pow2" (csel.c: count < comm->coll.pof2), under
//         "count=any", binomial on the other branches: MPICH's own generic.json guards it so.
//   recexch k (Reduce_scatter): MPICH has it only as the nonblocking
//         MPIR_Ireduce_scatter_block_intra_tsp_recexch. csel_container.c names it at every tag,
//         but parse_container_params() reads no parameter for it, and the generated
//         MPIR_Ireduce_scatter_block_allcomm_sched_auto passes
//         cnt->u.ireduce_scatter_block.intra_tsp_recexch.k (maint/gen_coll.py,
//         get_algo_extra_args()), a field of a container allocated uninitialised
//         (MPII_Create_container: MPL_malloc). The blocking MPI_Reduce_scatter_block reaches it
//         only through "algorithm=MPIR_Reduce_scatter_block_allcomm_nb" (which the blocking
//         reader accepts: it calls MPIR_Ireduce_scatter_block and waits) and then the
//         ireduce_scatter_block rules or MPIR_CVAR_IREDUCE_SCATTER_BLOCK_INTRA_ALGORITHM=
//         tsp_recexch with MPIR_CVAR_IREDUCE_SCATTER_BLOCK_RECEXCH_KVAL, one k for the whole
//         job: no tuning file can set k per size, so no rule names it. With k = 2 it is
//         recursive halving's schedule, MPIR_Reduce_scatter_block_intra_recursive_halving.
//   pairwise (Reduce_scatter): MPIR_Reduce_scatter_block_intra_pairwise; rh:
//         MPIR_Reduce_scatter_block_intra_recursive_halving; both "restrictions: commutative"
//         (coll_algorithms.txt; both assert it at v4.0.2: reduce_scatter_block_intra_pairwise.c
//         line 49, reduce_scatter_block_intra_recursive_halving.c line 65), so their rules sit
//         below an "is_commutative=no" branch. ring and k-ring have no MPICH equivalent.
//   pairwise, scattered (Alltoall): MPIR_Alltoall_intra_pairwise, _scattered (both
//         "restrictions: noinplace": they assert sendbuf != MPI_IN_PLACE, alltoall_intra_
//         pairwise.c line 43 and alltoall_intra_scattered.c line 50 at v4.0.2); bruck k:
//         MPIR_Alltoall_intra_k_brucks with "k=" from 4.1 (the algorithm
//         schedules/src/bruck_alltoall.cpp follows), k = 2 also MPIR_Alltoall_intra_brucks, the
//         radix-2 original and the only Bruck 4.0 names.
#include "mpich_versions.hpp"

#include <fmt/format.h>
#include <array>

#include "mpich_defaults.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"

namespace piccolo::mpich {

namespace {

// v4.0.2: csel_container.c names MPIR_Allgather_intra_{brucks, recursive_doubling, ring} and
// MPIR_Allreduce_intra_{recursive_doubling, reduce_scatter_allgather, smp}; none takes k.
constexpr std::array<Algorithm, 3> allgather_4_0{{
    {"ring", "MPIR_Allgather_intra_ring"},
    {"rd", "MPIR_Allgather_intra_recursive_doubling", false, 0, true},
    {"bruck", "MPIR_Allgather_intra_brucks", false, 0, false, false, 2},
}};
constexpr std::array<Algorithm, 1> allreduce_4_0{{
    {"rd", "MPIR_Allreduce_intra_recursive_doubling"},
}};

// v4.1.2: csel_container.c adds MPIR_Allgather_intra_k_brucks with "k=" (coll_algorithms.txt:
// k_brucks, extra_params: k; src/mpi/coll/allgather/allgather_intra_k_brucks.c, the algorithm
// piccolo's bruck follows, unchanged in its schedule up to v4.3.2).
constexpr std::array<Algorithm, 3> allgather_4_1{{
    {"ring", "MPIR_Allgather_intra_ring"},
    {"rd", "MPIR_Allgather_intra_recursive_doubling", false, 0, true},
    {"bruck", "MPIR_Allgather_intra_k_brucks", true},
}};

// v4.1.2: Allreduce adds MPIR_Allreduce_intra_ring (coll_algorithms.txt: commutative) and
// MPIR_Allreduce_intra_recexch with "k=" (src/mpi/coll/allreduce/allreduce_intra_recexch.c:
// full-vector exchange with k-1 partners per phase, distance k^phase, extra ranks folded in).
constexpr std::array<Algorithm, 3> allreduce_4_1{{
    {"ring", "MPIR_Allreduce_intra_ring", false, 0, false, true},
    {"rd", "MPIR_Allreduce_intra_recursive_doubling"},
    {"rm", "MPIR_Allreduce_intra_recexch", true},
}};

// v4.2.3: Allgather adds MPIR_Allgather_intra_recexch_doubling and _recexch_halving, both with
// "k=" (csel_container.c; src/mpi/coll/allgather/allgather_intra_recexch.c).
constexpr std::array<Algorithm, 6> allgather_4_2{{
    {"ring", "MPIR_Allgather_intra_ring"},
    {"rd", "MPIR_Allgather_intra_recursive_doubling", false, 0, true},
    {"rm", "MPIR_Allgather_intra_recexch_doubling", true},
    {"prm", "MPIR_Allgather_intra_recexch_halving", true},
    {"prd", "MPIR_Allgather_intra_recexch_halving", false, 2},
    {"bruck", "MPIR_Allgather_intra_k_brucks", true},
}};

// v4.3.2: Allreduce adds MPIR_Allreduce_intra_recursive_multiplying with "k="
// (src/mpi/coll/allreduce/allreduce_intra_recursive_multiplying.c; coll_algorithms.txt:
// commutative), the algorithm piccolo's rm models.
constexpr std::array<Algorithm, 3> allreduce_4_3{{
    {"ring", "MPIR_Allreduce_intra_ring", false, 0, false, true},
    {"rd", "MPIR_Allreduce_intra_recursive_doubling"},
    {"rm", "MPIR_Allreduce_intra_recursive_multiplying", true, 0, false, true},
}};

// Bcast, v4.0.2: binomial (the k-nomial tree with k = 2) and the two scatter-allgathers
// (csel_container.c, lines 236-241).
constexpr std::array<Algorithm, 4> bcast_4_0{{
    {"binomial", "MPIR_Bcast_intra_binomial"},
    {"knomial", "MPIR_Bcast_intra_binomial", false, 0, false, false, 2},
    {"scatter-rd", "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"},
    {"scatter-ring", "MPIR_Bcast_intra_scatter_ring_allgather"},
}};
// v4.1.2: MPIR_Bcast_intra_tree, tree type read with atoi(). Its reader stores
// "is_non_blocking=N" into k (csel_container.c, line 53), so the file cannot set it: the tree
// sends as the uninitialised field says (MPII_Create_container allocates with MPL_malloc). The
// scatter-allgathers: lines 381-384.
constexpr std::array<Algorithm, 4> bcast_4_1{{
    {"binomial", "MPIR_Bcast_intra_binomial"},
    {"knomial", "MPIR_Bcast_intra_tree", true, 0, false, false, 0, "tree_type=2"},
    {"scatter-rd", "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"},
    {"scatter-ring", "MPIR_Bcast_intra_scatter_ring_allgather"},
}};
// v4.2.3: is_non_blocking is read (csel_container.c, line 53): 0, blocking MPIC_Send to one child
// after the other (the mpi and nccl styles), or 1, MPIC_Isend to every child (pipelined). The
// scatter-allgathers: lines 415-418.
constexpr std::array<Algorithm, 4> bcast_4_2{{
    {"binomial", "MPIR_Bcast_intra_binomial"},
    {"knomial", "MPIR_Bcast_intra_tree", true, 0, false, false, 0, "tree_type=2", true},
    {"scatter-rd", "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"},
    {"scatter-ring", "MPIR_Bcast_intra_scatter_ring_allgather"},
}};
// v4.3.2: the tree type by name; the scatter-allgathers: lines 464-467.
constexpr std::array<Algorithm, 4> bcast_4_3{{
    {"binomial", "MPIR_Bcast_intra_binomial"},
    {"knomial", "MPIR_Bcast_intra_tree", true, 0, false, false, 0, "tree_type=knomial_2", true},
    {"scatter-rd", "MPIR_Bcast_intra_scatter_recursive_doubling_allgather"},
    {"scatter-ring", "MPIR_Bcast_intra_scatter_ring_allgather"},
}};
// Reduce, every series: binomial (the blocking Reduce has no k-nomial tree) and
// reduce_scatter_gather (Rabenseifner's; count >= pof2 and built-in operations only).
constexpr std::array<Algorithm, 3> reduce_all{{
    {"binomial", "MPIR_Reduce_intra_binomial"},
    {"knomial", "MPIR_Reduce_intra_binomial", false, 0, false, false, 2},
    {"rabenseifner", "MPIR_Reduce_intra_reduce_scatter_gather", false, 0, false, false, 0, {},
     false, "MPIR_Reduce_intra_binomial"},
}};
// Reduce_scatter_block, every series: pairwise and recursive halving, commutative only; recexch
// with k = 2 is recursive halving's schedule (schedules/src/recexch.cpp), other k have no
// blocking counterpart.
constexpr std::array<Algorithm, 3> reduce_scatter_all{{
    {"pairwise", "MPIR_Reduce_scatter_block_intra_pairwise", false, 0, false, true},
    {"rh", "MPIR_Reduce_scatter_block_intra_recursive_halving", false, 0, false, true},
    {"recexch", "MPIR_Reduce_scatter_block_intra_recursive_halving", false, 0, false, true, 2},
}};
// Alltoall, v4.0.2: Bruck radix 2 only; v4.1.2 on: k_brucks with "k=".
constexpr std::array<Algorithm, 3> alltoall_4_0{{
    {"pairwise", "MPIR_Alltoall_intra_pairwise"},
    {"scattered", "MPIR_Alltoall_intra_scattered"},
    {"bruck", "MPIR_Alltoall_intra_brucks", false, 0, false, false, 2},
}};
constexpr std::array<Algorithm, 3> alltoall_4_1{{
    {"pairwise", "MPIR_Alltoall_intra_pairwise"},
    {"scattered", "MPIR_Alltoall_intra_scattered"},
    {"bruck", "MPIR_Alltoall_intra_k_brucks", true},
}};

const std::array<Version, 4>& table() {
    static const std::array<Version, 4> versions{{
        {"4.0", "v4.0.2", allgather_4_0, allreduce_4_0, bcast_4_0, reduce_all, reduce_scatter_all,
         alltoall_4_0, defaults_4_0()},
        {"4.1", "v4.1.2", allgather_4_1, allreduce_4_1, bcast_4_1, reduce_all, reduce_scatter_all,
         alltoall_4_1, defaults_4_1()},
        {"4.2", "v4.2.3", allgather_4_2, allreduce_4_1, bcast_4_2, reduce_all, reduce_scatter_all,
         alltoall_4_1, defaults_4_1()},
        {"4.3", "v4.3.2", allgather_4_2, allreduce_4_3, bcast_4_3, reduce_all, reduce_scatter_all,
         alltoall_4_1, defaults_4_1()},
    }};
    return versions;
}

std::string known_names() {
    std::string names;
    for (const Version& v : table()) names += (names.empty() ? "" : ", ") + std::string(v.name);
    return names;
}

}  // namespace

std::span<const Version> versions() {
    return table();
}

const Version& version(std::string_view name) {
    const std::string series = series_of(name);
    for (const Version& v : table())
        if (v.name == name || v.name == series) return v;
    throw InputError(fmt::format(
        "--mpich-version: unknown MPICH version '{}' (known: {}; `mpichversion` prints yours)",
        name, known_names()));
}

std::string series_of(std::string_view release) {
    // "4.0.2", "4.1", "4.2.0rc1": the first two numbers.
    const std::size_t first = release.find('.');
    if (first == std::string_view::npos) return {};
    std::size_t end = first + 1;
    while (end < release.size() && release[end] >= '0' && release[end] <= '9') ++end;
    const std::string series(release.substr(0, end));
    for (const Version& v : table())
        if (v.name == series) return series;
    return {};
}

std::span<const Algorithm> algorithms_of(const Version& v, Collective c) {
    switch (c) {
        case Collective::allgather:
            return v.allgather;
        case Collective::allreduce:
            return v.allreduce;
        case Collective::bcast:
            return v.bcast;
        case Collective::reduce:
            return v.reduce;
        case Collective::reduce_scatter:
            return v.reduce_scatter;
        case Collective::alltoall:
            return v.alltoall;
    }
    return {};
}

const Algorithm* equivalent(const Version& v, Collective c, std::string_view algorithm, int p) {
    const bool power_of_two = p > 0 && (p & (p - 1)) == 0;
    for (const Algorithm& a : algorithms_of(v, c))
        if (a.piccolo == algorithm && (!a.power_of_two || power_of_two)) return &a;
    return nullptr;
}

std::string_view collective_key(Collective c) {
    return c == Collective::reduce_scatter ? "reduce_scatter_block" : to_string(c);
}

}  // namespace piccolo::mpich

namespace piccolo {

std::vector<std::string_view> mpich_series_known() {
    std::vector<std::string_view> names;
    for (const mpich::Version& v : mpich::versions()) names.push_back(v.name);
    return names;
}

std::string mpich_series(std::string_view release) {
    return mpich::series_of(release);
}

}  // namespace piccolo
