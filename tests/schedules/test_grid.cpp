// The acceptance grid: every generator in every style, every collective, every p in 2..130 with
// every valid k <= min(p, 16), and the large cases. Each schedule must pass the data-flow proof.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/verify.hpp"

using namespace piccolo;

namespace {

void expect_verified(Collective c, const std::string& algorithm, int k, Rank p,
                     std::uint64_t bytes) {
    for (Style style : all_styles) {
        const Schedule s = generate({c, algorithm, k, p, bytes, true, style});
        const VerifyReport report = verify(s);
        INFO(fmt::format("{} {} k={} p={} bytes={} style={}", to_string(c), algorithm, k, p, bytes,
                         to_string(style)));
        REQUIRE(report.data_flow_checked);
        if (!report.ok()) FAIL(report.violation->message);
    }
}

// Every k the grid asks for: 2..min(p,16) for radix algorithms, none otherwise.
std::vector<int> grid_radices(const AlgorithmInfo& info, Rank p) {
    if (!info.has_radix) return {0};
    std::vector<int> ks;
    for (int k = 2; k <= std::min(p, 16); ++k) ks.push_back(k);
    return ks;
}

void run_grid(Collective c, Rank first, Rank last) {
    for (const AlgorithmInfo& info : algorithms())
        for (Rank p = first; p <= last; ++p)
            for (int k : grid_radices(info, p)) {
                // Uneven sizes on purpose: allreduce segments then differ by one byte.
                const std::uint64_t bytes = c == Collective::allgather ? 3 : 7 * p + 5;
                if (!builds(info, c)) {
                    // Documented refusals: the rooted trees build Bcast and Reduce only, which no
                    // other algorithm builds; the others name what they run.
                    const bool rooted = c == Collective::bcast || c == Collective::reduce ||
                                        builds(info, Collective::bcast) ||
                                        builds(info, Collective::reduce);
                    const char* says = rooted ? "does not build" : " only; for ";
                    CHECK_THROWS_WITH_AS(generate({c, std::string(info.name), k, p, bytes, true}),
                                         doctest::Contains(says), InputError);
                    continue;
                }
                if (info.name == "k-ring" && p % k != 0) {
                    // Documented refusal: k-ring needs k | p.
                    CHECK_THROWS_WITH_AS(generate({c, std::string(info.name), k, p, bytes, true}),
                                         doctest::Contains("k-ring needs k to divide p"),
                                         InputError);
                    continue;
                }
                expect_verified(c, std::string(info.name), k, p, bytes);
            }
}

}  // namespace

TEST_CASE("grid: allgather, p = 2..65") {
    run_grid(Collective::allgather, 2, 65);
}
TEST_CASE("grid: allgather, p = 66..130") {
    run_grid(Collective::allgather, 66, 130);
}
TEST_CASE("grid: allreduce, p = 2..65") {
    run_grid(Collective::allreduce, 2, 65);
}
TEST_CASE("grid: allreduce, p = 66..130") {
    run_grid(Collective::allreduce, 66, 130);
}
TEST_CASE("grid: bcast and reduce, p = 2..65") {
    run_grid(Collective::bcast, 2, 65);
    run_grid(Collective::reduce, 2, 65);
}

namespace {

void run_large(Collective c, Rank p) {
    for (const AlgorithmInfo& info : algorithms())
        for (int k : {2, 3, 4, 8}) {
            if (!info.has_radix && k != 2) continue;
            if (info.name == "k-ring" && p % k != 0) continue;  // refused, as in the grid
            if (!builds(info, c)) continue;                     // refused, as in the grid
            expect_verified(c, std::string(info.name), info.has_radix ? k : 0, p,
                            c == Collective::allgather ? 1 : 4 * p + 3);
        }
}

}  // namespace

TEST_CASE("large: allgather p = 256") {
    run_large(Collective::allgather, 256);
}
TEST_CASE("large: allreduce p = 256") {
    run_large(Collective::allreduce, 256);
}
TEST_CASE("large: allgather p = 1000") {
    run_large(Collective::allgather, 1000);
}
TEST_CASE("large: allreduce p = 1000") {
    run_large(Collective::allreduce, 1000);
}
TEST_CASE("large: allgather p = 1024") {
    run_large(Collective::allgather, 1024);
}
TEST_CASE("large: allreduce p = 1024") {
    run_large(Collective::allreduce, 1024);
}

TEST_CASE("large: p = 4096 for rd, rm, prd, prm") {
    for (Collective c : {Collective::allgather, Collective::allreduce})
        for (const char* algorithm : {"rd", "rm", "prd", "prm"})
            for (int k : {2, 3, 4, 8}) {
                if ((std::string_view(algorithm) == "rd" || std::string_view(algorithm) == "prd") &&
                    k != 2)
                    continue;
                expect_verified(c, algorithm, k, 4096, 1);
            }
}
