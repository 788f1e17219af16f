#pragma once
// The Allgathers whose every round sends exactly one transfer from every rank (ring, k-ring),
// described by formulas instead of a built DAG, so that their quotients (quotient.hpp) can be
// generated for the representatives alone. Round indices start at 0. Rank r's transfer in round
// i, written (i, r), goes to to(i, r) and carries block(i, r); it depends, as the full generators
// build it (ring.cpp, k_ring.cpp), on
//   - the previous round's receive (i - 1, from(i - 1, r)),
//   - its own previous send (i - 1, r): delivered (nccl), sent (mpi) or not at all (pipelined),
//   - k-ring: the receive of round data_round(i) that brought the block it starts to forward.
// Within a round, to() is a permutation that commutes with the orbits' permutations, which is
// why a rank's image receives its representative's image transfer.

#include <cstdint>

#include "piccolo/schedules/generate.hpp"

namespace piccolo::detail {

class RoundAllgather {
  public:
    RoundAllgather(const GenerateRequest& request);

    [[nodiscard]] Rank ranks() const { return p_; }
    [[nodiscard]] int rounds() const { return rounds_; }
    [[nodiscard]] Rank to(int round, Rank r) const;
    [[nodiscard]] Rank from(int round, Rank r) const;
    [[nodiscard]] std::uint32_t block(int round, Rank r) const;
    // The earlier round whose receive brought the block that round `round` starts to forward, if
    // it is not the previous round; -1 when there is none.
    [[nodiscard]] int data_round(int round) const;

  private:
    [[nodiscard]] bool in_phase_one(int round) const { return k_ > 0 && round < groups_ - 1; }
    Rank p_;
    int k_;  // 0: ring
    Rank groups_;
    int rounds_;
};

}  // namespace piccolo::detail
