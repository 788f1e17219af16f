// round_entry() (quotient.hpp): where each round's transfers come from, seen from a block of
// consecutive ranks. Most schedules with a quotient send, in every round, every rank r to r + d
// for each distance d of the round (ring: d = 1; pairwise step i: d = i; scattered: d = -j for the
// batch's j; bruck phase i: d = j k^i); k-ring's second phase (rings inside groups) and the XOR
// pairing of a power of two are no shifts and are decided by their own rules.
#include <cstdint>
#include <vector>

#include "algorithms.hpp"
#include "piccolo/schedules/quotient.hpp"

namespace piccolo {

namespace {

std::int64_t modulo(std::int64_t x, std::int64_t p) {
    return ((x % p) + p) % p;
}

// Does a round of distances `shifts` bring a block of `block` ranks its transfers from outside
// from one block alone? The senders of a shift d into block b are the `block` ranks from
// b block - d on: one block when d is a multiple of block, else two, one of which may be b itself.
// Found by their offsets from b, so the answer is the same for every block.
class OneBlock {
  public:
    OneBlock(Rank p, Rank block) : p_(p), block_(block), blocks_(p / block) {}

    // Adds a round; false once the rounds so far bring transfers from two blocks.
    bool round(const std::vector<std::int64_t>& shifts) {
        std::int64_t seen = 0;  // the offset of the one block found this round; 0: none yet
        for (std::int64_t d : shifts) {
            const std::int64_t first = modulo(-d, p_);  // the sender into the block's first rank
            for (std::int64_t offset : {first / block_, (first + block_ - 1) / block_ % blocks_}) {
                if (offset == 0) continue;  // the block itself: no lane, no other block
                if (seen != 0 && seen != offset) return false;
                seen = offset;
            }
        }
        return true;
    }

  private:
    std::int64_t p_, block_, blocks_;
};

// The distances of every round of the shift schedules.
std::vector<std::vector<std::int64_t>> rounds_of(const GenerateRequest& request) {
    const Rank p = request.ranks;
    std::vector<std::vector<std::int64_t>> rounds;
    if (request.algorithm == "ring") {
        rounds.push_back({1});  // the reversed ring of a Reduce_scatter: -1, the same blocks
    } else if (request.algorithm == "pairwise") {
        for (Rank i = 1; i < p; ++i) rounds.push_back({i});
    } else if (request.algorithm == "scattered") {
        for (Rank first = 0; first < p; first += detail::scattered_batch) {
            rounds.emplace_back();
            for (Rank j = first == 0 ? 1 : first; j < p && j < first + detail::scattered_batch; ++j)
                rounds.back().push_back(-std::int64_t{j});
        }
    } else {  // bruck's Alltoall: phase i sends j k^i ranks on, for every j with j k^i < p
        std::int64_t delta = 1;
        for (const std::vector<Rank>& partners : detail::bruck_alltoall_phases(p, request.k)) {
            rounds.emplace_back();
            for (std::size_t j = 1; j <= partners.size(); ++j)
                rounds.back().push_back(static_cast<std::int64_t>(j) * delta);
            delta *= request.k;
        }
    }
    return rounds;
}

}  // namespace

RoundEntry round_entry(const GenerateRequest& request, Rank block) {
    const Rank p = request.ranks;
    if (request.algorithm == "k-ring") {
        // Phase 1 shifts by k; phase 2 runs a ring inside each group of k consecutive ranks. A
        // block inside a group receives from the block before it in the group (or from the
        // group's last block, at the group's start); a block holding whole groups from the
        // block k ranks before. Where neither of k and block divides the other, a block
        // receives from two blocks in one round, and phase 2 is no shift.
        return request.k % block == 0 || block % request.k == 0 ? RoundEntry::one_block
                                                                : RoundEntry::several_blocks;
    }
    // The XOR pairing of a power of two: step i sends block b (of a power of two ranks) to
    // block b XOR (i / block) alone, each rank keeping its position XOR (i mod block).
    if (request.algorithm == "pairwise" && request.collective == Collective::alltoall &&
        (p & (p - 1)) == 0)
        return RoundEntry::one_block;
    OneBlock one(p, block);
    for (const std::vector<std::int64_t>& shifts : rounds_of(request))
        if (!one.round(shifts)) return RoundEntry::shifted;
    return RoundEntry::one_block;
}

}  // namespace piccolo
