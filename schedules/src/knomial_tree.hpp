#pragma once
// The k-nomial tree of the rooted collectives (bcast_knomial.cpp, reduce_knomial.cpp): ranks are
// numbered relative to the root, x = (r - root) mod p, and rank x's parent is x with its lowest
// nonzero base-k digit cleared. It has as many levels as p - 1 has base-k digits; with k = 2 it
// is MPICH's binomial tree (MPIR_Bcast_intra_binomial, MPIR_Reduce_intra_binomial: the parent
// of x is x minus its lowest set bit).
#include <cstdint>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

// The number of levels: the base-k digits of p - 1 (ceil(log_k p)).
inline int knomial_levels(Rank p, int k) {
    int levels = 0;
    for (std::int64_t spacing = 1; spacing < p; spacing *= k) ++levels;
    return levels;
}

// k^level: the spacing of the children a rank adds at digit `level`.
inline std::int64_t knomial_spacing(int k, int level) {
    std::int64_t spacing = 1;
    for (int i = 0; i < level; ++i) spacing *= k;
    return spacing;
}

// The absolute rank of relative rank x.
inline Rank absolute_rank(std::int64_t x, Rank root, Rank p) {
    return static_cast<Rank>((x + root) % p);
}

}  // namespace piccolo::detail
