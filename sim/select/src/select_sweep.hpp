#pragma once
// What passes between the selector's steps: select.cpp generates the candidate schedules and
// simulates them into a Sweep; select_rank.cpp ranks the Sweep into the SelectResult.

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/select/select_fingerprint.hpp"

namespace piccolo::detail {

// An algorithm of the sweep: the user's (or each collective's default candidates), plus each
// collective's baseline algorithms when the user left them out (the baseline is always
// simulated).
struct SweptAlgorithm {
    const AlgorithmInfo* info = nullptr;
    unsigned reported = 0;  // collective_bit() of each collective it is reported at
    [[nodiscard]] bool reported_at(Collective c) const { return (reported & collective_bit(c)) != 0; }
};

struct Candidate {
    int k = 0;                 // 0 for algorithms without radix
    std::size_t schedule = 0;  // index of its distinct schedule
};

// The candidates of one (collective, p, algorithm).
struct CandidateSet {
    std::vector<Candidate> candidates;  // by increasing k
    std::string unavailable;            // why there are none
};

inline constexpr double not_run = std::numeric_limits<double>::quiet_NaN();

struct Sweep {
    std::vector<Collective> collectives;
    std::vector<SweptAlgorithm> algorithms;
    std::vector<Scale> scales;
    std::vector<std::uint64_t> sizes;
    std::vector<Rank> ranks;            // distinct p of the scales, in scale order
    std::vector<CandidateSet> sets;     // [collective][p][algorithm]
    std::vector<std::uint32_t> rounds;  // per distinct schedule: transfers on its longest chain
    std::vector<double> times;          // [schedule][scale][size], NaN = not run
    // [schedule][scale][size]: where a lower bound left the simulation out, the bound; else NaN.
    std::vector<double> bounds;

    [[nodiscard]] std::size_t set_index(std::size_t c, std::size_t p, std::size_t a) const {
        return (c * ranks.size() + p) * algorithms.size() + a;
    }
    [[nodiscard]] std::size_t time_index(std::size_t schedule, std::size_t scale,
                                         std::size_t size) const {
        return (schedule * scales.size() + scale) * sizes.size() + size;
    }
    [[nodiscard]] double time(std::size_t schedule, std::size_t scale, std::size_t size) const {
        return times[time_index(schedule, scale, size)];
    }
    [[nodiscard]] double bound(std::size_t schedule, std::size_t scale, std::size_t size) const {
        return bounds[time_index(schedule, scale, size)];
    }
    [[nodiscard]] std::size_t point_index(std::size_t c, std::size_t scale,
                                          std::size_t size) const {
        return (c * scales.size() + scale) * sizes.size() + size;
    }
};

// Per (collective, scale, size), in point_index order: a large candidate whose makespan lower
// bound there is above the threshold cannot be the best or the runner-up (select_bounds.cpp).
// From the times simulated so far; `hashes`: per schedule, its timing_hash().
std::vector<double> bound_thresholds(const Sweep& sweep, std::span<const TimingHash> hashes);

// The axes of the sweep from the request (select_axes.cpp); each throws InputError naming the
// option. Algorithms: the requested ones in order, reported at every collective (one that builds
// none of them is refused), or, when none is named, each collective's default candidates in
// registry order, reported where they are candidates; then each collective's baseline
// algorithms, unreported where missing. Sizes: the default when none, increasing and distinct.
std::vector<Collective> unique_collectives(const std::vector<Collective>& requested);
std::vector<SweptAlgorithm> swept_algorithms(const std::vector<std::string>& requested,
                                             const std::vector<Collective>& collectives);
std::vector<std::uint64_t> swept_sizes(const std::vector<std::uint64_t>& requested);
// The candidate k of an algorithm at p: its valid k, those of `requested` if any; {0} without k.
std::vector<int> radices_for(const AlgorithmInfo& info, Rank p, const std::vector<int>& requested);
// Every requested k in 2..largest p, and some valid for every reported algorithm with k.
void check_radices(const std::vector<int>& requested, const Sweep& sweep);

// Among candidates of equal time the smaller key wins (select.hpp, equal_time_tolerance): a
// baseline algorithm of the collective first, then fewer rounds, the smaller k, the registry's
// order.
using Preference = std::tuple<bool, std::uint32_t, int, std::size_t>;
Preference preference_of(const Sweep& sweep, Collective collective, std::size_t algorithm,
                         const Candidate& candidate);
bool is_baseline(Collective collective, std::string_view algorithm);

// A simulated candidate of an algorithm at one point, with its time.
struct TimedCandidate {
    std::size_t algorithm = 0;  // index into Sweep::algorithms
    const Candidate* candidate = nullptr;
    double time = 0;
};

// The fastest entry or, among those within the tolerance of it, the preferred one; null when
// there are none. The ranking and the bounds' thresholds (select_bounds.cpp) both choose so.
const TimedCandidate* choose_preferred(const Sweep& sweep, Collective collective,
                                       std::span<const TimedCandidate> entries);

// Step 3: the best candidate per (collective, scale, size), serially. Times within a relative
// 1e-9 of each other are equal; equal candidates go by a fixed preference (select.hpp).
// `result` arrives with its header (machine, style, contention, notes) filled in.
void rank_sweep(const Sweep& sweep, SelectResult& result);

// The number of transfers on the longest dependency chain of a schedule whose dependencies point
// to earlier tasks (every generated one): its rounds, for the tie preference.
std::uint32_t transfer_rounds(const Schedule& schedule);

}  // namespace piccolo::detail
