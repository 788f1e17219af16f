// Written with fmt rather than a JSON DOM: a trace of a million transfers is two million events.
#include <fmt/format.h>
#include <iterator>

#include "piccolo/engine/trace.hpp"

namespace piccolo {

namespace {

constexpr double microseconds = 1e6;  // Chrome trace timestamps are in microseconds

}  // namespace

std::string chrome_trace_json(const Schedule& s, const RankLayout& layout, const SimResult& r) {
    fmt::memory_buffer out;
    auto it = std::back_inserter(out);
    fmt::format_to(it, "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    bool first = true;
    auto separator = [&] {
        if (!first) fmt::format_to(it, ",\n");
        first = false;
    };
    // Names: process = node, thread = rank.
    for (int rank = 0; rank < s.shape.ranks; ++rank) {
        const int node = layout.node_of(rank);
        separator();
        fmt::format_to(it,
                       "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"args\":{{\"name\":"
                       "\"node {}\"}}}},\n{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},"
                       "\"tid\":{},\"args\":{{\"name\":\"rank {}\"}}}}",
                       node, node, node, rank, rank);
    }
    for (const TransferTrace& t : r.transfer_trace) {
        const Rank from = s.src[t.task], to = s.dst[t.task];
        const int from_node = layout.node_of(from), to_node = layout.node_of(to);
        const double send_end = t.inject_end;  // o_s, any wait for an egress lane, (m-1)G
        separator();
        fmt::format_to(
            it,
            "{{\"ph\":\"X\",\"name\":\"send {}->{}\",\"cat\":\"level {}\",\"pid\":{},"
            "\"tid\":{},\"ts\":{:.6f},\"dur\":{:.6f},\"args\":{{\"task\":{},\"bytes\":{},"
            "\"ready_us\":{:.6f},\"inject_us\":{:.6f}}}}}",
            from, to, t.level, from_node, from, t.send_start * microseconds,
            (send_end - t.send_start) * microseconds, s.external_id(t.task), s.bytes(t.task),
            t.ready * microseconds, t.inject_start * microseconds);
        fmt::format_to(
            it,
            ",\n{{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"flow\",\"id\":{},\"pid\":{},"
            "\"tid\":{},\"ts\":{:.6f}}}",
            t.task, from_node, from, t.send_start * microseconds);
        fmt::format_to(
            it,
            ",\n{{\"ph\":\"X\",\"name\":\"recv {}->{}\",\"cat\":\"level {}\",\"pid\":{},"
            "\"tid\":{},\"ts\":{:.6f},\"dur\":{:.6f},\"args\":{{\"task\":{},\"bytes\":{}}}}}",
            from, to, t.level, to_node, to, t.receive_start * microseconds,
            (t.complete - t.receive_start) * microseconds, s.external_id(t.task), s.bytes(t.task));
        fmt::format_to(
            it,
            ",\n{{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"message\",\"cat\":\"flow\",\"id\":{},"
            "\"pid\":{},\"tid\":{},\"ts\":{:.6f}}}",
            t.task, to_node, to, t.receive_start * microseconds);
    }
    for (const ComputeTrace& c : r.compute_trace) {
        const Rank rank = s.src[c.task];
        separator();
        fmt::format_to(it,
                       "{{\"ph\":\"X\",\"name\":\"{}\",\"cat\":\"compute\",\"pid\":{},\"tid\":{},"
                       "\"ts\":{:.6f},\"dur\":{:.6f},\"args\":{{\"task\":{},\"bytes\":{}}}}}",
                       to_string(s.kind[c.task]), layout.node_of(rank), rank,
                       c.start * microseconds, (c.end - c.start) * microseconds,
                       s.external_id(c.task), s.bytes(c.task));
    }
    fmt::format_to(it, "\n]}}\n");
    return fmt::to_string(out);
}

}  // namespace piccolo
