#include "node_probes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "communicator.hpp"

namespace piccolo::profiler {
namespace {

// Median aggregate rate of `count` transfers of `bytes` over the kept repetition times.
double median_rate(std::vector<double> times, int count, std::size_t bytes) {
    std::sort(times.begin(), times.end());
    return static_cast<double>(count) * static_cast<double>(bytes) / times[times.size() / 2];
}

// One repetition of the concurrency probe on this rank: `pairs_active` rank pairs exchange, or
// with `one_way` only pair 0 moves one transfer (and a one-byte acknowledgement, so that the
// sender's time covers the arrival). Returns this rank's time (0 when idle).
double concurrency_rep(Transport& transport, int index, int partner, int pairs_active, bool one_way,
                       std::size_t bytes) {
    if (index / 2 >= pairs_active) return 0;
    transport.start_timer();
    if (!one_way) {
        transport.exchange(partner, bytes);
    } else if (index == 0) {
        transport.send(partner, bytes, 0);
        transport.recv(partner, 1);
    } else {
        transport.recv(partner, bytes);
        transport.send(partner, 1, 0);
    }
    return transport.stop_timer();
}

}  // namespace

void probe_node_radix(MPI_Comm comm, int rank, const std::vector<int>& node_of, int node_a,
                      int node_b, Transport& transport, const MeasureSettings& settings,
                      std::vector<RawSample>& out, const ProgressLog& log) {
    std::vector<int> senders, receivers;
    for (int r = 0; r < static_cast<int>(node_of.size()); ++r) {
        if (node_of[static_cast<std::size_t>(r)] == node_a) senders.push_back(r);
        if (node_of[static_cast<std::size_t>(r)] == node_b) receivers.push_back(r);
    }
    const std::size_t pairs = std::min(senders.size(), receivers.size());
    senders.resize(pairs);
    receivers.resize(pairs);
    const auto sender_at = std::find(senders.begin(), senders.end(), rank);
    const auto receiver_at = std::find(receivers.begin(), receivers.end(), rank);
    const bool is_sender = sender_at != senders.end();
    const bool is_receiver = receiver_at != receivers.end();
    const Communicator probe(comm, is_sender || is_receiver ? 0 : MPI_UNDEFINED, rank);
    if (!is_sender && !is_receiver) return;
    const std::size_t index = static_cast<std::size_t>(is_sender ? sender_at - senders.begin()
                                                                 : receiver_at - receivers.begin());
    const int partner = is_sender ? receivers[index] : senders[index];
    int probe_rank = 0;
    MPI_Comm_rank(probe.get(), &probe_rank);
    const std::size_t bytes = settings.radix_bytes;
    for (int c : settings.radix_concurrency) {
        const int share = c / static_cast<int>(pairs) +
                          (static_cast<int>(index) < c % static_cast<int>(pairs) ? 1 : 0);
        std::vector<double> kept;
        for (int rep = 0; rep < settings.warmup + settings.min_reps; ++rep) {
            if (is_sender && share > 0) transport.produce(bytes, share);
            MPI_Barrier(probe.get());
            double seconds = 0;
            if (is_sender) {
                transport.start_timer();
                if (share > 0) transport.send_concurrent(partner, bytes, share);
                transport.recv(partner, 1);
                seconds = transport.stop_timer();
            } else {
                if (share > 0) transport.recv_concurrent(partner, bytes, share);
                transport.send(partner, 1, 0);
            }
            double slowest = 0;
            MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, probe.get());
            if (probe_rank == 0 && rep >= settings.warmup) {
                out.push_back(
                    {"node", SampleKind::radix, c, 0, bytes, rep - settings.warmup, slowest});
                kept.push_back(slowest);
            }
        }
        if (probe_rank == 0 && log) {
            std::sort(kept.begin(), kept.end());
            log(fmt::format(
                "    node radix probe: {:2} in flight over {} device pair(s): {:.3f} GB/s", c,
                pairs,
                static_cast<double>(c) * static_cast<double>(bytes) / kept[kept.size() / 2] / 1e9));
        }
    }
}

void probe_node_concurrency(MPI_Comm comm, int rank, const std::vector<int>& node_of,
                            Transport& transport, const MeasureSettings& settings,
                            std::vector<RawSample>& out, const ProgressLog& log) {
    std::vector<int> members;
    for (int r = 0; r < static_cast<int>(node_of.size()); ++r) {
        if (node_of[static_cast<std::size_t>(r)] == node_of.front()) members.push_back(r);
    }
    const int pairs = static_cast<int>(members.size()) / 2;
    const auto at = std::find(members.begin(), members.end(), rank);
    // An odd member out stays idle; it still joins the barriers of its node.
    const bool member = at != members.end();
    const Communicator probe(comm, member && pairs > 0 ? 0 : MPI_UNDEFINED, rank);
    if (!member || pairs == 0) return;
    const int index = static_cast<int>(at - members.begin());
    const int partner = (index ^ 1) < static_cast<int>(members.size())
                            ? members[static_cast<std::size_t>(index ^ 1)]
                            : rank;
    int probe_rank = 0;
    MPI_Comm_rank(probe.get(), &probe_rank);
    // n = 1, then 1, 2, 4, ... pairs exchanging (2, 4, 8, ... transfers), and all pairs.
    std::vector<int> active{0};
    for (int k = 1; k < pairs; k *= 2) active.push_back(k);
    active.push_back(pairs);
    std::vector<std::size_t> sizes{settings.radix_bytes};
    if (settings.max_bytes > settings.radix_bytes) sizes.push_back(settings.max_bytes);
    for (const std::size_t bytes : sizes) {
        for (const int k : active) {
            const int transfers = k == 0 ? 1 : 2 * k;
            std::vector<double> kept;
            for (int rep = 0; rep < settings.warmup + settings.min_reps; ++rep) {
                transport.produce(bytes, 1);  // outside the timed region, as a collective's data
                MPI_Barrier(probe.get());
                double seconds =
                    concurrency_rep(transport, index, partner, k == 0 ? 1 : k, k == 0, bytes);
                double slowest = 0;
                MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, probe.get());
                if (probe_rank == 0 && rep >= settings.warmup) {
                    out.push_back({"node", SampleKind::concurrent, transfers, 0, bytes,
                                   rep - settings.warmup, slowest});
                    kept.push_back(slowest);
                }
            }
            if (probe_rank == 0 && log) {
                log(fmt::format(
                    "    node concurrency: {:2} transfer(s) of {} B at once: {:.3f} GB/s",
                    transfers, bytes, median_rate(kept, transfers, bytes) / 1e9));
            }
        }
    }
}

}  // namespace piccolo::profiler
