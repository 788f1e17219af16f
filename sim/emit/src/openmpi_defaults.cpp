// Open MPI's fixed decision for Allgather, Allreduce, Bcast, Reduce, Reduce_scatter_block and
// Alltoall, as released in open-mpi/ompi v4.1.4, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c:
// ompi_coll_tuned_<collective>_intra_dec_fixed() (for reductions the branch for commutative
// operations). Each compares total_dsize, the type size times the count: the per-rank
// contribution for Allgather, the vector for Allreduce, the buffer for Bcast and Reduce, rcount
// for Reduce_scatter_block and scount for Alltoall, in bytes: piccolo's size in every case. Every
// one passes fan in/out and segment size 0 (one segment). A rules file line whose algorithm is 0 falls through to
// this decision (coll_tuned_decision_dynamic.c: `if (alg) ... do_this`, else the fixed one).
// What each number runs (coll_base_allgather.c, coll_base_allreduce.c):
//   allgather 3 recursive doubling runs Bruck instead unless p is a power of two; 6 two_proc is
//   one exchange, the schedule of every piccolo algorithm at p = 2; 2 bruck
//   (ompi_coll_base_allgather_intra_bruck: step i sends the blocks held so far to rank - 2^i and
//   receives from rank + 2^i, the last step only the remaining blocks, then a local shift) is
//   piccolo's bruck with k = 2;
//   allreduce 4 ring runs recursive doubling when the count is below p.
// Bcast, Reduce, Reduce_scatter_block, Alltoall (coll_base_bcast.c, coll_base_reduce.c,
// coll_base_reduce_scatter_block.c, coll_base_alltoall.c, coll_base_topo.c):
//   bcast 7 knomial: ompi_coll_base_topo_build_kmtree, a rank's parent clears its lowest nonzero
//   base-radix digit and its children are rank + j radix^i, farthest first: piccolo's knomial with
//   k = the radix (the MCA default 4, bcast_knomial_radix). 6 binomial: ompi_coll_base_topo_
//   build_bmtree, a rank's parent clears its highest set bit: the bit-reversed tree of piccolo's
//   binomial (whose parent clears the lowest), the same shape with other ranks on each edge, so
//   on nodes of several ranks other edges cross nodes: not modelled. 8 scatter_allgather and 9
//   scatter_allgather_ring (ompi_coll_base_bcast_intra_scatter_allgather, _ring): the binomial
//   scatter of ceil(count / p)-element chunks from rank + mask, then recursive doubling (with the
//   same recursive halving as MPICH where p is not a power of 2) or a ring: piccolo's scatter-rd
//   and scatter-ring, MPICH's algorithms, for counts of at least p elements (below, both run
//   basic_linear); in bytes where the type is one byte long.
//   reduce 5 binomial: ompi_coll_base_topo_build_in_order_bmtree, parent clears the lowest set
//   bit, children rank + 1, + 2, + 4, ... received in that order: piccolo's binomial.
//   reduce 7 rabenseifner: ompi_coll_base_reduce_intra_redscat_gather, recursive halving with
//   distance doubling (the lower rank keeping the lower half) and a binomial gather, a root that
//   sat out taking new rank 0's place: piccolo's rabenseifner (MPICH's schedule) where p is a
//   power of 2. Its halves are of the window, floor(w / 2) elements kept by the lower rank, where
//   MPICH cuts pof2 units first: the same messages when count is a multiple of p, otherwise
//   differing by at most one element each. For p not a power of 2 its fold-in differs (each
//   pair swaps halves and both reduce, then the odd rank sends its half back: three messages
//   of half the buffer where MPICH sends one of the whole): not modelled. Below pof2 elements,
//   or for a non-commutative operation, it runs basic_linear itself.
//   reduce_scatter_block 3 also runs piccolo's recexch with k = 2, which is rh's schedule.
//   reduce_scatter_block 3 recursive_halving: the fold-in of even ranks below 2 (p - p'), halving
//   with the lower rank keeping the lower half, fold-out: piccolo's rh (for non-commutative
//   operations Open MPI runs basic_linear instead, so no rule needs a guard).
//   alltoall 2 pairwise: p steps to rank + step (the last to itself): piccolo's pairwise where p
//   is not a power of 2 (piccolo follows MPICH's rank XOR step there) or p = 2; 3 modified_bruck:
//   radix 2 phases to rank + 2^i with the blocks whose bit i is set, between two local
//   rotations: piccolo's bruck with k = 2; 5 two_proc: p = 2's one exchange.
#include "openmpi_defaults.hpp"

#include <array>
#include <span>

namespace piccolo::ompi {

namespace {

struct Step {
    std::uint64_t below;  // total_dsize < below; the last step of a bracket has UINT64_MAX
    int algorithm;
};
constexpr std::uint64_t rest = UINT64_MAX;
struct Bracket {
    int ranks_below;  // communicator_size < ranks_below (the last bracket: every size)
    std::span<const Step> steps;
};

// ompi_coll_tuned_allgather_intra_dec_fixed(), v4.1.4. p == 2 has its own branch (two_proc).
constexpr std::array<Step, 1> ag_32{{{rest, 3}}};
constexpr std::array<Step, 3> ag_64{{{1024, 3}, {65536, 5}, {rest, 4}}};
constexpr std::array<Step, 3> ag_128{{{512, 3}, {65536, 5}, {rest, 4}}};
constexpr std::array<Step, 5> ag_256{{{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {rest, 4}}};
constexpr std::array<Step, 7> ag_512{
    {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {rest, 4}}};
constexpr std::array<Step, 4> ag_1024{{{64, 3}, {256, 2}, {2048, 3}, {rest, 5}}};
constexpr std::array<Step, 8> ag_2048{
    {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}, {rest, 5}}};
constexpr std::array<Step, 5> ag_4096{{{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {rest, 5}}};
constexpr std::array<Step, 6> ag_more{{{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {rest, 5}}};
constexpr std::array<Bracket, 9> allgather{{{32, ag_32},
                                            {64, ag_64},
                                            {128, ag_128},
                                            {256, ag_256},
                                            {512, ag_512},
                                            {1024, ag_1024},
                                            {2048, ag_2048},
                                            {4096, ag_4096},
                                            {0, ag_more}}};

// ompi_coll_tuned_allreduce_intra_dec_fixed(), v4.1.4, commutative operations.
constexpr std::array<Step, 7> ar_4{
    {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}, {rest, 6}}};
constexpr std::array<Step, 3> ar_8{{{16, 4}, {8192, 3}, {rest, 6}}};
constexpr std::array<Step, 2> ar_16{{{8192, 3}, {rest, 6}}};
constexpr std::array<Step, 3> ar_32{{{64, 5}, {4096, 3}, {rest, 6}}};
constexpr std::array<Step, 2> ar_64{{{128, 5}, {rest, 6}}};
constexpr std::array<Step, 2> ar_128{{{262144, 3}, {rest, 6}}};
constexpr std::array<Step, 3> ar_256{{{131072, 2}, {262144, 3}, {rest, 6}}};
constexpr std::array<Step, 2> ar_512{{{4096, 2}, {rest, 6}}};
constexpr std::array<Step, 3> ar_2048{{{2048, 2}, {16384, 3}, {rest, 6}}};
constexpr std::array<Step, 4> ar_4096{{{2048, 2}, {4096, 5}, {16384, 3}, {rest, 6}}};
constexpr std::array<Step, 4> ar_more{{{2048, 2}, {16384, 5}, {32768, 3}, {rest, 6}}};
constexpr std::array<Bracket, 11> allreduce{{{4, ar_4},
                                             {8, ar_8},
                                             {16, ar_16},
                                             {32, ar_32},
                                             {64, ar_64},
                                             {128, ar_128},
                                             {256, ar_256},
                                             {512, ar_512},
                                             {2048, ar_2048},
                                             {4096, ar_4096},
                                             {0, ar_more}}};

// ompi_coll_tuned_bcast_intra_dec_fixed(), v4.1.4.
constexpr std::array<Step, 10> bc_4{{{32, 3}, {256, 5}, {512, 3}, {1024, 7}, {32768, 1},
                                     {131072, 5}, {262144, 2}, {524288, 1}, {1048576, 6}, {rest, 5}}};
constexpr std::array<Step, 6> bc_8{{{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {rest, 2}}};
constexpr std::array<Step, 6> bc_16{{{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {rest, 1}}};
constexpr std::array<Step, 3> bc_32{{{4096, 7}, {1048576, 6}, {rest, 8}}};
constexpr std::array<Step, 2> bc_64{{{2048, 6}, {rest, 7}}};
constexpr std::array<Step, 1> bc_128{{{rest, 7}}};
constexpr std::array<Step, 5> bc_256{{{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {rest, 7}}};
constexpr std::array<Step, 3> bc_1024{{{16384, 7}, {32768, 4}, {rest, 7}}};
constexpr std::array<Step, 2> bc_2048{{{524288, 7}, {rest, 8}}};
constexpr std::array<Step, 2> bc_4096{{{262144, 7}, {rest, 8}}};
constexpr std::array<Step, 4> bc_more{{{8192, 7}, {16384, 5}, {262144, 7}, {rest, 8}}};
constexpr std::array<Bracket, 11> bcast{{{4, bc_4},
                                         {8, bc_8},
                                         {16, bc_16},
                                         {32, bc_32},
                                         {64, bc_64},
                                         {128, bc_128},
                                         {256, bc_256},
                                         {1024, bc_1024},
                                         {2048, bc_2048},
                                         {4096, bc_4096},
                                         {0, bc_more}}};

// ompi_coll_tuned_reduce_intra_dec_fixed(), v4.1.4, commutative operations.
constexpr std::array<Step, 7> rd_4{
    {{8, 7}, {16, 4}, {32, 3}, {262144, 1}, {524288, 3}, {1048576, 2}, {rest, 3}}};
constexpr std::array<Step, 6> rd_8{
    {{4096, 4}, {65536, 2}, {262144, 5}, {524288, 1}, {1048576, 5}, {rest, 1}}};
constexpr std::array<Step, 2> rd_16{{{8192, 4}, {rest, 5}}};
constexpr std::array<Step, 2> rd_32{{{4096, 4}, {rest, 5}}};
constexpr std::array<Step, 1> rd_256{{{rest, 5}}};
constexpr std::array<Step, 3> rd_512{{{8192, 5}, {16384, 6}, {rest, 5}}};
constexpr std::array<Step, 1> rd_2048{{{rest, 5}}};
constexpr std::array<Step, 5> rd_4096{{{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}, {rest, 5}}};
constexpr std::array<Step, 7> rd_more{
    {{16, 5}, {32, 6}, {1024, 5}, {2048, 6}, {8192, 5}, {16384, 6}, {rest, 5}}};
constexpr std::array<Bracket, 9> reduce{{{4, rd_4},
                                         {8, rd_8},
                                         {16, rd_16},
                                         {32, rd_32},
                                         {256, rd_256},
                                         {512, rd_512},
                                         {2048, rd_2048},
                                         {4096, rd_4096},
                                         {0, rd_more}}};

// ompi_coll_tuned_reduce_scatter_block_intra_dec_fixed(), v4.1.4, commutative operations.
constexpr std::array<Step, 9> rs_4{{{4, 2}, {8, 4}, {16, 3}, {128, 4}, {256, 3}, {4096, 4},
                                    {8192, 3}, {131072, 4}, {rest, 1}}};
constexpr std::array<Step, 7> rs_8{
    {{8, 3}, {32, 2}, {256, 4}, {8192, 3}, {16384, 4}, {1048576, 3}, {rest, 1}}};
constexpr std::array<Step, 6> rs_16{
    {{4, 1}, {32, 3}, {128, 4}, {524288, 3}, {4194304, 1}, {rest, 4}}};
constexpr std::array<Step, 5> rs_32{{{32, 1}, {524288, 3}, {2097152, 1}, {4194304, 3}, {rest, 4}}};
constexpr std::array<Step, 5> rs_more{{{4, 3}, {16, 1}, {65536, 4}, {262144, 1}, {rest, 4}}};
constexpr std::array<Bracket, 5> reduce_scatter{
    {{4, rs_4}, {8, rs_8}, {16, rs_16}, {32, rs_32}, {0, rs_more}}};

// ompi_coll_tuned_alltoall_intra_dec_fixed(), v4.1.4. p == 2 has its own branch (a2a_2).
constexpr std::array<Step, 10> a2a_2{{{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5},
                                      {32768, 2}, {262144, 4}, {1048576, 5}, {rest, 2}}};
constexpr std::array<Step, 6> a2a_8{
    {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}, {rest, 1}}};
constexpr std::array<Step, 2> a2a_16{{{262144, 4}, {rest, 1}}};
constexpr std::array<Step, 7> a2a_32{
    {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}, {rest, 4}}};
constexpr std::array<Step, 3> a2a_64{{{512, 3}, {524288, 1}, {rest, 4}}};
constexpr std::array<Step, 5> a2a_128{{{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {rest, 2}}};
constexpr std::array<Step, 4> a2a_256{{{1024, 3}, {2048, 4}, {262144, 1}, {rest, 2}}};
constexpr std::array<Step, 4> a2a_512{{{1024, 3}, {8192, 4}, {32768, 1}, {rest, 2}}};
constexpr std::array<Step, 6> a2a_1024{
    {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {rest, 2}}};
constexpr std::array<Step, 6> a2a_2048{
    {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {rest, 4}}};
constexpr std::array<Step, 5> a2a_4096{{{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {rest, 1}}};
constexpr std::array<Step, 6> a2a_more{
    {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {rest, 4}}};
constexpr std::array<Bracket, 11> alltoall{{{8, a2a_8},
                                            {16, a2a_16},
                                            {32, a2a_32},
                                            {64, a2a_64},
                                            {128, a2a_128},
                                            {256, a2a_256},
                                            {512, a2a_512},
                                            {1024, a2a_1024},
                                            {2048, a2a_2048},
                                            {4096, a2a_4096},
                                            {0, a2a_more}}};

// coll_tuned_<collective>_decision.c, v4.1.4.
constexpr std::array<std::string_view, 7> allgather_names{
    "", "linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc"};
constexpr std::array<std::string_view, 7> allreduce_names{
    "", "basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring",
    "rabenseifner"};
constexpr std::array<std::string_view, 10> bcast_names{
    "",       "basic_linear", "chain",   "pipeline",          "split_binary_tree",
    "binary_tree", "binomial", "knomial", "scatter_allgather", "scatter_allgather_ring"};
constexpr std::array<std::string_view, 8> reduce_names{
    "", "linear", "chain", "pipeline", "binary", "binomial", "in-order_binary", "rabenseifner"};
constexpr std::array<std::string_view, 5> reduce_scatter_names{
    "", "basic_linear", "recursive_doubling", "recursive_halving", "butterfly"};
constexpr std::array<std::string_view, 6> alltoall_names{
    "", "linear", "pairwise", "modified_bruck", "linear_sync", "two_proc"};

std::span<const std::string_view> names_of(Collective collective) {
    switch (collective) {
        case Collective::allgather:
            return allgather_names;
        case Collective::allreduce:
            return allreduce_names;
        case Collective::bcast:
            return bcast_names;
        case Collective::reduce:
            return reduce_names;
        case Collective::reduce_scatter:
            return reduce_scatter_names;
        case Collective::alltoall:
            return alltoall_names;
    }
    return {};
}

int look_up(std::span<const Bracket> brackets, int ranks, std::uint64_t bytes) {
    for (const Bracket& b : brackets) {
        if (b.ranks_below != 0 && ranks >= b.ranks_below) continue;
        for (const Step& s : b.steps)
            if (bytes < s.below || s.below == rest) return s.algorithm;
    }
    return 0;  // not reached: the last bracket takes every size
}

}  // namespace

int collective_id(Collective collective) {
    switch (collective) {
        case Collective::allgather:
            return 0;
        case Collective::allreduce:
            return 2;
        case Collective::alltoall:
            return 3;
        case Collective::bcast:
            return 7;
        case Collective::reduce:
            return 11;
        case Collective::reduce_scatter:
            return 13;
    }
    return -1;
}

std::optional<Decision> runs_as(Collective collective, std::string_view algorithm, int k,
                                int ranks) {
    const bool power_of_two = ranks > 0 && (ranks & (ranks - 1)) == 0;
    switch (collective) {
        case Collective::allgather:
        case Collective::allreduce:
            if (algorithm == "ring") return Decision{4, "ring", "ring"};
            if (algorithm == "bruck" && k == 2 && collective == Collective::allgather)
                return Decision{2, "bruck", "bruck", 2};
            if (algorithm == "rd" && (collective == Collective::allreduce || power_of_two))
                return Decision{3, "recursive_doubling", "rd"};
            return std::nullopt;
        case Collective::bcast:
            if (algorithm == "knomial" && k == bcast_knomial_radix)
                return Decision{7, "knomial", "knomial", bcast_knomial_radix};
            if (algorithm == "scatter-rd") return Decision{8, "scatter_allgather", "scatter-rd"};
            if (algorithm == "scatter-ring")
                return Decision{9, "scatter_allgather_ring", "scatter-ring"};
            return std::nullopt;
        case Collective::reduce:
            if (algorithm == "binomial" || (algorithm == "knomial" && k == 2))
                return Decision{5, "binomial", "binomial"};
            if (algorithm == "rabenseifner" && power_of_two)
                return Decision{7, "rabenseifner", "rabenseifner"};
            return std::nullopt;
        case Collective::reduce_scatter:
            if (algorithm == "rh" || (algorithm == "recexch" && k == 2))
                return Decision{3, "recursive_halving", "rh"};
            return std::nullopt;
        case Collective::alltoall:
            if (algorithm == "pairwise" && (!power_of_two || ranks == 2))
                return Decision{2, "pairwise", "pairwise"};
            if (algorithm == "bruck" && k == 2) return Decision{3, "modified_bruck", "bruck", 2};
            return std::nullopt;
    }
    return std::nullopt;
}

namespace {

// Open MPI's choice at one point of the four collectives tuned after Allgather and Allreduce.
Decision fixed_decision_more(Collective collective, int ranks, std::uint64_t bytes) {
    int a = 0;
    switch (collective) {
        case Collective::bcast:
            a = look_up(bcast, ranks, bytes);
            break;
        case Collective::reduce:
            a = look_up(reduce, ranks, bytes);
            break;
        case Collective::reduce_scatter:
            a = look_up(reduce_scatter, ranks, bytes);
            break;
        default:  // alltoall
            a = ranks == 2 ? look_up(std::array<Bracket, 1>{{{0, a2a_2}}}, ranks, bytes)
                           : look_up(alltoall, ranks, bytes);
    }
    Decision d{a, names_of(collective)[static_cast<std::size_t>(a)], {}};
    if (collective == Collective::alltoall && a == 5) {
        d.piccolo = "pairwise";  // two_proc: p = 2's one exchange, as every algorithm
        return d;
    }
    // What each number runs, if piccolo models it, is what runs_as() says for piccolo's
    // algorithms.
    for (const auto& [algorithm, k] : {std::pair<std::string_view, int>{"knomial", bcast_knomial_radix},
                                       {"scatter-rd", 0},
                                       {"scatter-ring", 0},
                                       {"binomial", 0},
                                       {"rh", 0},
                                       {"pairwise", 0},
                                       {"bruck", 2},
                                       {"rabenseifner", 0}})
        if (const auto same = runs_as(collective, algorithm, k, ranks); same && same->algorithm == a)
            // Rabenseifner runs basic_linear below pof2 elements: modelled from pof2 bytes up.
            if (algorithm != "rabenseifner" || bytes >= static_cast<std::uint64_t>(ranks))
                return *same;
    return d;
}

}  // namespace

Decision fixed_decision(Collective collective, int ranks, std::uint64_t bytes) {
    if (collective != Collective::allgather && collective != Collective::allreduce)
        return fixed_decision_more(collective, ranks, bytes);
    const bool gather = collective == Collective::allgather;
    const int a = !gather      ? look_up(allreduce, ranks, bytes)
                  : ranks == 2 ? 6  // Allgather's own branch for two ranks: two_proc
                               : look_up(allgather, ranks, bytes);
    Decision d{a, (gather ? allgather_names : allreduce_names)[static_cast<std::size_t>(a)], {}};
    for (std::string_view candidate : {"ring", "rd"})
        if (const auto same = runs_as(collective, candidate, 0, ranks);
            same && same->algorithm == a)
            d.piccolo = candidate;
    if (gather && a == 6) d.piccolo = "rd";  // two_proc: p = 2's one exchange, as every algorithm
    const bool power_of_two = (ranks & (ranks - 1)) == 0;
    if (gather && (a == 2 || (a == 3 && !power_of_two))) {
        d.piccolo = "bruck";  // with k = 2
        d.k = 2;
    }
    return d;
}

}  // namespace piccolo::ompi
