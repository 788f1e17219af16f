// The Chrome-trace timeline: valid JSON in the Trace Event Format that Perfetto loads, one
// process per node and one thread per rank, send/recv slices joined by flow arrows.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/trace.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

TEST_CASE("trace of an 8-rank RM allreduce on delta") {
    const Machine delta = load_preset("delta");
    const RankLayout layout(delta, 2, 4);
    const Schedule s = generate({Collective::allreduce, "rm", 2, 8, 4096, false});
    SimOptions options;
    options.record_trace = true;
    const SimResult r = simulate(s, delta, layout, options);
    const nlohmann::json trace = nlohmann::json::parse(chrome_trace_json(s, layout, r));

    std::map<std::string, int> phases;
    std::map<int, int> thread_process;  // tid -> pid from the metadata
    for (const auto& e : trace["traceEvents"]) {
        const std::string ph = e["ph"];
        ++phases[ph];
        if (ph == "M" && e["name"] == "thread_name") thread_process[e["tid"]] = e["pid"];
        if (ph == "X") {
            CHECK(e["dur"].get<double>() >= 0);
            CHECK(thread_process.at(e["tid"]) == e["pid"]);  // a rank's slices on its node
        }
    }
    // 24 transfers (8 ranks x 3 rounds) and 24 reduces.
    CHECK(r.transfers == 24);
    CHECK(phases["X"] == 2 * 24 + 24);
    CHECK(phases["s"] == 24);
    CHECK(phases["f"] == 24);
    CHECK(phases["M"] == 2 * 8);
    CHECK(thread_process.size() == 8);
    CHECK(thread_process[5] == 1);  // rank 5 lives on node 1 (block placement, 4 per node)
    // Every transfer: ready <= send start <= injection <= reception start <= completion.
    for (const TransferTrace& t : r.transfer_trace) {
        CHECK(t.ready <= t.send_start);
        CHECK(t.send_start <= t.inject_start);
        CHECK(t.inject_start <= t.receive_start);
        CHECK(t.receive_start <= t.complete);
    }
}
