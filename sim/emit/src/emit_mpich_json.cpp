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
//  - avg_msg_size is defined for Allreduce, Bcast, Reduce (count x type size = piccolo's size)
//    and Alltoall (sendcount x type size) but not for Allgather and Reduce_scatter_block
//    (get_avg_msgsize() asserts), so their rules use total_msg_size = recvcount x type size x
//    comm_size = piccolo's size x p.
//  - Thresholds are read with atoi() into an int: sizes above 2^31 - 1 cannot be written.
//  - A "comm_size<=p" branch serves every communicator size above the previous branch's; its
//    Allgather thresholds are per-rank size x p for the swept p.
//  - The file replaces MPICH's built-in tuning for every collective, and a collective missing
//    from it fails MPICH's assertion on the selection result; so with --mpich-base the emitted
//    entries are merged into a copy of a complete file (e.g. MPICH's generic.json).
//
// Algorithms: per MPICH series (--mpich-version), only those that series has and can run at the
// communicator size (mpich_versions.cpp holds the facts and their sources). Where the best
// simulated choice has no counterpart there, the rule names the fastest simulated candidate
// that has one, and a remark says how much slower it was predicted to be.
// Allgather and Allreduce keep what MPICH runs by itself (its built-in tree evaluated at the
// point, mpich_own_choice.cpp) where MPICH runs an algorithm piccolo does not model there
// (reduce_scatter_allgather, brucks) or piccolo predicts less than 5 % gain over it, as
// openmpi-rules leaves such points to Open MPI's own decision.
//  - Allreduce rules start with "is_commutative=no" -> recursive doubling: MPICH's ring and
//    recursive multiplying need a commutative operation (coll_algorithms.txt) and a tuning
//    file's choice is not checked. Reduce_scatter_block rules start with "is_commutative=no" ->
//    MPICH's own choice (generic.json: noncommutative on powers of 2, else recursive doubling):
//    pairwise and recursive halving, all piccolo can name, are commutative only.
//  - Alltoall rules start with "is_sendbuf_inplace=yes" -> pairwise_sendrecv_replace, MPICH's
//    only in-place Alltoall: the others assert sendbuf != MPI_IN_PLACE.
//  - Bcast and Reduce are simulated at root 0; MPICH's rules cannot look at the root.
//  - A Reduce rule naming reduce_scatter_gather (piccolo's rabenseifner) sits under
//    "is_op_built_in=yes" and "count<pow2" -> binomial: MPICH asserts a built-in operation and
//    count >= pof2 (in elements; piccolo's rabenseifner needs pof2 bytes, a byte per unit).
//  - Reduce_scatter_block: piccolo's recexch with k = 2 is recursive halving; MPICH's recexch
//    for other k is nonblocking only, and a tuning file cannot set its k (mpich_versions.cpp).
//  - The file is complete on its own: the series' built-in rules for every other collective
//    follow (mpich_defaults.cpp), or, with --mpich-base, the emitted entries replace the base's.
#include <fmt/format.h>
#include <algorithm>
#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "mpich_own_choice.hpp"
#include "mpich_versions.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace {

using Json = nlohmann::ordered_json;

struct MpichChoice {
    std::string function;  // MPIR_..._intra_...
    int k = 0;             // 0: no parameter
    std::string_view param{};  // a fixed parameter key written before k (the Bcast tree's type)
    int non_blocking = -1;   // >= 0: "is_non_blocking=" (the Bcast tree, 4.2+)
    // Non-empty: the leaf is guarded by "is_op_built_in=yes" and "count<pow2", this algorithm on
    // the other branches (Algorithm::small_count_fallback: Reduce's reduce_scatter_gather).
    std::string_view small_count_fallback{};
    friend bool operator==(const MpichChoice&, const MpichChoice&) = default;
};

// MPICH's algorithms for inter-communicators (generic.json), kept so the entry is complete.
std::string_view inter_algorithm(Collective c) {
    switch (c) {
        case Collective::allgather:
            return "MPIR_Allgather_inter_local_gather_remote_bcast";
        case Collective::allreduce:
            return "MPIR_Allreduce_inter_reduce_exchange_bcast";
        case Collective::bcast:
            return "MPIR_Bcast_inter_remote_send_local_bcast";
        case Collective::reduce:
            return "MPIR_Reduce_inter_local_reduce_remote_send";
        case Collective::reduce_scatter:
            return "MPIR_Reduce_scatter_block_inter_remote_reduce_local_scatter";
        case Collective::alltoall:
            return "MPIR_Alltoall_inter_pairwise_exchange";
    }
    return {};
}

// The piccolo algorithm whose MPICH equivalent runs everywhere in every series: the rule when the
// sweep simulated nothing the version has (e.g. -a ring for 4.0's Allreduce).
std::string_view fallback_algorithm(Collective c) {
    switch (c) {
        case Collective::allgather:
        case Collective::allreduce:
            return "rd";
        case Collective::bcast:
        case Collective::reduce:
            return "binomial";
        case Collective::reduce_scatter:  // under is_commutative=yes
        case Collective::alltoall:
            return "pairwise";
    }
    return {};
}

// Rules compare total_msg_size (piccolo's size x p) where MPICH has no avg_msg_size.
bool total_size(Collective c) {
    return c == Collective::allgather || c == Collective::reduce_scatter;
}

Json leaf(const MpichChoice& choice) {
    Json params = Json::object();
    if (!choice.param.empty()) params[std::string(choice.param)] = Json::object();
    if (choice.k > 0) params[fmt::format("k={}", choice.k)] = Json::object();
    if (choice.non_blocking >= 0)
        params[fmt::format("is_non_blocking={}", choice.non_blocking)] = Json::object();
    Json j;
    j["algorithm=" + choice.function] = std::move(params);
    if (choice.small_count_fallback.empty()) return j;
    // MPICH asserts count >= pof2 and a built-in operation there; a tuning file's choice is run
    // unchecked, so the guards of MPICH's generic.json come with it.
    Json fallback;
    fallback["algorithm=" + std::string(choice.small_count_fallback)] = Json::object();
    Json counted;
    counted["count<pow2"] = fallback;
    counted["count=any"] = std::move(j);
    Json guarded;
    guarded["is_op_built_in=yes"] = std::move(counted);
    guarded["is_op_built_in=no"] = std::move(fallback);
    return guarded;
}

// What a collective's rules lost against the simulated best, for the remarks.
struct Losses {
    std::map<std::string, std::pair<int, double>> replaced;  // algorithm -> (points, worst)
    int points = 0;
    int kept_modelled = 0;  // MPICH's own choice kept: piccolo predicts no gain over it
    std::map<std::string, int> kept_unmodelled;  // kept: piccolo does not model it -> points
    std::vector<std::string> truncated;  // scales whose largest sizes could not be written
};

struct Chosen {
    MpichChoice choice;
    double time = 0;
};

struct Target {
    const mpich::Version& version;
    const Json& own_tree;  // the version's built-in tree (version.defaults), parsed once
    int ranks;  // communicator sizes the rule serves are judged like this one (power of 2 or not)
    Style style;
};

MpichChoice choice_of(const mpich::Algorithm& a, int k, Style style) {
    return {std::string(a.name), a.takes_k ? k : a.fixed_k, a.fixed_param,
            a.non_blocking_param ? (style == Style::pipelined ? 1 : 0) : -1,
            a.small_count_fallback};
}

// The fastest simulated (algorithm, k) that the MPICH version runs at this size; every k that
// was simulated counts, not only each algorithm's best.
std::optional<Chosen> fastest_equivalent(const PointSelection& p, const Target& t) {
    std::optional<Chosen> best;
    auto consider = [&](std::string_view algorithm, int k, double time) {
        const mpich::Algorithm* a = mpich::equivalent(t.version, p.collective, algorithm, t.ranks);
        if (!a || (a->only_k > 0 && k != a->only_k) || (best && time >= best->time)) return;
        best = Chosen{choice_of(*a, k, t.style), time};
    };
    for (const AlgorithmOutcome& o : p.algorithms) {
        if (!o.available) continue;
        if (o.candidates.empty()) consider(o.algorithm, o.k, o.time);
        for (const auto& [k, time] : o.candidates) consider(o.algorithm, k, time);
    }
    if (!p.baseline.empty())
        consider(p.baseline, 0, p.baseline_time);  // simulated even if unlisted
    return best;
}

// A gain smaller than this over what MPICH runs by itself is within the error of measured
// profiles (docs/accuracy.md): no reason to override the library (as openmpi-rules does).
constexpr double keep_margin = 0.05;

// MPICH's own choice for an Allgather or Allreduce point, where the file keeps it: MPICH runs
// an algorithm piccolo does not model there (reduce_scatter_allgather, brucks), or piccolo
// predicts less than keep_margin gain over it. A leaf cannot say "MPICH's own" (allcomm_auto),
// so the file names what MPICH's built-in tree names for the point.
std::optional<Chosen> kept_own(const PointSelection& p, const Target& t, const Chosen& best,
                               Losses* losses) {
    if (p.collective != Collective::allgather && p.collective != Collective::allreduce) return {};
    const std::string own = mpich::own_algorithm(t.own_tree, {p.collective, t.ranks, p.bytes});
    if (own.empty() || own == best.choice.function) return {};
    std::optional<double> own_time;  // piccolo's prediction of MPICH's own algorithm
    auto consider = [&](std::string_view algorithm, double time) {
        const mpich::Algorithm* a = mpich::equivalent(t.version, p.collective, algorithm, t.ranks);
        if (a && a->name == own && !a->takes_k && a->fixed_k == 0)
            own_time = std::min(own_time.value_or(time), time);
    };
    for (const AlgorithmOutcome& o : p.algorithms)
        if (o.available) consider(o.algorithm, o.time);
    if (!p.baseline.empty()) consider(p.baseline, p.baseline_time);
    if (own_time && best.time * (1 + keep_margin) <= *own_time) return {};
    if (losses) {
        ++losses->points;
        if (own_time)
            ++losses->kept_modelled;
        else
            ++losses->kept_unmodelled[own];
    }
    MpichChoice choice{own};
    if (own == "MPIR_Allreduce_intra_reduce_scatter_allgather")  // generic.json's guards
        choice.small_count_fallback = "MPIR_Allreduce_intra_recursive_doubling";
    return Chosen{choice, own_time.value_or(best.time)};
}

Chosen choose(const PointSelection& p, const Target& t, Losses* losses) {
    std::optional<Chosen> best = fastest_equivalent(p, t);
    // Only when the sweep simulated nothing this version has (e.g. -a ring for 4.0's Allreduce).
    if (!best)
        best = Chosen{choice_of(*mpich::equivalent(t.version, p.collective,
                                                    fallback_algorithm(p.collective), 1),
                                0, t.style),
                      0};
    if (std::optional<Chosen> own = kept_own(p, t, *best, losses)) return *own;
    const AlgorithmOutcome* top = p.best_outcome();
    if (!losses || !top) return *best;
    ++losses->points;
    if (best->time > top->time * (1 + equal_time_tolerance)) {
        auto& [count, worst] = losses->replaced[top->algorithm];
        ++count;
        worst = std::max(worst, best->time == 0 ? 0.0 : best->time / top->time - 1);
    }
    return *best;
}

// Size rules at one scale: stretches of equal choices merge, the last stretch becomes "=any".
Json size_rules(const SelectResult& result, std::size_t c, std::size_t s, const Target& t,
                Losses* losses) {
    const Collective collective = result.collectives[c];
    const bool gather = total_size(collective);
    const std::string op = gather ? "total_msg_size" : "avg_msg_size";
    const auto ranks = static_cast<std::uint64_t>(result.scales[s].ranks());

    struct Stretch {
        MpichChoice choice;
        std::uint64_t last_bytes;
    };
    std::vector<Stretch> stretches;
    for (std::size_t z = 0; z < result.sizes.size(); ++z) {
        const Chosen chosen = choose(result.at(c, s, z), t, losses);
        if (!stretches.empty() && stretches.back().choice == chosen.choice)
            stretches.back().last_bytes = result.sizes[z];
        else
            stretches.push_back({chosen.choice, result.sizes[z]});
    }
    Json rules = Json::object();
    for (std::size_t r = 0; r < stretches.size(); ++r) {
        const std::uint64_t threshold =
            gather ? stretches[r].last_bytes * ranks : stretches[r].last_bytes;
        const bool last = r + 1 == stretches.size();
        if (!last && threshold > static_cast<std::uint64_t>(INT_MAX)) {
            // MPICH cannot compare against it: this stretch takes every larger size.
            if (losses)
                losses->truncated.push_back(fmt::format("{} at {}", to_string(collective),
                                                        detail::scale_label(result.scales[s])));
            rules[op + "=any"] = leaf(stretches[r].choice);
            return rules;
        }
        rules[last ? op + "=any" : fmt::format("{}<={}", op, threshold)] =
            leaf(stretches[r].choice);
    }
    return rules;
}

// The rules of one swept scale. Its branch also serves other communicator sizes; an algorithm
// MPICH runs only on powers of 2 is guarded by "comm_size=pow2", the other sizes get the
// fastest choice without it.
Json scale_rules(const SelectResult& result, std::size_t c, std::size_t s,
                 const mpich::Version& version, const Json& own_tree, Losses& losses) {
    const int p = result.scales[s].ranks();
    Json rules = size_rules(result, c, s, {version, own_tree, p, result.style}, &losses);
    if ((p & (p - 1)) != 0) return rules;
    // p + 1: not a power of 2
    Json others = size_rules(result, c, s, {version, own_tree, p + 1, result.style}, nullptr);
    if (others == rules) return rules;
    Json split;
    split["comm_size=pow2"] = std::move(rules);
    split["comm_size=any"] = std::move(others);
    return split;
}

// The branches before piccolo's rules: cases its algorithms cannot serve (see the top).
Json guards(Collective c) {
    Json intra = Json::object();
    if (c == Collective::allreduce)
        intra["is_commutative=no"] = leaf({"MPIR_Allreduce_intra_recursive_doubling"});
    if (c == Collective::reduce_scatter) {
        Json own;
        own["comm_size=pow2"] = leaf({"MPIR_Reduce_scatter_block_intra_noncommutative"});
        own["comm_size=any"] = leaf({"MPIR_Reduce_scatter_block_intra_recursive_doubling"});
        intra["is_commutative=no"] = std::move(own);
    }
    if (c == Collective::alltoall)
        intra["is_sendbuf_inplace=yes"] = leaf({"MPIR_Alltoall_intra_pairwise_sendrecv_replace"});
    return intra;
}

Json intra_rules(const SelectResult& result, std::size_t c, const mpich::Version& version,
                 const Json& own_tree, Losses& losses) {
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
            subtree = scale_rules(result, c, order[i], version, own_tree, losses);
        } else {
            for (std::size_t m = i; m < j; ++m) {
                // comm_avg_ppn has no "=any"; comm_size=any is always true and ends the list.
                const std::string key =
                    m + 1 == j
                        ? "comm_size=any"
                        : fmt::format("comm_avg_ppn<={}", result.scales[order[m]].ranks_per_node);
                subtree[key] = scale_rules(result, c, order[m], version, own_tree, losses);
            }
        }
        // Adjacent sizes of communicator with the same rules merge into the larger one.
        if (!by_size.empty() && by_size.back().second == subtree)
            by_size.back().first = p;
        else
            by_size.emplace_back(p, std::move(subtree));
        i = j;
    }
    Json intra = guards(result.collectives[c]);
    for (std::size_t i = 0; i < by_size.size(); ++i)
        intra[i + 1 == by_size.size() ? std::string("comm_size=any")
                                      : fmt::format("comm_size<={}", by_size[i].first)] =
            std::move(by_size[i].second);
    return intra;
}

Json collective_entry(const SelectResult& result, std::size_t c, const mpich::Version& version,
                      const Json& own_tree, Losses& losses) {
    Json entry;
    entry["comm_type=intra"] = intra_rules(result, c, version, own_tree, losses);
    Json inter;
    inter["algorithm=" + std::string(inter_algorithm(result.collectives[c]))] = Json::object();
    entry["comm_type=inter"] = std::move(inter);
    return entry;
}

Json base_tree(const EmitOptions& options, const mpich::Version& version) {
    if (options.mpich_base.empty()) return Json::parse(version.defaults);
    Json root;
    try {
        root = Json::parse(options.mpich_base_text);
    } catch (const Json::exception& e) {
        throw InputError(
            fmt::format("{}: not a JSON document ({}); pass an MPICH tuning file such as "
                        "maint/tuning/coll/mpir/generic.json",
                        options.mpich_base, e.what()));
    }
    if (!root.is_object())
        throw InputError(
            fmt::format("{}: the top level must be an object of \"collective=...\" entries",
                        options.mpich_base));
    return root;
}

// The remarks on what one collective's rules lost against the simulated best and where they
// kept MPICH's own choice.
void remark_losses(const Losses& losses, Collective collective, const mpich::Version& version,
                   std::vector<std::string>& remarks) {
    for (const auto& [algorithm, loss] : losses.replaced)
        remarks.push_back(fmt::format(
            "mpich-json: MPICH {} cannot run {} where it was the best {} ({} of {} points); "
            "there the file names the fastest algorithm MPICH {} runs (at most {:.1f}% "
            "slower in simulation)",
            version.name, algorithm, to_string(collective), loss.first,
            losses.points, version.name, 100 * loss.second));
    if (losses.kept_modelled > 0 || !losses.kept_unmodelled.empty()) {
        std::string unmodelled;
        for (const auto& [function, points] : losses.kept_unmodelled)
            unmodelled += fmt::format(", {} where MPICH runs {} (piccolo does not model it)",
                                      points, function);
        remarks.push_back(fmt::format(
            "mpich-json: {} keeps MPICH {}'s own choice at {} of {} points: {} where piccolo "
            "predicts less than {:.0f}% gain over it{}",
            to_string(collective), version.name,
            losses.kept_modelled +
                std::accumulate(losses.kept_unmodelled.begin(), losses.kept_unmodelled.end(),
                                0, [](int n, const auto& e) { return n + e.second; }),
            losses.points, losses.kept_modelled, 100 * keep_margin, unmodelled));
    }
    for (const std::string& where : losses.truncated)
        remarks.push_back(fmt::format(
            "mpich-json: {}: MPICH reads size thresholds as int, so sizes whose total "
            "exceeds 2147483647 bytes share the rule of the largest size it can write",
            where));
}

}  // namespace

Emitted emit_mpich_json(const SelectResult& result, const EmitOptions& options) {
    check_tuned_collectives(EmitKind::mpich_json, result.collectives);
    const mpich::Version& version =
        mpich::version(options.mpich_version.empty() ? mpich::versions().back().name
                                                     : std::string_view(options.mpich_version));
    const Json base = base_tree(options, version);
    Emitted out;
    out.remarks.push_back(fmt::format(
        "mpich-json: for MPICH {} ({}): algorithm names, parameters and the other collectives' "
        "rules of MPICH {}; choices simulated in the {} style; load it with "
        "MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE",
        version.name,
        options.mpich_version_origin.empty() ? "--mpich-version"
                                             : std::string_view(options.mpich_version_origin),
        version.sources, to_string(result.style)));
    out.remarks.push_back(
        "mpich-json: allreduce rules compare avg_msg_size (MPICH: count x type size = "
        "piccolo's vector size); allgather rules compare total_msg_size (per-rank contribution "
        "x comm size: MPICH defines no avg_msg_size for allgather)");
    const bool others = std::any_of(result.collectives.begin(), result.collectives.end(),
                                    [](Collective c) {
                                        return c != Collective::allgather &&
                                               c != Collective::allreduce;
                                    });
    if (others)
        out.remarks.push_back(
            "mpich-json: bcast and reduce rules compare avg_msg_size (count x type size, "
            "simulated at root 0: MPICH's rules cannot look at the root), alltoall rules "
            "avg_msg_size (sendcount x type size), reduce_scatter rules (MPI_Reduce_scatter_block, "
            "\"collective=reduce_scatter_block\") total_msg_size (recvcount x type size x comm "
            "size); MPI_Reduce_scatter keeps MPICH's own rules");
    const Json own_tree = Json::parse(version.defaults);  // MPICH's own choices, read once
    Json root = Json::object();
    for (std::size_t c = 0; c < result.collectives.size(); ++c) {
        Losses losses;
        const std::string key =
            fmt::format("collective={}", mpich::collective_key(result.collectives[c]));
        root[key] = collective_entry(result, c, version, own_tree, losses);
        remark_losses(losses, result.collectives[c], version, out.remarks);
    }
    if (root.contains("collective=reduce") &&
        root["collective=reduce"].dump().find("MPIR_Reduce_intra_reduce_scatter_gather") !=
            std::string::npos)
        out.remarks.push_back(
            "mpich-json: reduce's reduce_scatter_gather rules sit under is_op_built_in=yes and "
            "count<pow2 -> binomial: MPICH asserts a built-in operation and count >= the largest "
            "power of 2 <= comm size (in elements)");
    if (options.mpich_base.empty()) {
        for (const auto& [key, entry] : base.items())  // after ours, which replace theirs
            if (!root.contains(key)) root[key] = entry;
    } else {  // ours replace the base's entries in place
        Json merged = Json::object();
        for (const auto& [key, entry] : base.items()) merged[key] = root.value(key, entry);
        for (const auto& [key, entry] : root.items())
            if (!merged.contains(key)) merged[key] = entry;
        root = std::move(merged);
    }
    out.text = root.dump(4) + "\n";
    return out;
}

}  // namespace piccolo
