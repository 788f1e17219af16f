// Structural checks. Cycle detection uses Boost.Graph's depth-first search on a compressed
// sparse row graph: the first back edge closes a cycle, and the search tree's predecessors name
// every task on it, which a user needs to find the dependency to cut (Kahn's pass below would
// only say that some tasks never become ready).
#include <fmt/format.h>
#include <algorithm>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <queue>

#include "piccolo/schedules/verify.hpp"

namespace piccolo {

namespace {

using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

struct CycleFound {
    Vertex from, to;
};

// Records each vertex's parent in the search tree; stops the search at the first back edge,
// which closes a cycle through the tree path from its target down to its source.
struct CycleVisitor : boost::default_dfs_visitor {
    std::vector<Vertex>* parent;
    void tree_edge(boost::graph_traits<Graph>::edge_descriptor e, const Graph& g) const {
        (*parent)[boost::target(e, g)] = boost::source(e, g);
    }
    void back_edge(boost::graph_traits<Graph>::edge_descriptor e, const Graph& g) const {
        throw CycleFound{boost::source(e, g), boost::target(e, g)};
    }
};

std::string describe(const Schedule& s, TaskId t) {
    if (s.kind[t] == TaskKind::transfer)
        return fmt::format("task id={} (transfer {}->{})", s.external_id(t), s.src[t], s.dst[t]);
    return fmt::format("task id={} ({} on rank {})", s.external_id(t), to_string(s.kind[t]),
                       s.src[t]);
}

// "it depends on task id=U, which depends on id=X, ..., which depends on it": the cycle from
// the back edge's target v backwards along dependencies. Edges run from a dependency to its
// dependent, so v depends on u, u on its tree parent, and so on up to v. Long cycles are cut to
// their first and last few tasks.
std::string cycle_text(const Schedule& s, const std::vector<Vertex>& parent, Vertex u, Vertex v) {
    std::vector<TaskId> chain;
    for (Vertex x = u; x != v; x = parent[x]) chain.push_back(static_cast<TaskId>(x));
    constexpr std::size_t head = 6, tail = 2;
    std::string out = fmt::format("it depends on task id={}", s.external_id(chain[0]));
    for (std::size_t i = 1; i < chain.size(); ++i) {
        if (chain.size() > head + tail && i == head) {
            out += fmt::format(", ... ({} more)", chain.size() - head - tail);
            i = chain.size() - tail;
        }
        out += fmt::format(", which depends on id={}", s.external_id(chain[i]));
    }
    return out + fmt::format(", which depends on it (a cycle of {} tasks)", chain.size() + 1);
}

std::optional<Violation> check_task(const Schedule& s, TaskId t) {
    const Rank p = s.shape.ranks;
    auto bad = [&](std::string what) {
        return Violation{t, fmt::format("{}: {}", describe(s, t), what)};
    };
    const bool transfer = s.kind[t] == TaskKind::transfer;
    if (s.src[t] < 0 || s.src[t] >= p)
        return bad(fmt::format("{}={} is outside 0..{} (nodes={})", transfer ? "src" : "rank",
                               s.src[t], p - 1, p));
    if (s.dst[t] < 0 || s.dst[t] >= p)
        return bad(fmt::format("dst={} is outside 0..{} (nodes={})", s.dst[t], p - 1, p));
    if (transfer && s.src[t] == s.dst[t]) return bad("src and dst are the same rank");
    if (s.bytes(t) == 0) return bad("size must be at least 1 byte");
    for (TaskId d : s.deps.row(t))
        if (d == t) return bad("depends on itself");
    for (TaskId d : s.sent_deps_of(t)) {
        if (d == t) return bad("depends on itself");
        if (s.kind[d] != TaskKind::transfer)
            return bad(
                fmt::format("sent_deps: {} is not a transfer (only a transfer is sent; "
                            "list it in deps)",
                            describe(s, d)));
        // Only the sender learns that its send completed: no rank can wait for another's.
        if (s.src[d] != s.src[t])
            return bad(
                fmt::format("sent_deps: {} is another rank's send (a task can wait only "
                            "for its own rank's sends to be sent; list it in deps)",
                            describe(s, d)));
    }
    if (!s.has_payload()) return std::nullopt;

    const bool gather = moves_blocks(s.shape.collective);
    std::uint64_t carried = 0;
    for (std::uint32_t piece : s.payload.row(t)) {
        if (piece >= s.shape.pieces)
            return bad(fmt::format("{} {} does not exist (the collective has {})",
                                   gather ? "block" : "segment", piece, s.shape.pieces));
        carried += s.shape.piece_bytes(piece);
    }
    if (transfer && carried != s.bytes(t))
        return bad(fmt::format("size={} but the {} {} it carries hold {} bytes", s.bytes(t),
                               s.payload.row(t).size(), gather ? "blocks" : "segments", carried));
    return std::nullopt;
}

}  // namespace

std::optional<Violation> verify_structure(const Schedule& s, std::vector<TaskId>& order) {
    order.clear();
    if (s.shape.ranks < 2)
        return Violation{
            Violation::no_task,
            fmt::format("nodes={}: a collective needs at least 2 ranks", s.shape.ranks)};
    if (s.shape.pieces == 0)
        return Violation{Violation::no_task, "the collective has no blocks or segments"};
    if (s.shape.root < 0 || s.shape.root >= s.shape.ranks)
        return Violation{Violation::no_task,
                         fmt::format("root={}: the root must be one of the ranks 0..{}",
                                     s.shape.root, s.shape.ranks - 1)};
    const auto n = static_cast<TaskId>(s.size());
    for (TaskId t = 0; t < n; ++t)
        if (auto violation = check_task(s, t)) return violation;

    // Fast path: dependencies that always point to smaller indices (every generated schedule,
    // most files) cannot form a cycle, and index order is already topological.
    bool forward_only = true;
    for (TaskId t = 0; t < n && forward_only; ++t) {
        for (TaskId d : s.deps.row(t)) forward_only = forward_only && d < t;
        for (TaskId d : s.sent_deps_of(t)) forward_only = forward_only && d < t;
    }
    if (forward_only) {
        order.resize(n);
        for (TaskId t = 0; t < n; ++t) order[t] = t;
        return std::nullopt;
    }

    std::vector<std::pair<Vertex, Vertex>> edges;
    edges.reserve(s.deps.items.size() + s.sent_deps.items.size());
    for (TaskId t = 0; t < n; ++t) {
        for (TaskId d : s.deps.row(t)) edges.emplace_back(d, t);
        for (TaskId d : s.sent_deps_of(t)) edges.emplace_back(d, t);
    }
    const Graph graph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), n);
    edges = {};

    std::vector<boost::default_color_type> colors(n, boost::white_color);
    std::vector<Vertex> parent(n);
    try {
        boost::depth_first_search(graph,
                                  boost::visitor(CycleVisitor{{}, &parent})
                                      .color_map(boost::make_iterator_property_map(
                                          colors.begin(), boost::get(boost::vertex_index, graph))));
    } catch (const CycleFound& cycle) {
        const auto to = static_cast<TaskId>(cycle.to);
        return Violation{to, fmt::format("{}: dependency cycle: {}", describe(s, to),
                                         cycle_text(s, parent, cycle.from, cycle.to))};
    }
    // Acyclic. Replay order: Kahn's algorithm taking the smallest ready index first, so the
    // replay follows the file's order wherever the dependencies allow and the first violation
    // reported is the earliest one in that order.
    order.clear();
    std::vector<std::uint32_t> missing(n);
    for (TaskId t = 0; t < n; ++t)
        missing[t] = static_cast<std::uint32_t>(s.deps.row(t).size() + s.sent_deps_of(t).size());
    const Schedule::Successors successors = s.successors();
    std::priority_queue<TaskId, std::vector<TaskId>, std::greater<>> ready;
    for (TaskId t = 0; t < n; ++t)
        if (missing[t] == 0) ready.push(t);
    while (!ready.empty()) {
        const TaskId t = ready.top();
        ready.pop();
        order.push_back(t);
        for (const PackedRows* list : {&successors.delivered, &successors.sent})
            if (list->rows() > 0)
                for (TaskId next : list->row(t))
                    if (--missing[next] == 0) ready.push(next);
    }
    return std::nullopt;
}

}  // namespace piccolo
