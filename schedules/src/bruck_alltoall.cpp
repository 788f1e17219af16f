// Bruck's Alltoall with radix k: J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal, D. Weathersby,
// "Efficient algorithms for all-to-all communications in multiprocessor systems", IEEE TPDS 8(11),
// 1997, generalised to radix k as MPICH's MPIR_Alltoall_intra_k_brucks
// (src/mpi/coll/alltoall/alltoall_intra_k_brucks.c, MPICH v4.1.2), which this file follows step
// for step, partner for partner and block for block. --bytes is MPICH's sendcount.
//
// Step 1, a local rotation: rank r copies its send buffer into its receive buffer rotated by r, so
// that offset o holds block (r, r + o), the block for rank r + o. A `permute` of p blocks on every
// rank (rank 0's rotation is by 0, but MPICH copies its p blocks into the receive buffer all the
// same).
// Step 2, n phases (n = the number of base-k digits of p - 1; delta = k^i in phase i): for every
// digit value j = 1..k-1 with j delta < p, rank r packs the blocks at the offsets o < p whose
// base-k digit i is j, sends them to r + j delta and receives as many from r - j delta into the
// same offsets (brucks_sched_pup). A block's offset never changes, and it moves j k^i ranks
// forward for every nonzero digit j of its offset: block (s, s + o) reaches rank s + o. Before
// phase i, offset o of rank r holds the block of source s = r - (o mod delta). MPICH's pack and
// unpack copies are part of the transfer here (the executor packs a send's blocks itself), not
// tasks of their own.
// Step 3, two local passes over the p blocks: the rotation by r + 1 into a temporary buffer, then
// the inversion back into the receive buffer, after which offset s holds block (s, r). Two
// `permute`s of p blocks on every rank, the second waiting for the first.
//
// Dependencies (Style): round-synchronous styles wait for the previous phase's receives and the
// rank's own sends (sent: mpi, MPICH's MPIC_Waitall; delivered: nccl); phase 0 waits for the
// step-1 rotation. Pipelined, a send waits for the tasks that last wrote the offsets it packs:
// the rotation for the offsets whose digits below i are 0, else the receive of the highest phase
// i' < i in which the offset's digit j' is nonzero (partner j'); there is such an offset exactly
// when j k^i + j' k^i' < p. The step-3 rotation rewrites the buffer, so it waits for every receive
// and for the sends that read the buffer (delivered under nccl, sent otherwise), as bruck.cpp's.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

std::vector<std::vector<Rank>> bruck_alltoall_phases(Rank p, int k) {
    std::vector<std::vector<Rank>> phases;
    for (std::int64_t delta = 1; delta < p; delta *= k) {
        const std::int64_t cycle = delta * k;
        std::vector<Rank> counts;
        for (std::int64_t j = 1; j < k && j * delta < p; ++j) {
            // Offsets below p whose digit i is j: delta of every full cycle of k delta, and what
            // of [j delta, (j + 1) delta) the last, partial cycle reaches.
            const std::int64_t partial = std::clamp<std::int64_t>(p % cycle - j * delta, 0, delta);
            counts.push_back(static_cast<Rank>(p / cycle * delta + partial));
        }
        phases.push_back(std::move(counts));
    }
    return phases;
}

void bruck_alltoall_pack(Rank p, int k, Rank r, std::int64_t delta, std::int64_t j,
                         std::vector<std::uint32_t>& blocks) {
    blocks.clear();
    const auto n = static_cast<std::uint32_t>(p);
    for (std::int64_t base = j * delta; base < p; base += delta * k)
        for (std::int64_t o = base; o < std::min<std::int64_t>(base + delta, p); ++o) {
            const auto source = static_cast<std::uint32_t>((r - o % delta + p) % p);
            blocks.push_back(source * n + (source + static_cast<std::uint32_t>(o)) % n);
        }
}

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

class BruckAlltoall {
  public:
    explicit BruckAlltoall(const GenerateRequest& request)
        : request_(request),
          p_(request.ranks),
          phases_(bruck_alltoall_phases(p_, request.k)),
          builder_({Collective::alltoall, p_, request.bytes, pieces_of(Collective::alltoall, p_)},
                   request.algorithm, request.k, request.payload, request.style),
          rotation_(p_, none),
          receives_(p_),
          sends_(p_) {}

    Schedule run() {
        const TaskCounts counts = count_tasks(request_);
        builder_.reserve(counts.tasks(), counts.dependency_ids);
        const std::uint64_t buffer = request_.bytes * static_cast<std::uint64_t>(p_);
        for (Rank r = 0; r < p_; ++r)
            rotation_[r] = builder_.compute(TaskKind::permute, r, buffer, {}, {});
        std::int64_t delta = 1;
        for (std::size_t i = 0; i < phases_.size(); ++i) {
            phase(i, delta);
            delta *= request_.k;
        }
        finish_rotations(buffer);
        return std::move(builder_).finish();
    }

  private:
    [[nodiscard]] bool pipelined() const { return request_.style == Style::pipelined; }

    // Pipelined: the rotation and the receives that last wrote the offsets send (i, j) packs.
    void pipelined_wait(Rank r, std::size_t i, std::int64_t j, std::vector<TaskId>& deps) const {
        deps.assign(1, rotation_[r]);
        std::int64_t spacing = 1;  // k^i'
        const std::int64_t first = j * power(i);
        for (std::size_t earlier = 0; earlier < i; ++earlier, spacing *= request_.k)
            for (std::size_t partner = 1; partner <= phases_[earlier].size(); ++partner)
                if (first + static_cast<std::int64_t>(partner) * spacing < p_)
                    deps.push_back(receives_[r][earlier][partner - 1]);
    }

    [[nodiscard]] std::int64_t power(std::size_t i) const {
        std::int64_t delta = 1;
        for (std::size_t e = 0; e < i; ++e) delta *= request_.k;
        return delta;
    }

    void phase(std::size_t i, std::int64_t delta) {
        const std::vector<Rank>& counts = phases_[i];
        for (Rank r = 0; r < p_; ++r) {
            receives_[r].emplace_back(counts.size(), none);
            sends_[r].emplace_back();
        }
        RoundWait wait;
        std::vector<std::uint32_t> blocks;
        for (Rank r = 0; r < p_; ++r)
            for (std::size_t j = 1; j <= counts.size(); ++j) {
                const std::int64_t distance = static_cast<std::int64_t>(j) * delta;  // < p
                const auto to = static_cast<Rank>((r + distance) % p_);
                if (pipelined()) {
                    pipelined_wait(r, i, static_cast<std::int64_t>(j), wait.deps);
                    wait.sent.clear();
                } else if (i == 0) {
                    wait.set(request_.style, {&rotation_[r], 1}, {});
                } else {
                    wait.set(request_.style, receives_[r][i - 1], sends_[r][i - 1]);
                }
                if (request_.payload)
                    bruck_alltoall_pack(p_, request_.k, r, delta, static_cast<std::int64_t>(j),
                                        blocks);
                const TaskId t = builder_.transfer_bytes(
                    r, to, request_.bytes * static_cast<std::uint64_t>(counts[j - 1]), blocks,
                    wait.deps, wait.sent);
                sends_[r][i].push_back(t);
                receives_[to][i][j - 1] = t;
            }
    }

    void finish_rotations(std::uint64_t buffer) {
        RoundWait wait;
        std::vector<TaskId> received, sent;
        std::vector<TaskId> rotated(p_);
        for (Rank r = 0; r < p_; ++r) {
            if (pipelined()) {
                received.clear();
                sent.clear();
                for (const auto& phase : receives_[r])
                    received.insert(received.end(), phase.begin(), phase.end());
                for (const auto& phase : sends_[r])
                    sent.insert(sent.end(), phase.begin(), phase.end());
                wait.set(Style::mpi, received, sent);
            } else {
                wait.set(request_.style, receives_[r].back(), sends_[r].back());
            }
            rotated[r] = builder_.compute(TaskKind::permute, r, buffer, {}, wait.deps, wait.sent);
        }
        for (Rank r = 0; r < p_; ++r)
            builder_.compute(TaskKind::permute, r, buffer, {}, {&rotated[r], 1});
    }

    const GenerateRequest& request_;
    Rank p_;
    std::vector<std::vector<Rank>> phases_;
    ScheduleBuilder builder_;
    std::vector<TaskId> rotation_;  // per rank: the step-1 rotation
    // Per rank, per phase: the receive from partner j (index j - 1), the sends in partner order.
    std::vector<std::vector<std::vector<TaskId>>> receives_, sends_;
};

}  // namespace

Schedule generate_bruck_alltoall(const GenerateRequest& request) {
    return BruckAlltoall(request).run();
}

}  // namespace piccolo::detail
