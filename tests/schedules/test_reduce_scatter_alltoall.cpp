// Reduce_scatter (ring, k-ring, pairwise) and Alltoall (pairwise, scattered): MPICH's steps and
// partners worked by hand, the data-flow proof of every schedule in every style, the verifier's
// rejection of removed dependencies (counted by hand: only the ones that carry data), exact task
// counts, and the refusals.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

Schedule make(Collective c, const char* algorithm, Rank p, Style style = Style::mpi, int k = 0) {
    return generate({c, algorithm, k, p, 8, true, style});
}

// (destination, first payload item) of rank 0's transfers, in task order.
std::vector<std::pair<Rank, std::uint32_t>> sends_of_rank0(const Schedule& s) {
    std::vector<std::pair<Rank, std::uint32_t>> out;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer && s.src[t] == 0)
            out.emplace_back(s.dst[t], s.payload.row(t)[0]);
    return out;
}

// Removes each delivered dependency in turn: how many removals, how many the verifier rejects.
std::pair<std::size_t, std::size_t> removals(const Schedule& s) {
    std::size_t removed = 0, rejected = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
            const VerifyReport r = verify(without_dependency(s, t, i));
            ++removed;
            rejected += r.ok() ? 0 : 1;
        }
    return {removed, rejected};
}

}  // namespace

TEST_CASE("pairwise and scattered: MPICH's partners and blocks, worked by hand") {
    using Sends = std::vector<std::pair<Rank, std::uint32_t>>;
    // Reduce_scatter p = 4: step i sends segment r + i to r + i.
    CHECK(sends_of_rank0(make(Collective::reduce_scatter, "pairwise", 4)) ==
          Sends{{1, 1}, {2, 2}, {3, 3}});
    // Alltoall p = 4 (a power of two): partner 0 XOR i; block 0 * 4 + d.
    CHECK(sends_of_rank0(make(Collective::alltoall, "pairwise", 4)) ==
          Sends{{1, 1}, {2, 2}, {3, 3}});
    // Alltoall p = 6: rank 3 sends to 3 + i mod 6 = 4, 5, 0, 1, 2 the blocks 3 * 6 + d.
    const Schedule six = make(Collective::alltoall, "pairwise", 6);
    std::vector<Rank> to;
    for (TaskId t = 0; t < six.size(); ++t)
        if (six.src[t] == 3) to.push_back(six.dst[t]);
    CHECK(to == std::vector<Rank>{4, 5, 0, 1, 2});
    // Alltoall p = 3 XOR would leave the ranks: 0 sends to 1, then 2.
    CHECK(sends_of_rank0(make(Collective::alltoall, "pairwise", 3)) == Sends{{1, 1}, {2, 2}});
    // Scattered p = 4: distances 1, 2, 3 backwards, all in one batch: to 3, 2, 1.
    CHECK(sends_of_rank0(make(Collective::alltoall, "scattered", 4)) ==
          Sends{{3, 3}, {2, 2}, {1, 1}});
    // Scattered p = 70: batches of distances 1..31, 32..63, 64..69; a batch-1 send waits for the
    // 31 receives and 31 sends of batch 0.
    const Schedule big = make(Collective::alltoall, "scattered", 70);
    CHECK(big.transfer_count() == 70 * 69);
    CHECK(big.deps.row(70 * 31).size() == 31);
    CHECK(big.sent_deps_of(70 * 31).size() == 31);
    CHECK(big.deps.row(70 * 31 - 1).empty());
}

TEST_CASE("reduce_scatter and alltoall: every schedule is proven, every style, p in 2..20") {
    const std::vector<std::pair<Collective, const char*>> cases{
        {Collective::reduce_scatter, "ring"},
        {Collective::reduce_scatter, "k-ring"},
        {Collective::reduce_scatter, "pairwise"},
        {Collective::alltoall, "pairwise"},
        {Collective::alltoall, "scattered"}};
    for (const auto& kase : cases)
        for (Style style : all_styles)
            for (Rank p = 2; p <= 20; ++p) {
                const AlgorithmInfo& info = find_algorithm(kase.second);
                const std::vector<int> ks =
                    info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
                for (int k : ks) {
                    const Schedule s = make(kase.first, kase.second, p, style, k);
                    const VerifyReport r = verify(s);
                    INFO(fmt::format("{} {} p={} k={} {}: {}", to_string(kase.first), kase.second,
                                     p, k, to_string(style),
                                     r.violation ? r.violation->message : "ok"));
                    CHECK(r.data_flow_checked);
                    CHECK(r.ok());
                }
            }
    for (Rank p : {33, 64, 70}) CHECK(verify(make(Collective::alltoall, "scattered", p)).ok());
}

TEST_CASE("reduce_scatter and alltoall, mpi style, p <= 12: removals that lose data are rejected") {
    for (Rank p = 2; p <= 12; ++p) {
        INFO(fmt::format("p={}", p));
        const auto n = static_cast<std::size_t>(p);
        // Pairwise Reduce_scatter: a send waits for the previous reduce (order: it sends its own
        // contribution), a reduce for its operand (data) and the previous reduce (also reached
        // through its own send's sent dependency): only the p (p - 1) operands are data.
        const auto rs = removals(make(Collective::reduce_scatter, "pairwise", p));
        CHECK(rs.first == 2 * n * (n - 2) + n * (n - 1));
        CHECK(rs.second == n * (n - 1));
        // Ring Reduce_scatter: p (p - 2) sends after a reduce, p (p - 2) reduces of one operand
        // and p reduces of the rank's own segment: every one of them carries data.
        const auto ring = removals(make(Collective::reduce_scatter, "ring", p));
        CHECK(ring.first == 2 * n * (n - 2) + n);
        CHECK(ring.second == ring.first);
        // Alltoall: every send reads the rank's own blocks, so every wait is order only.
        const auto a2a = removals(make(Collective::alltoall, "pairwise", p));
        CHECK(a2a.first == n * (n - 2));
        CHECK(a2a.second == 0);
        const auto scattered = removals(make(Collective::alltoall, "scattered", p));
        CHECK(scattered.first == 0);  // one batch
    }
    // A broken Alltoall: without its last transfer, rank 0's block for rank 1 never arrives... the
    // last transfer of pairwise p = 3 is rank 2 -> rank 1 (step 2: 2 + 2 mod 3), block 2 * 3 + 1.
    Schedule s = make(Collective::alltoall, "pairwise", 3);
    const TaskId last = static_cast<TaskId>(s.size() - 1);
    CHECK(s.src[last] == 2);
    CHECK(s.dst[last] == 1);
    s.dst[last] = 0;
    s.payload.items.back() = 2 * 3 + 0;  // carries block (2, 0) to rank 0 instead
    const VerifyReport r = verify(s);
    REQUIRE(r.violation);
    CHECK(r.violation->message ==
          "incomplete alltoall: rank 1 never receives the block of rank 2 (block 7)");
}

TEST_CASE("reduce_scatter and alltoall: task counts by hand") {
    auto count = [](Collective c, const char* a, Rank p, Style style = Style::mpi) {
        return count_tasks({c, a, 0, p, 8, true, style});
    };
    // Pairwise Reduce_scatter p = 5: 20 transfers, 20 reduces; ids: sends 2 x 5 x 3, reduces
    // 3 x 20 - 5 (step 1 has no previous reduce).
    const TaskCounts rs = count(Collective::reduce_scatter, "pairwise", 5);
    CHECK(rs.transfers == 20);
    CHECK(rs.computes == 20);
    CHECK(rs.dependency_ids == 30 + 55);
    CHECK(rs.payload_ids == 40);
    // Ring Reduce_scatter p = 8: the reversal without its Allgather: 56 transfers, 56 reduces.
    const TaskCounts ring = count(Collective::reduce_scatter, "ring", 8);
    CHECK(ring.transfers == 56);
    CHECK(ring.computes == 56);
    // Scattered p = 70: batches of 31, 32 and 6 partners; ids 2 x 70 x (32 x 31 + 6 x 32).
    const TaskCounts sc = count(Collective::alltoall, "scattered", 70);
    CHECK(sc.transfers == 70 * 69);
    CHECK(sc.dependency_ids == 2 * 70 * (32 * 31 + 6 * 32));
    CHECK(sc.widest_round == 70 * 32);
    CHECK(sc.pieces == 4900);
    CHECK(count(Collective::alltoall, "scattered", 70, Style::pipelined).dependency_ids == 0);
    for (Collective c : {Collective::reduce_scatter, Collective::alltoall})
        for (Style style : all_styles)
            for (Rank p : {2, 3, 6, 8, 12, 33, 70})
                for (const AlgorithmInfo& info : algorithms()) {
                    if (!builds(info, c)) continue;
                    const std::vector<int> ks =
                        info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
                    for (int k : ks) {
                        const GenerateRequest req{c, std::string(info.name), k, p, 8, true, style};
                        const Schedule s = generate(req);
                        const TaskCounts counts = count_tasks(req);
                        INFO(fmt::format("{} {} p={} k={} {}", to_string(c), info.name, p, k,
                                         to_string(style)));
                        CHECK(counts.transfers == s.transfer_count());
                        CHECK(counts.computes == s.size() - s.transfer_count());
                        CHECK(counts.payload_ids == s.payload.items.size());
                        CHECK(counts.pieces == s.shape.pieces);
                        CHECK(counts.dependency_ids >=
                              s.deps.items.size() + s.sent_deps.items.size());
                    }
                }
}

TEST_CASE("reduce_scatter and alltoall: refusals name the option and the valid choices") {
    auto refusal = [](Collective c, const char* a) {
        try {
            generate({c, a, 0, 4, 8, true, Style::mpi});
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refusal(Collective::allgather, "pairwise") ==
          "-c/--collective: pairwise runs reduce_scatter, alltoall only; for allgather use one of "
          "ring, k-ring, rd, rm, prd, prm, bruck");
    CHECK(refusal(Collective::alltoall, "ring") ==
          "-c/--collective: ring runs allgather, allreduce, reduce_scatter only; for alltoall use "
          "one of bruck, pairwise, scattered");
    CHECK(refusal(Collective::reduce_scatter, "scattered") ==
          "-c/--collective: scattered runs alltoall only; for reduce_scatter use one of ring, "
          "k-ring, pairwise, rh, recexch");
}
