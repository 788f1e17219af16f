// The wave order of piccolo-run-nccl (piccolo/executor/waves.hpp), executed in one process with
// messages matched as NCCL matches them: by position per (sender, receiver) pair within a group,
// not by tag. Every algorithm, style and collective at several scales must end with every byte
// right on every rank, and every send of a wave must meet its receive in that same wave.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>

#include "piccolo/core/error.hpp"
#include "piccolo/executor/data.hpp"
#include "piccolo/executor/waves.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/verify.hpp"

using namespace piccolo;
using namespace piccolo::exec;

namespace {

struct RankState {
    RankPlan plan;
    Images images;
    std::vector<std::byte> arena;
    std::vector<Wave> waves;
};

void run_wave(std::vector<RankState>& ranks, std::size_t w) {
    for (RankState& r : ranks)
        for (std::uint32_t i : r.waves[w].computes) {
            apply_copies(r.plan.ops[i].copies, r.arena);
            apply_reduces(r.plan.ops[i].reduces, r.plan.element, r.arena);
        }
    std::map<std::pair<Rank, Rank>, std::deque<const LocalOp*>> in_flight;
    for (std::size_t src = 0; src < ranks.size(); ++src)
        for (std::uint32_t i : ranks[src].waves[w].transfers) {
            const LocalOp& op = ranks[src].plan.ops[i];
            if (op.kind != OpKind::send) continue;
            apply_copies(op.copies, ranks[src].arena);  // pack
            in_flight[{static_cast<Rank>(src), op.peer}].push_back(&op);
        }
    for (std::size_t dst = 0; dst < ranks.size(); ++dst)
        for (std::uint32_t i : ranks[dst].waves[w].transfers) {
            const LocalOp& recv = ranks[dst].plan.ops[i];
            if (recv.kind != OpKind::recv) continue;
            auto& queue = in_flight[{recv.peer, static_cast<Rank>(dst)}];
            REQUIRE_MESSAGE(!queue.empty(), "a receive without a send in its wave");
            const LocalOp& send = *queue.front();
            queue.pop_front();
            REQUIRE(send.bytes == recv.bytes);
            std::memcpy(ranks[dst].arena.data() + recv.offset,
                        ranks[static_cast<std::size_t>(recv.peer)].arena.data() + send.offset,
                        send.bytes);
            apply_copies(recv.copies, ranks[dst].arena);  // unpack
        }
    for (const auto& [pair, queue] : in_flight) REQUIRE_MESSAGE(queue.empty(), "a send unmatched");
}

void run_in_waves(const Schedule& s) {
    std::vector<TaskId> order;
    REQUIRE_FALSE(verify_structure(s, order).has_value());
    const std::vector<std::uint32_t> levels = task_levels(s, order);
    std::vector<RankState> ranks(static_cast<std::size_t>(s.shape.ranks));
    for (Rank r = 0; r < s.shape.ranks; ++r) {
        RankState& state = ranks[static_cast<std::size_t>(r)];
        state.plan = compile_plan(s, order, r, choose_element(s.shape, std::nullopt));
        state.images = make_images(s.shape, state.plan.element, r);
        state.arena.resize(state.plan.arena_bytes);
        prepare(state.plan, state.images, state.arena);
        state.waves = plan_waves(state.plan, levels);
        REQUIRE(state.waves.size() == ranks[0].waves.size());
    }
    for (std::size_t w = 0; w < ranks[0].waves.size(); ++w) run_wave(ranks, w);
    for (const RankState& r : ranks) {
        const std::optional<std::string> wrong = check_result(r.plan, r.images, r.arena);
        CHECK_MESSAGE(!wrong.has_value(), wrong.value_or(""));
    }
}

}  // namespace

TEST_CASE("levels: 0 without dependencies, else one more than the deepest") {
    // A 4-rank ring Allgather: p - 1 rounds, each waiting for the one before.
    const Schedule ring = generate({Collective::allgather, "ring", 0, 4, 8, true, Style::mpi});
    std::vector<TaskId> order;
    REQUIRE_FALSE(verify_structure(ring, order).has_value());
    const std::vector<std::uint32_t> levels = task_levels(ring, order);
    CHECK(*std::max_element(levels.begin(), levels.end()) == 2);
    const RankPlan plan = compile_plan(ring, order, 1, Element::u8);
    const std::vector<Wave> waves = plan_waves(plan, levels);
    REQUIRE(waves.size() == 3);
    for (const Wave& w : waves) CHECK(w.transfers.size() == 2);  // one send, one receive
}

TEST_CASE("every algorithm, style and collective runs right in waves matched by position") {
    for (Rank p : {2, 3, 4, 5, 6, 8})
        for (Collective collective : {Collective::allgather, Collective::allreduce})
            for (const AlgorithmInfo& info : algorithms())
                for (int k : info.has_radix ? info.valid_radices(p) : std::vector<int>{0})
                    for (Style style : all_styles)
                        for (std::uint64_t bytes : {1, 7, 4096}) {
                            Schedule s;
                            try {
                                s = generate(
                                    {collective, std::string(info.name), k, p, bytes, true, style});
                            } catch (const InputError&) {
                                continue;  // e.g. an Allreduce of fewer bytes than segments
                            }
                            INFO(fmt::format("{} {} k={} {} p={} {} B", to_string(collective),
                                             info.name, k, to_string(style), p, bytes));
                            run_in_waves(s);
                        }
}
