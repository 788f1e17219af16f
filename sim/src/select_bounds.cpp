// Which simulations of a large candidate a lower bound can leave out (select.hpp,
// bound_min_tasks; docs/bounds.md, "In the selector"). Decided from the times of every smaller
// candidate, all simulated first, so the choice does not depend on threads or timing.
#include <algorithm>
#include <cmath>
#include <limits>

#include "select_sweep.hpp"

namespace piccolo::detail {

namespace {

struct Timed {
    std::size_t algorithm = 0;
    double time = 0;
};

// Large candidates left out have a bound above the threshold, so none of them is the best or
// ties with it: the winner is one of the candidates simulated here within the tolerance of the
// fastest. The threshold is the fastest time of a candidate whose algorithm differs from each of
// those and whose time differs too (so its schedule differs, even after identical DAGs merge):
// whichever of them wins, that candidate may be its runner-up, so the runner-up takes at most
// the threshold, and a candidate whose bound is above it (beyond the tolerance) is neither the
// runner-up nor tied with it. Infinity when there is no such candidate.
double runner_up_limit(const std::vector<Timed>& entries) {
    double fastest = std::numeric_limits<double>::infinity();
    for (const Timed& e : entries) fastest = std::min(fastest, e.time);
    std::vector<Timed> winners;
    for (const Timed& e : entries)
        if (e.time <= fastest + equal_time_tolerance * fastest) winners.push_back(e);
    double limit = std::numeric_limits<double>::infinity();
    for (const Timed& e : entries) {
        const bool other = std::none_of(winners.begin(), winners.end(), [&](const Timed& w) {
            return w.algorithm == e.algorithm || w.time == e.time;
        });
        if (other) limit = std::min(limit, e.time);
    }
    return limit;
}

}  // namespace

std::vector<double> bound_thresholds(const Sweep& sweep) {
    std::vector<double> thresholds;
    for (std::size_t c = 0; c < sweep.collectives.size(); ++c)
        for (std::size_t scale = 0; scale < sweep.scales.size(); ++scale) {
            const auto p = static_cast<std::size_t>(
                std::find(sweep.ranks.begin(), sweep.ranks.end(), sweep.scales[scale].ranks()) -
                sweep.ranks.begin());
            for (std::size_t z = 0; z < sweep.sizes.size(); ++z) {
                std::vector<Timed> entries;
                for (std::size_t a = 0; a < sweep.algorithms.size(); ++a) {
                    if (!sweep.algorithms[a].reported) continue;
                    for (const Candidate& cand : sweep.sets[sweep.set_index(c, p, a)].candidates)
                        if (const double t = sweep.time(cand.schedule, scale, z); !std::isnan(t))
                            entries.push_back({a, t});
                }
                thresholds.push_back(runner_up_limit(entries) * (1 + 3 * equal_time_tolerance));
            }
        }
    return thresholds;
}

}  // namespace piccolo::detail
