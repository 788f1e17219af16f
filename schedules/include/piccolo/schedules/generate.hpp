#pragma once
// Schedule generators, one file per algorithm family, looked up by name.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/core/style.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo {

struct GenerateRequest {
    Collective collective = Collective::allgather;
    std::string algorithm;    // registry name: ring, k-ring, rd, rm, prd, prm, bruck, knomial, ...
    int k = 0;                // radix; ignored by algorithms without one
    Rank ranks = 0;           // p
    std::uint64_t bytes = 0;  // per-rank contribution (allgather) or the whole buffer (others)
    bool payload = true;      // fill payload descriptors (the verifier needs them; the engine not)
    Style style = Style::mpi;
    Rank root = 0;  // bcast, reduce: 0 <= root < ranks (--root)
};

// Which rooted collectives an algorithm builds (AlgorithmInfo::rooted).
inline constexpr unsigned rooted_bcast = 1, rooted_reduce = 2;

struct AlgorithmInfo {
    std::string_view name;
    std::string_view summary;
    bool has_radix = false;  // whether k is a parameter
    // Valid k for p ranks (empty when the algorithm has no radix), and the same as a test that
    // needs no list (2 <= k <= p is checked separately).
    std::vector<int> (*valid_radices)(Rank p) = nullptr;
    bool (*accepts_radix)(Rank p, int k) = nullptr;
    Schedule (*generate)(const GenerateRequest& request) = nullptr;
    bool has_allreduce = true;  // false: an Allgather algorithm only (generate() refuses)
    // Whether `piccolo select` and the executor sweep it when no algorithm is named: false for
    // algorithms added after the default sweep's output was fixed (bruck), so that the default
    // candidates, and every file written from them, stay as they were.
    bool swept_by_default = true;
    // 0: an Allgather/Allreduce algorithm; else the rooted collectives it builds (rooted_bcast,
    // rooted_reduce), and then no Allgather or Allreduce.
    unsigned rooted = 0;
};

// Does the algorithm build this collective?
bool builds(const AlgorithmInfo& info, Collective collective);

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo& find_algorithm(std::string_view name);  // throws InputError

// The same DAG for another message size: the shape of a schedule depends on p and k, not on
// bytes, so sweeps generate once per (collective, algorithm, p, k) and resize. Needs payload
// descriptors for Allreduce (segment sizes are not proportional to the vector size); an
// Allgather without them is rescaled exactly (every size is a multiple of the block size).
// Throws InputError if bytes == 0 or (Allreduce) the vector has fewer bytes than segments.
Schedule with_message_size(const Schedule& schedule, std::uint64_t bytes);
// The same in place: only the sizes change, so a sweep copies its DAG once, not once per size.
void set_message_size(Schedule& schedule, std::uint64_t bytes);

// Validates the request (p >= 2, 2 <= k <= p, k valid for the algorithm, bytes > 0) and
// generates. Throws InputError with a one-line explanation.
Schedule generate(const GenerateRequest& request);

}  // namespace piccolo
