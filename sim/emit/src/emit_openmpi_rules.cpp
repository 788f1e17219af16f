// An Open MPI coll_tuned dynamic rules file (--mca coll_tuned_use_dynamic_rules 1 --mca
// coll_tuned_dynamic_rules_filename FILE). Format and semantics as open-mpi/ompi v4.1.4 reads
// them (ompi/mca/coll/tuned/coll_tuned_dynamic_file.c, coll_tuned_dynamic_rules.c):
//
//   <number of collectives>
//   <collective id>                  (COLLTYPE in ompi/mca/coll/base/coll_base_functions.h:
//                                     allgather 0, allreduce 2, alltoall 3, bcast 7,
//                                     reduce 11, reduce_scatter_block 13)
//   <number of communicator sizes>
//   <comm size> <number of message sizes>
//   <message size> <algorithm> <fan in/out> <segment size>    (one line per message size)
//
// Numbers are read with fscanf("%li"); '#' starts a comment up to the end of the line
// (ompi/mca/coll/base/coll_base_util.c, ompi_coll_base_file_getnext_long()). Open MPI 5.0 reads
// the same text (v5.0.8's reader accepts an optional "rule-file-version-2" header and an optional
// fifth number per line; without them a file is version 1, this format), so one file serves both.
// A file it cannot parse is dropped silently for the built-in decisions: obedience is shown by
// tests/mpi, not by the load.
//
// Lookup (coll_tuned_dynamic_rules.c): the communicator rule with the largest size <= the
// communicator's (the first rule below that), then the message rule with the largest size <=
// the call's (the first must be 0). Allgather's size is count x type size x comm size (per-rank
// contribution x p), Alltoall's scount x type size x comm size, Reduce_scatter_block's rcount x
// type size x comm size; Allreduce's, Bcast's and Reduce's count x type size
// (coll_tuned_decision_dynamic.c). So a rule
// keyed at size s serves s upwards; the file keys each swept p's rules at the previous swept
// p + 1 and each stretch of sizes at the previous stretch's last size + 1, so that, as in the MPICH
// file, a communicator or message size between two swept ones takes the larger one's rule.
//
// Algorithm numbers (coll_tuned_allgather_decision.c, coll_tuned_allreduce_decision.c, the same
// in v4.1.4 and v5.0.8; 5.0 adds Allgather 7 "sparbit", which piccolo does not model):
//   allgather: 3 recursive_doubling (power-of-2 sizes; on others coll_base_allgather.c runs
//              Bruck instead), 4 ring. allreduce: 3 recursive_doubling, 4 ring
//              (coll_base_allreduce.c runs recursive doubling when count < comm size).
// None of them takes a radix: piccolo's k-ring, rm, prd and prm have no Open MPI counterpart,
// and neither fan in/out nor segment size applies (both 0; only segmented ring, 5, segments).
// Bcast, Reduce, Reduce_scatter_block, Alltoall (openmpi_defaults.cpp says what each runs):
//   bcast 7 knomial = piccolo's knomial with k = 4 only: its radix is the MCA parameter
//   coll_tuned_bcast_algorithm_knomial_radix (default 4), not part of a rule, and the file is
//   written for the default (Open MPI's own decision also runs 7 with it); 8 scatter_allgather
//   = scatter-rd, 9 scatter_allgather_ring = scatter-ring (coll_tuned_bcast_decision.c, v4.1.4;
//   both run basic_linear below p elements, sizes piccolo does not sweep them at for one-byte
//   types). reduce 5 binomial = binomial (knomial k = 2), 7 rabenseifner = rabenseifner where p
//   is a power of 2 (Open MPI runs basic_linear below pof2 elements and for non-commutative
//   operations itself); reduce_scatter_block 3 recursive_halving = rh and recexch with k = 2
//   (Open MPI runs basic_linear for non-commutative operations itself; no Open MPI algorithm
//   takes a radix); alltoall 2 pairwise = pairwise where p is not a power of 2 (or is 2),
//   3 modified_bruck = bruck with k = 2.
#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <optional>

#include "openmpi_defaults.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace {

struct OmpiChoice {
    int algorithm = 0;
    std::string_view name;
    double time = 0;
};

struct Losses {
    std::map<std::string, std::pair<int, double>> replaced;  // algorithm -> (points, worst)
    int points = 0;
    int no_equivalent = 0;  // left to Open MPI: nothing simulated there is something it runs
    int kept_modelled = 0;  // left to Open MPI: piccolo predicts no gain over its choice
    std::map<std::string, int> kept_unmodelled;  // left to Open MPI: what it runs -> points
};

// A gain smaller than this over what Open MPI runs anyway is within the error of measured
// profiles (docs/accuracy.md): no reason to override the library.
constexpr double keep_margin = 0.05;

bool first_two(Collective c) {
    return c == Collective::allgather || c == Collective::allreduce;
}

// The time piccolo simulated for what Open MPI runs (`own`: piccolo's algorithm and k) at this
// point, or a lower bound of it: for Allgather and Allreduce ring and rd are both simulated, and
// the baseline is the faster of the two. An algorithm with k (Bruck k = 2, knomial k = 4) is
// timed only when the sweep simulated that k (nullopt otherwise).
std::optional<double> simulated_time(const PointSelection& p, const ompi::Decision& own) {
    const std::string_view algorithm = *own.piccolo;
    for (const AlgorithmOutcome& o : p.algorithms) {
        if (!o.available || o.algorithm != algorithm) continue;
        if (own.k == 0) return o.time;
        for (const auto& [k, time] : o.candidates)
            if (k == own.k) return time;
    }
    if (own.k == 0 && !p.baseline.empty() &&
        (first_two(p.collective) || p.baseline == algorithm))
        return p.baseline_time;
    return std::nullopt;
}

// The fastest algorithm Open MPI runs where piccolo predicts it keep_margin faster than what Open
// MPI would run by itself; elsewhere 0, Open MPI's own decision.
OmpiChoice choose(const PointSelection& p, Losses& losses) {
    const int ranks = p.scale.ranks();
    std::optional<OmpiChoice> best;
    auto consider = [&](std::string_view algorithm, int k, double time) {
        const auto eq = ompi::runs_as(p.collective, algorithm, k, ranks);
        if (eq && (!best || time < best->time)) best = OmpiChoice{eq->algorithm, eq->name, time};
    };
    for (const AlgorithmOutcome& o : p.algorithms) {
        if (!o.available) continue;
        if (o.candidates.empty()) consider(o.algorithm, o.k, o.time);
        for (const auto& [k, time] : o.candidates) consider(o.algorithm, k, time);
    }
    // simulated even if unlisted
    if (!p.baseline.empty()) consider(p.baseline, 0, p.baseline_time);
    const OmpiChoice kept{0, "Open MPI's own decision", 0};
    ++losses.points;
    if (!best && first_two(p.collective)) best = OmpiChoice{4, "ring", 0};  // ring runs everywhere
    if (!best) {
        ++losses.no_equivalent;
        return kept;
    }
    const AlgorithmOutcome* top = p.best_outcome();
    if (top && best->time > top->time * (1 + equal_time_tolerance)) {
        auto& [count, worst] = losses.replaced[top->algorithm];
        ++count;
        worst = std::max(worst, best->time / top->time - 1);
    }
    const ompi::Decision own = ompi::fixed_decision(p.collective, ranks, p.bytes);
    const std::optional<double> theirs = own.piccolo ? simulated_time(p, own) : std::nullopt;
    // Modelled, but not simulated in this sweep (Bruck or knomial without their k, rh or
    // pairwise left out by -a): piccolo cannot compare with it either.
    if (!own.piccolo || (!theirs && (own.k > 0 || !first_two(p.collective)))) {
        ++losses.kept_unmodelled[std::string(own.name)];
        return kept;
    }
    if (!theirs || best->time * (1 + keep_margin) >= *theirs) {
        ++losses.kept_modelled;
        return kept;
    }
    return *best;
}

// What the size of a message rule is, for the comment after it.
std::string_view size_note(Collective c) {
    switch (c) {
        case Collective::allgather:
            return "size = per-rank x comm size";
        case Collective::allreduce:
            return "size = vector size";
        case Collective::bcast:
        case Collective::reduce:
            return "size = buffer size";
        case Collective::reduce_scatter:
        case Collective::alltoall:
            return "size = block x comm size";
    }
    return {};
}

// The message rules of one scale: stretches of equal choices, each keyed at the previous stretch's
// last size + 1 (the first at 0).
std::string message_rules(const SelectResult& result, std::size_t c, std::size_t s,
                          Losses& losses) {
    const Collective collective = result.collectives[c];
    // Open MPI compares count x type size x p for these (coll_tuned_decision_dynamic.c).
    const bool gather = collective == Collective::allgather || collective == Collective::alltoall ||
                        collective == Collective::reduce_scatter;
    const auto ranks = static_cast<std::uint64_t>(result.scales[s].ranks());
    struct Stretch {
        OmpiChoice choice;
        std::uint64_t first_bytes, last_bytes;
    };
    std::vector<Stretch> stretches;
    for (std::size_t z = 0; z < result.sizes.size(); ++z) {
        const OmpiChoice chosen = choose(result.at(c, s, z), losses);
        if (!stretches.empty() && stretches.back().choice.algorithm == chosen.algorithm)
            stretches.back().last_bytes = result.sizes[z];
        else
            stretches.push_back({chosen, result.sizes[z], result.sizes[z]});
    }
    std::string text = fmt::format("{}    # message sizes\n", stretches.size());
    for (std::size_t r = 0; r < stretches.size(); ++r) {
        const std::uint64_t from =
            r == 0 ? 0 : stretches[r - 1].last_bytes * (gather ? ranks : 1) + 1;
        const std::string sizes =
            stretches[r].first_bytes == stretches[r].last_bytes
                ? detail::size_label(stretches[r].first_bytes)
                : fmt::format("{} to {}", detail::size_label(stretches[r].first_bytes),
                              detail::size_label(stretches[r].last_bytes));
        text += fmt::format("{} {} 0 0    # {}: {} {} ({})\n", from, stretches[r].choice.algorithm,
                            stretches[r].choice.name, selection_size_meaning(collective), sizes,
                            size_note(collective));
    }
    return text;
}

std::string collective_rules(const SelectResult& result, std::size_t c, Losses& losses,
                             std::vector<std::string>& remarks) {
    // One rule per communicator size: of several scales with the same p, the first one swept.
    std::vector<std::size_t> order;
    for (std::size_t s = 0; s < result.scales.size(); ++s) {
        auto same = [&](std::size_t o) {
            return result.scales[o].ranks() == result.scales[s].ranks();
        };
        if (std::none_of(order.begin(), order.end(), same))
            order.push_back(s);
        else if (c == 0)
            remarks.push_back(fmt::format(
                "openmpi-rules: Open MPI's rules cannot tell {} from another layout of {} ranks; "
                "the file uses the first one swept",
                detail::scale_label(result.scales[s]), result.scales[s].ranks()));
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return result.scales[a].ranks() < result.scales[b].ranks();
    });
    std::vector<std::pair<int, std::string>> rules;  // (first comm size served, rule text)
    int previous = 0;
    for (std::size_t s : order) {
        std::string text = message_rules(result, c, s, losses);
        if (rules.empty() || rules.back().second != text)
            rules.emplace_back(previous == 0 ? 0 : previous + 1, std::move(text));
        previous = result.scales[s].ranks();
    }
    const Collective collective = result.collectives[c];
    const int id = ompi::collective_id(collective);
    std::string out = fmt::format(
        "{}    # {} (collective id {})\n{}    # communicator sizes\n", id,
        collective == Collective::reduce_scatter ? "reduce_scatter_block" : to_string(collective),
        id, rules.size());
    for (const auto& [from, text] : rules)
        out += fmt::format("{}    # communicators of {} ranks or more\n{}", from, from, text);
    return out;
}

void remark_kept(Collective collective, const Losses& losses, std::vector<std::string>& remarks) {
    int unmodelled = 0;
    std::string names;
    for (const auto& [name, count] : losses.kept_unmodelled) {
        unmodelled += count;
        names += fmt::format("{}{} {}", names.empty() ? "" : ", ", name, count);
    }
    const int kept = losses.kept_modelled + unmodelled + losses.no_equivalent;
    if (kept == 0) return;
    std::string why = fmt::format(
        "at {} piccolo predicts no gain of {:.0f}% over the algorithm Open MPI runs there",
        losses.kept_modelled, 100 * keep_margin);
    if (unmodelled > 0)
        why += fmt::format("; at {} Open MPI runs an algorithm piccolo does not model ({})",
                           unmodelled, names);
    if (losses.no_equivalent > 0)
        why += fmt::format("; at {} no algorithm simulated there is one Open MPI runs",
                           losses.no_equivalent);
    remarks.push_back(fmt::format(
        "openmpi-rules: {} leaves {} of {} points to Open MPI's own decision (algorithm 0): {}",
        to_string(collective), kept, losses.points, why));
}

}  // namespace

Emitted emit_openmpi_rules(const SelectResult& result) {
    check_tuned_collectives(EmitKind::openmpi_rules, result.collectives);
    Emitted out;
    std::string body;
    for (std::size_t c = 0; c < result.collectives.size(); ++c) {
        Losses losses;
        body += collective_rules(result, c, losses, out.remarks);
        remark_kept(result.collectives[c], losses, out.remarks);
        for (const auto& [algorithm, loss] : losses.replaced)
            out.remarks.push_back(fmt::format(
                "openmpi-rules: Open MPI cannot run {} where it was the best {} ({} of {} "
                "points); the fastest algorithm Open MPI runs is at most {:.1f}% slower there "
                "in simulation",
                algorithm, to_string(result.collectives[c]), loss.first, losses.points,
                100 * loss.second));
    }
    const bool bcast = std::find(result.collectives.begin(), result.collectives.end(),
                                 Collective::bcast) != result.collectives.end();
    // The radix is an MCA parameter, not part of a rule: the file holds for its default only.
    const std::string radix =
        bcast ? fmt::format("# Bcast's knomial (7) is written for radix {}, Open MPI's default: "
                            "leave coll_tuned_bcast_algorithm_knomial_radix unset.\n",
                            ompi::bcast_knomial_radix)
              : std::string();
    out.text = fmt::format(
        "# Open MPI coll_tuned dynamic rules chosen by piccolo select (machine {}, {} style, {}).\n"
        "# For Open MPI 4.1 and 5.0 (same format). Use it with:\n"
        "#   mpirun --mca coll_tuned_use_dynamic_rules 1 "
        "--mca coll_tuned_dynamic_rules_filename THIS_FILE ...\n"
        "# Lines: collective id; then per communicator size: its smallest size and the number of\n"
        "# message rules; per message rule: smallest size in bytes, algorithm, fan in/out, "
        "segment size.\n"
        "{}{}    # collectives\n{}",
        result.machine, to_string(result.style),
        result.contention ? "contention modelled" : "no contention", radix,
        result.collectives.size(), body);
    if (bcast)
        out.remarks.push_back(fmt::format(
            "openmpi-rules: bcast's knomial (7) takes its radix from the MCA parameter "
            "coll_tuned_bcast_algorithm_knomial_radix, not from the file: the file stands for "
            "piccolo's knomial with k = {} (the default) only; leave the parameter unset",
            ompi::bcast_knomial_radix));
    out.remarks.push_back(
        "openmpi-rules: use it with --mca coll_tuned_use_dynamic_rules 1 --mca "
        "coll_tuned_dynamic_rules_filename FILE (Open MPI 4.1 and 5.0)");
    return out;
}

}  // namespace piccolo
