// The exchange of a batch's results (share_results.hpp).
#include "share_results.hpp"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "piccolo/select/select.hpp"

namespace piccolo::mpi_sweep {

namespace {

void put(std::string& out, std::uint64_t value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::uint64_t get(std::string_view& in) {
    std::uint64_t value = 0;
    if (in.size() < sizeof value) throw std::runtime_error("a rank's results are cut short");
    std::memcpy(&value, in.data(), sizeof value);
    in.remove_prefix(sizeof value);
    return value;
}

// [unreported progress][count]{[job][bytes][result]}...
std::string pack(const std::vector<JobResult>& mine, std::uint64_t unreported) {
    std::string out;
    put(out, unreported);
    put(out, mine.size());
    for (const auto& [job, bytes] : mine) {
        put(out, job);
        put(out, bytes.size());
        out += bytes;
    }
    return out;
}

// Loads one other rank's results; returns its unreported progress.
std::uint64_t unpack(std::string_view in, const JobBatch& batch, std::vector<char>& seen) {
    const std::uint64_t unreported = get(in);
    const std::uint64_t count = get(in);
    for (std::uint64_t r = 0; r < count; ++r) {
        const std::uint64_t job = get(in), size = get(in);
        if (job >= seen.size() || seen[job] != 0 || size > in.size())
            throw std::runtime_error(fmt::format("job {} of the batch came twice or garbled", job));
        seen[job] = 1;
        batch.load(job, in.substr(0, size));
        in.remove_prefix(size);
    }
    return unreported;
}

}  // namespace

void wait_quietly(MPI_Request& request) {
    for (;;) {
        int done = 0;
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done != 0) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void share_results(MPI_Comm comm, const JobBatch& batch, const std::vector<JobResult>& mine,
                   std::uint64_t unreported) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Request arrived = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &arrived);
    wait_quietly(arrived);  // the others may still be running jobs: no core taken from them

    const std::string packed = pack(mine, unreported);
    if (packed.size() > static_cast<std::size_t>(INT32_MAX))
        throw std::runtime_error("a rank's results exceed 2 GiB");
    const int length = static_cast<int>(packed.size());
    std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(lengths.size(), 0);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
    std::size_t total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        if (total > static_cast<std::size_t>(INT32_MAX))
            throw std::runtime_error("the ranks' results exceed 2 GiB");
        offsets[r] = static_cast<int>(total);
        total += static_cast<std::size_t>(lengths[r]);
    }
    std::string all(total, '\0');
    MPI_Allgatherv(packed.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                   MPI_CHAR, comm);

    std::vector<char> seen(batch.estimates.size(), 0);
    for (const JobResult& result : mine) seen[result.first] = 1;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        if (static_cast<int>(r) == rank) continue;
        const std::string_view theirs(all.data() + offsets[r], static_cast<std::size_t>(lengths[r]));
        const std::uint64_t work = unpack(theirs, batch, seen);
        if (rank == 0 && batch.progress) batch.progress->add(work);
    }
    for (std::size_t job = 0; job < seen.size(); ++job)
        if (seen[job] == 0)
            throw std::runtime_error(fmt::format("job {} of the batch ran on no rank", job));
}

}  // namespace piccolo::mpi_sweep
