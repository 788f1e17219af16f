// Allreduce memory layout, also Bcast's, Reduce's and Reduce_scatter's: their copies and operands
// follow the same rules; only the root holds a Bcast's input and a Reduce's result, and a
// Reduce_scatter's result is the rank's own segment. A rank's own vector sits at offset 0 and is
// where its partial sums start. Every incoming transfer lands in a buffer of its own: a transfer
// that a `reduce` on the receiving rank waits for is an operand, which that reduce adds into the
// rank's current copy of each segment; any other transfer is a copy that *becomes* the rank's
// current version of its segments (no memcpy; later sends, reduces and the final check read it
// there). A Bcast only copies: there, as in the Allgather layout, a segment the rank already holds
// (the root's own, or an earlier delivery) keeps its first version when it arrives again (MPICH's
// scatter-allgathers send ranks chunks they have; a send that does not wait for the second copy
// must not read it). This mirrors the verifier's data-flow rules, so a schedule it accepts
// computes the exact sum here.
#include <fmt/format.h>
#include <algorithm>

#include "piccolo/core/error.hpp"
#include "plan_detail.hpp"

namespace piccolo::exec::detail {

namespace {

class ReduceOps {
  public:
    ReduceOps(const Schedule& s, Rank me)
        : s_(s), me_(me), operand_(s.size(), 0), unfolded_(s.size(), 0), landing_(s.size(), 0) {
        const std::uint32_t pieces = s.shape.pieces;
        std::uint64_t offset = 0;
        for (std::uint32_t seg = 0; seg < pieces; ++seg) {
            segment_offset_.push_back(offset);
            offset += s.shape.piece_bytes(seg);
        }
        const std::uint64_t bytes = s.shape.total_buffer_bytes();  // the whole vector
        const std::uint64_t vector = arena_.allocate(bytes);
        for (std::uint32_t seg = 0; seg < pieces; ++seg)
            where_.push_back(vector + segment_offset_[seg]);
        // A Bcast starts with data on the root only; a Reduce leaves its result on the root only.
        const bool rooted =
            s.shape.collective == Collective::bcast || s.shape.collective == Collective::reduce;
        if (s.shape.collective != Collective::bcast || me == s.shape.root)
            layout_.input.push_back({0, vector, bytes});
        copies_only_ = s.shape.collective == Collective::bcast;
        held_.assign(pieces, copies_only_ && me == s.shape.root ? 1 : 0);
        checks_result_ = !rooted || s.shape.collective == Collective::bcast || me == s.shape.root;
        for (TaskId c = 0; c < s.size(); ++c)
            if (s.kind[c] == TaskKind::reduce && s.src[c] == me)
                for (TaskId d : s.deps.row(c))
                    if (s.kind[d] == TaskKind::transfer && s.dst[d] == me) operand_[d] = 1;
    }

    Layout run(const std::vector<TaskId>& order) {
        for (TaskId t : order) {
            if (s_.kind[t] == TaskKind::transfer && s_.src[t] == me_)
                send(t);
            else if (s_.kind[t] == TaskKind::transfer && s_.dst[t] == me_)
                receive(t);
            else if (s_.kind[t] != TaskKind::transfer && s_.src[t] == me_)
                compute(t);
        }
        const bool scatter = s_.shape.collective == Collective::reduce_scatter;
        for (std::uint32_t seg = 0; checks_result_ && seg < where_.size(); ++seg)
            if (!scatter || seg == static_cast<std::uint32_t>(me_))  // Reduce_scatter: its own
                layout_.result.push_back(
                {segment_offset_[seg], where_[seg], s_.shape.piece_bytes(seg)});
        layout_.arena_bytes = arena_.size();
        return std::move(layout_);
    }

  private:
    void send(TaskId t) {
        LocalOp op = make_op(OpKind::send, TaskKind::transfer, t, s_.dst[t], s_.bytes(t));
        std::vector<Stretch> reads;  // from: where the segment is, to: its offset in the message
        std::uint64_t at = 0;
        for (std::uint32_t seg : s_.payload.row(t)) {
            append_stretch(reads, {where_[seg], at, s_.shape.piece_bytes(seg)});
            at += s_.shape.piece_bytes(seg);
        }
        stage_reads(op, reads, arena_, layout_.staged_bytes);
        layout_.ops.push_back(std::move(op));
    }

    void receive(TaskId t) {
        LocalOp op = make_op(OpKind::recv, TaskKind::transfer, t, s_.src[t], s_.bytes(t));
        op.offset = arena_.allocate(op.bytes);
        landing_[t] = op.offset;
        if (operand_[t]) {
            unfolded_[t] = 1;
        } else {
            std::uint64_t at = op.offset;
            for (std::uint32_t seg : s_.payload.row(t)) {
                if (!copies_only_ || !held_[seg]) where_[seg] = at;
                held_[seg] = 1;
                at += s_.shape.piece_bytes(seg);
            }
        }
        layout_.ops.push_back(std::move(op));
    }

    void compute(TaskId c) {
        LocalOp op = make_op(OpKind::compute, s_.kind[c], c);
        if (s_.kind[c] == TaskKind::permute)
            throw InputError(
                fmt::format("task id={}: a permute in an Allreduce has no meaning to "
                            "the executor (the segments have fixed places)",
                            s_.external_id(c)));
        if (s_.kind[c] == TaskKind::reduce) {
            // Each operand is folded once, by the first reduce (in the replay) that waits for it.
            for (TaskId d : s_.deps.row(c)) {
                if (s_.kind[d] != TaskKind::transfer || s_.dst[d] != me_ || !unfolded_[d]) continue;
                unfolded_[d] = 0;
                std::uint64_t at = landing_[d];
                for (std::uint32_t seg : s_.payload.row(d)) {
                    const std::uint64_t bytes = s_.shape.piece_bytes(seg);
                    op.reduces.push_back({at, where_[seg], bytes});
                    at += bytes;
                }
            }
        } else {  // copy: moves the segments it names (or all) through a scratch area
            const auto named = s_.payload.row(c);
            for (std::uint32_t seg = 0; seg < where_.size(); ++seg) {
                if (!named.empty() && std::find(named.begin(), named.end(), seg) == named.end())
                    continue;
                const std::uint64_t bytes = s_.shape.piece_bytes(seg);
                append_stretch(op.copies, {where_[seg], arena_.allocate(bytes), bytes});
            }
        }
        layout_.ops.push_back(std::move(op));
    }

    const Schedule& s_;
    Rank me_;
    Arena arena_;
    std::vector<std::uint64_t> segment_offset_;
    std::vector<std::uint64_t> where_;  // the current version of each segment on `me`
    std::vector<char> held_;            // Bcast: segments `me` has (the first version stays)
    bool copies_only_ = false;          // Bcast
    std::vector<char> operand_, unfolded_;
    std::vector<std::uint64_t> landing_;  // per incoming transfer: its buffer
    bool checks_result_ = true;  // false on a Reduce's other ranks: they end with no result
    Layout layout_;
};

}  // namespace

Layout layout_allreduce(const Schedule& s, const std::vector<TaskId>& order, Rank me) {
    return ReduceOps(s, me).run(order);
}

}  // namespace piccolo::exec::detail
