// The quotient of Bruck's Alltoall (bruck_alltoall.cpp) over c representatives: its rotations,
// phases and final rotations, restricted to the representatives' tasks. Phase i sends every rank
// r to r + j k^i for each partner j, which commutes with the moves by whole units, so rank r's
// receive from r - j k^i stands for the send to partner j of the representative of that
// sender's orbit. A send carries the same blocks, named by their true ranks, as in the full
// schedule. Ids: the c rotations, then phase by phase the representatives' sends in (rank,
// partner) order, then the c rotations by r + 1 and the c inversions.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "quotient_generate.hpp"

namespace piccolo::detail {

namespace {

class QuotientBruck {
  public:
    QuotientBruck(const GenerateRequest& request, Rank c)
        : request_(request),
          p_(request.ranks),
          c_(c),
          phases_(bruck_alltoall_phases(p_, request.k)),
          builder_({Collective::alltoall, p_, request.bytes, pieces_of(Collective::alltoall, p_)},
                   request.algorithm, request.k, request.payload, request.style) {
        std::size_t sends = 0;
        for (const std::vector<Rank>& partners : phases_) sends += partners.size();
        sends *= static_cast<std::size_t>(c);
        builder_.reserve(sends + 3 * static_cast<std::size_t>(c), sends * (phases_.size() + 2));
        q_.destination.reserve(sends + 3 * static_cast<std::size_t>(c));
        q_.full_id.reserve(sends + 3 * static_cast<std::size_t>(c));
    }

    QuotientSchedule run() {
        const std::uint64_t buffer = request_.bytes * static_cast<std::uint64_t>(p_);
        for (Rank r = 0; r < c_; ++r) compute(r, buffer, {}, {});  // ids 0..c-1
        std::int64_t delta = 1;
        for (std::size_t i = 0; i < phases_.size(); ++i, delta *= request_.k) phase(i, delta);
        finish_rotations(buffer);
        q_.schedule = std::move(builder_).finish();
        q_.representatives = c_;
        return std::move(q_);
    }

  private:
    [[nodiscard]] bool pipelined() const { return request_.style == Style::pipelined; }
    [[nodiscard]] TaskId send(std::size_t i, Rank r, std::size_t j) const {
        return first_[i] + static_cast<TaskId>(r) * static_cast<TaskId>(phases_[i].size()) +
               static_cast<TaskId>(j - 1);
    }
    // Rank r's receive from partner j in phase i (spacing delta): the representative's send.
    [[nodiscard]] TaskId receive(std::size_t i, std::int64_t delta, Rank r, std::size_t j) const {
        const std::int64_t from = ((r - static_cast<std::int64_t>(j) * delta) % p_ + p_) % p_;
        return send(i, static_cast<Rank>(from % c_), j);
    }
    void receives(std::size_t i, Rank r, std::vector<TaskId>& out) const {
        for (std::size_t j = 1; j <= phases_[i].size(); ++j)
            out.push_back(receive(i, delta_[i], r, j));
    }
    void sends(std::size_t i, Rank r, std::vector<TaskId>& out) const {
        for (std::size_t j = 1; j <= phases_[i].size(); ++j) out.push_back(send(i, r, j));
    }
    // The full schedule's tasks come in blocks of p (a rotation of every rank) or of p m (a
    // phase's sends, m per rank): `full_next_` is the next block's first id.
    TaskId compute(Rank r, std::uint64_t bytes, std::span<const TaskId> deps,
                   std::span<const TaskId> sent) {
        push(r, full_next_ + static_cast<std::uint64_t>(r));
        if (r + 1 == c_) full_next_ += static_cast<std::uint64_t>(p_);
        return builder_.compute(TaskKind::permute, r, bytes, {}, deps, sent);
    }
    void push(Rank destination, std::uint64_t full_id) {
        q_.destination.push_back(destination);
        q_.full_id.push_back(full_id);
    }

    void phase(std::size_t i, std::int64_t delta) {
        first_.push_back(static_cast<TaskId>(builder_.size()));
        delta_.push_back(delta);
        const std::vector<Rank>& counts = phases_[i];
        RoundWait wait;
        std::vector<TaskId> received, sent;
        std::vector<std::uint32_t> blocks;
        for (Rank r = 0; r < c_; ++r)
            for (std::size_t j = 1; j <= counts.size(); ++j) {
                const auto distance = static_cast<std::int64_t>(j) * delta;  // < p
                const auto to = static_cast<Rank>((r + distance) % p_);
                if (pipelined()) {
                    pipelined_wait(r, i, static_cast<std::int64_t>(j), wait.deps);
                    wait.sent.clear();
                } else if (i == 0) {
                    const auto rotation = static_cast<TaskId>(r);
                    wait.set(request_.style, {&rotation, 1}, {});
                } else {
                    received.clear();
                    sent.clear();
                    receives(i - 1, r, received);
                    sends(i - 1, r, sent);
                    wait.set(request_.style, received, sent);
                }
                if (request_.payload)
                    bruck_alltoall_pack(p_, request_.k, r, delta, static_cast<std::int64_t>(j),
                                        blocks);
                builder_.transfer_bytes(r, to % c_,
                                        request_.bytes * static_cast<std::uint64_t>(counts[j - 1]),
                                        blocks, wait.deps, wait.sent);
                push(to, full_next_ + static_cast<std::uint64_t>(r) * counts.size() + (j - 1));
            }
        full_next_ += static_cast<std::uint64_t>(p_) * counts.size();
    }

    // As bruck_alltoall.cpp's: the rotation and the receives that last wrote the offsets send
    // (i, j) packs.
    void pipelined_wait(Rank r, std::size_t i, std::int64_t j, std::vector<TaskId>& deps) const {
        deps.assign(1, static_cast<TaskId>(r));
        const std::int64_t first = j * delta_[i];
        for (std::size_t earlier = 0; earlier < i; ++earlier)
            for (std::size_t partner = 1; partner <= phases_[earlier].size(); ++partner)
                if (first + static_cast<std::int64_t>(partner) * delta_[earlier] < p_)
                    deps.push_back(receive(earlier, delta_[earlier], r, partner));
    }

    void finish_rotations(std::uint64_t buffer) {
        RoundWait wait;
        std::vector<TaskId> received, sent, rotated(c_);
        for (Rank r = 0; r < c_; ++r) {
            received.clear();
            sent.clear();
            for (std::size_t i = pipelined() ? 0 : phases_.size() - 1; i < phases_.size(); ++i) {
                receives(i, r, received);
                sends(i, r, sent);
            }
            wait.set(pipelined() ? Style::mpi : request_.style, received, sent);
            rotated[r] = compute(r, buffer, wait.deps, wait.sent);
        }
        for (Rank r = 0; r < c_; ++r) compute(r, buffer, {&rotated[r], 1}, {});
    }

    const GenerateRequest& request_;
    Rank p_;
    Rank c_;
    std::vector<std::vector<Rank>> phases_;
    ScheduleBuilder builder_;
    std::vector<TaskId> first_;        // per phase: the id of its first send
    std::vector<std::int64_t> delta_;  // per phase: k^i
    QuotientSchedule q_;               // its destinations and full ids, as the tasks come
    std::uint64_t full_next_ = 0;
};

}  // namespace

QuotientSchedule quotient_bruck_alltoall(const GenerateRequest& request, Rank c) {
    return QuotientBruck(request, c).run();
}

}  // namespace piccolo::detail
