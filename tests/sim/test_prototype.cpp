// The reference prototype's schedule structure, written here by hand from each algorithm's
// definition: every rank takes part in every round, and each round's sends depend on all of the
// rank's sends and receives of the round before (delivered). piccolo's NCCL-style schedules of
// the same algorithms must replay to exactly the same makespan on a contended machine.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

struct Message {
    int src = 0, dst = 0;
    std::uint64_t bytes = 0;
};
using Round = std::vector<Message>;

// PICCL's XML: round by round, deps = the ids of the rank's messages in the round before.
std::string prototype_xml(int p, std::uint64_t m, const std::vector<Round>& rounds) {
    std::string xml =
        fmt::format("<collective name=\"allgather\" nodes=\"{}\" buffer_size=\"{}\">\n", p,
                    m * static_cast<std::uint64_t>(p));
    std::vector<std::vector<int>> previous(static_cast<std::size_t>(p));
    int id = 0;
    for (const Round& round : rounds) {
        std::vector<std::vector<int>> current(static_cast<std::size_t>(p));
        for (const Message& msg : round) {
            std::string deps;
            for (int d : previous[static_cast<std::size_t>(msg.src)]) {
                if (!deps.empty()) deps += ',';
                deps += std::to_string(d);
            }
            xml +=
                fmt::format("<transfer id=\"{}\" size=\"{}\" src=\"{}\" dst=\"{}\" deps=\"{}\"/>\n",
                            id, msg.bytes, msg.src, msg.dst, deps.empty() ? "-1" : deps);
            current[static_cast<std::size_t>(msg.src)].push_back(id);
            current[static_cast<std::size_t>(msg.dst)].push_back(id);
            ++id;
        }
        previous = std::move(current);
    }
    return xml + "</collective>\n";
}

// Ring: p - 1 rounds, each rank to its right neighbour.
std::vector<Round> ring(int p, std::uint64_t m) {
    std::vector<Round> rounds(static_cast<std::size_t>(p - 1));
    for (Round& round : rounds)
        for (int r = 0; r < p; ++r) round.push_back({r, (r + 1) % p, m});
    return rounds;
}

// k-ring: p/k - 1 rounds between groups (each rank to the same position k ahead), then p/k
// times k - 1 rounds around the rank's group of k.
std::vector<Round> k_ring(int p, int k, std::uint64_t m) {
    std::vector<Round> rounds;
    for (int i = 0; i + 1 < p / k; ++i) {
        Round& round = rounds.emplace_back();
        for (int r = 0; r < p; ++r) round.push_back({r, (r + k) % p, m});
    }
    for (int i = 0; i < p / k * (k - 1); ++i) {
        Round& round = rounds.emplace_back();
        for (int r = 0; r < p; ++r) round.push_back({r, r / k * k + (r % k + 1) % k, m});
    }
    return rounds;
}

// Recursive multiplying, p = k^n: round i exchanges with the k - 1 ranks at multiples of
// distance k^i in the rank's block of k^(i+1); messages grow by k a round. Permuted: the same
// from the largest distance down. A round's partners are listed in increasing order for both.
// (The prototype's own code posts its permuted rounds' partners rotated, i places ahead for
// i = 1..k-1: PICCL, src/coll/allgather.c and tools/schedule_generator/coll/allgather.py at
// commits e5691b9 and 0e67695. piccolo's nccl style keeps increasing order: generated rotated,
// Fig. 8 on delta selects prm k = 16 at every size instead of the paper's 8 then 4.)
std::vector<Round> recursive_multiplying(int p, int k, std::uint64_t m, bool permuted) {
    std::vector<int> distances;
    for (int d = 1; d < p; d *= k) distances.push_back(d);
    if (permuted) std::reverse(distances.begin(), distances.end());
    std::vector<Round> rounds;
    std::uint64_t bytes = m;
    for (int d : distances) {
        Round& round = rounds.emplace_back();
        for (int r = 0; r < p; ++r) {
            const int block = r / (d * k) * (d * k), offset = r % d;
            for (int j = 0; j < k; ++j)
                if (const int dst = block + offset + j * d; dst != r)
                    round.push_back({r, dst, bytes});
        }
        bytes *= static_cast<std::uint64_t>(k);
    }
    return rounds;
}

double makespan(const Schedule& s, const Machine& m) {
    return simulate(s, m, RankLayout(m, 16, 4)).makespan;
}

}  // namespace

TEST_CASE("prototype-structured ring, k-ring, rm and prm files replay like piccolo's nccl style") {
    Machine delta = load_preset("delta");
    delta.compute.permute_latency = 0;  // the prototype's prm has no final permute task
    delta.compute.permute_per_byte = 0;
    const int p = 64;
    for (std::uint64_t m : {8ULL, 4096ULL, 1ULL << 20}) {
        struct Case {
            const char* algorithm;
            int k;
            std::vector<Round> rounds;
        };
        const Case cases[] = {{"ring", 0, ring(p, m)},
                              {"k-ring", 4, k_ring(p, 4, m)},
                              {"k-ring", 8, k_ring(p, 8, m)},
                              {"rm", 4, recursive_multiplying(p, 4, m, false)},
                              {"rm", 8, recursive_multiplying(p, 8, m, false)},
                              {"prm", 4, recursive_multiplying(p, 4, m, true)},
                              {"prm", 8, recursive_multiplying(p, 8, m, true)}};
        for (const Case& c : cases) {
            const Schedule prototype =
                parse_schedule_xml(prototype_xml(p, m, c.rounds), "prototype.xml").schedule;
            GenerateRequest request{Collective::allgather, c.algorithm, c.k, p, m, false};
            request.style = Style::nccl;
            const Schedule ours = generate(request);
            INFO(fmt::format("{} k={} m={}", c.algorithm, c.k, m));
            CHECK(makespan(prototype, delta) == makespan(ours, delta));
        }
    }
}
