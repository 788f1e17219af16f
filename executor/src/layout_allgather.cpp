// Allgather memory layout. Ranks without a `permute` keep every block at its place in the result
// (block b at b * bytes). A rank with a `permute` (prd, prm) receives into a separate buffer first,
// in an order chosen so that what it forwards stays contiguous, and its permute copies the blocks
// into rank order: that is the copy the permuted algorithms pay for their contiguous exchanges.
//
// The pre-permute order is found by replaying the schedule: a rank's buffer is a list of chunks,
// each the blocks of one receive in the order they travelled; a new chunk goes before the first
// chunk whose smallest block is larger. A message travels in its sender's buffer order. For the
// permuted exchanges this reproduces the digit-reversed order, where every message is one range.
// Any other schedule still runs correctly: a message whose blocks are not one range is packed
// into a staging area before the send or unpacked after the receive.
#include <fmt/format.h>
#include <algorithm>

#include "piccolo/core/error.hpp"
#include "plan_detail.hpp"

namespace piccolo::exec::detail {

namespace {

constexpr std::uint32_t nowhere = ~std::uint32_t{0};
constexpr TaskId no_task = ~TaskId{0};

using Chunks = std::vector<std::vector<std::uint32_t>>;

std::vector<TaskId> permutes(const Schedule& s) {
    std::vector<TaskId> permute_of(static_cast<std::size_t>(s.shape.ranks), no_task);
    for (TaskId t = 0; t < s.size(); ++t) {
        if (s.kind[t] == TaskKind::reduce)
            throw InputError(
                fmt::format("task id={}: a reduce in an Allgather has no meaning to "
                            "the executor (Allgather moves blocks only)",
                            s.external_id(t)));
        if (s.kind[t] != TaskKind::permute) continue;
        TaskId& slot = permute_of[static_cast<std::size_t>(s.src[t])];
        if (slot != no_task)
            throw InputError(
                fmt::format("task id={}: rank {} has a second permute (id={}); the "
                            "executor supports one permute per rank",
                            s.external_id(t), s.src[t], s.external_id(slot)));
        slot = t;
    }
    return permute_of;
}

// A topological order level by level: a task's level is one more than its dependencies'
// (delivered or sent), so the transfers of one round of a round-based schedule share a level.
std::vector<TaskId> level_order(const Schedule& s, const std::vector<TaskId>& order,
                                std::vector<std::uint32_t>& level) {
    level.assign(s.size(), 0);
    for (TaskId t : order) {
        for (TaskId d : s.deps.row(t)) level[t] = std::max(level[t], level[d] + 1);
        for (TaskId d : s.sent_deps_of(t)) level[t] = std::max(level[t], level[d] + 1);
    }
    std::vector<TaskId> by_level = order;
    std::stable_sort(by_level.begin(), by_level.end(),
                     [&](TaskId a, TaskId b) { return level[a] < level[b]; });
    return by_level;
}

// Pass 1: the order every message travels in (for the transfers of `me`) and the final
// pre-permute order of `me`'s buffer.
class WireOrder {
  public:
    WireOrder(const Schedule& s, const std::vector<TaskId>& permute_of)
        : s_(s),
          p_(s.shape.ranks),
          permute_of_(permute_of),
          passed_(static_cast<std::size_t>(p_), 0),
          held_(static_cast<std::size_t>(p_) * p_, 0),
          chunks_(static_cast<std::size_t>(p_)) {
        for (Rank r = 0; r < p_; ++r) {
            held_[index(r, static_cast<std::uint32_t>(r))] = 1;
            if (permuting(r))
                chunks_[static_cast<std::size_t>(r)] = {{static_cast<std::uint32_t>(r)}};
        }
    }

    // `order` is level by level (level_order): within a level the sends first join what they
    // carry into one chunk at their source, then the receives insert their chunks, so that the
    // result does not depend on the order of the transfers of one round.
    void replay(const std::vector<TaskId>& order, const std::vector<std::uint32_t>& level, Rank me,
                std::vector<std::vector<std::uint32_t>>& wire) {
        wire.assign(s_.size(), {});
        for (std::size_t first = 0, last = 0; first < order.size(); first = last) {
            while (last < order.size() && level[order[last]] == level[order[first]]) ++last;
            for (std::size_t i = first; i < last; ++i) {
                const TaskId t = order[i];
                if (s_.kind[t] != TaskKind::transfer) continue;
                wire[t] = travel_order(t);
                if (permuting(s_.src[t])) join(s_.src[t], wire[t]);
            }
            for (std::size_t i = first; i < last; ++i) arrive(order[i], wire[order[i]]);
        }
        for (TaskId t = 0; t < s_.size(); ++t)
            if (s_.kind[t] == TaskKind::transfer && s_.src[t] != me && s_.dst[t] != me)
                wire[t] = {};
    }

    // Slot of each block in `me`'s pre-permute buffer (nowhere: not held before the permute).
    [[nodiscard]] std::vector<std::uint32_t> work_slots(Rank me) const {
        std::vector<std::uint32_t> slot(static_cast<std::size_t>(p_), nowhere);
        std::uint32_t next = 0;
        for (const auto& chunk : chunks_[static_cast<std::size_t>(me)])
            for (std::uint32_t b : chunk) slot[b] = next++;
        return slot;
    }

  private:
    [[nodiscard]] std::size_t index(Rank r, std::uint32_t b) const {
        return static_cast<std::size_t>(r) * static_cast<std::size_t>(p_) + b;
    }
    [[nodiscard]] bool permuting(Rank r) const {
        return permute_of_[static_cast<std::size_t>(r)] != no_task &&
               !passed_[static_cast<std::size_t>(r)];
    }

    std::vector<std::uint32_t> travel_order(TaskId t) const {
        const auto payload = s_.payload.row(t);
        std::vector<std::uint32_t> blocks(payload.begin(), payload.end());
        if (!permuting(s_.src[t])) {
            std::sort(blocks.begin(), blocks.end());
            return blocks;
        }
        std::vector<std::uint32_t> position(static_cast<std::size_t>(p_), nowhere);
        std::uint32_t next = 0;
        for (const auto& chunk : chunks_[static_cast<std::size_t>(s_.src[t])])
            for (std::uint32_t b : chunk) position[b] = next++;
        std::stable_sort(blocks.begin(), blocks.end(), [&](std::uint32_t a, std::uint32_t b) {
            return position[a] < position[b];
        });
        return blocks;
    }

    void arrive(TaskId t, const std::vector<std::uint32_t>& blocks) {
        if (s_.kind[t] == TaskKind::permute) passed_[static_cast<std::size_t>(s_.src[t])] = 1;
        if (s_.kind[t] != TaskKind::transfer) return;
        std::vector<std::uint32_t> fresh;
        for (std::uint32_t b : blocks) {
            char& held = held_[index(s_.dst[t], b)];
            if (!held) fresh.push_back(b);
            held = 1;
        }
        if (permuting(s_.dst[t]) && !fresh.empty()) insert(s_.dst[t], std::move(fresh));
    }

    // The chunks of `r` holding any of `blocks` become one chunk, in their current order, where
    // the first of them was: they travel together from now on.
    void join(Rank r, const std::vector<std::uint32_t>& blocks) {
        Chunks& chunks = chunks_[static_cast<std::size_t>(r)];
        auto carried = [&](const std::vector<std::uint32_t>& c) {
            return std::any_of(c.begin(), c.end(), [&](std::uint32_t b) {
                return std::find(blocks.begin(), blocks.end(), b) != blocks.end();
            });
        };
        Chunks joined;
        std::size_t at = chunks.size();
        for (auto& c : chunks) {
            if (!carried(c)) {
                joined.push_back(std::move(c));
                continue;
            }
            if (at == chunks.size()) {
                at = joined.size();
                joined.emplace_back();
            }
            joined[at].insert(joined[at].end(), c.begin(), c.end());
        }
        chunks = std::move(joined);
    }

    void insert(Rank r, std::vector<std::uint32_t> chunk) {
        Chunks& chunks = chunks_[static_cast<std::size_t>(r)];
        const std::uint32_t low = *std::min_element(chunk.begin(), chunk.end());
        const auto at = std::find_if(chunks.begin(), chunks.end(), [&](const auto& c) {
            return *std::min_element(c.begin(), c.end()) > low;
        });
        chunks.insert(at, std::move(chunk));
    }

    const Schedule& s_;
    Rank p_;
    const std::vector<TaskId>& permute_of_;
    std::vector<char> passed_;
    std::vector<char> held_;
    std::vector<Chunks> chunks_;
};

// Pass 2: `me`'s view. Where each block is (arena offset) as the replay goes on.
class GatherOps {
  public:
    GatherOps(const Schedule& s, Rank me, bool has_permute, std::vector<std::uint32_t> work_slot)
        : s_(s), me_(me), block_(s.shape.bytes), work_slot_(std::move(work_slot)) {
        const auto p = static_cast<std::uint64_t>(s.shape.ranks);
        out_ = arena_.allocate(p * block_);
        work_ = has_permute ? arena_.allocate(p * block_) : out_;
        before_permute_ = has_permute;
        where_.assign(static_cast<std::size_t>(p), nowhere64);
        const auto own = static_cast<std::uint32_t>(me);
        where_[own] = place(own);
        layout_.input.push_back({own * block_, where_[own], block_});
        for (std::uint64_t b = 0; b < p; ++b)
            layout_.result.push_back({b * block_, out_ + b * block_, block_});
    }

    Layout run(const std::vector<TaskId>& order,
               const std::vector<std::vector<std::uint32_t>>& wire) {
        for (TaskId t : order) {
            if (s_.kind[t] == TaskKind::transfer && s_.src[t] == me_)
                send(t, wire[t]);
            else if (s_.kind[t] == TaskKind::transfer && s_.dst[t] == me_)
                receive(t, wire[t]);
            else if (s_.kind[t] != TaskKind::transfer && s_.src[t] == me_)
                compute(t);
        }
        layout_.arena_bytes = arena_.size();
        return std::move(layout_);
    }

  private:
    static constexpr std::uint64_t nowhere64 = ~std::uint64_t{0};

    [[nodiscard]] std::uint64_t place(std::uint32_t b) const {
        return before_permute_ ? work_ + std::uint64_t{work_slot_[b]} * block_ : out_ + b * block_;
    }

    void send(TaskId t, const std::vector<std::uint32_t>& blocks) {
        LocalOp op = make_op(OpKind::send, TaskKind::transfer, t, s_.dst[t], s_.bytes(t));
        std::vector<Stretch> reads;  // from: where the block is, to: its offset in the message
        std::uint64_t at = 0;
        for (std::uint32_t b : blocks) {
            if (where_[b] == nowhere64)
                throw InputError(
                    fmt::format("task id={} (transfer {}->{}) sends block {}, which "
                                "rank {} does not hold at that point of the schedule",
                                s_.external_id(t), me_, s_.dst[t], b, me_));
            append_stretch(reads, {where_[b], at, block_});
            at += block_;
        }
        stage_reads(op, reads, arena_, layout_.staged_bytes);
        layout_.ops.push_back(std::move(op));
    }

    void receive(TaskId t, const std::vector<std::uint32_t>& blocks) {
        LocalOp op = make_op(OpKind::recv, TaskKind::transfer, t, s_.src[t], s_.bytes(t));
        std::vector<Stretch> writes;  // from: offset in the message, to: where the block goes
        bool all_fresh = true;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const std::uint32_t b = blocks[i];
            if (where_[b] != nowhere64) {
                all_fresh = false;  // a second copy of a block: the first delivery stays
                continue;
            }
            where_[b] = place(b);
            append_stretch(writes, {i * block_, where_[b], block_});
        }
        if (all_fresh && writes.size() == 1) {
            op.offset = writes.front().to;
        } else {
            op.offset = arena_.allocate(op.bytes);
            for (Stretch w : writes) append_stretch(op.copies, {op.offset + w.from, w.to, w.bytes});
            layout_.staged_bytes += op.bytes;
        }
        layout_.ops.push_back(std::move(op));
    }

    void compute(TaskId t) {
        LocalOp op = make_op(OpKind::compute, s_.kind[t], t);
        if (s_.kind[t] == TaskKind::permute) {
            for (std::uint32_t b = 0; b < where_.size(); ++b)
                if (where_[b] != nowhere64) {
                    append_stretch(op.copies, {where_[b], out_ + b * block_, block_});
                    where_[b] = out_ + b * block_;
                }
            before_permute_ = false;
        } else {  // copy: moves what it names (or everything held) through a scratch area
            std::vector<Stretch> reads;
            const std::vector<std::uint32_t> held = pieces(t);
            const std::uint64_t scratch = arena_.allocate(held.size() * block_);
            for (std::size_t i = 0; i < held.size(); ++i)
                append_stretch(op.copies, {where_[held[i]], scratch + i * block_, block_});
        }
        layout_.ops.push_back(std::move(op));
    }

    std::vector<std::uint32_t> pieces(TaskId t) const {
        const auto named = s_.payload.row(t);
        std::vector<std::uint32_t> out;
        for (std::uint32_t b = 0; b < where_.size(); ++b)
            if (where_[b] != nowhere64 &&
                (named.empty() || std::find(named.begin(), named.end(), b) != named.end()))
                out.push_back(b);
        return out;
    }

    const Schedule& s_;
    Rank me_;
    std::uint64_t block_;
    std::vector<std::uint32_t> work_slot_;
    Arena arena_;
    std::uint64_t out_ = 0, work_ = 0;
    bool before_permute_ = false;
    std::vector<std::uint64_t> where_;
    Layout layout_;
};

}  // namespace

Layout layout_allgather(const Schedule& s, const std::vector<TaskId>& topological, Rank me) {
    const std::vector<TaskId> permute_of = permutes(s);
    std::vector<std::uint32_t> level;
    const std::vector<TaskId> order = level_order(s, topological, level);
    WireOrder wire_order(s, permute_of);
    std::vector<std::vector<std::uint32_t>> wire;
    wire_order.replay(order, level, me, wire);
    const bool has_permute = permute_of[static_cast<std::size_t>(me)] != no_task;
    return GatherOps(s, me, has_permute, wire_order.work_slots(me)).run(order, wire);
}

}  // namespace piccolo::exec::detail
