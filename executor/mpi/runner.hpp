#pragma once
// Runs a RankPlan over MPI point-to-point: every receive is posted at the start (each lands in a
// place nothing else touches before it arrives), and a send or compute starts as soon as the
// local events it waits for have happened, in a progress loop around MPI_Waitsome.

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "piccolo/executor/plan.hpp"

namespace piccolo::exec {

// The requests in flight and the op each belongs to. Whatever is still pending when it goes out
// of scope (an exception mid-run) is cancelled and freed.
class RequestList {
  public:
    RequestList() = default;
    RequestList(const RequestList&) = delete;
    RequestList& operator=(const RequestList&) = delete;
    ~RequestList();

    MPI_Request* add(std::uint32_t op);
    // Waits until at least one request completes; appends the ops that completed to `done`.
    void wait_some(std::vector<std::uint32_t>& done);
    [[nodiscard]] bool empty() const { return requests_.empty(); }

  private:
    std::vector<MPI_Request> requests_;
    std::vector<std::uint32_t> owner_;
    std::vector<int> indices_;
};

class MpiRunner {
  public:
    // Throws InputError if a message is larger than one MPI call can count (2^31 - 1 bytes).
    MpiRunner(const RankPlan& plan, MPI_Comm comm);
    // Executes the plan once on `arena` (plan.arena_bytes long); returns when every local op has
    // completed.
    void run(std::span<std::byte> arena);

  private:
    void start(std::uint32_t op, std::span<std::byte> arena);
    void complete(std::uint32_t op);

    const RankPlan& plan_;
    MPI_Comm comm_;
    RequestList requests_;  // reused, so that a timed run allocates nothing
    std::vector<std::uint32_t> waits_;
    std::vector<std::uint32_t> ready_;
    std::vector<std::uint32_t> done_;
    std::size_t left_ = 0;
};

}  // namespace piccolo::exec
