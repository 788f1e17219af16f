#pragma once
// A selection point built by hand from each algorithm's time, for the emitter tests: their
// expected tuning files then do not move with engine numbers.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "piccolo/select/select.hpp"

namespace piccolo::testing {

// One algorithm at one point: its time (us), or its time per simulated k.
struct Time {
    std::string algorithm;
    std::vector<std::pair<int, double>> by_k;  // {{0, t}}: no radix
};

inline PointSelection point(Collective c, Scale s, std::uint64_t bytes,
                            const std::vector<Time>& times, const std::string& baseline) {
    PointSelection p;
    p.collective = c;
    p.scale = s;
    p.bytes = bytes;
    for (const Time& t : times) {
        AlgorithmOutcome o;
        o.algorithm = t.algorithm;
        o.has_radix = t.by_k.front().first > 0;
        o.available = true;
        o.time = 1e9;
        for (const auto& [k, us] : t.by_k) {
            if (o.has_radix) o.candidates.emplace_back(k, us * 1e-6);
            if (us * 1e-6 < o.time) o.time = us * 1e-6, o.k = k;
        }
        if (p.best < 0 || o.time < p.best_outcome()->time)
            p.best = static_cast<int>(p.algorithms.size());
        if (t.algorithm == baseline) p.baseline = baseline, p.baseline_time = o.time;
        p.algorithms.push_back(o);
    }
    return p;
}

}  // namespace piccolo::testing
