// An MPICH collective selection file (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE). Grammar and
// names as MPICH reads them (pmodels/mpich: src/mpi/coll/src/csel.c parses the operator keys,
// src/mpi/coll/src/csel_container.c the "algorithm=" leaves and their "k=" parameter, and
// maint/tuning/coll/mpir/generic.json is MPICH's own file in this format):
//
//   {"collective=allreduce": {"comm_type=intra": {
//        "comm_size<=16": {"avg_msg_size<=1024":
//        {"algorithm=MPIR_Allreduce_intra_recursive_multiplying": {"k=4": {}}},
//                          "avg_msg_size=any":   {"algorithm=MPIR_Allreduce_intra_ring": {}}},
//        "comm_size=any": {...}},
//     "comm_type=inter": {"algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast": {}}}}
//
// Facts of MPICH's reader that shape the file:
//  - Siblings are tried in file order; a "<=" operator must have a following sibling and the last
//    sibling must be "=any" (validate_tree()), so every level ends with an "=any" branch.
//  - avg_msg_size is defined for Allreduce (count x type size = piccolo's vector size) but not
//    for Allgather (get_avg_msgsize() asserts), so Allgather rules use total_msg_size =
//    recvcount x type size x comm_size = per-rank contribution x p.
//  - Thresholds are read with atoi() into an int: sizes above 2^31 - 1 cannot be written.
//  - A "comm_size<=p" branch serves every communicator size above the previous branch's; its
//    Allgather thresholds are per-rank size x p for the swept p.
//  - The file replaces MPICH's built-in tuning for every collective, and a collective missing
//    from it fails MPICH's assertion on the selection result; so with --mpich-base the two
//    entries are merged into a copy of a complete file (e.g. MPICH's generic.json).
//
// Algorithm mapping (only algorithms MPICH has):
//   allgather: ring -> MPIR_Allgather_intra_ring, rd -> MPIR_Allgather_intra_recursive_doubling,
//              rm k -> MPIR_Allgather_intra_recexch_doubling k (recursive exchange, distance
//              k^i growing), prm k -> MPIR_Allgather_intra_recexch_halving k (distance shrinking),
//              prd -> MPIR_Allgather_intra_recexch_halving k=2; k-ring: none.
//   allreduce: ring -> MPIR_Allreduce_intra_ring, rd -> MPIR_Allreduce_intra_recursive_doubling,
//              rm k -> MPIR_Allreduce_intra_recursive_multiplying k; k-ring, prd, prm: none.
// Where the best simulated choice has no MPICH equivalent, the rule names the fastest choice
// that has one (the baseline ring/rd is always simulated, so there is one), and a remark says
// how much slower it was predicted to be.
#include <fmt/format.h>
#include <algorithm>
#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "piccolo/error.hpp"
#include "piccolo/select_emit.hpp"
#include "select_text.hpp"

namespace piccolo {

namespace {

using Json = nlohmann::ordered_json;

struct MpichChoice {
    std::string function;  // MPIR_..._intra_...
    int k = 0;             // 0: no parameter
    friend bool operator==(const MpichChoice&, const MpichChoice&) = default;
};

std::optional<MpichChoice> mpich_equivalent(Collective c, std::string_view algorithm, int k) {
    if (c == Collective::allgather) {
        if (algorithm == "ring") return MpichChoice{"MPIR_Allgather_intra_ring", 0};
        if (algorithm == "rd") return MpichChoice{"MPIR_Allgather_intra_recursive_doubling", 0};
        if (algorithm == "rm") return MpichChoice{"MPIR_Allgather_intra_recexch_doubling", k};
        if (algorithm == "prm") return MpichChoice{"MPIR_Allgather_intra_recexch_halving", k};
        if (algorithm == "prd") return MpichChoice{"MPIR_Allgather_intra_recexch_halving", 2};
        return std::nullopt;
    }
    if (algorithm == "ring") return MpichChoice{"MPIR_Allreduce_intra_ring", 0};
    if (algorithm == "rd") return MpichChoice{"MPIR_Allreduce_intra_recursive_doubling", 0};
    if (algorithm == "rm") return MpichChoice{"MPIR_Allreduce_intra_recursive_multiplying", k};
    return std::nullopt;
}

// MPICH's default for inter-communicators (generic.json), kept so the entry is complete.
std::string_view inter_algorithm(Collective c) {
    return c == Collective::allgather ? "MPIR_Allgather_inter_local_gather_remote_bcast"
                                      : "MPIR_Allreduce_inter_reduce_exchange_bcast";
}

Json leaf(const MpichChoice& choice) {
    Json params = Json::object();
    if (choice.k > 0) params[fmt::format("k={}", choice.k)] = Json::object();
    Json j;
    j["algorithm=" + choice.function] = std::move(params);
    return j;
}

// What a collective's rules lost against the simulated best, for the remarks.
struct Losses {
    std::map<std::string, std::pair<int, double>> replaced;  // algorithm -> (points, worst)
    int points = 0;
    std::vector<std::string> truncated;  // scales whose largest sizes could not be written
};

struct Chosen {
    MpichChoice choice;
    double time = 0;
};

Chosen choose(const PointSelection& p, Losses& losses) {
    std::optional<Chosen> best;
    for (const AlgorithmOutcome& o : p.algorithms) {
        if (!o.available) continue;
        const auto eq = mpich_equivalent(p.collective, o.algorithm, o.k);
        if (eq && (!best || o.time < best->time)) best = Chosen{*eq, o.time};
    }
    if (!p.baseline.empty()) {  // ring/rd, simulated even when not reported
        const auto eq = mpich_equivalent(p.collective, p.baseline, 0);
        if (eq && (!best || p.baseline_time < best->time)) best = Chosen{*eq, p.baseline_time};
    }
    if (!best) best = Chosen{*mpich_equivalent(p.collective, "rd", 0), 0};  // not reached
    ++losses.points;
    if (const AlgorithmOutcome* top = p.best_outcome();
        top && !mpich_equivalent(p.collective, top->algorithm, top->k)) {
        auto& [count, worst] = losses.replaced[top->algorithm];
        ++count;
        worst = std::max(worst, best->time / top->time - 1);
    }
    return *best;
}

// Size rules at one scale: runs of equal choices merge, the last run becomes "=any".
Json size_rules(const SelectResult& result, std::size_t c, std::size_t s, Losses& losses) {
    const Collective collective = result.collectives[c];
    const bool gather = collective == Collective::allgather;
    const std::string op = gather ? "total_msg_size" : "avg_msg_size";
    const auto ranks = static_cast<std::uint64_t>(result.scales[s].ranks());

    struct Run {
        MpichChoice choice;
        std::uint64_t last_bytes;
    };
    std::vector<Run> runs;
    for (std::size_t z = 0; z < result.sizes.size(); ++z) {
        const Chosen chosen = choose(result.at(c, s, z), losses);
        if (!runs.empty() && runs.back().choice == chosen.choice)
            runs.back().last_bytes = result.sizes[z];
        else
            runs.push_back({chosen.choice, result.sizes[z]});
    }
    Json rules = Json::object();
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::uint64_t threshold = gather ? runs[r].last_bytes * ranks : runs[r].last_bytes;
        const bool last = r + 1 == runs.size();
        if (!last && threshold > static_cast<std::uint64_t>(INT_MAX)) {
            // MPICH cannot compare against it: this run takes every larger size.
            losses.truncated.push_back(fmt::format("{} at {}", to_string(collective),
                                                   detail::scale_label(result.scales[s])));
            rules[op + "=any"] = leaf(runs[r].choice);
            return rules;
        }
        rules[last ? op + "=any" : fmt::format("{}<={}", op, threshold)] = leaf(runs[r].choice);
    }
    return rules;
}

Json collective_entry(const SelectResult& result, std::size_t c, Losses& losses) {
    // Scales by p (then ppn); several ppn for one p nest under comm_avg_ppn.
    std::vector<std::size_t> order(result.scales.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const Scale &x = result.scales[a], &y = result.scales[b];
        return x.ranks() != y.ranks() ? x.ranks() < y.ranks() : x.ranks_per_node < y.ranks_per_node;
    });
    std::vector<std::pair<int, Json>> by_size;  // (p, subtree)
    for (std::size_t i = 0; i < order.size();) {
        const int p = result.scales[order[i]].ranks();
        std::size_t j = i;
        while (j < order.size() && result.scales[order[j]].ranks() == p) ++j;
        Json subtree;
        if (j - i == 1) {
            subtree = size_rules(result, c, order[i], losses);
        } else {
            for (std::size_t m = i; m < j; ++m) {
                // comm_avg_ppn has no "=any"; comm_size=any is always true and ends the list.
                const std::string key =
                    m + 1 == j
                        ? "comm_size=any"
                        : fmt::format("comm_avg_ppn<={}", result.scales[order[m]].ranks_per_node);
                subtree[key] = size_rules(result, c, order[m], losses);
            }
        }
        // Adjacent sizes of communicator with the same rules merge into the larger one.
        if (!by_size.empty() && by_size.back().second == subtree)
            by_size.back().first = p;
        else
            by_size.emplace_back(p, std::move(subtree));
        i = j;
    }
    Json intra = Json::object();
    for (std::size_t i = 0; i < by_size.size(); ++i)
        intra[i + 1 == by_size.size() ? std::string("comm_size=any")
                                      : fmt::format("comm_size<={}", by_size[i].first)] =
            std::move(by_size[i].second);
    Json entry;
    entry["comm_type=intra"] = std::move(intra);
    Json inter;
    inter["algorithm=" + std::string(inter_algorithm(result.collectives[c]))] = Json::object();
    entry["comm_type=inter"] = std::move(inter);
    return entry;
}

}  // namespace

Emitted emit_mpich_json(const SelectResult& result, const EmitOptions& options) {
    Json root = Json::object();
    if (!options.mpich_base.empty()) {
        try {
            root = Json::parse(options.mpich_base_text);
        } catch (const Json::exception& e) {
            throw InputError(
                fmt::format("{}: not a JSON document ({}); pass an MPICH tuning file "
                            "such as maint/tuning/coll/mpir/generic.json",
                            options.mpich_base, e.what()));
        }
        if (!root.is_object())
            throw InputError(
                fmt::format("{}: the top level must be an object of "
                            "\"collective=...\" entries",
                            options.mpich_base));
    }
    Emitted out;
    out.remarks.push_back(
        "mpich-json: allreduce rules compare avg_msg_size (MPICH: count x type size = "
        "piccolo's vector size); allgather rules compare total_msg_size (per-rank contribution "
        "x comm size: MPICH defines no avg_msg_size for allgather)");
    for (std::size_t c = 0; c < result.collectives.size(); ++c) {
        Losses losses;
        const std::string key = fmt::format("collective={}", to_string(result.collectives[c]));
        root[key] = collective_entry(result, c, losses);  // replaces the base's entry
        for (const auto& [algorithm, loss] : losses.replaced)
            out.remarks.push_back(fmt::format(
                "mpich-json: {} was the best {} at {} of {} points, but MPICH has no {}; there "
                "the file names the fastest algorithm MPICH has (at most {:.1f}% slower in "
                "simulation)",
                algorithm, to_string(result.collectives[c]), loss.first, losses.points, algorithm,
                100 * loss.second));
        for (const std::string& where : losses.truncated)
            out.remarks.push_back(fmt::format(
                "mpich-json: {}: MPICH reads size thresholds as int, so sizes whose total "
                "exceeds 2147483647 bytes share the rule of the largest size it can write",
                where));
    }
    if (options.mpich_base.empty())
        out.remarks.push_back(
            "mpich-json: the file has only allgather and allreduce; MPICH replaces its whole "
            "built-in tuning with this file and fails on collectives it lacks, so merge it into a "
            "complete file: add --mpich-base MPICH_SRC/maint/tuning/coll/mpir/generic.json");
    out.text = root.dump(4) + "\n";
    return out;
}

}  // namespace piccolo
