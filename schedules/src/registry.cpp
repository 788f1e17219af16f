// The algorithm registry: one line per algorithm. Adding an algorithm = one generator file plus
// one line here.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>

#include "algorithms.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "radix_factoring.hpp"

namespace piccolo {

namespace {

using namespace detail;

bool divides_p(Rank p, int k) {
    return p % k == 0;
}
bool any_k(Rank, int) {
    return true;
}

Schedule generate_knomial(const GenerateRequest& request) {
    return request.collective == Collective::bcast ? generate_bcast_knomial(request)
                                                   : generate_reduce_knomial(request);
}

bool is_rooted(Collective collective) {
    return collective == Collective::bcast || collective == Collective::reduce;
}

constexpr unsigned bit(Collective c) {
    return collective_bit(c);
}
constexpr unsigned reversible = allgather_allreduce | bit(Collective::reduce_scatter);
constexpr unsigned rooted = bit(Collective::bcast) | bit(Collective::reduce);

// One line naming -c/--collective and the algorithms that build the collective asked for.
[[noreturn]] void refuse_collective(const AlgorithmInfo& info, Collective collective);

constexpr auto registry = std::to_array<AlgorithmInfo>({
    {"ring", "ring: p-1 rounds to the next rank (Allreduce: reduce-scatter + allgather)", false,
     nullptr, nullptr, generate_ring, false, reversible},
    {"k-ring", "k-ring: rings inside groups of k consecutive ranks and across groups; k | p", true,
     k_ring_radices, divides_p, generate_k_ring, false, reversible},
    {"rd", "recursive doubling: log2 p rounds, partner distance 1, 2, 4, ...", false, nullptr,
     nullptr, generate_rd},
    {"rm", "recursive multiplying: k-1 partners per round, spacing 1, k, k^2, ...", true, any_radix,
     any_k, generate_rm},
    {"prd", "distance-halving recursive doubling: partner distance p/2, p/4, ..., then permute",
     false, nullptr, nullptr, generate_prd},
    {"prm", "permuted recursive multiplying: spacing p/k, p/k^2, ..., then permute", true,
     any_radix, any_k, generate_prm},
    {"bruck",
     "Bruck (Allgather, Alltoall): ceil(log_k p) phases to j k^i ranks away, local rotations",
     true, any_radix, any_k, generate_bruck, /*named_only=*/true,
     bit(Collective::allgather) | bit(Collective::alltoall)},
    {"knomial", "k-nomial tree (Bcast, Reduce): ceil(log_k p) levels, k-1 children per level", true,
     any_radix, any_k, generate_knomial, false, rooted},
    {"binomial", "binomial tree (Bcast, Reduce): the k-nomial tree with k = 2", false, nullptr,
     nullptr, generate_knomial, false, rooted},
    {"scatter-rd",
     "scatter + recursive doubling (Bcast): binomial scatter of ceil(n/p)-byte chunks, log2 p "
     "exchanges; any p",
     false, nullptr, nullptr, generate_bcast_scatter_rd, false, bit(Collective::bcast),
     nullptr, Cut::ceil},
    {"scatter-ring",
     "scatter + ring (Bcast): binomial scatter of ceil(n/p)-byte chunks, p-1 ring steps",
     false, nullptr, nullptr, generate_bcast_scatter_ring, false, bit(Collective::bcast),
     nullptr, Cut::ceil},
    {"pairwise",
     "pairwise (Reduce_scatter, Alltoall): p-1 sendrecv steps to r+i (Alltoall, p = 2^n: r^i)",
     false, nullptr, nullptr, generate_pairwise, false,
     bit(Collective::reduce_scatter) | bit(Collective::alltoall)},
    {"scattered", "scattered (Alltoall): batches of 32 partners, all at once, waited per batch",
     false, nullptr, nullptr, generate_scattered, false, bit(Collective::alltoall)},
    {"rh",
     "recursive halving (Reduce_scatter): log2 p steps to r XOR 2^i, halving the data; any p",
     false, nullptr, nullptr, generate_rh, false, bit(Collective::reduce_scatter)},
    {"rabenseifner",
     "Rabenseifner (Reduce): reduce-scatter by recursive halving, binomial gather to the root",
     false, nullptr, nullptr, generate_reduce_rabenseifner, false, bit(Collective::reduce)},
    {"recexch",
     "recursive exchange (Reduce_scatter): log_k phases of k-1 partners, far first; any p",
     true, any_radix, any_k, generate_recexch, false, bit(Collective::reduce_scatter),
     recexch_swept_radices},
});

// Transfers of the algorithm's Allgather (ring and k-ring: p (p - 1)).
double allgather_transfers(const AlgorithmInfo& info, const GenerateRequest& r) {
    const auto p = static_cast<double>(r.ranks);
    if (info.name == "ring" || info.name == "k-ring") return p * (p - 1);
    double transfers = 0;
    if (info.name == "bruck") {
        for (const auto& counts : bruck_phases(r.ranks, r.k))
            transfers += p * static_cast<double>(counts.size());
        return transfers;
    }
    const RadixFactoring factoring = factor_radices(r.ranks, info.has_radix ? r.k : 2);
    transfers = 2.0 * factoring.extra(r.ranks);
    for (int radix : factoring.radices)
        transfers += static_cast<double>(factoring.core) * (radix - 1);
    return transfers;
}

// The IR indexes tasks, dependencies and payload items with 32 bits: refuse, with numbers, a
// request that would not fit instead of failing halfway through a multi-gigabyte allocation.
void check_capacity(const AlgorithmInfo& info, const GenerateRequest& r) {
    const auto p = static_cast<double>(r.ranks);
    const bool gather = r.collective == Collective::allgather;
    const bool older = gather || r.collective == Collective::allreduce;
    const double transfers = older ? allgather_transfers(info, r) : 0;
    // allreduce: + phase / reduces; bruck: + p - 1 permutes
    double tasks = gather ? transfers + (info.name == "bruck" ? p - 1 : 0) : 3 * transfers;
    // Allgather payload lists name every block each rank receives: about p (p - 1) in all.
    double payload = r.payload && gather ? p * (p - 1) : 0;
    if (!older) {  // the exact counts, in closed form (O(1) for these algorithms)
        const TaskCounts counts = count_tasks(r);
        tasks = static_cast<double>(counts.tasks());
        payload = static_cast<double>(counts.payload_ids);
    }
    constexpr double limit = 4294967295.0;
    if (tasks > limit || payload > limit)
        throw InputError(fmt::format(
            "-p/--ranks: {} {} with p = {} needs {:.3g} tasks{}; a schedule holds at most 2^32 - 1 "
            "(use fewer ranks{})",
            to_string(r.collective), info.name, r.ranks, tasks,
            payload > limit ? fmt::format(" and {:.3g} payload entries", payload) : "",
            payload > limit ? ", or --no-payload" : ""));
    const double total = static_cast<double>(r.bytes) * (gather ? p : 1.0) *
                         (r.collective == Collective::alltoall ? p : 1.0);
    if (total > 1.8e19)
        throw InputError(fmt::format("--bytes: {} bytes x {} ranks overflows a 64-bit byte count",
                                     r.bytes, r.ranks));
}

}  // namespace

bool builds(const AlgorithmInfo& info, Collective collective) {
    return (info.collectives & collective_bit(collective)) != 0;
}

bool default_candidate(const AlgorithmInfo& info, Collective collective) {
    return builds(info, collective) && !info.named_only;
}

std::vector<int> swept_radices(const AlgorithmInfo& info, Rank p) {
    if (!info.has_radix) return {};
    return info.default_radices ? info.default_radices(p) : info.valid_radices(p);
}

namespace {

// The rooted algorithms (trees) and the others refuse each other's collectives as "does not
// build"; the others list the collectives they run.
void refuse_collective(const AlgorithmInfo& info, Collective collective) {
    std::vector<std::string_view> names, runs;
    for (const AlgorithmInfo& other : registry)
        if (builds(other, collective)) names.push_back(other.name);
    for (Collective c : all_collectives)
        if (builds(info, c)) runs.push_back(to_string(c));
    const std::string_view asked = to_string(collective);
    if (is_rooted(collective) || (info.collectives & rooted) != 0)
        throw InputError(fmt::format("-c/--collective: {} does not build {}; for {} use one of {}",
                                     info.name, asked, asked, fmt::join(names, ", ")));
    throw InputError(fmt::format("-c/--collective: {} runs {} only; for {} use one of {}",
                                 info.name, fmt::join(runs, ", "), asked, fmt::join(names, ", ")));
}

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
        fmt::format("unknown algorithm '{}' (known: {})", excerpt(name), fmt::join(names, ", ")));
}

std::string no_radix_message(const std::vector<std::string_view>& names,
                             const std::vector<Collective>& collectives) {
    std::vector<std::string_view> asked, radix;
    for (Collective c : collectives) asked.push_back(to_string(c));
    for (const AlgorithmInfo& info : registry)
        if (info.has_radix && std::any_of(collectives.begin(), collectives.end(),
                                          [&](Collective c) { return builds(info, c); }))
            radix.push_back(info.name);
    const std::string which =
        names.size() == 1 ? fmt::format("{} takes no radix; drop -k, or choose", names.front())
                          : fmt::format("none of {} takes a radix; drop -k, or add",
                                        fmt::join(names, ", "));
    return fmt::format("-k: {} with -a an algorithm that takes one (for {}: {})", which,
                       fmt::join(asked, ", "), fmt::join(radix, ", "));
}

Schedule generate(const GenerateRequest& request) {
    const AlgorithmInfo& info = find_algorithm(request.algorithm);
    const Rank p = request.ranks;
    if (p < 2) throw InputError(fmt::format("-p/--ranks: need at least 2 ranks (got {})", p));
    if (request.bytes == 0) throw InputError("--bytes: message size must be at least 1 byte");
    if (!builds(info, request.collective)) refuse_collective(info, request.collective);
    if (is_rooted(request.collective) && (request.root < 0 || request.root >= p))
        throw InputError(fmt::format("--root: rank {} is not one of the p = {} ranks (use 0..{})",
                                     request.root, p, p - 1));
    GenerateRequest resolved = request;
    if (!is_rooted(request.collective)) resolved.root = 0;
    if (info.has_radix) {
        if (request.k < 2 || request.k > p)
            throw InputError(
                fmt::format("-k: {} needs 2 <= k <= p = {} (got k = {})", info.name, p, request.k));
        if (!info.accepts_radix(p, request.k))
            throw InputError(
                fmt::format("-k: {} with p = {} accepts k in {{{}}} (got k = {}); "
                            "k-ring needs k to divide p",
                            info.name, p, fmt::join(info.valid_radices(p), ", "), request.k));
    } else {
        // ring, pairwise, scattered, rh, rabenseifner, scatter-rd and scatter-ring have no radix;
        // rd, prd and binomial have radix 2
        const bool none = info.name == "ring" || info.name == "pairwise" ||
                          info.name == "scattered" || info.name == "rh" ||
                          info.name == "rabenseifner" || info.name == "scatter-rd" ||
                          info.name == "scatter-ring";
        resolved.k = none ? 0 : 2;
    }
    const bool segmented = info.name == "ring" || info.name == "k-ring";
    if (request.collective == Collective::allreduce && segmented &&
        request.bytes < static_cast<std::uint64_t>(p))
        throw InputError(fmt::format(
            "--bytes: {} Allreduce cuts the vector into p = {} segments, so it needs at least {} "
            "bytes (got {}); use rd/rm/prd/prm for smaller vectors",
            info.name, p, p, request.bytes));
    // The trees have p - 1 transfers; the scatter-allgathers (scatter-ring: q (p - 1)) can pass
    // 2^32 - 1.
    if (!is_rooted(request.collective) || info.cut == Cut::ceil) check_capacity(info, resolved);
    return info.generate(resolved);
}

}  // namespace piccolo
