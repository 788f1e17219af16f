// BcastProgram (bcast_scatter.hpp): MPICH's binomial scatter for Bcast and the per-rank waits of
// the blocking calls that follow it.
#include "bcast_scatter.hpp"

#include <algorithm>

#include "piccolo/core/assert.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

BcastProgram::BcastProgram(const GenerateRequest& request, bool track_deliveries)
    : builder_({Collective::bcast, request.ranks, request.bytes,
                ceil_cut_pieces(request.bytes, request.ranks), request.root, Cut::ceil},
               request.algorithm, request.k, request.payload, request.style),
      style_(request.style),
      p_(request.ranks),
      root_(request.root),
      q_(ceil_cut_pieces(request.bytes, request.ranks)),
      track_(track_deliveries),
      previous_send_(static_cast<std::size_t>(p_), no_task),
      since_(static_cast<std::size_t>(p_)),
      scatter_receive_(static_cast<std::size_t>(p_), no_task) {
    const TaskCounts counts = count_tasks(request);
    builder_.reserve(counts.tasks(), counts.dependency_ids);
    if (track_) {
        lo_.assign(static_cast<std::size_t>(p_), 0);
        hi_.assign(static_cast<std::size_t>(p_), 0);
        hi_[0] = q_;  // the root holds every chunk
        delivered_.resize(static_cast<std::size_t>(p_));
    }
}

void BcastProgram::scatter() {
    std::int64_t mask = 1;
    while (mask * 2 < p_) mask *= 2;
    std::vector<TaskId> data(1);
    for (; mask >= 1; mask /= 2) {
        for (std::int64_t x = 0; x + mask < q_; x += 2 * mask) {
            data[0] = scatter_receive(x);
            const auto child = static_cast<std::uint32_t>(x + mask);
            send(x, child, child,
                 static_cast<std::uint32_t>(std::min<std::int64_t>(x + 2 * mask, q_)), data);
            scatter_receive_[child] = last_;
        }
        end_round();
    }
}

TaskId BcastProgram::scatter_receive(std::int64_t x) const {
    return scatter_receive_[static_cast<std::size_t>(x)];
}

std::uint32_t BcastProgram::scatter_end(std::int64_t x) const {
    if (x == 0) return q_;
    return static_cast<std::uint32_t>(std::min<std::int64_t>(x + (x & -x), q_));
}

void BcastProgram::send(std::int64_t from, std::int64_t to, std::uint32_t first, std::uint32_t last,
                        std::span<const TaskId> data) {
    last = std::min(last, q_);
    last_ = no_task;
    if (first >= last) return;  // an empty chunk: MPICH's zero-byte message, left out
    pieces_.clear();
    for (std::uint32_t c = first; c < last; ++c) pieces_.push_back(c);
    const auto f = static_cast<std::size_t>(from);
    deps_.clear();
    sent_.clear();
    if (style_ == Style::pipelined) {
        deps_.assign(data.begin(), data.end());
    } else {
        deps_.assign(since_[f].begin(), since_[f].end());
        (style_ == Style::mpi ? sent_ : deps_).push_back(previous_send_[f]);
    }
    last_ = builder_.transfer(absolute(from), absolute(to), pieces_, deps_, sent_);
    round_.push_back({last_, from, to, first, last});
}

void BcastProgram::end_round() {
    for (const Pending& r : round_) {
        const auto f = static_cast<std::size_t>(r.from);
        previous_send_[f] = r.task;
        since_[f].clear();
    }
    for (const Pending& r : round_) {
        since_[static_cast<std::size_t>(r.to)].push_back(r.task);
        if (track_) deliver(r);
    }
    round_.clear();
}

void BcastProgram::deliver(const Pending& r) {
    const auto x = static_cast<std::size_t>(r.to);
    std::uint32_t& lo = lo_[x];
    std::uint32_t& hi = hi_[x];
    if (lo == hi) {  // the first chunks it gets
        lo = r.first;
        hi = r.last;
        delivered_[x].push_back({r.task, r.first, r.last});
        return;
    }
    // MPICH's steps only ever extend a rank's chunks next to what it holds.
    PICCOLO_ASSERT(r.last >= lo && r.first <= hi);
    if (r.first < lo) delivered_[x].push_back({r.task, r.first, lo});
    if (r.last > hi) delivered_[x].push_back({r.task, hi, r.last});
    lo = std::min(lo, r.first);
    hi = std::max(hi, r.last);
}

void BcastProgram::first_deliveries(std::int64_t x, std::uint32_t first, std::uint32_t last,
                                    std::vector<TaskId>& out) const {
    TaskId previous = no_task;
    for (const Delivery& d : delivered_[static_cast<std::size_t>(x)])
        if (d.first < last && first < d.last && d.task != previous) {
            out.push_back(d.task);
            previous = d.task;
        }
}

}  // namespace piccolo::detail
