// The algorithm registry: one line per algorithm. Adding an algorithm = one generator file plus
// one line here.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>

#include "algorithms.hpp"
#include "piccolo/error.hpp"

namespace piccolo {

namespace {

using namespace detail;

constexpr auto registry = std::to_array<AlgorithmInfo>({
    {"ring", "ring: p-1 rounds to the next rank (Allreduce: reduce-scatter + allgather)", false,
     nullptr, generate_ring},
    {"k-ring", "k-ring: rings inside groups of k consecutive ranks and across groups; k | p", true,
     k_ring_radices, generate_k_ring},
    {"rd", "recursive doubling: log2 p rounds, partner distance 1, 2, 4, ...", false, nullptr,
     generate_rd},
    {"rm", "recursive multiplying: k-1 partners per round, spacing 1, k, k^2, ...", true, any_radix,
     generate_rm},
    {"prd", "distance-halving recursive doubling: partner distance p/2, p/4, ..., then permute",
     false, nullptr, generate_prd},
    {"prm", "permuted recursive multiplying: spacing p/k, p/k^2, ..., then permute", true,
     any_radix, generate_prm},
});

}  // namespace

std::span<const AlgorithmInfo> algorithms() {
    return registry;
}

const AlgorithmInfo& find_algorithm(std::string_view name) {
    for (const AlgorithmInfo& info : registry)
        if (info.name == name) return info;
    std::vector<std::string_view> names;
    for (const AlgorithmInfo& info : registry) names.push_back(info.name);
    throw InputError(
        fmt::format("unknown algorithm '{}' (known: {})", name, fmt::join(names, ", ")));
}

Schedule generate(const GenerateRequest& request) {
    const AlgorithmInfo& info = find_algorithm(request.algorithm);
    const Rank p = request.ranks;
    if (p < 2) throw InputError(fmt::format("-p/--ranks: need at least 2 ranks (got {})", p));
    if (request.bytes == 0) throw InputError("--bytes: message size must be at least 1 byte");
    GenerateRequest resolved = request;
    if (info.has_radix) {
        if (request.k < 2 || request.k > p)
            throw InputError(
                fmt::format("-k: {} needs 2 <= k <= p = {} (got k = {})", info.name, p, request.k));
        const std::vector<int> valid = info.valid_radices(p);
        if (std::find(valid.begin(), valid.end(), request.k) == valid.end())
            throw InputError(
                fmt::format("-k: {} with p = {} accepts k in {{{}}} (got k = {}); "
                            "k-ring needs k to divide p",
                            info.name, p, fmt::join(valid, ", "), request.k));
    } else {
        resolved.k = info.name == "ring" ? 0 : 2;
    }
    const bool segmented = info.name == "ring" || info.name == "k-ring";
    if (request.collective == Collective::allreduce && segmented &&
        request.bytes < static_cast<std::uint64_t>(p))
        throw InputError(fmt::format(
            "--bytes: {} Allreduce cuts the vector into p = {} segments, so it needs at least {} "
            "bytes (got {}); use rd/rm/prd/prm for smaller vectors",
            info.name, p, p, request.bytes));
    return info.generate(resolved);
}

}  // namespace piccolo
