// Exact symmetry reduction (docs/symmetry.md): the quotient generators build exactly the
// representatives' part of the full schedules, and replaying that part gives the full replay's
// makespan and per-rank finish times bit for bit, on machines with and without contention, FIFO
// and fair sharing, offloaded and cpu overheads, node and group lanes. Where the symmetry does
// not hold, the check says so.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/symmetric.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "symmetry_cases.hpp"

using namespace piccolo;
using namespace piccolo::symmetry_test;

namespace {

// Every ring and k-ring schedule (each valid k, both collectives, every style) of nodes x ppn
// ranks: where the check reduces, the quotient is the folded full schedule and both replays agree.
void check_machine(const Machine& m, int nodes, int ppn, bool contention, std::uint64_t bytes,
                   Tally& tally) {
    const RankLayout layout(m, nodes, ppn);
    const Rank p = layout.ranks();
    const SimOptions options{contention, false};
    for (const char* algorithm : {"ring", "k-ring"}) {
        const AlgorithmInfo& info = find_algorithm(algorithm);
        std::vector<int> radices = info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
        for (int k : radices)
            for (Collective collective : {Collective::allgather, Collective::allreduce})
                for (Style style : all_styles)
                    check_case(m, layout, {collective, algorithm, k, p, bytes, true, style},
                               options, tally);
    }
}

}  // namespace

TEST_CASE("symmetry: quotients replay exactly like the full schedules") {
    Tally tally;
    for (bool contention : {true, false}) {
        for (int ppn : {1, 2, 4})
            check_machine(load_preset("delta"), 4, ppn, contention, 12288, tally);
        check_machine(load_preset("delta"), 8, 3, contention, 3145728, tally);
        check_machine(load_preset("delta"), 6, 2, contention, 786432, tally);
        check_machine(load_preset("dgx-h100"), 3, 8, contention, 196608, tally);
        check_machine(grouped(), 4, 2, contention, 12288, tally);
        check_machine(fair_capacity(), 4, 3, contention, 786432, tally);
        check_machine(cpu_nodes(), 3, 4, contention, 24576, tally);
        check_machine(reclaiming(), 4, 2, contention, 12288, tally);
    }
    MESSAGE(fmt::format("{} schedules reduced, {} refused", tally.reduced, tally.refused));
    CHECK(tally.reduced > 200);
}

TEST_CASE("symmetry: a representative that sends to itself under cpu overheads") {
    // One rank per node: a ring's quotient has one representative whose every transfer goes to
    // itself, its o_s and its o_r on one processor. The engine once took the o_r's processor grant
    // for a second o_s and sent the message again and again until simulated time ran out.
    Tally tally;
    for (bool contention : {true, false}) {
        check_machine(cpu_everywhere(), 4, 1, contention, std::uint64_t{1} << 26, tally);
        check_machine(cpu_everywhere(), 8, 1, contention, 8, tally);
    }
    CHECK(tally.reduced > 0);
}

TEST_CASE("symmetry: the check refuses what it cannot reduce exactly, and says why") {
    const Machine delta = load_preset("delta");
    const RankLayout layout(delta, 4, 2);
    const GenerateRequest ring{Collective::allgather, "ring", 0, 8, 1024, false, Style::nccl};
    CHECK(check_symmetry(ring, delta, layout, {}).representatives == 2);

    GenerateRequest rd = ring;
    rd.algorithm = "rd";
    CHECK(check_symmetry(rd, delta, layout, {}).reason == "no quotient generator for rd");

    Machine round_robin = delta;
    round_robin.placement.kind = PlacementKind::round_robin;
    CHECK(check_symmetry(ring, round_robin, RankLayout(round_robin, 4, 2), {}).representatives ==
          0);

    // Three groups of two nodes do not hold 5 nodes evenly.
    const Machine g = grouped();
    GenerateRequest ring10 = ring;
    ring10.ranks = 10;
    const SymmetryCheck uneven = check_symmetry(ring10, g, RankLayout(g, 5, 2), {});
    CHECK(uneven.representatives == 0);
    CHECK(uneven.reason == "10 ranks do not fill whole units of level 'group'");

    // A trace lists every task; a capacity of the whole system is one shared resource.
    CHECK(check_symmetry(ring, delta, layout, {true, true}).representatives == 0);
    Machine shared = fair_capacity();
    shared.levels.back().capacity = 1e11;
    CHECK(check_symmetry(ring, shared, layout, {}).representatives == 0);
    CHECK(check_symmetry(ring, shared, layout, {false, false}).representatives == 2);

    // k-ring groups of 3 and nodes of 2 ranks straddle each other: node 1 (ranks 2, 3) sends
    // to nodes 2 and 3 in a round, and the moves that keep both (by 6 ranks) reorder those
    // transfers on its lanes. With 24 ranks on 8 nodes of 3, k = 4, an Allreduce of 3 MiB took
    // 1.07804 ms in full and 1.07489 ms through such a quotient: the check refuses it.
    GenerateRequest k_ring = ring;
    k_ring.algorithm = "k-ring";
    k_ring.k = 3;
    k_ring.ranks = 12;
    const SymmetryCheck straddle = check_symmetry(k_ring, delta, RankLayout(delta, 6, 2), {});
    CHECK(straddle.representatives == 0);
    CHECK(straddle.reason ==
          "k-ring groups of 3 ranks straddle units of 2 ranks: a unit sends to two units in one "
          "round");
    k_ring.k = 4;
    CHECK(check_symmetry(k_ring, delta, RankLayout(delta, 6, 2), {}).representatives == 2);
    k_ring.k = 6;
    CHECK(check_symmetry(k_ring, delta, RankLayout(delta, 6, 2), {}).representatives == 2);
}

TEST_CASE("symmetry: folding refuses a schedule that is not invariant") {
    // rd on 6 ranks: ranks 4 and 5 fold into 0 and 1 before the rounds, so ranks 0 and 2 (one
    // orbit over two representatives) do not run the same tasks.
    const Schedule rd = generate({Collective::allgather, "rd", 2, 6, 1024, true, Style::nccl});
    CHECK_THROWS_WITH_AS(fold_schedule(rd, 2), doctest::Contains("not invariant"), InputError);
    // The quotient of a 4-rank ring over 2 representatives: 3 rounds x 2 transfers, and the
    // second representative's transfer crosses to rank 2, the first of the next orbit block.
    const QuotientSchedule q =
        generate_quotient({Collective::allgather, "ring", 0, 4, 1024, true, Style::nccl}, 2);
    CHECK(q.schedule.size() == 6);
    CHECK(q.destination == std::vector<Rank>{1, 2, 1, 2, 1, 2});
    CHECK(q.schedule.dst == std::vector<Rank>{1, 0, 1, 0, 1, 0});
    CHECK(q.orbit_size() == 2);
}
