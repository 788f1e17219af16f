// The distributed JobRunner (job_runner.hpp): one batch on one rank.
#include "job_runner.hpp"

#include <tbb/task_group.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "job_dispatch.hpp"
#include "piccolo/select/select.hpp"
#include "share_results.hpp"

namespace piccolo::mpi_sweep {

namespace {

constexpr int request_tag = 1, reply_tag = 2;
// How often a rank's talking thread looks for messages when nothing wakes it: a job takes
// milliseconds to minutes, so a millisecond's delay costs nothing, and polling less often than
// MPI's spinning leaves the cores to the jobs.
constexpr auto poll_period = std::chrono::milliseconds(1);

class BatchRun {
  public:
    BatchRun(MPI_Comm comm, int rank, int size, const JobBatch& batch, bool kill_after_first)
        : comm_(comm), rank_(rank), size_(size), batch_(batch), dispatch_(batch.estimates),
          kill_after_first_(kill_after_first) {}

    JobBatchStats run() {
        {
            std::jthread talker([this] { talk(); });
            tbb::task_group group;
            for (int t = 0; t < std::max(1, batch_.threads); ++t) group.run([this] { work(); });
            group.wait();
        }
        if (failure_) std::rethrow_exception(failure_);
        const std::uint64_t done = batch_.progress ? batch_.progress->done() : 0;
        share_results(comm_, batch_, results_, done - reported_);
        return stats_;
    }

  private:
    // A job thread: runs the jobs rank 0 hands this rank until there are none left.
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (failure_) return;
            if (granted_.empty()) {
                if (exhausted_) return;
                ++idle_;
                wake_.notify_all();
                wake_.wait(lock);
                --idle_;
                continue;
            }
            const std::size_t job = granted_.front();
            granted_.pop_front();
            held_ += batch_.estimates[job];
            stats_.peak_estimate = std::max(stats_.peak_estimate, held_);
            lock.unlock();
            std::string result;
            try {
                batch_.run(job);
                result = batch_.save(job);
            } catch (...) {
                lock.lock();
                if (!failure_) failure_ = std::current_exception();
                wake_.notify_all();
                return;
            }
            lock.lock();
            results_.emplace_back(job, std::move(result));
            held_ -= batch_.estimates[job];
            blocked_ = false;  // room again: ask anew
            wake_.notify_all();
            if (kill_after_first_) std::raise(SIGKILL);
        }
    }

    // The rank's talking thread: asks for a job whenever a job thread is idle and none is
    // waiting for it; on rank 0 it also answers the other ranks, until every rank was told that
    // no job is left.
    void talk() {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (failure_) return;
            if (rank_ == 0) answer_others();
            if (asking_) poll_reply();
            if (!asking_ && !exhausted_ && !blocked_ && idle_ > granted_.size()) ask();
            if (exhausted_ && (rank_ != 0 || told_no_more_ == size_ - 1)) return;
            wake_.wait_for(lock, poll_period);
        }
    }

    [[nodiscard]] std::uint64_t room() const {
        if (held_ == 0) return JobDispatch::any_size;
        return batch_.budget > held_ ? batch_.budget - held_ : 0;
    }

    void ask() {
        if (rank_ == 0) return take(dispatch_.next(room()));
        const std::uint64_t done = batch_.progress ? batch_.progress->done() : 0;
        request_ = {room(), done - reported_};
        reported_ = done;
        MPI_Send(request_.data(), 2, MPI_UINT64_T, 0, request_tag, comm_);
        MPI_Irecv(&reply_, 1, MPI_INT64_T, 0, reply_tag, comm_, &pending_);
        asking_ = true;
    }

    void poll_reply() {
        int arrived = 0;
        MPI_Test(&pending_, &arrived, MPI_STATUS_IGNORE);
        if (arrived == 0) return;
        asking_ = false;
        take(reply_);
    }

    void take(std::int64_t reply) {
        if (reply >= 0) {
            granted_.push_back(static_cast<std::size_t>(reply));
        } else if (reply == JobDispatch::none_fits) {
            blocked_ = true;  // until a job of this rank ends
            ++stats_.delayed;
        } else {
            exhausted_ = true;
        }
        wake_.notify_all();
    }

    // Rank 0: every request waiting, answered in the order they came.
    void answer_others() {
        for (;;) {
            int waiting = 0;
            MPI_Status status;
            MPI_Iprobe(MPI_ANY_SOURCE, request_tag, comm_, &waiting, &status);
            if (waiting == 0) return;
            std::array<std::uint64_t, 2> request{};
            MPI_Recv(request.data(), 2, MPI_UINT64_T, status.MPI_SOURCE, request_tag, comm_,
                     MPI_STATUS_IGNORE);
            if (batch_.progress) batch_.progress->add(request[1]);
            const std::int64_t reply = dispatch_.next(request[0]);
            if (reply == JobDispatch::no_more) ++told_no_more_;
            MPI_Send(&reply, 1, MPI_INT64_T, status.MPI_SOURCE, reply_tag, comm_);
        }
    }

    MPI_Comm comm_;
    int rank_, size_;
    const JobBatch& batch_;
    JobDispatch dispatch_;  // rank 0's
    bool kill_after_first_;

    std::mutex mutex_;  // guards everything below
    std::condition_variable wake_;
    std::deque<std::size_t> granted_;  // handed to this rank, not started
    std::uint64_t held_ = 0;           // estimates of this rank's running jobs
    std::size_t idle_ = 0;             // job threads waiting for a job
    bool asking_ = false;              // a request is out, its reply not in
    bool blocked_ = false;             // no job fits until one of this rank's ends
    bool exhausted_ = false;           // no job left for this rank
    int told_no_more_ = 0;             // rank 0: other ranks told so
    std::exception_ptr failure_;
    std::vector<JobResult> results_;
    std::uint64_t reported_ = 0;  // progress sent to rank 0 so far
    std::array<std::uint64_t, 2> request_{};
    std::int64_t reply_ = 0;
    MPI_Request pending_ = MPI_REQUEST_NULL;
    JobBatchStats stats_;
};

}  // namespace

MpiJobRunner::MpiJobRunner(MPI_Comm world) {
    MPI_Comm_dup(world, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    if (const char* victim = std::getenv("PICCOLO_MPI_TEST_KILL_RANK"))
        killed_after_first_job_ = std::atoi(victim) == rank_;
}

MpiJobRunner::~MpiJobRunner() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiJobRunner::check_same_batch(const JobBatch& batch) const {
    // The largest of each value and of its complement: equal everywhere only where all agree.
    std::uint64_t digest = 1469598103934665603ULL;  // FNV-1a over the estimates
    for (const std::uint64_t e : batch.estimates) digest = (digest ^ e) * 1099511628211ULL;
    const std::uint64_t jobs = batch.estimates.size();
    std::array<std::uint64_t, 4> mine{jobs, digest, ~jobs, ~digest}, most{};
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Iallreduce(mine.data(), most.data(), 4, MPI_UINT64_T, MPI_MAX, comm_, &request);
    wait_quietly(request);
    if (most[0] != ~most[2] || most[1] != ~most[3])
        throw std::runtime_error(
            "the ranks drew up different rosters: their memory budgets left out different "
            "candidates (give every rank the same --memory-budget)");
}

JobBatchStats MpiJobRunner::run(const JobBatch& batch) {
    check_same_batch(batch);
    return BatchRun(comm_, rank_, size_, batch, killed_after_first_job_).run();
}

}  // namespace piccolo::mpi_sweep
