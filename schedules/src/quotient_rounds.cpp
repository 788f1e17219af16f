#include "quotient_rounds.hpp"

namespace piccolo::detail {

namespace {

Rank modulo(std::int64_t x, Rank p) {
    return static_cast<Rank>(((x % p) + p) % p);
}

}  // namespace

RoundAllgather::RoundAllgather(const GenerateRequest& request)
    : p_(request.ranks),
      k_(request.algorithm == "k-ring" ? request.k : 0),
      groups_(k_ > 0 ? p_ / k_ : 0),
      rounds_(k_ > 0 ? (groups_ - 1) + groups_ * (k_ - 1) : p_ - 1) {}

Rank RoundAllgather::to(int round, Rank r) const {
    if (k_ == 0) return modulo(std::int64_t{r} + 1, p_);
    if (in_phase_one(round)) return modulo(std::int64_t{r} + k_, p_);
    const Rank base = r - r % k_;
    return base + (r % k_ + 1) % k_;
}

Rank RoundAllgather::from(int round, Rank r) const {
    if (k_ == 0) return modulo(std::int64_t{r} - 1, p_);
    if (in_phase_one(round)) return modulo(std::int64_t{r} - k_, p_);
    const Rank base = r - r % k_;
    return base + (r % k_ + k_ - 1) % k_;
}

std::uint32_t RoundAllgather::block(int round, Rank r) const {
    if (k_ == 0) return static_cast<std::uint32_t>(modulo(std::int64_t{r} - round, p_));
    // Phase 1, round i: the block of the rank i groups before.
    if (in_phase_one(round))
        return static_cast<std::uint32_t>(modulo(std::int64_t{r} - std::int64_t{round} * k_, p_));
    // Phase 2: item q, step s (1-based): the item's block of the rank s - 1 places before in
    // the group ring, which is the block of the rank q groups before that one.
    const int phase_two = round - (groups_ - 1);
    const int item = phase_two / (k_ - 1), step = phase_two % (k_ - 1) + 1;
    const Rank base = r - r % k_;
    const Rank origin = base + (r % k_ - (step - 1) % k_ + k_) % k_;
    return static_cast<std::uint32_t>(
        modulo(std::int64_t{origin} - std::int64_t{item} * k_ % p_, p_));
}

int RoundAllgather::data_round(int round) const {
    if (k_ == 0 || in_phase_one(round)) return -1;
    const int phase_two = round - (groups_ - 1);
    const int item = phase_two / (k_ - 1), step = phase_two % (k_ - 1) + 1;
    if (step != 1 || item == 0) return -1;
    const int data = item - 1;  // phase-1 round `item` (1-based) brought item `item`
    return data == round - 1 ? -1 : data;
}

}  // namespace piccolo::detail
