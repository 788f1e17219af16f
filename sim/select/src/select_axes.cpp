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
        throw InputError("--collective: empty list (use allgather, allreduce or both)");
    std::vector<Collective> out;
    for (Collective c : requested)
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    return out;
}

std::vector<SweptAlgorithm> swept_algorithms(const std::vector<std::string>& requested) {
    std::vector<SweptAlgorithm> out;
    auto add = [&](std::string_view name, bool reported) {
        const AlgorithmInfo& info = find_algorithm(name);  // throws on unknown names
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const SweptAlgorithm& a) { return a.info == &info; });
        if (!seen) out.push_back({&info, reported});
    };
    if (requested.empty())
        for (const AlgorithmInfo& info : algorithms())
            if (info.swept_by_default) add(info.name, true);
    for (const std::string& name : requested) add(name, true);
    for (const char* name : baseline_algorithms) add(name, false);
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
    std::vector<int> valid = info.valid_radices(p);
    if (requested.empty()) return valid;
    std::vector<int> chosen;
    for (int k : valid)
        if (std::find(requested.begin(), requested.end(), k) != requested.end())
            chosen.push_back(k);
    return chosen;
}

void check_radices(const std::vector<int>& requested, const Sweep& sweep) {
    if (requested.empty()) return;
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
        if (!a.reported || !a.info->has_radix) continue;
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
