// The sweep's axes from the request, checked before anything runs: collectives, algorithms,
// sizes and candidate k (select_sweep.hpp). Every problem is one line naming the option.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>

#include "piccolo/core/error.hpp"
#include "select_sweep.hpp"

namespace piccolo::detail {

std::vector<Collective> unique_collectives(const std::vector<Collective>& requested) {
    if (requested.empty())
        throw InputError(
            "--collective: empty list (use allgather, allreduce, bcast, reduce, reduce_scatter, "
            "alltoall or all)");
    std::vector<Collective> out;
    for (Collective c : requested)
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    return out;
}

namespace {

// "knomial, binomial": the algorithms that build the collective.
std::string builders(Collective collective) {
    std::vector<std::string_view> names;
    for (const AlgorithmInfo& info : algorithms())
        if (builds(info, collective)) names.push_back(info.name);
    return fmt::format("{}", fmt::join(names, ", "));
}

// A named algorithm must build at least one requested collective: else nothing of it could run.
void check_builds_some(const AlgorithmInfo& info, const std::vector<Collective>& collectives) {
    if (std::any_of(collectives.begin(), collectives.end(),
                    [&](Collective c) { return builds(info, c); }))
        return;
    std::vector<std::string_view> runs, asked, use;
    for (Collective c : all_collectives)
        if (builds(info, c)) runs.push_back(to_string(c));
    for (Collective c : collectives) asked.push_back(to_string(c));
    std::string others;
    for (Collective c : collectives)
        others += fmt::format("; for {} use {}", to_string(c), builders(c));
    throw InputError(fmt::format(
        "-a/--algorithms: {} builds none of the collectives asked for ({}); it builds {}{}",
        info.name, fmt::join(asked, ", "), fmt::join(runs, ", "), others));
}

}  // namespace

std::vector<SweptAlgorithm> swept_algorithms(const std::vector<std::string>& requested,
                                             const std::vector<Collective>& collectives) {
    unsigned asked = 0;
    for (Collective c : collectives) asked |= collective_bit(c);
    std::vector<SweptAlgorithm> out;
    auto add = [&](std::string_view name, unsigned reported) {
        const AlgorithmInfo& info = find_algorithm(name);  // throws on unknown names
        const auto seen = std::find_if(out.begin(), out.end(),
                                       [&](const SweptAlgorithm& a) { return a.info == &info; });
        if (seen == out.end())
            out.push_back({&info, reported});
        else
            seen->reported |= reported;
        return &info;
    };
    if (requested.empty())
        for (const AlgorithmInfo& info : algorithms()) {
            unsigned reported = 0;
            for (Collective c : collectives)
                if (default_candidate(info, c)) reported |= collective_bit(c);
            if (reported != 0) add(info.name, reported);
        }
    for (const std::string& name : requested) check_builds_some(*add(name, asked), collectives);
    for (Collective c : collectives)
        for (const char* name : baseline_algorithms_of(c)) add(name, 0);
    return out;
}

std::vector<std::uint64_t> swept_sizes(const std::vector<std::uint64_t>& requested) {
    std::vector<std::uint64_t> sizes = requested.empty() ? default_select_sizes() : requested;
    if (sizes.empty())
        throw InputError("--sizes: empty list (give at least one message size, e.g. 8,1KiB)");
    for (std::uint64_t bytes : sizes)
        if (bytes == 0) throw InputError("--sizes: message sizes must be at least 1 byte (got 0)");
    // Increasing and distinct: rule lists (MPICH "<=" thresholds) rely on the order.
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
}

std::vector<int> radices_for(const AlgorithmInfo& info, Rank p, const std::vector<int>& requested) {
    if (!info.has_radix) return {0};
    if (requested.empty()) return swept_radices(info, p);
    std::vector<int> valid = info.valid_radices(p);
    std::vector<int> chosen;
    for (int k : valid)
        if (std::find(requested.begin(), requested.end(), k) != requested.end())
            chosen.push_back(k);
    return chosen;
}

void check_radices(const std::vector<int>& requested, const Sweep& sweep) {
    if (requested.empty()) return;
    // -k narrows the k of the swept algorithms that have a radix and leaves the others as they
    // are (a list for `-c all` serves knomial, recexch and rm alike); where none has a radix it
    // would narrow nothing, so it is refused rather than ignored.
    std::vector<std::string_view> swept;
    bool takes_radix = false;
    for (const SweptAlgorithm& a : sweep.algorithms)
        if (a.reported != 0) {
            swept.push_back(a.info->name);
            takes_radix = takes_radix || a.info->has_radix;
        }
    if (!takes_radix) throw InputError(no_radix_message(swept, sweep.collectives));
    const int largest = *std::max_element(sweep.ranks.begin(), sweep.ranks.end());
    for (int k : requested) {
        if (k < 2) throw InputError(fmt::format("-k: every k must be at least 2 (got {})", k));
        if (k > largest)
            throw InputError(
                fmt::format("-k: k = {} is larger than every p of the sweep "
                            "(largest p = {}); use 2 <= k <= p",
                            k, largest));
    }
    for (const SweptAlgorithm& a : sweep.algorithms) {
        if (a.reported == 0 || !a.info->has_radix) continue;
        bool any = false;
        for (Rank p : sweep.ranks) any = any || !radices_for(*a.info, p, requested).empty();
        if (!any)
            throw InputError(fmt::format(
                "-k: no k in {{{}}} is valid for {} at any scale (p = {}; {} accepts k in "
                "{{{}}} "
                "for p = {}); add a valid k or drop {} from --algorithms",
                fmt::join(requested, ", "), a.info->name, fmt::join(sweep.ranks, ", "),
                a.info->name, fmt::join(a.info->valid_radices(sweep.ranks.front()), ", "),
                sweep.ranks.front(), a.info->name));
    }
}

}  // namespace piccolo::detail
