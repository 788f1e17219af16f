// Alltoall memory layout. A rank's send buffer (block (me, d) at d * bytes) sits at offset 0 of
// its arena; every incoming transfer lands in a buffer of its own, and the blocks it carries are
// from then on read there. A send whose blocks are not one stretch is packed first (stage_reads). A
// permute or copy moves every block the rank holds to a fresh area. The result is block (s, me)
// for every s, wherever it lies, checked in rank order.
#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "plan_detail.hpp"

namespace piccolo::exec::detail {

Layout layout_alltoall(const Schedule& s, const std::vector<TaskId>& order, Rank me) {
    constexpr std::uint64_t nowhere = ~std::uint64_t{0};
    const auto p = static_cast<std::uint64_t>(s.shape.ranks);
    const std::uint64_t bytes = s.shape.bytes;
    const auto mine = static_cast<std::uint64_t>(me);
    Layout layout;
    Arena arena;
    std::vector<std::uint64_t> where(p * p, nowhere);
    const std::uint64_t input = arena.allocate(p * bytes);
    layout.input.push_back({0, input, p * bytes});
    for (std::uint64_t d = 0; d < p; ++d) where[mine * p + d] = input + d * bytes;
    for (TaskId t : order) {
        const bool transfer = s.kind[t] == TaskKind::transfer;
        if (transfer && s.src[t] == me) {
            LocalOp op = make_op(OpKind::send, TaskKind::transfer, t, s.dst[t], s.bytes(t));
            std::vector<Stretch> reads;
            std::uint64_t at = 0;
            for (std::uint32_t b : s.payload.row(t)) {
                append_stretch(reads, {where[b], at, bytes});
                at += bytes;
            }
            stage_reads(op, reads, arena, layout.staged_bytes);
            layout.ops.push_back(std::move(op));
        } else if (transfer && s.dst[t] == me) {
            LocalOp op = make_op(OpKind::recv, TaskKind::transfer, t, s.src[t], s.bytes(t));
            op.offset = arena.allocate(op.bytes);
            std::uint64_t at = op.offset;
            for (std::uint32_t b : s.payload.row(t)) {
                where[b] = at;
                at += bytes;
            }
            layout.ops.push_back(std::move(op));
        } else if (!transfer && s.src[t] == me) {
            if (s.kind[t] == TaskKind::reduce)
                throw InputError(fmt::format("task id={}: a reduce in an Alltoall has no meaning "
                                             "to the executor (Alltoall moves blocks only)",
                                             s.external_id(t)));
            LocalOp op = make_op(OpKind::compute, s.kind[t], t);
            for (std::uint64_t& at : where) {
                if (at == nowhere) continue;
                const std::uint64_t to = arena.allocate(bytes);
                append_stretch(op.copies, {at, to, bytes});
                at = to;
            }
            layout.ops.push_back(std::move(op));
        }
    }
    for (std::uint64_t from = 0; from < p; ++from)
        layout.result.push_back({from * bytes, where[from * p + mine], bytes});
    layout.arena_bytes = arena.size();
    return layout;
}

}  // namespace piccolo::exec::detail
