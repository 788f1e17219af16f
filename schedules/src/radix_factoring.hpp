#pragma once
// How recursive multiplying handles any p and k: the largest k-smooth core of ranks runs a
// mixed-radix exchange, the remaining ranks fold into it (see schedules/README.md).

#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

struct RadixFactoring {
    Rank core = 0;             // ranks 0..core-1 take part in the rounds
    std::vector<int> radices;  // one per round, each <= k, product == core
    [[nodiscard]] Rank extra(Rank p) const { return p - core; }  // ranks folded into 0..extra-1
};

bool is_smooth(Rank n, int k);  // every prime factor of n is <= k
RadixFactoring factor_radices(Rank p, int k);

}  // namespace piccolo::detail
