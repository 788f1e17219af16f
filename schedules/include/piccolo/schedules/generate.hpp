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
    // registry name: ring, k-ring, rd, rm, prd, prm, bruck, knomial, binomial, scatter-rd,
    // scatter-ring, pairwise, scattered, rh, rabenseifner, recexch
    std::string algorithm;
    int k = 0;                // radix; ignored by algorithms without one
    Rank ranks = 0;           // p
    // per-rank contribution (allgather), the whole buffer (allreduce, bcast, reduce), per-rank
    // block (reduce_scatter: the vector is p blocks), block per pair (alltoall)
    std::uint64_t bytes = 0;
    bool payload = true;      // fill payload descriptors (the verifier needs them; the engine not)
    Style style = Style::mpi;
    Rank root = 0;  // bcast, reduce: 0 <= root < ranks (--root)
};

// A set of collectives (AlgorithmInfo::collectives): bit 1 << c for each Collective c.
constexpr unsigned collective_bit(Collective c) {
    return 1U << static_cast<unsigned>(c);
}
inline constexpr unsigned allgather_allreduce =
    collective_bit(Collective::allgather) | collective_bit(Collective::allreduce);

struct AlgorithmInfo {
    std::string_view name;
    std::string_view summary;
    bool has_radix = false;  // whether k is a parameter
    // Valid k for p ranks (empty when the algorithm has no radix), and the same as a test that
    // needs no list (2 <= k <= p is checked separately).
    std::vector<int> (*valid_radices)(Rank p) = nullptr;
    bool (*accepts_radix)(Rank p, int k) = nullptr;
    Schedule (*generate)(const GenerateRequest& request) = nullptr;
    // Whether `piccolo select` and piccolo-run-mpi run it only when -a names it (default_candidate):
    // bruck, added to Allgather after the default selection's output was fixed (every file
    // written from it stays as it was), and whose every-k Alltoall at 256 ranks would cost more
    // than the rest of `piccolo select -c all` together (tools/bench/README.md).
    bool named_only = false;
    // The collectives it builds (collective_bit per Collective); generate() refuses the others
    // with one line naming the algorithms that build the collective asked for. builds() reads it.
    unsigned collectives = allgather_allreduce;
    // The k that `piccolo select` and piccolo-run-mpi sweep when -k names none (swept_radices());
    // null: every valid k. recexch: k <= 16 (recexch.cpp says why).
    std::vector<int> (*default_radices)(Rank p) = nullptr;
    // How it cuts a Bcast buffer (CollectiveShape::cut): ceil for MPICH's scatter (scatter-rd,
    // scatter-ring), whose DAG then depends on the size below p (p - 1) + 1 bytes.
    Cut cut = Cut::even;
};

// The k a sweep takes for p ranks when no -k is given: default_radices, else every valid k
// (empty for an algorithm without a radix).
std::vector<int> swept_radices(const AlgorithmInfo& info, Rank p);

// Does the algorithm build this collective (AlgorithmInfo::collectives)?
bool builds(const AlgorithmInfo& info, Collective collective);
// Is it a candidate of the collective when no algorithm is named? builds() and not named_only.
bool default_candidate(const AlgorithmInfo& info, Collective collective);

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo& find_algorithm(std::string_view name);  // throws InputError

// The refusal of a -k that no algorithm to run can take, as one line: `names` (the algorithms,
// none with a radix), and the algorithms with a radix that build one of `collectives` (has_radix,
// registry order). GenerateRequest::k is ignored without a radix, so the programs that take -k
// (piccolo gen, sim, select, compare; piccolo-run-mpi) throw this instead of running without it.
std::string no_radix_message(const std::vector<std::string_view>& names,
                             const std::vector<Collective>& collectives);

// The same DAG for another message size: the shape of a schedule depends on p and k, not on
// bytes, so sweeps generate once per (collective, algorithm, p, k) and resize. Needs payload
// descriptors for Allreduce (segment sizes are not proportional to the vector size); an
// Allgather without them is rescaled exactly (every size is a multiple of the block size).
// Throws InputError if bytes == 0, (Allreduce) the vector has fewer bytes than segments, or (a
// ceil cut: scatter-rd, scatter-ring) the size has another number of segments that hold bytes:
// their DAG leaves out the messages of empty segments, so it depends on the size there
// (CollectiveShape::cuts_at).
Schedule with_message_size(const Schedule& schedule, std::uint64_t bytes);
// The same in place: only the sizes change, so a sweep copies its DAG once, not once per size.
void set_message_size(Schedule& schedule, std::uint64_t bytes);

// Validates the request (p >= 2, 2 <= k <= p, k valid for the algorithm, bytes > 0) and
// generates. Throws InputError with a one-line explanation.
Schedule generate(const GenerateRequest& request);

}  // namespace piccolo
