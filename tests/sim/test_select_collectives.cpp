// The selector beyond Allgather and Allreduce: Bcast and Reduce (at root 0), Reduce_scatter and
// Alltoall. Which algorithms each collective reports and measures against, a choice derived by
// hand from the trees' closed forms (tests/sim/test_closed_form_rooted.cpp), -c lists and "all",
// and the one-line refusals: a named algorithm that builds none of the collectives, a tuning
// file for a collective it does not write.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "one_level_machine.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;
using piccolo::test::one_level;

namespace {

std::vector<std::string> names(const PointSelection& p) {
    std::vector<std::string> out;
    for (const AlgorithmOutcome& o : p.algorithms) out.push_back(o.algorithm);
    return out;
}

const AlgorithmOutcome& outcome(const PointSelection& p, std::string_view algorithm) {
    for (const AlgorithmOutcome& o : p.algorithms)
        if (o.algorithm == algorithm) return o;
    FAIL("no outcome for " << algorithm);
    return p.algorithms.front();
}

std::string message(const SelectRequest& r) {
    try {
        (void)select(r);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// One node of 4 ranks, one LogGP row: L = 1 us, o_s = o_r = 0.1 us, g = 0.05 us, G = 0.1 ns/B,
// a reduction 1 ns/B. Without contention a message of m bytes is delivered
// d = o_s + (m-1)G + L + o_r after its send starts (sim/engine/README.md).
constexpr LogGP params{1e-6, 1e-7, 1e-7, 5e-8, 1e-10};
constexpr double gamma_per_byte = 1e-9;

double delivered(double m) {
    return params.o_s + (m - 1) * params.G + params.L + params.o_r;
}

SelectRequest rooted_request(Collective collective) {
    SelectRequest r;
    r.machine = one_level("rooted-select", params, 4, 3, gamma_per_byte);
    r.collectives = {collective};
    r.scales = {{1, 4}};
    r.sizes = {8, 65536};
    r.contention = false;
    return r;
}

}  // namespace

TEST_CASE("select -c all: each collective's candidates and baseline") {
    SelectRequest r;
    r.machine = load_preset("delta");
    r.collectives = parse_select_collectives({"all"});
    r.scales = {{2, 4}};  // p = 8
    r.sizes = {64};
    const SelectResult result = select(r);
    CHECK(result.collectives ==
          std::vector<Collective>(std::begin(all_collectives), std::end(all_collectives)));
    CHECK(result.algorithms == std::vector<std::string>{"ring", "k-ring", "rd", "rm", "prd", "prm",
                                                        "knomial", "binomial", "scatter-rd",
                                                        "scatter-ring", "pairwise", "scattered",
                                                        "rh", "rabenseifner", "recexch"});
    using V = std::vector<std::string>;
    const V older{"ring", "k-ring", "rd", "rm", "prd", "prm"};
    CHECK(names(result.at(0, 0, 0)) == older);
    CHECK(names(result.at(1, 0, 0)) == older);
    CHECK(names(result.at(2, 0, 0)) == V{"knomial", "binomial", "scatter-rd", "scatter-ring"});
    CHECK(names(result.at(3, 0, 0)) == V{"knomial", "binomial", "rabenseifner"});
    CHECK(names(result.at(4, 0, 0)) == V{"ring", "k-ring", "pairwise", "rh", "recexch"});
    // recexch: every k from 2 to p = 8 (the default sweep stops at 16).
    std::vector<int> recexch_k;
    for (const auto& [k, time] : outcome(result.at(4, 0, 0), "recexch").candidates)
        recexch_k.push_back(k);
    CHECK(recexch_k == std::vector<int>{2, 3, 4, 5, 6, 7, 8});
    // bruck builds Alltoall but runs only when named (named_only), as for Allgather.
    CHECK(names(result.at(5, 0, 0)) == V{"pairwise", "scattered"});
    CHECK(result.at(2, 0, 0).baseline == "binomial");
    CHECK(result.at(3, 0, 0).baseline == "binomial");
    CHECK(result.at(4, 0, 0).baseline == "pairwise");
    CHECK(result.at(5, 0, 0).baseline == "pairwise");
    // Every k from 2 to p for the k-nomial tree; k = 2 is the binomial tree's DAG.
    const AlgorithmOutcome& knomial = outcome(result.at(2, 0, 0), "knomial");
    CHECK(knomial.available);
    for (const PointSelection& p : result.points) CHECK(p.best_outcome() != nullptr);
    CHECK(std::string(selection_size_meaning(Collective::bcast)) == "buffer size at root 0");
    CHECK(std::string(size_meaning(Collective::bcast)) == "buffer size");  // any root (sim, gen)
    CHECK(std::string(selection_size_meaning(Collective::alltoall)) ==
          "block each rank sends each rank");
}

TEST_CASE("bcast at p = 4, uncontended: the root's children in one hop, twice binomial") {
    // The root sends to 1, 2 and 3 at once (k = 4): T = d. Binomial (k = 2, p = 2^2):
    // max(n d, d + (n-1) i) with n = 2 and i <= d (mpi, nccl), and 2 d pipelined (rank 3 has two
    // nonzero bits). k = 3: the root reaches 3 (spacing 3), then 1 and 2 in its next round,
    // i + d > d (mpi, nccl); pipelined, the root's sends all wait for nothing: d, tied with
    // k = 4 in as many rounds, so the smaller k is chosen.
    for (Style style : all_styles) {
        SelectRequest r = rooted_request(Collective::bcast);
        r.style = style;
        const SelectResult result = select(r);
        for (std::size_t z = 0; z < r.sizes.size(); ++z) {
            const PointSelection& p = result.at(0, 0, z);
            const double d = delivered(static_cast<double>(p.bytes));
            CAPTURE(p.bytes);
            REQUIRE(p.best_outcome() != nullptr);
            CHECK(p.best_outcome()->algorithm == "knomial");
            CHECK(p.best_outcome()->k == (style == Style::pipelined ? 3 : 4));
            CHECK(p.best_outcome()->time == doctest::Approx(d).epsilon(1e-12));
            CHECK(p.baseline == "binomial");
            CHECK(p.baseline_time == doctest::Approx(2 * d).epsilon(1e-12));
            CHECK(p.speedup() == doctest::Approx(2).epsilon(1e-12));
            REQUIRE(p.runner_up.has_value());
            if (p.bytes == 8) {
                CHECK(p.runner_up->algorithm == "binomial");
                continue;
            }
            // 64 KiB: van de Geijn's Bcast in chunks c of 16 KiB comes second. mpi, nccl:
            // scatter-rd; the scatter ends with rank 2's send of c to 3 at d(2c) + d(c) (nccl:
            // every rank at d(2c) + d(c)), then rank 3's exchanges with 2 and then 1 (mask 2:
            // 2c), and 2's with 3 then 0: T = 2 d(2c) + 2 d(c) < 2 d. Pipelined: scatter-ring;
            // the root sends all its messages at once, so rank 1 holds every chunk at d(c) and
            // rank 2 at 2 d(c) (chunks 0 and 1 through rank 1); rank 3 gets its last two from
            // rank 2 at 3 d(c) and forwards chunk 1 to the root, whose receives end the
            // collective as MPICH's do: T = 4 d(c). (Pipelined scatter-rd: rank 1's chunks 2, 3
            // come through rank 3, at 2 d(2c) + d(c).)
            const double c = delivered(16384), c2 = delivered(32768);
            const bool pipelined = style == Style::pipelined;
            CHECK(p.runner_up->algorithm == (pipelined ? "scatter-ring" : "scatter-rd"));
            CHECK(p.runner_up->time ==
                  doctest::Approx(pipelined ? 4 * c : 2 * c2 + 2 * c).epsilon(1e-12));
        }
    }
}

TEST_CASE("bcast: scatter-rd and scatter-ring run where MPICH's p chunks all hold bytes") {
    // p = 6: 8 B is cut into chunks of 2 (2, 2, 2, 2 and two empty); 36 B into six of 6, 64 B
    // into five of 11 and one of 9. The DAG at 8 B is another one (the empty chunks' messages
    // are left out), so the sweep, one DAG per candidate, leaves that size out and says why.
    SelectRequest r;
    r.machine = load_preset("delta");
    r.collectives = {Collective::bcast};
    r.scales = {{3, 2}};
    r.sizes = {8, 36, 64};
    const SelectResult result = select(r);
    for (const char* a : {"scatter-rd", "scatter-ring"}) {
        CAPTURE(a);
        const AlgorithmOutcome& small = outcome(result.at(0, 0, 0), a);
        CHECK_FALSE(small.available);
        CHECK(small.skipped ==
              "MPICH's scatter leaves the last of its p = 6 chunks of ceil(n/p) bytes empty at "
              "this size (below p (p - 1) + 1 bytes its DAG changes with the size)");
        CHECK(outcome(result.at(0, 0, 1), a).available);
        CHECK(outcome(result.at(0, 0, 2), a).available);
    }
}

TEST_CASE("reduce at p = 4, uncontended: k = 3 where d > m gamma, binomial where d < m gamma") {
    // The root reduces each child's vector (m gamma) as it arrives. k = 4: three leaves arrive
    // at d, T = d + 3 m gamma. k = 3: children 1, 2 (spacing 1) and 3 (spacing 3), all leaves:
    // the same d + 3 m gamma, a tie that goes to the smaller k (same rounds). Binomial: rank 2
    // first reduces rank 3's, T = 2 (d + m gamma). Knomial wins iff d > m gamma: at 8 B
    // (d = 1.2007 us, m gamma = 8 ns), not at 64 KiB (d = 7.7535 us, m gamma = 65.536 us).
    // The trees only: rabenseifner has a test of its own below.
    SelectRequest r = rooted_request(Collective::reduce);
    r.algorithms = {"knomial", "binomial"};
    const SelectResult result = select(r);
    const PointSelection& small = result.at(0, 0, 0);
    const PointSelection& large = result.at(0, 0, 1);
    const double d8 = delivered(8), d64k = delivered(65536);
    REQUIRE(small.best_outcome() != nullptr);
    CHECK(small.best_outcome()->algorithm == "knomial");
    CHECK(small.best_outcome()->k == 3);
    CHECK(small.best_outcome()->time == doctest::Approx(d8 + 3 * 8 * gamma_per_byte).epsilon(1e-12));
    CHECK(small.baseline_time == doctest::Approx(2 * (d8 + 8 * gamma_per_byte)).epsilon(1e-12));
    REQUIRE(large.best_outcome() != nullptr);
    CHECK(large.best_outcome()->algorithm == "binomial");
    CHECK(large.best_outcome()->time ==
          doctest::Approx(2 * (d64k + 65536 * gamma_per_byte)).epsilon(1e-12));
    CHECK(large.speedup() == 1.0);
    REQUIRE(large.runner_up.has_value());  // knomial k = 2 is binomial's DAG: not an alternative
    CHECK(large.runner_up->algorithm == "knomial");
    CHECK(large.runner_up->k == 3);
    CHECK(large.runner_up->time ==
          doctest::Approx(d64k + 3 * 65536 * gamma_per_byte).epsilon(1e-12));
    // knomial's best k at 64 KiB is 2, the binomial tree: one schedule under two names.
    CHECK(outcome(large, "knomial").k == 2);
}

TEST_CASE("reduce at p = 4, uncontended: rabenseifner where the reduction dominates") {
    // Rabenseifner at p = 4 (tests/sim/test_closed_form_rabenseifner.cpp): halving steps of N/2
    // and N/4 bytes, each d(c) + c gamma (g < o_s: the gap never binds), then the gather's
    // N/4 and N/2: T = 2 d(N/2) + 2 d(N/4) + 3 N/4 gamma. At 64 KiB 63.782 us against the
    // binomial tree's 2 (d(N) + N gamma) = 146.58 us; at 8 B (2-byte segments) four messages,
    // 4.8068 us, against the 3-nomial tree's d + 3 m gamma = 1.2247 us.
    const SelectResult result = select(rooted_request(Collective::reduce));
    const PointSelection& small = result.at(0, 0, 0);
    const PointSelection& large = result.at(0, 0, 1);
    REQUIRE(small.best_outcome() != nullptr);
    CHECK(small.best_outcome()->algorithm == "knomial");
    CHECK(outcome(small, "rabenseifner").time ==
          doctest::Approx(2 * delivered(4) + 2 * delivered(2) + 6 * gamma_per_byte).epsilon(1e-12));
    REQUIRE(large.best_outcome() != nullptr);
    CHECK(large.best_outcome()->algorithm == "rabenseifner");
    CHECK(large.best_outcome()->time ==
          doctest::Approx(2 * delivered(32768) + 2 * delivered(16384) + 49152 * gamma_per_byte)
              .epsilon(1e-12));
    REQUIRE(large.runner_up.has_value());
    CHECK(large.runner_up->algorithm == "binomial");
    CHECK(large.speedup() ==
          doctest::Approx(2 * (delivered(65536) + 65536 * gamma_per_byte) /
                          (2 * delivered(32768) + 2 * delivered(16384) + 49152 * gamma_per_byte))
              .epsilon(1e-12));
}

TEST_CASE("reduce at p = 6: rabenseifner needs a byte per segment, 2^floor(log2 p) = 4") {
    SelectRequest r = rooted_request(Collective::reduce);
    r.machine = one_level("rabenseifner-select", params, 6, 3, gamma_per_byte);
    r.scales = {{1, 6}};
    r.sizes = {2, 4};
    const SelectResult result = select(r);
    CHECK(outcome(result.at(0, 0, 0), "rabenseifner").skipped ==
          "needs at least 4 bytes (the buffer is cut into 4 segments)");
    CHECK(outcome(result.at(0, 0, 1), "rabenseifner").available);
}

TEST_CASE("reduce_scatter: recexch's default k stop at 16, -k names the others") {
    SelectRequest r = rooted_request(Collective::reduce_scatter);
    r.machine = one_level("recexch-select", params, 32, 3, gamma_per_byte);
    r.scales = {{1, 32}};
    r.sizes = {8};
    r.algorithms = {"recexch"};
    auto ks = [](const SelectResult& result) {
        std::vector<int> out;
        for (const auto& [k, time] : outcome(result.at(0, 0, 0), "recexch").candidates)
            out.push_back(k);
        return out;
    };
    std::vector<int> upto16;
    for (int k = 2; k <= 16; ++k) upto16.push_back(k);
    CHECK(ks(select(r)) == upto16);
    r.radices = {4, 17, 32};
    CHECK(ks(select(r)) == std::vector<int>{4, 17, 32});
}

TEST_CASE("-c lists: all, duplicates, unknown names") {
    CHECK(parse_select_collectives({"bcast", "", "reduce"}) ==
          std::vector<Collective>{Collective::bcast, Collective::reduce});
    CHECK(parse_select_collectives({"all"}).size() == 6);
    CHECK_THROWS_WITH_AS(parse_select_collectives({"bcastt"}),
                         "-c/--collective: unknown collective 'bcastt' (expected allgather, "
                         "allreduce, bcast, reduce, reduce_scatter, alltoall or all)",
                         InputError);
    SelectRequest r = rooted_request(Collective::bcast);
    r.collectives = {Collective::bcast, Collective::bcast};
    CHECK(select(r).collectives == std::vector<Collective>{Collective::bcast});
}

TEST_CASE("select refuses, in one line, what cannot run") {
    SelectRequest r = rooted_request(Collective::bcast);
    r.algorithms = {"pairwise"};
    CHECK(message(r) ==
          "-a/--algorithms: pairwise builds none of the collectives asked for (bcast); it builds "
          "reduce_scatter, alltoall; for bcast use knomial, binomial, scatter-rd, scatter-ring");
    r = rooted_request(Collective::bcast);
    r.algorithms = {"knomial"};
    r.radices = {5};
    CHECK(message(r) ==
          "-k: k = 5 is larger than every p of the sweep (largest p = 4); use 2 <= k <= p");
    r = rooted_request(Collective::reduce_scatter);
    r.algorithms = {"k-ring"};
    r.radices = {3};
    CHECK(message(r) ==
          "-k: no k in {3} is valid for k-ring at any scale (p = 4; k-ring accepts k in {2, 4} "
          "for p = 4); add a valid k or drop k-ring from --algorithms");
    r.collectives = {};
    CHECK(message(r) ==
          "--collective: empty list (use allgather, allreduce, bcast, reduce, reduce_scatter, "
          "alltoall or all)");
}

TEST_CASE("a named algorithm is reported at each collective, baselines run unreported") {
    SelectRequest r = rooted_request(Collective::bcast);
    r.collectives = {Collective::bcast, Collective::alltoall};
    r.algorithms = {"knomial"};
    const SelectResult result = select(r);
    CHECK(result.algorithms == std::vector<std::string>{"knomial"});
    const PointSelection& alltoall = result.at(1, 0, 0);
    CHECK(names(alltoall) == std::vector<std::string>{"knomial"});
    CHECK_FALSE(alltoall.algorithms[0].available);
    CHECK(alltoall.algorithms[0].skipped == "knomial does not build alltoall");
    CHECK(alltoall.baseline == "pairwise");  // simulated, not reported
    CHECK(result.at(0, 0, 0).baseline == "binomial");
}

TEST_CASE("tuning files refuse collectives they do not write, before and after a sweep") {
    const std::vector<Collective> asked{Collective::allgather, Collective::bcast,
                                        Collective::alltoall};
    CHECK_THROWS_WITH_AS(check_emit(EmitKind::piccl_env, asked, 1, {8}, {}),
                         "--emit piccl-env with -c bcast,alltoall: piccl-env writes allgather "
                         "and allreduce only; leave bcast,alltoall out of -c, or write the "
                         "selection with --format table, csv, json or yaml",
                         InputError);
    for (EmitKind kind : {EmitKind::table, EmitKind::csv, EmitKind::json, EmitKind::yaml,
                          EmitKind::mpich_json, EmitKind::openmpi_rules})
        CHECK_NOTHROW(check_emit(kind, asked, 1, {8}, {}));
    const SelectResult result = select(rooted_request(Collective::reduce));
    CHECK_THROWS_WITH_AS(emit(EmitKind::piccl_env, result),
                         "--emit piccl-env with -c reduce: piccl-env writes allgather and "
                         "allreduce only; leave reduce out of -c, or write the selection with "
                         "--format table, csv, json or yaml",
                         InputError);
    // Open MPI's reduce is collective id 11 (test_select_emit_tuned.cpp).
    CHECK(emit(EmitKind::openmpi_rules, result).text.find("11    # reduce (collective id 11)") !=
          std::string::npos);
    // MPICH's blocking Reduce has the binomial tree only (test_select_emit_tuned.cpp).
    CHECK(emit(EmitKind::mpich_json, result).text.find("\"algorithm=MPIR_Reduce_intra_binomial\"") !=
          std::string::npos);
    // The formats that carry every collective say what a size means and where the root is.
    const std::string csv = emit_csv(result);
    CHECK(csv.find("reduce,8,buffer size at root 0,") != std::string::npos);
    CHECK(emit_json(result).find("\"root\": 0") != std::string::npos);
    CHECK(emit_table(result).find(
              "reduce on rooted-select: 1 node x 4 = 4 ranks (size = buffer size at root 0;") == 0);
}
