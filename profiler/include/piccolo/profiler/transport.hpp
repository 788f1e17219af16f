#pragma once
// What the PRTT measurement needs from a communication library: blocking transfers of s bytes
// with one peer, several transfers in flight at once, data written before it is sent, a
// busy-wait, a timer, and a small control channel used only outside timed regions. The MPI and NCCL transports implement it; the tests
// use a simulated one with a virtual clock.

#include <cstddef>
#include <span>

namespace piccolo::profiler {

class Transport {
  public:
    virtual ~Transport() = default;

    // Writes `messages` messages of `bytes` each into distinct regions of the send buffer, as an
    // application computes the data it is about to send (and as piccolo-run-mpi writes its
    // buffers before every run): the data then sits in the writer's cache, modified, which is
    // what a collective's transfers read. Data sent again untouched is served from a clean copy;
    // on a 2-core VM a 1 MiB message of fresh data took 1.45x as long (profiler/README.md).
    // Never called inside a timed region.
    virtual void produce(std::size_t bytes, int messages) = 0;

    // Sends message number `message` of those produced (region message * bytes); returns when
    // the send buffer may be reused (MPI_Send semantics).
    virtual void send(int peer, std::size_t bytes, int message) = 0;
    // Returns when the data is usable.
    virtual void recv(int peer, std::size_t bytes) = 0;
    // `count` transfers of `bytes` each (messages 0 .. count-1), all posted before any is waited
    // for; returns when all have completed. Used by the radix probes.
    virtual void send_concurrent(int peer, std::size_t bytes, int count) = 0;
    virtual void recv_concurrent(int peer, std::size_t bytes, int count) = 0;
    // Sends message 0 of `bytes` to `peer` and receives `bytes` from it at the same time (both
    // posted before either is waited for); returns when both have completed. Both sides call it.
    // Used by the concurrent node probe: two transfers in flight between one pair.
    virtual void exchange(int peer, std::size_t bytes) = 0;

    // Keeps the caller busy (no sleeping: a sleeping process would be descheduled, which is
    // not the LogGP "delay d" of the PRTT method).
    virtual void busy_wait(double seconds) = 0;

    // Time from start_timer() to stop_timer(), in seconds, covering every operation issued in
    // between until it completed. The measuring side calls them; the partner never does.
    virtual void start_timer() = 0;
    virtual double stop_timer() = 0;

    // Control words (commands, sizes) exchanged between measurements, never while timing.
    virtual void send_control(int peer, std::span<const double> words) = 0;
    virtual void recv_control(int peer, std::span<double> words) = 0;
};

}  // namespace piccolo::profiler
