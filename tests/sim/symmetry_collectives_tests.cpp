// Exact symmetry reduction of Reduce_scatter and Alltoall (docs/symmetry.md, "Reduce_scatter
// and Alltoall"): the quotients of ring, k-ring and pairwise Reduce_scatter and of pairwise,
// scattered and bruck Alltoall are the folded full schedules, and their replays give the full
// replays' makespans and per-rank finish times bit for bit wherever the symmetry check passes
// them, under FIFO lanes and fair sharing, offloaded and cpu overheads, p a power of two or not.
// Where the check refuses, the full replay itself tells the ranks of an orbit apart.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/symmetric.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "symmetry_cases.hpp"

using namespace piccolo;
using namespace piccolo::symmetry_test;

namespace {

struct Algorithm {
    Collective collective;
    const char* name;
};
constexpr Algorithm algorithms_checked[] = {
    {Collective::reduce_scatter, "ring"},     {Collective::reduce_scatter, "k-ring"},
    {Collective::reduce_scatter, "pairwise"}, {Collective::alltoall, "pairwise"},
    {Collective::alltoall, "scattered"},      {Collective::alltoall, "bruck"},
};

// What the tally counts a reduced schedule as: the algorithm (the XOR pairing of a power of two
// apart, bruck's k = 2 apart from its other k), the lanes (fifo, fair or none: no contention) and
// the overheads.
std::string kind_of(const GenerateRequest& r, const Machine& m, bool contention) {
    std::string name = fmt::format("{} {}", to_string(r.collective), r.algorithm);
    if (r.algorithm == "pairwise" && r.collective == Collective::alltoall)
        name += (r.ranks & (r.ranks - 1)) == 0 ? " xor" : " shift";
    if (r.algorithm == "bruck") name += r.k == 2 ? " k=2" : " k>2";
    const bool cpu = m.levels.front().overhead == OverheadModel::cpu;
    return fmt::format("{}, {}, {}", name,
                       !contention                  ? "no contention"
                       : m.sharing == Sharing::fifo ? "fifo"
                                                    : "fair",
                       cpu ? "cpu" : "offload");
}

void check_machine(const Machine& m, int nodes, int ppn, Tally& tally) {
    const RankLayout layout(m, nodes, ppn);
    const Rank p = layout.ranks();
    for (bool contention : {true, false})
        for (const Algorithm& a : algorithms_checked) {
            const AlgorithmInfo& info = find_algorithm(a.name);
            std::vector<int> radices = info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
            if (info.name == "bruck") radices = {2, 3, p - 1};
            for (int k : radices)
                for (Style style : all_styles)
                    for (std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{65536}}) {
                        const GenerateRequest request{a.collective, a.name, k,    p,
                                                      bytes,        true,   style};
                        if (check_case(m, layout, request, {contention, false}, tally))
                            ++tally.by_kind[kind_of(request, m, contention)];
                    }
        }
}

}  // namespace

TEST_CASE("symmetry: Reduce_scatter and Alltoall quotients replay exactly like the full ones") {
    Tally tally;
    // p = 4, 6, 10, 12, 16 and 24 on delta (fair sharing, 8 device slots, one NIC lane), with
    // FIFO lanes, and without device slots; group lanes alone under FIFO; a node capacity.
    const std::vector<std::pair<int, int>> shapes{{4, 1}, {6, 1}, {5, 2}, {4, 3},
                                                  {3, 4}, {4, 4}, {6, 4}};
    for (const Machine& m :
         {load_preset("delta"), delta_fifo(), fair_capacity(), delta_unlimited_slots(Sharing::fair),
          delta_unlimited_slots(Sharing::fifo)})
        for (const auto& [nodes, ppn] : shapes) check_machine(m, nodes, ppn, tally);
    for (const auto& [nodes, ppn] : std::vector<std::pair<int, int>>{{4, 1}, {6, 2}, {4, 3}})
        check_machine(grouped(Sharing::fifo, std::optional<int>{}), nodes, ppn, tally);
    // cpu overheads: laptop-mpi's processor, ports and rendezvous, one NIC lane per node; delta
    // with cpu overheads on every level, one rank per node.
    for (const auto& [nodes, ppn] : std::vector<std::pair<int, int>>{{3, 4}, {5, 2}, {4, 4}})
        check_machine(cpu_nodes(), nodes, ppn, tally);
    check_machine(cpu_everywhere(), 6, 1, tally);
    // dgx-h100: FIFO, 8 NIC lanes per node, 8 ranks per node; 32 ranks pair by XOR.
    check_machine(load_preset("dgx-h100"), 3, 8, tally);
    check_machine(load_preset("dgx-h100"), 4, 8, tally);
    for (const auto& [kind, count] : tally.by_kind) MESSAGE(kind << ": " << count);
    MESSAGE(tally.reduced << " schedules reduced, " << tally.refused << " refused");
    // Every algorithm reduces under FIFO lanes and under fair sharing, and with cpu overheads.
    for (const char* name :
         {"reduce_scatter ring", "reduce_scatter k-ring", "reduce_scatter pairwise",
          "alltoall pairwise shift", "alltoall pairwise xor", "alltoall scattered",
          "alltoall bruck k=2", "alltoall bruck k>2"}) {
        INFO(name);
        CHECK(tally.by_kind[fmt::format("{}, fifo, offload", name)] > 0);
        CHECK(tally.by_kind[fmt::format("{}, fair, offload", name)] > 0);
        CHECK(tally.by_kind[fmt::format("{}, no contention, cpu", name)] > 0);
    }
    // A rank that receives once per round leaves its processor and ports nothing to reorder.
    for (const char* name :
         {"reduce_scatter ring", "reduce_scatter k-ring", "reduce_scatter pairwise",
          "alltoall pairwise shift", "alltoall pairwise xor", "alltoall bruck k=2"}) {
        INFO(name);
        CHECK(tally.by_kind[fmt::format("{}, fifo, cpu", name)] > 0);
    }
}

TEST_CASE("symmetry: where a round enters a block of ranks from, by hand") {
    auto entry = [](Collective c, const char* algorithm, int k, Rank p, Rank block) {
        return round_entry({c, algorithm, k, p, 8, false, Style::mpi}, block);
    };
    const Collective rs = Collective::reduce_scatter, a2a = Collective::alltoall;
    // A rank (a block of one) receives once per round in ring, pairwise and bruck with k = 2.
    CHECK(entry(rs, "ring", 0, 12, 1) == RoundEntry::one_block);
    CHECK(entry(rs, "pairwise", 0, 12, 1) == RoundEntry::one_block);
    CHECK(entry(a2a, "bruck", 2, 12, 1) == RoundEntry::one_block);
    // ... but from 11 ranks in scattered's one batch, and from ranks 1, 2 (k - 1 = 2 partners)
    // before it in bruck's first phase with k = 3.
    CHECK(entry(a2a, "scattered", 0, 12, 1) == RoundEntry::shifted);
    CHECK(entry(a2a, "bruck", 3, 12, 1) == RoundEntry::shifted);
    // Pairwise step 4 on blocks of 3: block 1 (ranks 3..5) receives from ranks 11, 0, 1.
    CHECK(entry(rs, "pairwise", 0, 12, 3) == RoundEntry::shifted);
    // With two blocks every transfer from outside comes from the other one.
    CHECK(entry(rs, "pairwise", 0, 6, 3) == RoundEntry::one_block);
    CHECK(entry(a2a, "scattered", 0, 8, 4) == RoundEntry::one_block);
    // bruck k = 2 shifts by 1, 2, 4, 8: below a block of 4 ranks or whole blocks.
    CHECK(entry(a2a, "bruck", 2, 16, 4) == RoundEntry::one_block);
    // ... but by 4 on blocks of 3 (p = 12): block 1 receives from ranks 11, 0, 1.
    CHECK(entry(a2a, "bruck", 2, 12, 3) == RoundEntry::shifted);
    // The XOR pairing of 16 ranks moves a block of 4 to block b XOR (i / 4) whole.
    CHECK(entry(a2a, "pairwise", 0, 16, 4) == RoundEntry::one_block);
    // k-ring groups of 3 straddle blocks of 2; groups of 4 split blocks of 8 and fill blocks of 2.
    CHECK(entry(rs, "k-ring", 3, 12, 2) == RoundEntry::several_blocks);
    CHECK(entry(rs, "k-ring", 4, 16, 8) == RoundEntry::one_block);
    CHECK(entry(rs, "k-ring", 4, 16, 2) == RoundEntry::one_block);
}

TEST_CASE("symmetry: a refused Reduce_scatter or Alltoall tells an orbit's ranks apart") {
    // scattered: a rank receives 35 transfers in one batch, and its 3 receive slots take them in
    // the order of their senders' ids, which wraps around at rank 35 for ranks near the end
    // (piccolo sim -c alltoall -a scattered --nodes 18 --ppn 2 --bytes 1 --set device_radix=3
    // --set node.o_r*4 --set system.o_r*4: rank 0 finishes at 263.005 us, rank 2 at 258.005).
    Machine slots = load_preset("delta");
    slots.device_radix = 3;
    for (Level& level : slots.levels) {
        std::vector<LogGPRow> rows(level.loggp.rows().begin(), level.loggp.rows().end());
        for (LogGPRow& row : rows) row.params.o_r *= 4;
        level.loggp = LogGPTable(rows);
    }
    const RankLayout eighteen(slots, 18, 2);
    const GenerateRequest scattered{Collective::alltoall, "scattered", 0, 36, 1, false,
                                    Style::nccl};
    CHECK(check_symmetry(scattered, slots, eighteen, {}).reason ==
          "scattered: a rank receives from several ranks in one round, and its receive slots "
          "serve them in the order of their senders, which the moves do not keep");
    const SimResult s = simulate(generate(scattered), slots, eighteen, {});
    CHECK(s.rank_finish[0] - s.rank_finish[2] > 4.9e-6);
    // Without contention nothing queues: the same schedule reduces.
    CHECK(check_symmetry(scattered, slots, eighteen, {false, false}).representatives == 2);

    // bruck, k = 10, 12 ranks: 9 receives per phase for 8 receive slots (delta, pipelined, 8 B):
    // rank 2 finishes at 54.440 us, ranks 6 and 10 (moved by one and two nodes) at 58.395 us.
    const Machine delta = load_preset("delta");
    const RankLayout three(delta, 3, 4);
    const GenerateRequest bruck{Collective::alltoall, "bruck", 10, 12, 8, false, Style::pipelined};
    CHECK(check_symmetry(bruck, delta, three, {}).representatives == 0);
    const SimResult b = simulate(generate(bruck), delta, three, {});
    CHECK(b.rank_finish[6] - b.rank_finish[2] > 3.9e-6);
    CHECK(b.rank_finish[6] == b.rank_finish[10]);

    // pairwise on FIFO node lanes below group lanes: step 7 of 12 ranks on nodes of 3 brings
    // node 1 (ranks 3..5) transfers from nodes 0 (rank 2, in its group) and 3 (ranks 8 and 9, in
    // the other group), at two latencies, so its ingress lane sees them in another pattern than
    // the image node's. With the group's lanes alone they pair, L later, with a group's egress.
    const Machine node_lanes = grouped(Sharing::fifo, std::optional<int>{1});
    const RankLayout four(node_lanes, 4, 3);
    const GenerateRequest pairwise{
        Collective::reduce_scatter, "pairwise", 0, 12, 4096, false, Style::nccl};
    CHECK(check_symmetry(pairwise, node_lanes, four, {}).reason ==
          "pairwise: a unit of level 'node' receives from several units in one round, and its "
          "FIFO lanes serve them in the order of their senders, which the moves do not keep");
    const SimResult full = simulate(generate(pairwise), node_lanes, four, {});
    const QuotientSchedule folded = fold_schedule(generate(pairwise), 6);
    const SimResult through_quotient =
        simulate_quotient(folded, folded.schedule.successors(), node_lanes, four, {});
    CHECK(full.makespan != through_quotient.makespan);
    const Machine group_lanes = grouped(Sharing::fifo, std::optional<int>{});
    CHECK(
        check_symmetry(pairwise, group_lanes, RankLayout(group_lanes, 4, 3), {}).representatives ==
        6);

    // k-ring with groups of 3 that straddle nodes of 2 ranks, in groups of 3 nodes whose 6 ranks
    // hold whole k-groups: the units of the highest level do not see it, the node lanes do (an
    // Allgather of 72 KiB on 9 nodes took 328.816 us in full, 323.915 us through the quotient
    // it used to be reduced to).
    Machine three_nodes = grouped(Sharing::fifo, std::optional<int>{1});
    three_nodes.levels[1].fanout = 3;
    const RankLayout nine(three_nodes, 9, 2);
    const GenerateRequest k_ring{Collective::allgather, "k-ring", 3, 18, 73728, false, Style::mpi};
    CHECK(check_symmetry(k_ring, three_nodes, nine, {}).reason ==
          "k-ring: a unit of level 'node' receives from several units in one round, and its FIFO "
          "lanes serve them in the order of their senders, which the moves do not keep");
    const QuotientSchedule q = fold_schedule(generate(k_ring), 6);
    CHECK(simulate(generate(k_ring), three_nodes, nine, {}).makespan !=
          simulate_quotient(q, q.schedule.successors(), three_nodes, nine, {}).makespan);
}

TEST_CASE("symmetry: the quotients of pairwise, scattered and bruck, by hand") {
    // Pairwise Alltoall of 8 ranks pairs by XOR: representatives 0 and 1 send to 0 XOR i and
    // 1 XOR i in step i.
    const QuotientSchedule xor_pairs =
        generate_quotient({Collective::alltoall, "pairwise", 0, 8, 64, true, Style::mpi}, 2);
    CHECK(xor_pairs.destination == std::vector<Rank>{1, 0, 2, 3, 3, 2, 4, 5, 5, 4, 6, 7, 7, 6});
    CHECK(xor_pairs.schedule.dst == std::vector<Rank>{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0});
    // Pairwise Reduce_scatter of 4 ranks over 2: step 1 sends 0 -> 1 and 1 -> 2, then both
    // reduce. Rank 0 receives from rank 3, the image of rank 1's send (1 -> 2) under the move
    // by one node: its reduce (task 2) waits for task 1, and under mpi for its own send sent.
    const QuotientSchedule rs =
        generate_quotient({Collective::reduce_scatter, "pairwise", 0, 4, 64, true, Style::mpi}, 2);
    CHECK(rs.destination == std::vector<Rank>{1, 2, 0, 1, 2, 3, 0, 1, 3, 0, 0, 1});
    CHECK(sorted(rs.schedule.deps.row(2)) == std::vector<TaskId>{1});
    CHECK(sorted(rs.schedule.sent_deps_of(2)) == std::vector<TaskId>{0});
    // Step 2's reduce of rank 1 (task 7): the receive from rank 3 (rank 1's own send of step 2,
    // task 5, moved by a node) and its reduce of step 1 (task 3).
    CHECK(sorted(rs.schedule.deps.row(7)) == std::vector<TaskId>{3, 5});
    // Scattered, 34 ranks over 2: batches of 31 and 2 distances; rank 0's second batch waits
    // (mpi) for its 31 receives of the first and its 31 sends sent.
    const QuotientSchedule scattered =
        generate_quotient({Collective::alltoall, "scattered", 0, 34, 8, false, Style::mpi}, 2);
    CHECK(scattered.schedule.size() == 66);
    CHECK(scattered.schedule.deps.row(62).size() == 31);
    CHECK(scattered.schedule.sent_deps_of(62).size() == 31);
    CHECK(scattered.destination[62] == 2);  // rank 0 - 32 mod 34
    // bruck, k = 2, 6 ranks over 2: two rotations, phases to r + 1, r + 2, r + 4 carrying 3, 2
    // and 2 blocks, then two rotations and two inversions.
    const QuotientSchedule bruck =
        generate_quotient({Collective::alltoall, "bruck", 2, 6, 8, false, Style::nccl}, 2);
    CHECK(bruck.destination == std::vector<Rank>{0, 1, 1, 2, 2, 3, 4, 5, 0, 1, 0, 1});
    std::vector<std::uint64_t> bytes;
    for (TaskId t = 2; t < 8; ++t) bytes.push_back(bruck.schedule.bytes(t));
    CHECK(bytes == std::vector<std::uint64_t>{24, 24, 16, 16, 16, 16});
}
