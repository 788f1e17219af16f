#pragma once
// Timelines at the edge: Chrome trace JSON (loads in Perfetto and chrome://tracing).

#include <string>

#include "piccolo/engine/engine.hpp"

namespace piccolo {

// One process per node, one thread per rank; per transfer an X event "send" on the source
// (send start to the last byte leaving) and "recv" on the destination (reception start to
// completion), joined by a flow arrow; per compute task an X event. Needs a result simulated
// with SimOptions::record_trace.
std::string chrome_trace_json(const Schedule& schedule, const RankLayout& layout,
                              const SimResult& result);

}  // namespace piccolo
