#pragma once
// Transport over MPI point-to-point calls (blocking MPI_Send / MPI_Recv, MPI_Isend / MPI_Irecv
// for transfers in flight together) timed with the steady clock.

#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include "piccolo/profiler/transport.hpp"

namespace piccolo::profiler {

class MpiTransport final : public Transport {
  public:
    // `capacity`: the largest number of bytes in flight at once; buffers are allocated and
    // touched up front so that page faults never land in a timed region.
    MpiTransport(MPI_Comm comm, std::size_t capacity);

    void produce(std::size_t bytes, int messages) override;
    void send(int peer, std::size_t bytes, int message) override;
    void recv(int peer, std::size_t bytes) override;
    void send_concurrent(int peer, std::size_t bytes, int count) override;
    void recv_concurrent(int peer, std::size_t bytes, int count) override;
    void exchange(int peer, std::size_t bytes) override;
    void busy_wait(double seconds) override;
    void start_timer() override;
    double stop_timer() override;
    void send_control(int peer, std::span<const double> words) override;
    void recv_control(int peer, std::span<double> words) override;

  private:
    void reserve(std::size_t bytes);

    MPI_Comm comm_;
    std::vector<unsigned char> send_buffer_;
    std::vector<unsigned char> recv_buffer_;
    std::vector<MPI_Request> requests_;
    double timer_start_ = 0;
    unsigned char generation_ = 1;  // each produce() writes new values, so every store is real
};

// Seconds on the steady clock (monotonic, ns resolution on Linux).
double steady_seconds();

// Spins until `seconds` have passed on the steady clock.
void spin_for(double seconds);

}  // namespace piccolo::profiler
