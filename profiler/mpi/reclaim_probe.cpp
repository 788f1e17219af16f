#include "reclaim_probe.hpp"

#include <algorithm>
#include <cstddef>

#include "mpi_transport.hpp"

namespace piccolo::profiler {
namespace {

constexpr int reclaim_tag = 7301;

// target[i] += contribution[i]: the executor's and the libraries' reduction of a vector.
double timed_reduce(std::vector<float>& target, const std::vector<float>& contribution) {
    const double start = steady_seconds();
    for (std::size_t i = 0; i < target.size(); ++i) target[i] += contribution[i];
    return steady_seconds() - start;
}

// One repetition on the client: both vectors freshly written (as an application's data), `sent`
// sent to the partner, then both reduced, in the order `sent_first` says (alternated, so that
// neither pays the other's warm-up). Returns the extra seconds of the reduction into `sent`.
double client_rep(MPI_Comm comm, int partner, std::vector<float>& sent, std::vector<float>& kept,
                  const std::vector<float>& contribution, int rep, bool sent_first) {
    for (std::size_t i = 0; i < sent.size(); ++i) {
        sent[i] = static_cast<float>(rep) + static_cast<float>(i % 251);
        kept[i] = static_cast<float>(rep) - static_cast<float>(i % 241);
    }
    MPI_Send(sent.data(), static_cast<int>(sent.size()), MPI_FLOAT, partner, reclaim_tag, comm);
    double into_sent = 0, into_kept = 0;
    if (sent_first) {
        into_sent = timed_reduce(sent, contribution);
        into_kept = timed_reduce(kept, contribution);
    } else {
        into_kept = timed_reduce(kept, contribution);
        into_sent = timed_reduce(sent, contribution);
    }
    // The partner's next receive is posted only after this reply: the next send is not
    // read while the client still reduces.
    MPI_Recv(nullptr, 0, MPI_BYTE, partner, reclaim_tag, comm, MPI_STATUS_IGNORE);
    return into_sent - into_kept;
}

}  // namespace

void probe_reclaim(MPI_Comm comm, int rank, int client, int partner, const std::string& level,
                   const MeasureSettings& settings, std::vector<RawSample>& out) {
    if (rank != client && rank != partner) return;
    std::vector<std::size_t> sizes{std::size_t{64} << 10};
    const std::size_t largest = std::min(settings.max_bytes, std::size_t{1} << 20);
    if (largest > sizes.front()) sizes.push_back(largest);
    if (settings.max_bytes < sizes.front()) sizes = {settings.max_bytes};
    const int reps = settings.warmup + settings.min_reps;
    for (const std::size_t bytes : sizes) {
        const std::size_t elements = std::max<std::size_t>(bytes / sizeof(float), 1);
        if (rank == partner) {
            std::vector<float> received(elements);
            for (int rep = 0; rep < reps; ++rep) {
                MPI_Recv(received.data(), static_cast<int>(elements), MPI_FLOAT, client,
                         reclaim_tag, comm, MPI_STATUS_IGNORE);
                MPI_Send(nullptr, 0, MPI_BYTE, client, reclaim_tag, comm);
            }
            continue;
        }
        std::vector<float> sent(elements), kept(elements), contribution(elements, 0.5f);
        for (int rep = 0; rep < reps; ++rep) {
            const double extra =
                client_rep(comm, partner, sent, kept, contribution, rep, rep % 2 == 0);
            if (rep >= settings.warmup)
                out.push_back({level, SampleKind::reclaim, 1, 0, elements * sizeof(float),
                               rep - settings.warmup, extra});
        }
        // Keeps the reductions observable so that the optimizer cannot drop them.
        if (sent[elements / 2] < -1e30f) out.clear();
    }
}

}  // namespace piccolo::profiler
