// Open MPI's fixed decision for Allgather and Allreduce, as released in open-mpi/ompi v4.1.4,
// ompi/mca/coll/tuned/coll_tuned_decision_fixed.c: ompi_coll_tuned_allgather_intra_dec_fixed()
// and ompi_coll_tuned_allreduce_intra_dec_fixed() (the branch for commutative operations). Both
// compare total_dsize, the type size times the count: the per-rank contribution for Allgather,
// the vector for Allreduce, in bytes. A rules file line whose algorithm is 0 falls through to
// this decision (coll_tuned_decision_dynamic.c: `if (alg) ... do_this`, else the fixed one).
// What each number runs (coll_base_allgather.c, coll_base_allreduce.c):
//   allgather 3 recursive doubling runs Bruck instead unless p is a power of two; 6 two_proc is
//   one exchange, the schedule of every piccolo algorithm at p = 2; 2 bruck
//   (ompi_coll_base_allgather_intra_bruck: step i sends the blocks held so far to rank - 2^i and
//   receives from rank + 2^i, the last step only the remaining blocks, then a local shift) is
//   piccolo's bruck with k = 2;
//   allreduce 4 ring runs recursive doubling when the count is below p.
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

// coll_tuned_allgather_decision.c and coll_tuned_allreduce_decision.c, v4.1.4.
constexpr std::array<std::string_view, 7> allgather_names{
    "", "linear", "bruck", "recursive_doubling", "ring", "neighbor", "two_proc"};
constexpr std::array<std::string_view, 7> allreduce_names{
    "", "basic_linear", "nonoverlapping", "recursive_doubling", "ring", "segmented_ring",
    "rabenseifner"};

int look_up(std::span<const Bracket> brackets, int ranks, std::uint64_t bytes) {
    for (const Bracket& b : brackets) {
        if (b.ranks_below != 0 && ranks >= b.ranks_below) continue;
        for (const Step& s : b.steps)
            if (bytes < s.below || s.below == rest) return s.algorithm;
    }
    return 0;  // not reached: the last bracket takes every size
}

}  // namespace

std::optional<Decision> runs_as(Collective collective, std::string_view algorithm, int k,
                                int ranks) {
    const bool power_of_two = ranks > 0 && (ranks & (ranks - 1)) == 0;
    if (algorithm == "ring") return Decision{4, "ring", "ring"};
    if (algorithm == "bruck" && k == 2 && collective == Collective::allgather)
        return Decision{2, "bruck", "bruck"};
    if (algorithm == "rd" && (collective == Collective::allreduce || power_of_two))
        return Decision{3, "recursive_doubling", "rd"};
    return std::nullopt;
}

Decision fixed_decision(Collective collective, int ranks, std::uint64_t bytes) {
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
    if (gather && (a == 2 || (a == 3 && !power_of_two))) d.piccolo = "bruck";  // with k = 2
    return d;
}

}  // namespace piccolo::ompi
