// Closed forms for the generators' task counts (task_count.hpp); each follows the loops of its
// generator file, which the schedules tests compare against on a grid of p, k and styles.
#include "piccolo/schedules/task_count.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "radix_factoring.hpp"

namespace piccolo {

namespace {

using detail::factor_radices;
using detail::RadixFactoring;

bool is_exchange(std::string_view algorithm) {
    return algorithm != "ring" && algorithm != "k-ring" && algorithm != "bruck" &&
           algorithm != "pairwise" && algorithm != "scattered" && algorithm != "rh" &&
           algorithm != "rabenseifner" && algorithm != "recexch";
}
bool is_permuted(std::string_view algorithm) {
    return algorithm == "prd" || algorithm == "prm";
}
int exchange_radix(const GenerateRequest& r) {
    return r.algorithm == "rd" || r.algorithm == "prd" ? 2 : r.k;
}

// ring and k-ring (ring = k-ring with one group of k = p). In the Allgather a block travels
// g - 1 hops between groups, then k - 1 hops inside each of its g groups; every hop except the
// last one inside a group is forwarded, so the reversed reduce-scatter reduces before it.
TaskCounts count_segmented(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const std::uint64_t k = r.algorithm == "ring" ? p : static_cast<std::uint64_t>(r.k);
    const std::uint64_t groups = p / k;
    const std::uint64_t n = p * (p - 1);  // Allgather transfers
    // Per transfer: the receive it forwards and the rank's previous send; k-ring adds, once per
    // item of a rank's column, the phase-1 receive that delivered it.
    const std::uint64_t gather_ids = 2 * n + (r.algorithm == "ring" ? 0 : p * groups);
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p);
    c.widest_round = p;  // one transfer per rank and round
    if (r.collective == Collective::allgather) {
        c.transfers = n;
        c.dependency_ids = gather_ids;
        c.payload_ids = r.payload ? n : 0;
        return c;
    }
    c.computes = p * ((groups - 1) + groups * (k - 2)) + p;
    if (r.collective == Collective::reduce_scatter) {  // the reversal alone, no Allgather after
        c.transfers = n;
        c.dependency_ids = gather_ids + n;
        c.payload_ids = r.payload ? c.tasks() : 0;
        return c;
    }
    c.transfers = 2 * n;
    // The reduce-scatter turns every Allgather dependency around (one id each, split between a
    // transfer and the reduce before it, which the transfer then names); the gather repeats the
    // Allgather's and adds a segment's reduce or a round boundary to a rank's first sends.
    c.dependency_ids = 2 * gather_ids + n;
    c.payload_ids = r.payload ? c.tasks() : 0;
    return c;
}

// rd, rm, prd, prm: recursive_exchange.cpp's fold-in, rounds, permute and fold-out.
TaskCounts count_exchange(const GenerateRequest& r) {
    const RadixFactoring factoring = factor_radices(r.ranks, exchange_radix(r));
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const auto core = static_cast<std::uint64_t>(factoring.core);
    const std::uint64_t extra = p - core;
    const bool pipelined = r.style == Style::pipelined;
    TaskCounts c;
    c.pieces = r.collective == Collective::allgather ? static_cast<std::uint32_t>(p) : 1;
    c.transfers = 2 * extra;
    c.widest_round = extra;
    std::uint64_t history = 1;         // receives of a rank so far (pipelined waits)
    std::uint64_t previous_ops = 1;    // receives and sends of the previous round
    std::uint64_t held = 1;            // blocks a rank holds before the round (times p: all)
    std::uint64_t gather_payload = 0;  // Allgather payload ids of the rounds
    for (int radix : factoring.radices) {
        const std::uint64_t partners = static_cast<std::uint64_t>(radix) - 1;
        const std::uint64_t sends = core * partners;
        c.transfers += sends;
        c.widest_round = std::max(c.widest_round, sends);
        if (r.collective == Collective::allgather)
            c.dependency_ids += sends * (pipelined ? history : previous_ops);
        else
            c.dependency_ids += sends + 2 * sends;  // each send: one reduce; the reduce: all ops
        gather_payload += partners * p * held;
        previous_ops = 2 * partners;
        history += partners;
        held *= static_cast<std::uint64_t>(radix);
    }
    if (r.collective == Collective::allreduce) {
        c.computes = extra + core * factoring.radices.size();
        c.dependency_ids += 2 * extra;
        c.payload_ids = r.payload ? c.tasks() : 0;
        return c;
    }
    const bool permuted = is_permuted(r.algorithm);
    if (permuted) {
        c.computes = core;
        c.dependency_ids += core * (pipelined ? 2 * history : previous_ops);
    }
    c.dependency_ids += extra * (permuted ? 1 : (pipelined ? history : previous_ops));
    c.payload_ids = r.payload ? extra + gather_payload + extra * (p - 1) : 0;
    return c;
}

// bruck.cpp's phases and rotation (Allgather). Every rank receives each other block once.
// Pipelined, a send of c blocks waits for the receives that landed below offset c: of an earlier
// phase with spacing d and J partners, min(J, (c - 1) / d). Only phases after the first have
// earlier ones, and they have at most sqrt(p) partners, so this is O(sqrt(p) log p).
TaskCounts count_bruck(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p);
    c.computes = p - 1;  // the rotations: rank 0 needs none
    // The phases so far: (spacing, partners).
    std::vector<std::pair<std::int64_t, std::uint64_t>> earlier;
    std::uint64_t previous = 0, history = 0;  // partners of the previous phase, of all so far
    std::int64_t delta = 1;
    for (const std::vector<Rank>& counts : detail::bruck_phases(r.ranks, r.k)) {
        const std::uint64_t partners = counts.size();
        c.transfers += p * partners;
        c.widest_round = std::max(c.widest_round, p * partners);
        if (r.style != Style::pipelined) {
            c.dependency_ids += p * partners * 2 * previous;
        } else if (!earlier.empty()) {
            for (Rank count : counts)
                for (const auto& [spacing, js] : earlier)
                    c.dependency_ids +=
                        p * std::min<std::uint64_t>(
                                js, static_cast<std::uint64_t>((count - 1) / spacing));
        }
        earlier.emplace_back(delta, partners);
        previous = partners;
        history += partners;
        delta *= r.k;
    }
    // The permute: the last phase's receives and sends, or (pipelined) every receive and send.
    c.dependency_ids += (p - 1) * 2 * (r.style == Style::pipelined ? history : previous);
    c.payload_ids = r.payload ? p * (p - 1) : 0;
    return c;
}

// bruck_alltoall.cpp: a rotation before the phases and two after, on every rank; phase i's sends
// of J_i partners wait for the J_{i-1} receives and sends before (round-synchronous; phase 0 for
// the rotation) or, pipelined, for the rotation and the receive (i', j') for every j' with
// j k^i + j' k^i' < p: min(J_i', (p - j k^i - 1) / k^i') of phase i'. O(k log^2 p).
TaskCounts count_bruck_alltoall(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const auto phases = detail::bruck_alltoall_phases(r.ranks, r.k);
    const bool pipelined = r.style == Style::pipelined;
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p * p);
    c.computes = 3 * p;
    std::uint64_t history = 0, blocks = 0;  // partners of every phase so far; blocks sent per rank
    std::uint64_t delta = 1;
    for (std::size_t i = 0; i < phases.size(); ++i, delta *= static_cast<std::uint64_t>(r.k)) {
        const std::uint64_t partners = phases[i].size();
        c.transfers += p * partners;
        c.widest_round = std::max(c.widest_round, p * partners);
        for (Rank count : phases[i]) blocks += static_cast<std::uint64_t>(count);
        history += partners;
        if (i == 0 || !pipelined) {
            c.dependency_ids += p * partners * (i == 0 ? 1 : 2 * phases[i - 1].size());
            continue;
        }
        for (std::uint64_t j = 1; j <= partners; ++j) {
            c.dependency_ids += p;  // the rotation
            std::uint64_t spacing = 1;
            for (std::size_t e = 0; e < i; ++e, spacing *= static_cast<std::uint64_t>(r.k))
                c.dependency_ids +=
                    p * std::min<std::uint64_t>(phases[e].size(), (p - j * delta - 1) / spacing);
        }
    }
    // The step-3 rotation: the last phase's receives and sends, or every one; the inversion: 1.
    c.dependency_ids += p * (2 * (pipelined ? history : phases.back().size()) + 1);
    c.payload_ids = r.payload ? p * blocks : 0;
    return c;
}

// rh.cpp with P = 2^floor(log2 p), n = log2 P, rem = p - P: the fold-in (rem transfers of p
// segments and their reduces), n steps of P transfers and P reduces, the fold-out (rem
// transfers of one segment). Step s moves p P / 2^s segments in all, so the steps' payload is
// 2 p (P - 1).
TaskCounts count_rh(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    std::uint64_t core = 1, steps = 0;
    while (core * 2 <= p) {
        core *= 2;
        ++steps;
    }
    const std::uint64_t rem = p - core;
    const bool waits = r.style != Style::pipelined;
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p);
    c.transfers = 2 * rem + core * steps;
    c.computes = rem + core * steps;
    c.widest_round = core;
    // Fold-in reduce: its operand; the first step's sends of the rem folded ranks: their reduce;
    // later sends: the previous reduce (and the previous send, round-synchronous); every reduce
    // of a step: its operand (and its own send, round-synchronous), and the previous reduce where
    // there is one (rem in the first step); fold-out: the last reduce.
    c.dependency_ids = rem + rem + core * (steps - 1) * (waits ? 2 : 1) +
                       core * steps * (waits ? 2 : 1) + rem + core * (steps - 1) + rem;
    c.payload_ids = r.payload ? 2 * rem * p + 2 * p * (core - 1) + rem : 0;
    return c;
}

// reduce_rabenseifner.cpp with P = 2^n segments, rem = p - P: the fold-in (rem transfers of the P
// segments and their reduces), n steps of P transfers and P reduces as rh's (the same dependency
// counts), segment 0 to a root that sat out, and a gather in which every new rank but the root's
// sends once: at mask 2^j the 2^j ranks that differ from the root first in bit j, each waiting
// for its last reduce and its n - 1 - j receives, and carrying 2^(n-1-j) segments.
TaskCounts count_rabenseifner(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const auto core = static_cast<std::uint64_t>(detail::rabenseifner_segments(r.ranks));
    std::uint64_t steps = 0;
    while ((std::uint64_t{1} << steps) < core) ++steps;
    const std::uint64_t rem = p - core;
    // A root that sits out the reduce-scatter (odd, below 2 rem) gets segment 0 from rank 0.
    const std::uint64_t handover =
        static_cast<std::uint64_t>(r.root) < 2 * rem && r.root % 2 != 0 ? 1 : 0;
    const bool waits = r.style != Style::pipelined;
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(core);
    c.transfers = rem + core * steps + handover + (core - 1);
    c.computes = rem + core * steps;
    c.widest_round = core;
    c.dependency_ids = rem + rem + core * (steps - 1) * (waits ? 2 : 1) +
                       core * steps * (waits ? 2 : 1) + rem + core * (steps - 1) + handover +
                       (2 * core - steps - 2);
    c.payload_ids =
        r.payload ? 2 * rem * core + 2 * core * (core - 1) + handover + steps * core / 2 : 0;
    return c;
}

// recexch.cpp with P = k^n, rem = p - P, g = rem / (k - 1) full groups and a partial one when
// rem % (k - 1) > 0 (f = g + [partial] ranks reduce in step 1): rem transfers of the whole vector
// in step 1 and their reduces, n (k - 1) turns of P transfers and P reduces, rem transfers of
// one segment in step 3; a round is a phase (P (k - 1) transfers) or step 1. Phase i moves 2 (k - 1) k^i p segments in all (sends and reduces), so
// step 2's payload is 2 p (P - 1); with k = 2 every count is rh's.
TaskCounts count_recexch(const GenerateRequest& r) {
    const detail::RecexchFactoring factoring = detail::recexch_factoring(r.ranks, r.k);
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const auto core = static_cast<std::uint64_t>(factoring.core);
    const auto rem = static_cast<std::uint64_t>(factoring.rem);
    const auto turns =
        static_cast<std::uint64_t>(factoring.phases) * static_cast<std::uint64_t>(r.k - 1);
    const std::uint64_t folding =
        static_cast<std::uint64_t>(factoring.folded_groups) + (factoring.partial > 0 ? 1 : 0);
    const bool waits = r.style != Style::pipelined;
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p);
    c.transfers = 2 * rem + core * turns;
    c.computes = rem + core * turns;
    c.widest_round = std::max(core * static_cast<std::uint64_t>(r.k - 1), rem);  // a phase
    // Step 1's reduces: their operand, and the previous reduce but for each rank's first.
    c.dependency_ids = rem + (rem - folding);
    // Step 2's sends: the previous reduce where there is one (the first turn of a rank that
    // reduced in step 1, every later turn) and, round-synchronous, the previous send (every
    // turn but the first); pipelined: the last reduce of the previous phase (every phase but the
    // first, and the first for the ranks that reduced in step 1).
    if (waits)
        c.dependency_ids += folding + core * (turns - 1) * 2;
    else
        c.dependency_ids += folding * static_cast<std::uint64_t>(r.k - 1) +
                            core * (turns - static_cast<std::uint64_t>(r.k - 1));
    // Step 2's reduces: the operand, the previous reduce (all but the first of a rank that did
    // not reduce in step 1), the own send (round-synchronous); step 3: the last reduce.
    c.dependency_ids += core * turns * (waits ? 2 : 1) + core * turns - (core - folding) + rem;
    c.payload_ids = r.payload ? 2 * rem * p + 2 * p * (core - 1) + rem : 0;
    return c;
}

bool is_tree(std::string_view algorithm) {
    return algorithm == "knomial" || algorithm == "binomial";
}

// bcast_knomial.cpp and reduce_knomial.cpp: every rank but the root receives once (p - 1
// transfers); Reduce reduces each. The level with spacing s has one transfer per relative rank
// below p whose lowest nonzero base-k digit sits at s: floor((p-1)/s) - floor((p-1)/(k s)).
TaskCounts count_tree(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const std::uint64_t k = r.algorithm == "binomial" ? 2 : static_cast<std::uint64_t>(r.k);
    TaskCounts c;
    c.pieces = 1;
    c.transfers = p - 1;
    for (std::uint64_t spacing = 1; spacing < p; spacing *= k)
        c.widest_round = std::max(c.widest_round, (p - 1) / spacing - (p - 1) / (spacing * k));
    if (r.collective == Collective::reduce) {
        c.computes = p - 1;
        c.dependency_ids = 3 * (p - 1);  // a send: the child's last reduce; a reduce: two
    } else {
        c.dependency_ids = k * (p - 1);  // a send: the receive and the k - 1 previous sends
    }
    c.payload_ids = r.payload ? c.tasks() : 0;
    return c;
}

// pairwise.cpp: p - 1 steps of p transfers; Reduce_scatter adds a reduce per transfer.
TaskCounts count_pairwise(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    const bool waits = r.style != Style::pipelined;
    TaskCounts c;
    c.transfers = p * (p - 1);
    c.widest_round = p;
    // Every step but the first: each send waits for two tasks (round-synchronous styles).
    c.dependency_ids = waits ? 2 * p * (p - 2) : 0;
    if (r.collective == Collective::alltoall) {
        c.pieces = static_cast<std::uint32_t>(p * p);
        c.payload_ids = r.payload ? c.transfers : 0;
        return c;
    }
    c.pieces = static_cast<std::uint32_t>(p);
    c.computes = p * (p - 1);
    // A reduce: its receive, the previous reduce (not in step 1), its own send (not pipelined).
    c.dependency_ids += p * (p - 1) * (waits ? 3 : 2) - p;
    c.payload_ids = r.payload ? c.tasks() : 0;
    return c;
}

// scattered.cpp: batches of up to 32 distances, distance 0 (the rank itself) left out; a send
// waits for the previous batch's receives and sends (round-synchronous styles).
TaskCounts count_scattered(const GenerateRequest& r) {
    const auto p = static_cast<std::uint64_t>(r.ranks);
    constexpr auto batch = static_cast<std::uint64_t>(detail::scattered_batch);
    TaskCounts c;
    c.pieces = static_cast<std::uint32_t>(p * p);
    c.transfers = p * (p - 1);
    c.payload_ids = r.payload ? c.transfers : 0;
    std::uint64_t previous = 0;
    for (std::uint64_t first = 0; first < p; first += batch) {
        const std::uint64_t partners = std::min(p, first + batch) - std::max<std::uint64_t>(first, 1);
        c.widest_round = std::max(c.widest_round, p * partners);
        if (r.style != Style::pipelined) c.dependency_ids += p * partners * 2 * previous;
        previous = partners;
    }
    c.shared_dependency_ids = c.dependency_ids;  // a batch's sends share one list
    return c;
}

}  // namespace

TaskCounts count_tasks(const GenerateRequest& request) {
    if (is_tree(request.algorithm)) return count_tree(request);
    if (request.algorithm == "scatter-rd") return detail::count_bcast_scatter_rd(request);
    if (request.algorithm == "scatter-ring") return detail::count_bcast_scatter_ring(request);
    if (request.algorithm == "pairwise") return count_pairwise(request);
    if (request.algorithm == "scattered") return count_scattered(request);
    if (request.algorithm == "rh") return count_rh(request);
    if (request.algorithm == "rabenseifner") return count_rabenseifner(request);
    if (request.algorithm == "recexch") return count_recexch(request);
    if (request.algorithm == "bruck")
        return request.collective == Collective::alltoall ? count_bruck_alltoall(request)
                                                          : count_bruck(request);
    return is_exchange(request.algorithm) ? count_exchange(request) : count_segmented(request);
}

std::string dag_identity(const GenerateRequest& request) {
    if (request.algorithm == "bruck") return fmt::format("bruck {}", request.k);
    if (is_tree(request.algorithm))
        return fmt::format("knomial {} root {}", request.algorithm == "binomial" ? 2 : request.k,
                           request.root);
    if (request.algorithm == "pairwise" || request.algorithm == "scattered" ||
        request.algorithm == "rh")
        return request.algorithm;
    // recexch with k = 2 is rh task for task (recexch.cpp).
    if (request.algorithm == "recexch")
        return request.k == 2 ? "rh" : fmt::format("recexch {}", request.k);
    if (request.algorithm == "rabenseifner")
        return fmt::format("rabenseifner root {}", request.root);
    if (request.algorithm == "scatter-rd" || request.algorithm == "scatter-ring")
        return fmt::format("{} root {} segments {}", request.algorithm, request.root,
                           ceil_cut_pieces(request.bytes, request.ranks));
    if (!is_exchange(request.algorithm))
        return request.algorithm == "ring" ? "ring" : fmt::format("k-ring {}", request.k);
    const RadixFactoring factoring = factor_radices(request.ranks, exchange_radix(request));
    return fmt::format("{} core {} radices {}",
                       is_permuted(request.algorithm) ? "permuted" : "multiplying", factoring.core,
                       fmt::join(factoring.radices, ","));
}

}  // namespace piccolo
