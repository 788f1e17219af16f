#pragma once
// The reclaim probe of one level's rank pair: how much longer a reduction takes when it writes
// into data its rank has just sent to the partner (recursive doubling's Allreduce does it every
// round) than into data it did not send. Over shared memory the partner's core reads the sent
// buffer itself (a single copy), so the buffer's cache lines sit in that core's cache and the
// first write must take them back; on a VM whose two cores the host ran far apart this made a
// 1 MiB reduction about 5x slower (profiler/README.md, "Reclaim"). The engine prices it with
// Level::reclaim_per_byte.

#include <mpi.h>

#include <string>
#include <vector>

#include "piccolo/profiler/measure.hpp"
#include "piccolo/profiler/raw_data.hpp"

namespace piccolo::profiler {

// Collective over the pair (client, partner) of `comm`; other ranks return at once. Rows of kind
// `reclaim` (level `level`: the extra seconds of one repetition, at 64 KiB and at the largest
// size up to 1 MiB that settings.max_bytes allows) land on the client.
void probe_reclaim(MPI_Comm comm, int rank, int client, int partner, const std::string& level,
                   const MeasureSettings& settings, std::vector<RawSample>& out);

}  // namespace piccolo::profiler
