// The selector: analytically known choices, schedule sharing, determinism across thread counts,
// request validation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

// Two levels (node of 4 devices, system) with the same constant LogGP parameters: L = 1 us,
// o_s = 1 us, o_r = 0, g = 0, G = 0. So a message costs o_s + L = 2 us whatever its size, and a
// send holds its device send slot for max(o_s, g) + (m-1)G = o_s = 1 us. No NIC limit.
Machine two_level(int device_radix) {
    const LogGP params{1e-6, 1e-6, 0, 0, 0};
    Machine m;
    m.name = "two-level";
    m.device_radix = device_radix;
    m.levels.push_back({"node", 4, std::nullopt, LogGPTable({{0, params}})});
    m.levels.push_back({"system", 0, std::nullopt, LogGPTable({{0, params}})});
    m.compute.permute_latency = 1e-7;  // makes prm strictly slower than rm, not tied
    validate_machine(m);
    return m;
}

const AlgorithmOutcome& outcome(const PointSelection& p, std::string_view algorithm) {
    for (const AlgorithmOutcome& o : p.algorithms)
        if (o.algorithm == algorithm) return o;
    FAIL("no outcome for " << algorithm);
    return p.algorithms.front();
}

SelectRequest small_request(Machine machine) {
    SelectRequest r;
    r.machine = std::move(machine);
    r.sizes = {8, 1024};
    r.scales = {{4, 4}};  // p = 16
    return r;
}

}  // namespace

TEST_CASE("recursive multiplying: the best k is the most partners the device radix sends at once") {
    // p = 16 ranks on 4 x 4. rm takes its radices from the factors of 16 (largest first, each <=
    // k):
    //   k = 2, 3: 2,2,2,2 (4 rounds)   k = 4..7: 4,4 (2 rounds)
    //   k = 8..15: 8,2 (2 rounds)       k = 16: 16 (1 round)
    // A round of radix r sends r-1 messages per rank; with R send slots they leave in
    // ceil((r-1)/R) waves of o_s = 1 us, and the last arrives o_s + L = 2 us after its wave
    // starts: round time = (ceil((r-1)/R) - 1) us + 2 us. Nothing queues at the receiver
    // (o_r = G = 0 frees a receive slot at once) or at a NIC (unlimited).
    SUBCASE("device radix 3") {
        // k=2: 4 rounds x 2 = 8 us.  k=4: 2 rounds x 2 = 4 us.
        // k=8: radix 8 -> 7 sends, ceil(7/3) = 3 waves: 2 + 2 = 4 us; radix 2: 2 us -> 6 us.
        // k=16: 15 sends, 5 waves: 4 + 2 = 6 us.  Best: k = 4 (4 us), shared by k = 5..7.
        const SelectResult result = select(small_request(two_level(3)));
        for (const PointSelection& p : result.points) {
            const AlgorithmOutcome& rm = outcome(p, "rm");
            CHECK(rm.k == 4);
            CHECK(rm.same_schedule_k == std::vector<int>{5, 6, 7});
            CHECK(rm.time == doctest::Approx(4e-6).epsilon(1e-12));
            REQUIRE(p.best_outcome() != nullptr);
            CHECK(p.best_outcome()->algorithm == "rm");
            // rd = rm with k = 2: 8 us; ring: 15 rounds x 2 us = 30 us. Baseline rd, 2x.
            CHECK(p.baseline == "rd");
            CHECK(p.baseline_time == doctest::Approx(8e-6).epsilon(1e-12));
            CHECK(p.speedup() == doctest::Approx(2.0));
            // Every candidate time, by k: 8, 8, 4, 4, 4, 4, 6 (k = 8..15), 6 (k = 16).
            std::vector<double> expected;
            for (int k = 2; k <= 16; ++k) expected.push_back(k < 4 ? 8e-6 : k < 8 ? 4e-6 : 6e-6);
            REQUIRE(rm.candidates.size() == expected.size());
            for (std::size_t i = 0; i < expected.size(); ++i) {
                CHECK(rm.candidates[i].first == static_cast<int>(i) + 2);
                CHECK(rm.candidates[i].second == doctest::Approx(expected[i]).epsilon(1e-12));
            }
        }
    }
    SUBCASE("device radix 15") {
        // k=16: 15 sends in one wave: 2 us, one round. Every smaller k needs 2+ rounds.
        const SelectResult result = select(small_request(two_level(15)));
        for (const PointSelection& p : result.points) {
            const AlgorithmOutcome& rm = outcome(p, "rm");
            CHECK(rm.k == 16);
            CHECK(rm.time == doctest::Approx(2e-6).epsilon(1e-12));
            CHECK(p.best_outcome()->algorithm == "rm");
            // Runner-up: Allgather: prm k = 16, one round plus a 0.1 us permute = 2.1 us.
            // Allreduce: prm has no permute, so prm k = 16 is the same DAG as rm k = 16 and not
            // an alternative; the fastest different one is prm k = 4 (2 rounds, 4 us; prm
            // k = 8 (radices 8,2) ties at 4 us and the smaller k wins).
            REQUIRE(p.runner_up.has_value());
            CHECK(p.runner_up->algorithm == "prm");
            if (p.collective == Collective::allgather) {
                CHECK(p.runner_up->k == 16);
                CHECK(p.margin() == doctest::Approx(0.05));
            } else {
                CHECK(p.runner_up->k == 4);
                CHECK(p.margin() == doctest::Approx(1.0));
            }
        }
    }
}

TEST_CASE("output is byte-identical for 1 and 2 threads") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.sizes = {8, 4096, 1 << 20, 8 << 20};
    r.scales = {{1, 4}, {2, 4}, {4, 4}, {8, 4}};
    r.threads = 1;
    const SelectResult one = select(r);
    r.threads = 2;
    const SelectResult two = select(r);
    CHECK(emit_json(one) == emit_json(two));
    CHECK(emit_csv(one) == emit_csv(two));
    CHECK(emit_table(one) == emit_table(two));
    CHECK(emit_mpich_json(one, {}).text == emit_mpich_json(two, {}).text);
}

TEST_CASE("ring and k-ring Allreduce are skipped below p bytes, with the reason") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.collectives = {Collective::allreduce};
    r.sizes = {8, 16, 64};
    r.scales = {{4, 4}};  // p = 16: needs >= 16 bytes
    const SelectResult result = select(r);
    const PointSelection& small = result.at(0, 0, 0);
    CHECK_FALSE(outcome(small, "ring").available);
    CHECK(outcome(small, "ring").skipped ==
          "needs at least p = 16 bytes (the vector is cut into p segments)");
    CHECK_FALSE(outcome(small, "k-ring").available);
    CHECK(outcome(small, "rm").available);
    CHECK(small.baseline == "rd");  // ring cannot run, so the baseline is rd
    CHECK(outcome(result.at(0, 0, 1), "ring").available);
    CHECK(emit_table(result).find("ring not run at 8 B: needs at least p = 16 bytes") !=
          std::string::npos);
}

TEST_CASE("ring and rd are simulated for the baseline even when not ranked") {
    SelectRequest r = small_request(two_level(3));
    r.algorithms = {"rm"};
    const SelectResult result = select(r);
    CHECK(result.algorithms == std::vector<std::string>{"rm"});
    for (const PointSelection& p : result.points) {
        CHECK(p.algorithms.size() == 1);
        CHECK(p.baseline == "rd");
        CHECK_FALSE(p.runner_up.has_value());
    }
}

TEST_CASE("bruck runs only when named, and of the swept collectives only for Allgather") {
    SelectRequest r = small_request(two_level(3));
    const SelectResult plain = select(r);
    CHECK(plain.algorithms == std::vector<std::string>{"ring", "k-ring", "rd", "rm", "prd", "prm"});
    r.algorithms = {"bruck"};
    const SelectResult result = select(r);
    CHECK(result.algorithms == std::vector<std::string>{"bruck"});
    for (const PointSelection& p : result.points) {
        const AlgorithmOutcome& o = outcome(p, "bruck");
        if (p.collective == Collective::allreduce) {
            CHECK_FALSE(o.available);
            CHECK(o.skipped == "bruck does not build allreduce");
        } else {
            CHECK(o.available);
            CHECK(o.candidates.size() == 15);  // k = 2..16 at p = 16
        }
    }
}

TEST_CASE("-k restricts the candidates, k invalid for some p is skipped there") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.sizes = {1024};
    r.scales = {{1, 4}, {2, 4}};  // p = 4, 8
    r.radices = {8};
    const SelectResult result = select(r);
    // p = 4: k = 8 > p, so k-ring/rm/prm cannot run; p = 8: they run with k = 8 only.
    const PointSelection& p4 = result.at(0, 0, 0);
    CHECK_FALSE(outcome(p4, "rm").available);
    CHECK(outcome(p4, "rm").skipped == "no k from -k is valid for p = 4");
    const PointSelection& p8 = result.at(0, 1, 0);
    CHECK(outcome(p8, "rm").k == 8);
    CHECK(outcome(p8, "rm").candidates.size() == 1);
    CHECK(outcome(p8, "k-ring").k == 8);
}

TEST_CASE("-k narrows the algorithms with a radix and is refused where none is swept") {
    auto message = [](const SelectRequest& r) -> std::string {
        try {
            select(r);
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    SelectRequest r = small_request(two_level(3));
    r.radices = {4};
    r.algorithms = {"ring"};
    CHECK(message(r) ==
          "-k: ring takes no radix; drop -k, or choose with -a an algorithm that takes one (for "
          "allgather, allreduce: k-ring, rm, prm, bruck)");
    r.algorithms = {"ring", "rd"};
    r.collectives = {Collective::allreduce};
    CHECK(message(r) ==
          "-k: none of ring, rd takes a radix; drop -k, or add with -a an algorithm that takes "
          "one (for allreduce: k-ring, rm, prm)");
    // Alltoall's default candidates: pairwise and scattered (bruck runs only when named).
    r.algorithms = {};
    r.collectives = {Collective::alltoall};
    CHECK(message(r) ==
          "-k: none of pairwise, scattered takes a radix; drop -k, or add with -a an algorithm "
          "that takes one (for alltoall: bruck)");
    r.collectives = {Collective::bcast};
    r.algorithms = {"binomial", "scatter-rd"};
    CHECK(message(r) ==
          "-k: none of binomial, scatter-rd takes a radix; drop -k, or add with -a an algorithm "
          "that takes one (for bcast: knomial)");
    // One algorithm with a radix is enough: -k is its k, the others run as they are.
    r.algorithms = {"binomial", "knomial"};
    const SelectResult bcast = select(r);
    CHECK(outcome(bcast.at(0, 0, 0), "binomial").available);
    CHECK(outcome(bcast.at(0, 0, 0), "knomial").k == 4);
    CHECK(outcome(bcast.at(0, 0, 0), "knomial").candidates.size() == 1);
    // A list across collectives: Alltoall's candidates have no radix, Allgather's rm takes k = 4.
    r.collectives = {Collective::allgather, Collective::alltoall};
    r.algorithms = {};
    const SelectResult both = select(r);
    CHECK(outcome(both.at(0, 0, 0), "rm").k == 4);
    CHECK(outcome(both.at(1, 0, 0), "pairwise").available);
}

TEST_CASE("sizes are sorted and duplicates dropped") {
    SelectRequest r = small_request(two_level(3));
    r.sizes = {1024, 8, 1024};
    CHECK(select(r).sizes == std::vector<std::uint64_t>{8, 1024});
}

TEST_CASE("defaults: 8 B..64 MiB and 1..64 nodes of the machine's devices") {
    const std::vector<std::uint64_t> sizes = default_select_sizes();
    REQUIRE(sizes.size() == 24);  // 2^3 .. 2^26
    CHECK(sizes.front() == 8);
    CHECK(sizes.back() == 64ULL << 20);
    const std::vector<Scale> scales = default_select_scales(load_machine("delta"));
    REQUIRE(scales.size() == 7);
    CHECK(scales.front() == Scale{1, 4});
    CHECK(scales.back() == Scale{64, 4});
    // laptop-mpi is one node of 8 ranks: only that scale.
    CHECK(default_select_scales(load_machine("laptop-mpi")) == std::vector<Scale>{{1, 8}});
}

TEST_CASE("scales of one rank are left out with a note") {
    SelectRequest r = small_request(two_level(3));
    r.scales = {{1, 1}, {4, 4}};
    const SelectResult result = select(r);
    REQUIRE(result.scales.size() == 1);
    REQUIRE(result.notes.size() == 1);
    CHECK(result.notes[0] == "1 node x 1 = 1 rank: skipped (a collective needs at least 2 ranks)");
}

TEST_CASE("bad requests throw one-line InputErrors") {
    auto message = [](SelectRequest r) -> std::string {
        try {
            select(r);
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    const SelectRequest base = small_request(two_level(3));
    SelectRequest r = base;
    r.algorithms = {"rm", "bogus"};
    CHECK(message(r) ==
          "unknown algorithm 'bogus' (known: ring, k-ring, rd, rm, prd, prm, bruck, knomial, "
          "binomial, scatter-rd, scatter-ring, pairwise, scattered, rh, rabenseifner, recexch)");
    r = base;
    r.radices = {1};
    CHECK(message(r) == "-k: every k must be at least 2 (got 1)");
    r = base;
    r.radices = {32};
    CHECK(message(r) ==
          "-k: k = 32 is larger than every p of the sweep (largest p = 16); use "
          "2 <= k <= p");
    r = base;
    r.radices = {3};
    r.algorithms = {"k-ring"};
    CHECK(message(r) ==
          "-k: no k in {3} is valid for k-ring at any scale (p = 16; k-ring accepts "
          "k in {2, 4, 8, 16} for p = 16); add a valid k or drop k-ring from "
          "--algorithms");
    r = base;
    r.sizes = {8, 0};
    CHECK(message(r) == "--sizes: message sizes must be at least 1 byte (got 0)");
    r = base;
    r.collectives = {};
    CHECK(message(r) ==
          "--collective: empty list (use allgather, allreduce, bcast, reduce, reduce_scatter, "
          "alltoall or all)");
    r = base;
    r.scales = {{1, 1}};
    CHECK(message(r) ==
          "--nodes/--ppn: every scale has fewer than 2 ranks (use more nodes or "
          "more ranks per node)");
    r = base;
    r.scales = {{2, 8}};
    CHECK(message(r).find("ranks per node must be between 1 and the 4 devices per node") !=
          std::string::npos);
    // An empty size list means "the default sizes" to the library; the CLI refuses it
    // (test_select_cli.cpp).
}

TEST_CASE("ties: times within 1e-9 are equal and go to the documented preference") {
    // polaris Allreduce, 16 nodes, 2 MiB: rd, rm k=2, prd and prm k=2 take the same time. A
    // winner decided by floating-point noise would be any of them; the baseline rd must win, and
    // the runner-up's margin is exactly 0.
    for (const char* machine : {"polaris", "delta", "frontier"}) {
        SelectRequest request;
        request.machine = load_preset(machine);
        request.scales = {{4, 4}, {16, 4}};
        request.sizes = {8, 4096, 2 << 20};
        const SelectResult result = select(request);
        for (const PointSelection& point : result.points) {
            const AlgorithmOutcome* best = point.best_outcome();
            REQUIRE(best != nullptr);
            INFO(machine << " " << to_string(point.collective) << " " << point.scale.ranks()
                         << " ranks, " << point.bytes << " B: best " << best->algorithm);
            for (const AlgorithmOutcome& other : point.algorithms) {
                if (!other.available) continue;
                // Nothing beats the best by more than noise...
                CHECK(other.time >= best->time * (1 - equal_time_tolerance));
                // ...and a baseline within noise of the best is the best.
                const bool baseline = other.algorithm == "ring" || other.algorithm == "rd";
                if (baseline && other.time <= best->time * (1 + equal_time_tolerance))
                    CHECK(best->algorithm == other.algorithm);
            }
            if (point.runner_up && point.runner_up->time <= best->time * (1 + equal_time_tolerance))
                CHECK(point.margin() == 0);
        }
    }
    SelectRequest request;
    request.machine = load_preset("polaris");
    request.collectives = {Collective::allreduce};
    request.scales = {{16, 4}};
    request.sizes = {2 << 20};
    request.style = Style::nccl;  // polaris runs NCCL
    const SelectResult polaris = select(request);
    const PointSelection& point = polaris.points.front();
    CHECK(point.best_outcome()->algorithm == "rd");
    REQUIRE(point.runner_up);
    CHECK(point.runner_up->time == point.best_outcome()->time);
    CHECK(point.margin() == 0);
}
