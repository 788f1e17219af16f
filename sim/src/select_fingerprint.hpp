#pragma once
// Which candidate schedules are the same to the engine. Recursive multiplying plans its rounds
// from the prime factors of p, so many k give the same DAG (for p = 256, rm with k = 128..255
// all run radices {128, 2}); the selector simulates each distinct DAG once.

#include <cstdint>

#include "piccolo/schedule.hpp"

namespace piccolo::detail {

// Two schedules time identically at every message size when kind, src, dst, deps and task sizes
// agree, and (only when `resize_by_payload`, i.e. Allreduce, whose segment sizes are not
// proportional to the vector) the payload rows too. Algorithm name and k are ignored.
bool same_timing(const Schedule& a, const Schedule& b, bool resize_by_payload);

// Equal for schedules that time identically; O(1), from the array lengths, so that only
// candidates of equal shape are compared element by element (comparing is cheaper than hashing:
// distinct DAGs of one size differ within their first tasks, identical ones are memcmp'd).
std::uint64_t timing_signature(const Schedule& schedule, bool resize_by_payload);

}  // namespace piccolo::detail
