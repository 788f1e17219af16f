#pragma once
// Internal entry points of the generator files; registry.cpp turns them into AlgorithmInfo.

#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

// ring.cpp
Schedule generate_ring(const GenerateRequest& request);
// k_ring.cpp
std::vector<int> k_ring_radices(Rank p);
Schedule generate_k_ring(const GenerateRequest& request);
// rd.cpp, rm.cpp, prd.cpp, prm.cpp
Schedule generate_rd(const GenerateRequest& request);
Schedule generate_rm(const GenerateRequest& request);
Schedule generate_prd(const GenerateRequest& request);
Schedule generate_prm(const GenerateRequest& request);
std::vector<int> any_radix(Rank p);  // 2..p

// bruck.cpp: Bruck's Allgather with radix k; bruck_phases(p, k)[i][j-1] is the number of blocks
// partner j sends in phase i (delta = k^i): min(delta, p - j delta) for every j delta < p.
Schedule generate_bruck(const GenerateRequest& request);
std::vector<std::vector<Rank>> bruck_phases(Rank p, int k);
// bruck_alltoall.cpp: Bruck's Alltoall with radix k (generate_bruck hands it an Alltoall);
// bruck_alltoall_phases(p, k)[i][j-1] is the number of blocks partner j gets in phase i: the
// offsets o < p whose base-k digit i is j.
Schedule generate_bruck_alltoall(const GenerateRequest& request);
std::vector<std::vector<Rank>> bruck_alltoall_phases(Rank p, int k);
// The blocks rank r sends partner j in the phase of spacing delta (the offsets whose digit is j),
// as block ids s p + d, into `blocks`.
void bruck_alltoall_pack(Rank p, int k, Rank r, std::int64_t delta, std::int64_t j,
                         std::vector<std::uint32_t>& blocks);

// bcast_knomial.cpp, reduce_knomial.cpp: the rooted collectives over a k-nomial tree
// (knomial_tree.hpp); binomial is the same with k = 2.
Schedule generate_bcast_knomial(const GenerateRequest& request);
Schedule generate_reduce_knomial(const GenerateRequest& request);

// bcast_scatter_rd.cpp, bcast_scatter_ring.cpp: van de Geijn's Bcast, MPICH's binomial scatter
// of ceil(bytes / p)-byte chunks (bcast_scatter.hpp) and a recursive-doubling or ring allgather.
Schedule generate_bcast_scatter_rd(const GenerateRequest& request);
Schedule generate_bcast_scatter_ring(const GenerateRequest& request);
// bcast_scatter_count.cpp: their exact task counts (count_tasks()).
TaskCounts count_bcast_scatter_rd(const GenerateRequest& request);
TaskCounts count_bcast_scatter_ring(const GenerateRequest& request);

// pairwise.cpp: Reduce_scatter and Alltoall by pairwise exchange, p - 1 steps.
Schedule generate_pairwise(const GenerateRequest& request);
// rh.cpp: Reduce_scatter by recursive halving, any p (the first 2 (p - 2^floor(log2 p)) ranks
// fold in pairs first).
Schedule generate_rh(const GenerateRequest& request);
// reduce_rabenseifner.cpp: Reduce as reduce-scatter + gather (MPICH's
// MPIR_Reduce_intra_reduce_scatter_gather), any p and root; the buffer is cut into
// rabenseifner_segments(p) = 2^floor(log2 p) segments, so it needs at least that many bytes.
Rank rabenseifner_segments(Rank p);
Schedule generate_reduce_rabenseifner(const GenerateRequest& request);
// recexch.cpp: Reduce_scatter by recursive exchange with radix k (MPICH's
// MPIR_TSP_Ireduce_scatter_block_sched_intra_recexch), any p and 2 <= k <= p.
struct RecexchFactoring {
    int k = 2;
    Rank core = 1;           // P: the largest power of k <= p
    int phases = 0;          // log_k P
    Rank rem = 0;            // p - P: the ranks that sit out step 2
    Rank folded_groups = 0;  // rem / (k - 1): groups of k whose last rank takes k - 1 in
    Rank partial = 0;        // rem % (k - 1): ranks below T that send to rank T
    // The rank of new rank y, and the first segment y stands for (y's own and its senders').
    [[nodiscard]] Rank orig(Rank y) const;
    [[nodiscard]] Rank first_segment(Rank y) const;
    // The ranks that send rank r their vector in step 1, in the order r reduces them (empty for
    // every rank but the last of each group and rank T).
    [[nodiscard]] std::vector<Rank> senders(Rank r) const;
};
RecexchFactoring recexch_factoring(Rank p, int k);
Schedule generate_recexch(const GenerateRequest& request);
// The k that sweeps take by default: 2..min(p, recexch_swept_limit).
inline constexpr int recexch_swept_limit = 16;
std::vector<int> recexch_swept_radices(Rank p);
// scattered.cpp: Alltoall in batches of scattered_batch partners (MPICH's default throttle).
inline constexpr Rank scattered_batch = 32;
Schedule generate_scattered(const GenerateRequest& request);

// reduce_scatter_reversal.cpp (also a Reduce_scatter, when the request is one): an Allreduce as
// the reduce-scatter obtained by reversing an Allgather whose transfers each carry one block,
// followed by that Allgather.
Schedule allreduce_by_reversal(const Schedule& allgather, const GenerateRequest& request);

// recursive_exchange.cpp: rounds of k-1 partners (RM order: spacing grows; permuted order:
// spacing shrinks, then a permute), any p via mixed radix and fold-in.
enum class ExchangeOrder { multiplying, permuted };
Schedule recursive_exchange(const GenerateRequest& request, int k, ExchangeOrder order);

}  // namespace piccolo::detail
