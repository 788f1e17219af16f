// The plan compiler: a data layout (layout_allgather.cpp, layout_allreduce.cpp) gives one op per
// task of the rank; here each op learns its MPI tag and what it waits for. A rank can only wait
// for its own events: a receive into it, a send from it (sent, or delivered for a `deps` entry:
// see LocalOp::synchronous), a compute on it. A dependency on a task of other ranks only is
// dropped and counted: it cannot carry data this rank uses (the verifier proves a schedule correct
// from rank-local dependencies alone), so it only synchronizes, which no rank can do without a
// message the schedule does not have.
#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "plan_detail.hpp"

namespace piccolo::exec {

std::string_view to_string(Element element) {
    switch (element) {
        case Element::f64:
            return "double";
        case Element::f32:
            return "float";
        case Element::u8:
            return "byte";
    }
    return "?";
}

std::size_t element_bytes(Element element) {
    return element == Element::f64 ? 8 : element == Element::f32 ? 4 : 1;
}

Element parse_element(std::string_view name) {
    for (Element e : {Element::f64, Element::f32, Element::u8})
        if (name == to_string(e)) return e;
    throw InputError(fmt::format("--type: '{}' is not one of double, float, byte, auto", name));
}

Element choose_element(const CollectiveShape& shape, std::optional<Element> wanted) {
    // Allgather, Alltoall and Bcast only move bytes: no arithmetic, so no element type.
    if (moves_blocks(shape.collective) || shape.collective == Collective::bcast)
        return Element::u8;
    auto fits = [&](Element e) {
        for (std::uint32_t seg = 0; seg < shape.pieces; ++seg)
            if (shape.piece_bytes(seg) % element_bytes(e) != 0) return false;
        return true;
    };
    if (!wanted)
        return fits(Element::f64) ? Element::f64 : fits(Element::f32) ? Element::f32 : Element::u8;
    if (!fits(*wanted))
        throw InputError(fmt::format(
            "--type {}: the {}-byte vector is cut into {} segments that do not all hold whole "
            "{}s; use --type auto (or a vector size that is a multiple of {} x {})",
            to_string(*wanted), shape.bytes, shape.pieces, to_string(*wanted),
            element_bytes(*wanted), shape.pieces));
    return *wanted;
}

namespace detail {

void stage_reads(LocalOp& op, const std::vector<Stretch>& reads, Arena& arena,
                 std::uint64_t& staged_bytes) {
    if (reads.size() == 1) {
        op.offset = reads.front().from;
        return;
    }
    op.offset = arena.allocate(op.bytes);
    std::uint64_t to = op.offset;
    for (Stretch r : reads) {
        append_stretch(op.copies, {r.from, to, r.bytes});
        to += r.bytes;
    }
    staged_bytes += op.bytes;
}

void append_stretch(std::vector<Stretch>& stretches, Stretch stretch) {
    if (!stretches.empty()) {
        Stretch& last = stretches.back();
        if (last.from + last.bytes == stretch.from && last.to + last.bytes == stretch.to) {
            last.bytes += stretch.bytes;
            return;
        }
    }
    stretches.push_back(stretch);
}

}  // namespace detail

namespace {

constexpr std::uint32_t not_local = ~std::uint32_t{0};

// Tag of a transfer: its ordinal among the transfers between the same two ranks (in task order),
// so that a receive posted early matches the right message whatever order sends start in.
void assign_tags(const Schedule& s, Rank me, std::vector<LocalOp>& ops) {
    std::vector<int> to(static_cast<std::size_t>(s.shape.ranks), 0);
    std::vector<int> from(to.size(), 0);
    std::vector<int> tag(s.size(), 0);
    for (TaskId t = 0; t < s.size(); ++t) {
        if (s.kind[t] != TaskKind::transfer) continue;
        if (s.src[t] == me) tag[t] = to[static_cast<std::size_t>(s.dst[t])]++;
        if (s.dst[t] == me) tag[t] = from[static_cast<std::size_t>(s.src[t])]++;
    }
    for (LocalOp& op : ops) op.tag = tag[op.task];
}

void link_waits(const Schedule& s, RankPlan& plan) {
    std::vector<std::uint32_t> op_of(s.size(), not_local);
    for (std::uint32_t i = 0; i < plan.ops.size(); ++i) op_of[plan.ops[i].task] = i;
    plan.waits.assign(plan.ops.size(), 0);
    std::vector<std::vector<std::uint32_t>> successors(plan.ops.size());
    for (std::uint32_t i = 0; i < plan.ops.size(); ++i) {
        LocalOp& op = plan.ops[i];
        if (op.kind == OpKind::recv) continue;  // posted at the start; its sender waits
        for (TaskId d : s.deps.row(op.task)) {
            const std::uint32_t e = op_of[d];
            if (e == not_local) {
                ++plan.dropped_waits;
                continue;
            }
            if (plan.ops[e].kind == OpKind::send) plan.ops[e].synchronous = true;
            successors[e].push_back(i);
            ++plan.waits[i];
        }
        for (TaskId d : s.sent_deps_of(op.task)) {
            const std::uint32_t e = op_of[d];
            if (e == not_local) {
                ++plan.dropped_waits;
                continue;
            }
            successors[e].push_back(i);
            ++plan.waits[i];
        }
    }
    for (std::uint32_t i = 0; i < plan.ops.size(); ++i) {
        for (std::uint32_t succ : successors[i]) plan.successors.items.push_back(succ);
        plan.successors.close_row();
        if (plan.waits[i] == 0 && plan.ops[i].kind != OpKind::recv)
            plan.ready_at_start.push_back(i);
    }
}

}  // namespace

RankPlan compile_plan(const Schedule& schedule, const std::vector<TaskId>& order, Rank rank,
                      Element element) {
    if (!schedule.has_payload())
        throw InputError(
            "the schedule has no payload descriptors (blocks= / segments=): the executor needs "
            "them to lay out buffers (write it with piccolo gen, which adds them)");
    const Collective c = schedule.shape.collective;
    detail::Layout layout = c == Collective::allgather  ? detail::layout_allgather(schedule, order, rank)
                            : c == Collective::alltoall ? detail::layout_alltoall(schedule, order, rank)
                                                        : detail::layout_allreduce(schedule, order, rank);
    RankPlan plan;
    plan.rank = rank;
    plan.shape = schedule.shape;
    plan.element = element;
    plan.arena_bytes = layout.arena_bytes;
    plan.ops = std::move(layout.ops);
    plan.input = std::move(layout.input);
    plan.result = std::move(layout.result);
    plan.staged_bytes = layout.staged_bytes;
    assign_tags(schedule, rank, plan.ops);
    link_waits(schedule, plan);
    return plan;
}

}  // namespace piccolo::exec
