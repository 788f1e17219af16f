#pragma once
// What generate() will build, known without building it: exact task counts from closed forms
// (for memory estimates and the selector's roster), and an identity under which two requests are
// certain to produce the same DAG (so a sweep generates each DAG once).

#include <cstdint>
#include <string>

#include "piccolo/schedules/generate.hpp"

namespace piccolo {

struct TaskCounts {
    std::uint64_t transfers = 0;  // exact
    std::uint64_t computes = 0;   // exact: reduces and permutes
    // Upper bound on the ids of every dependency list (deps and sent_deps together).
    std::uint64_t dependency_ids = 0;
    // Of those, the ids of lists that a rank's tasks of one round share whole (scattered: a
    // batch's sends all wait for the previous batch): Schedule::joined_successors() keeps one
    // successor entry per list for them, not one per id, and their generator keeps no scratch.
    std::uint64_t shared_dependency_ids = 0;
    // Payload ids when request.payload (exact), else 0.
    std::uint64_t payload_ids = 0;
    std::uint32_t pieces = 0;  // the schedule's shape.pieces: blocks, or Allreduce segments
    Cut cut = Cut::even;       // the schedule's shape.cut
    // Transfers of the largest round, exact: a replay may hold them all waiting at once.
    std::uint64_t widest_round = 0;
    [[nodiscard]] std::uint64_t tasks() const { return transfers + computes; }
};

// The counts of generate(request) for a request generate() accepts (a known algorithm, p >= 2
// and, for algorithms with a radix, a valid k). O(log p), allocates only the radix factoring.
//   ring, k-ring Allgather: p (p - 1) transfers.
//   ring, k-ring Allreduce: 2 p (p - 1) transfers; p + p ((g - 1) + g (k - 2)) reduces with
//     g = p / k groups (ring: k = p, g = 1, so p (p - 1) reduces).
//   rd, rm, prd, prm with core P, e = p - P folded ranks and round radices k_1..k_n:
//     Allgather: 2 e + P sum (k_i - 1) transfers, P permutes for prd/prm;
//     Allreduce: the same transfers, e + n P reduces.
//   bruck Allgather: p times the partners of every phase transfers (p (k - 1) log_k p
//     when p = k^n), p - 1 permutes; O(sqrt(p) log p) for its pipelined dependency count.
//   bruck Alltoall: the same transfers, 3 p permutes (a rotation before, two passes after).
//   rh (Reduce_scatter) with P = 2^floor(log2 p), rem = p - P: 2 rem + P log2 P transfers,
//     rem + P log2 P reduces.
//   rabenseifner (Reduce) with P and rem as rh's: rem + P log2 P + P - 1 transfers, one more
//     when the root is odd and below 2 rem; rem + P log2 P reduces.
//   recexch (Reduce_scatter) with P = the largest power of k <= p, n = log_k P, rem = p - P:
//     2 rem + P n (k - 1) transfers, rem + P n (k - 1) reduces (k = 2: rh's).
//   scatter-ring (Bcast) with q = ceil_cut_pieces(bytes, p) segments: q - 1 scatter transfers
//     and q (p - 1) ring transfers; scatter-rd: q - 1 and, per mask, the exchanges and halving
//     sends of chunks below q (p log2 p + p - 1 when p = 2^n and q = p). Both depend on bytes
//     through q; scatter-rd's dependency ids walk every rank's program, O(p log p).
TaskCounts count_tasks(const GenerateRequest& request);

// Equal strings for two requests of the same collective, p, style and payload setting mean
// generate() returns the same DAG (tasks, dependencies and sizes; the algorithm name and k it
// records may differ): rd is rm with k = 2, and rm or prm with every k whose radix factoring is the
// same (for p = 4096, k = 2048..4095 all run radices {2048, 2}) share one identity.
std::string dag_identity(const GenerateRequest& request);

}  // namespace piccolo
