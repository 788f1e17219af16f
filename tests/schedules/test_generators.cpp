// Generator shapes: transfer counts against closed forms, exact byte splits, radix factorings, and
// hand-checked small schedules.
#include <doctest/doctest.h>

#include <map>
#include <numeric>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"

using namespace piccolo;

namespace {

Schedule make(Collective c, const char* algorithm, int k, Rank p, std::uint64_t bytes,
              bool payload = true) {
    return generate({c, algorithm, k, p, bytes, payload});
}

std::size_t ipow(std::size_t base, int exponent) {
    std::size_t r = 1;
    while (exponent-- > 0) r *= base;
    return r;
}

}  // namespace

TEST_CASE("transfer counts: ring and k-ring allgather move p(p-1) messages") {
    for (Rank p : {2, 3, 8, 12, 64, 100}) {
        CHECK(make(Collective::allgather, "ring", 0, p, 8).transfer_count() ==
              static_cast<std::size_t>(p) * (p - 1));
        for (int k = 2; k <= p; ++k)
            if (p % k == 0)
                CHECK(make(Collective::allgather, "k-ring", k, p, 8).transfer_count() ==
                      static_cast<std::size_t>(p) * (p - 1));
    }
}

TEST_CASE("transfer counts: RM allgather with p = k^n moves p(k-1)n, RD moves p log2 p") {
    for (auto [k, n] : std::vector<std::pair<int, int>>{
             {2, 1}, {2, 5}, {3, 3}, {4, 3}, {5, 3}, {8, 2}, {16, 2}}) {
        const auto p = static_cast<Rank>(ipow(k, n));
        const std::size_t expected = static_cast<std::size_t>(p) * (k - 1) * n;
        CHECK(make(Collective::allgather, "rm", k, p, 8).transfer_count() == expected);
        CHECK(make(Collective::allgather, "prm", k, p, 8).transfer_count() == expected);
    }
    for (int n : {1, 2, 6, 10}) {
        const auto p = static_cast<Rank>(ipow(2, n));
        CHECK(make(Collective::allgather, "rd", 0, p, 8).transfer_count() ==
              static_cast<std::size_t>(p) * n);
        CHECK(make(Collective::allgather, "prd", 0, p, 8).transfer_count() ==
              static_cast<std::size_t>(p) * n);
    }
}

TEST_CASE("p = 125 = 5^3 is accepted (the reference prototype's float test refuses it)") {
    const Schedule s = make(Collective::allgather, "rm", 5, 125, 8);
    CHECK(s.transfer_count() == 125u * 4 * 3);
}

TEST_CASE("RM allgather messages grow by k each round: sizes m, k m, k^2 m") {
    const Schedule s = make(Collective::allgather, "rm", 4, 64, 10);
    std::map<std::uint64_t, std::size_t> per_size;
    for (TaskId t = 0; t < s.size(); ++t) ++per_size[s.bytes(t)];
    CHECK(per_size == std::map<std::uint64_t, std::size_t>{{10, 192}, {40, 192}, {160, 192}});
}

TEST_CASE("mixed radix: p = 12, k = 4 runs rounds of radix 4 then 3 with no fold-in") {
    const Schedule s = make(Collective::allgather, "rm", 4, 12, 1);
    // Round 1: 12 ranks x 3 partners, blocks of 1; round 2: 12 x 2 partners, 4 blocks each.
    CHECK(s.transfer_count() == 12u * 3 + 12u * 2);
    CHECK(s.bytes(0) == 1);
    CHECK(s.bytes(36) == 4);
}

TEST_CASE("fold-in: p = 10 with rd folds ranks 8, 9 into 0, 1") {
    const Schedule s = make(Collective::allgather, "rd", 0, 10, 1);
    // 2 fold-in messages, 8 * 3 exchange messages, 2 results back of p - 1 = 9 blocks.
    REQUIRE(s.transfer_count() == 2 + 24 + 2);
    CHECK(s.src[0] == 8);
    CHECK(s.dst[0] == 0);
    CHECK(s.src[1] == 9);
    CHECK(s.dst[1] == 1);
    CHECK(s.bytes(s.size() - 1) == 9);
    CHECK(s.dst[s.size() - 1] == 9);
}

TEST_CASE("allreduce sizes are split exactly: segments differ by at most one byte") {
    // 10 bytes over 4 ranks: segments of 3, 3, 2, 2 bytes.
    const Schedule s = make(Collective::allreduce, "ring", 0, 4, 10);
    CHECK(s.shape.piece_bytes(0) == 3);
    CHECK(s.shape.piece_bytes(1) == 3);
    CHECK(s.shape.piece_bytes(2) == 2);
    CHECK(s.shape.piece_bytes(3) == 2);
    std::uint64_t total = 0;
    for (std::uint32_t i = 0; i < 4; ++i) total += s.shape.piece_bytes(i);
    CHECK(total == 10);
    // The reduce-scatter moves each segment p - 1 times, the allgather again: 2 (p-1) m bytes.
    std::uint64_t moved = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer) moved += s.bytes(t);
    CHECK(moved == 2 * 3 * 10);
}

TEST_CASE("ring allreduce has both phases: 2 p (p-1) transfers and p (p-1) reduces") {
    const Schedule s = make(Collective::allreduce, "ring", 0, 6, 600);
    CHECK(s.transfer_count() == 2u * 6 * 5);
    CHECK(s.size() - s.transfer_count() == 6u * 5);
}

TEST_CASE("RM allreduce: log_k p rounds, each followed by one reduce of the full vector") {
    const Schedule s = make(Collective::allreduce, "rm", 3, 27, 1000);
    std::size_t reduces = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::reduce) {
            ++reduces;
            CHECK(s.bytes(t) == 1000);
        } else {
            CHECK(s.bytes(t) == 1000);
        }
    CHECK(reduces == 27u * 3);
    CHECK(s.transfer_count() == 27u * 2 * 3);
}

TEST_CASE("PRM allgather ends with one permute of the whole buffer per rank") {
    const Schedule s = make(Collective::allgather, "prm", 4, 16, 100);
    std::size_t permutes = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::permute) {
            ++permutes;
            CHECK(s.bytes(t) == 1600);
        }
    CHECK(permutes == 16);
    // First round partners are p/k = 4 apart (distance halving).
    CHECK(s.src[0] == 0);
    CHECK(s.dst[0] == 4);
}

TEST_CASE("payload-free generation gives the same DAG and sizes") {
    for (const char* algorithm : {"ring", "k-ring", "rm", "prm"}) {
        const Schedule a = make(Collective::allgather, algorithm, 4, 24, 5, true);
        const Schedule b = make(Collective::allgather, algorithm, 4, 24, 5, false);
        CHECK_FALSE(b.has_payload());
        CHECK(a.src == b.src);
        CHECK(a.dst == b.dst);
        CHECK(a.deps.items == b.deps.items);
        for (TaskId t = 0; t < a.size(); ++t) CHECK(a.bytes(t) == b.bytes(t));
    }
}

TEST_CASE("requests that cannot be generated are refused with one line") {
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "rm", 1, 8, 8),
                         "-k: rm needs 2 <= k <= p = 8 (got k = 1)", InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "rm", 9, 8, 8),
                         "-k: rm needs 2 <= k <= p = 8 (got k = 9)", InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "ring", 0, 1, 8),
                         "-p/--ranks: need at least 2 ranks (got 1)", InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "ring", 0, 4, 0),
                         "--bytes: message size must be at least 1 byte", InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "bogus", 0, 4, 8),
                         "unknown algorithm 'bogus' (known: ring, k-ring, rd, rm, prd, prm, bruck, "
                         "knomial, binomial, scatter-rd, scatter-ring, pairwise, scattered, rh, "
                         "rabenseifner, recexch)",
                         InputError);
    CHECK_THROWS_WITH_AS(
        make(Collective::allgather, "k-ring", 4, 10, 8),
        "-k: k-ring with p = 10 accepts k in {2, 5, 10} (got k = 4); k-ring needs k to divide p",
        InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allreduce, "ring", 0, 16, 8),
                         doctest::Contains("needs at least 16 bytes"), InputError);
}

TEST_CASE("fold-in core = the largest k-smooth number <= p") {
    // p = 1000, k = 3: 972 = 2^2 * 3^5 is the largest 3-smooth number <= 1000; its radices are
    // five 3s and two 2s (3 * 2 > 3), so 972 * (5 * 2 + 2 * 1) exchange messages plus 2 * 28
    // fold messages (ranks 972..999 hand in to 0..27 and get the result back).
    const Schedule s = make(Collective::allgather, "rm", 3, 1000, 1, false);
    CHECK(s.transfer_count() == 972u * 12 + 2 * 28);
    CHECK(s.src[0] == 972);
    CHECK(s.dst[0] == 0);
    // p = 1023, k = 2: the core is 512, 511 ranks fold in.
    CHECK(make(Collective::allgather, "rd", 0, 1023, 1, false).transfer_count() ==
          512u * 9 + 2 * 511);
    // k > 16 takes the other search path: p = 1009 (prime), k = 17: 1008 = 2^4 3^2 7.
    CHECK(make(Collective::allgather, "rm", 17, 1009, 1, false).src[0] == 1008);
}

TEST_CASE("requests too large for the IR are refused before any allocation") {
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "rm", 2, 2147483647, 8, false),
                         "-p/--ranks: allgather rm with p = 2147483647 needs 3.44e+10 tasks; a "
                         "schedule holds at most 2^32 - 1 (use fewer ranks)",
                         InputError);
    CHECK_THROWS_WITH_AS(make(Collective::allgather, "ring", 0, 70000, 8, true),
                         doctest::Contains("payload entries"), InputError);
}
