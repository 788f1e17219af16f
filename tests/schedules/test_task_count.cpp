// count_tasks and dag_identity (task_count.hpp): the closed forms against hand-computed values,
// and against what generate() builds on a grid of p, k, styles and both collectives.
#include <doctest/doctest.h>

#include <map>
#include <utility>
#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"

using namespace piccolo;

namespace {

GenerateRequest request(Collective c, const char* algorithm, int k, Rank p,
                        Style style = Style::mpi, bool payload = true) {
    return {c,       algorithm, k, p, std::max<std::uint64_t>(1024, static_cast<std::uint64_t>(p)),
            payload, style};
}

std::uint64_t computes_of(const Schedule& s) {
    return s.size() - s.transfer_count();
}

}  // namespace

TEST_CASE("task counts: hand-computed closed forms") {
    // ring Allgather p = 8: 8 x 7 transfers; Allreduce: twice that, and 8 x 6 + 8 reduces.
    CHECK(count_tasks(request(Collective::allgather, "ring", 0, 8)).transfers == 56);
    const TaskCounts ring_ar = count_tasks(request(Collective::allreduce, "ring", 0, 8));
    CHECK(ring_ar.transfers == 112);
    CHECK(ring_ar.computes == 56);
    // k-ring p = 12, k = 3: 4 groups; reduces 12 x (3 + 4 x 1) + 12 = 96.
    const TaskCounts kring_ar = count_tasks(request(Collective::allreduce, "k-ring", 3, 12));
    CHECK(kring_ar.transfers == 264);
    CHECK(kring_ar.computes == 96);
    // rd p = 4096: 12 rounds of 4096 transfers.
    CHECK(count_tasks(request(Collective::allgather, "rd", 0, 4096)).transfers == 49152);
    // rd p = 6: core 4, 2 folded ranks: 2 + 2 x 4 + 2 transfers; Allreduce adds 2 + 2 x 4 reduces.
    CHECK(count_tasks(request(Collective::allgather, "rd", 0, 6)).transfers == 12);
    CHECK(count_tasks(request(Collective::allreduce, "rd", 0, 6)).computes == 10);
    // rm p = 4096, k = 2048: radices {2048, 2}: 4096 x 2048 transfers; prm adds 4096 permutes.
    CHECK(count_tasks(request(Collective::allgather, "rm", 2048, 4096)).transfers == 8388608);
    CHECK(count_tasks(request(Collective::allgather, "prm", 2048, 4096)).computes == 4096);
    // The 4096-rank ring Allgather of the benchmarks: 16,773,120 transfers.
    CHECK(count_tasks(request(Collective::allgather, "ring", 0, 4096)).tasks() == 16773120);
}

TEST_CASE("task counts: equal to what generate() builds, every algorithm, style and k") {
    for (Collective c : all_collectives)
        for (Style style : all_styles)
            for (Rank p : {2, 3, 6, 8, 12, 30, 64, 100}) {
                for (const AlgorithmInfo& info : algorithms()) {
                    if (!builds(info, c)) continue;
                    const std::vector<int> ks =
                        info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
                    for (int k : ks) {
                        const GenerateRequest r = request(c, info.name.data(), k, p, style);
                        CAPTURE(info.name);
                        CAPTURE(p);
                        CAPTURE(k);
                        CAPTURE(to_string(style));
                        CAPTURE(to_string(c));
                        const Schedule s = generate(r);
                        const TaskCounts counts = count_tasks(r);
                        CHECK(counts.transfers == s.transfer_count());
                        CHECK(counts.computes == computes_of(s));
                        CHECK(counts.payload_ids == s.payload.items.size());
                        CHECK(counts.pieces == s.shape.pieces);
                        CHECK(counts.dependency_ids >=
                              s.deps.items.size() + s.sent_deps.items.size());
                        CHECK(counts.shared_dependency_ids <= counts.dependency_ids);
                        if (counts.shared_dependency_ids > 0) {
                            // Shared whole (scattered): a rank's sends of one batch of 32 are
                            // consecutive tasks with equal lists, so there are at most as many
                            // lists as ranks times batches.
                            std::size_t lists = 1;
                            for (TaskId t = 1; t < s.size(); ++t)
                                lists += s.same_dependencies(t, t - 1) ? 0 : 1;
                            CHECK(lists <= static_cast<std::size_t>(p) * ((p + 31) / 32));
                        }
                    }
                }
            }
}

TEST_CASE("dag identity: equal identities build equal DAGs, rm with k = 4..7 at p = 64 is one") {
    // Per collective, the algorithms whose identities can coincide: rd and rm (k = 2), rm with
    // k of one radix factoring, knomial (k = 2) and binomial, rh and recexch (k = 2).
    const std::pair<Collective, std::vector<const char*>> families[] = {
        {Collective::allgather, {"rd", "rm", "prd", "prm"}},
        {Collective::allreduce, {"rd", "rm", "prd", "prm"}},
        {Collective::bcast, {"knomial", "binomial"}},
        {Collective::reduce, {"knomial", "binomial", "rabenseifner"}},
        {Collective::reduce_scatter, {"rh", "recexch"}}};
    for (const auto& [c, names] : families)
        for (Rank p : {12, 64, 100}) {
            std::map<std::string, Schedule> seen;
            for (const char* name : names) {
                const AlgorithmInfo& info = find_algorithm(name);
                const std::vector<int> ks =
                    info.has_radix ? info.valid_radices(p) : std::vector<int>{0};
                for (int k : ks) {
                    const GenerateRequest r = request(c, name, k, p);
                    Schedule s = generate(r);
                    const auto [at, inserted] = seen.try_emplace(dag_identity(r), std::move(s));
                    if (inserted) continue;
                    CAPTURE(dag_identity(r));
                    const Schedule again = generate(r);
                    CHECK(at->second.src == again.src);
                    CHECK(at->second.dst == again.dst);
                    CHECK(at->second.deps.items == again.deps.items);
                    CHECK(at->second.sent_deps.items == again.sent_deps.items);
                    CHECK(at->second.size_class == again.size_class);
                }
            }
        }
    const auto id = [](int k) { return dag_identity(request(Collective::allgather, "rm", k, 64)); };
    CHECK(id(4) == id(5));
    CHECK(id(4) == id(7));
    CHECK(id(4) != id(8));
    CHECK(dag_identity(request(Collective::allgather, "rd", 0, 64)) == id(2));
    CHECK(dag_identity(request(Collective::allgather, "prd", 0, 64)) !=
          dag_identity(request(Collective::allgather, "rd", 0, 64)));
    CHECK(dag_identity(request(Collective::reduce_scatter, "recexch", 2, 64)) ==
          dag_identity(request(Collective::reduce_scatter, "rh", 0, 64)));
    CHECK(dag_identity(request(Collective::reduce_scatter, "recexch", 4, 64)) !=
          dag_identity(request(Collective::reduce_scatter, "rh", 0, 64)));
}
