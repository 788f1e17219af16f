#pragma once
// Probes that involve several ranks of the machine at once (the PRTT loop and the device radix
// probe involve one pair): the node radix between two nodes, and the concurrency inside a node.

#include <mpi.h>

#include <vector>

#include "piccolo/profiler/measure.hpp"
#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/profiler/transport.hpp"

namespace piccolo::profiler {

// node_radix: c transfers in flight from the devices of node A to those of node B, spread
// round-robin over k = min(|A|, |B|) sender/receiver pairs; the time of one repetition is the
// slowest sender's. Collective over `comm`; `node_of` maps world ranks to nodes. Samples land
// on the first sender.
void probe_node_radix(MPI_Comm comm, int rank, const std::vector<int>& node_of, int node_a,
                      int node_b, Transport& transport, const MeasureSettings& settings,
                      std::vector<RawSample>& out, const ProgressLog& log);

// Concurrent transfers inside rank 0's node, at settings.radix_bytes and settings.max_bytes:
// n = 1 is one transfer (rank pair 0, one way, acknowledged by one byte), n = 2k is k rank pairs
// of the node exchanging in both directions at once. The time of a repetition is the slowest
// rank's; rows of kind `concurrent`, level `node`, land on rank 0. Whether n transfers reach n
// times the rate of one tells the fit whether the node has a shared internal bandwidth.
// Collective over `comm`; nothing is measured when rank 0's node holds a single rank.
void probe_node_concurrency(MPI_Comm comm, int rank, const std::vector<int>& node_of,
                            Transport& transport, const MeasureSettings& settings,
                            std::vector<RawSample>& out, const ProgressLog& log);

}  // namespace piccolo::profiler
