// Bcast by scatter + recursive-doubling allgather (scatter-rd): MPICH's
// MPIR_Bcast_intra_scatter_recursive_doubling_allgather (v4.1.2,
// src/mpi/coll/bcast/bcast_intra_scatter_recursive_doubling_allgather.c; the same steps in
// v4.0.2 to v4.3.2, and Open MPI 4.1.4's ompi_coll_base_bcast_intra_scatter_allgather), after
// the binomial scatter of bcast_scatter.hpp.
//
// Step mask = 1, 2, 4, ... < p: relative rank x and x ^ mask (when below p) swap the chunks of
// their subtrees, [t, t + mask) with t = x rounded down to a multiple of mask (MPIC_Sendrecv).
// p not a power of 2 (MPICH's "experimental" branch, which runs whenever a tuning file or CVAR
// picks the algorithm: coll_algorithms.txt puts no power-of-2 restriction on it): in the last
// block [b, b + 2 mask) only u = p - b - mask < mask ranks of the upper half exist, so only the
// first u ranks of the lower half got the upper half's chunks [b + mask, p); they hand them to
// the others by recursive halving inside the lower half, tmp_mask = mask / 2 .. 1: with
// tree_root = x rounded down to 2 tmp_mask, x sends to y = x ^ tmp_mask when y > x,
// x < tree_root + u and y >= tree_root + u (MPICH's test, and its mirror for the receive).
// Every rank thus enters each step holding its subtree's chunks.
#include <algorithm>
#include <vector>

#include "algorithms.hpp"
#include "bcast_scatter.hpp"

namespace piccolo::detail {

namespace {

// The recursive halving of step `mask` in the last block [b, b + 2 mask), whose upper half
// has u ranks (0 < u < mask): the lower half's have-nots get [b + mask, q).
void halving(BcastProgram& program, std::int64_t mask, std::int64_t b, std::int64_t u,
             std::vector<TaskId>& data) {
    const auto first = static_cast<std::uint32_t>(b + mask);
    for (std::int64_t h = mask / 2; h >= 1; h /= 2) {
        for (std::int64_t x = b; x < b + mask; ++x) {
            const std::int64_t tree_root = x & ~(2 * h - 1), y = x ^ h;
            if (!(y > x && x < tree_root + u && y >= tree_root + u)) continue;
            data.clear();
            if (program.style() == Style::pipelined)
                program.first_deliveries(x, first, program.chunks(), data);
            program.send(x, y, first, program.chunks(), data);
        }
        program.end_round();
    }
}

}  // namespace

Schedule generate_bcast_scatter_rd(const GenerateRequest& request) {
    BcastProgram program(request, request.style == Style::pipelined);
    program.scatter();
    const std::int64_t p = program.ranks();
    std::vector<TaskId> data;
    for (std::int64_t mask = 1; mask < p; mask *= 2) {
        for (std::int64_t x = 0; x < p; ++x) {
            const std::int64_t partner = x ^ mask;
            if (partner >= p) continue;
            const auto t = static_cast<std::uint32_t>(x & ~(mask - 1));
            const auto end = static_cast<std::uint32_t>(std::min<std::int64_t>(t + mask, p));
            data.clear();
            if (program.style() == Style::pipelined) program.first_deliveries(x, t, end, data);
            program.send(x, partner, t, end, data);
        }
        program.end_round();
        const std::int64_t b = (p - 1) & ~(2 * mask - 1);  // the block holding rank p - 1
        const std::int64_t u = p - b - mask;
        if (u > 0 && u < mask) halving(program, mask, b, u, data);
    }
    return std::move(program).finish();
}

}  // namespace piccolo::detail
