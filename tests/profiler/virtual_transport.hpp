#pragma once
// Two Transport endpoints joined by an in-memory link that prices every operation with the
// LogGP semantics of DESIGN.md on per-endpoint virtual clocks: the PRTT measurement run over it
// is exact and deterministic (whatever the thread scheduling), so the fit must return the
// parameters the link was built with.

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "piccolo/profiler/transport.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::profiler::testing {

struct VirtualLinkParameters {
    LogGP loggp;
    int slots = 1;  // concurrent transfers per endpoint and direction (the device radix)
};

class VirtualLink;

class VirtualEndpoint final : public Transport {
  public:
    VirtualEndpoint(VirtualLink& link, int self);

    // The virtual link has no caches: written data costs what any data costs.
    void produce(std::size_t /*bytes*/, int /*messages*/) override {}
    void send(int peer, std::size_t bytes, int message) override;
    void recv(int peer, std::size_t bytes) override;
    void send_concurrent(int peer, std::size_t bytes, int count) override;
    void recv_concurrent(int peer, std::size_t bytes, int count) override;
    void exchange(int peer, std::size_t bytes) override;
    void busy_wait(double seconds) override { clock_ += seconds; }
    void start_timer() override { timer_start_ = clock_; }
    double stop_timer() override { return clock_ - timer_start_; }
    void send_control(int peer, std::span<const double> words) override;
    void recv_control(int peer, std::span<double> words) override;

  private:
    double inject(std::size_t bytes);  // returns the arrival time of the last byte

    VirtualLink& link_;
    int self_;
    double clock_ = 0;
    double timer_start_ = 0;
    std::vector<double> send_slot_free_;
    std::vector<double> recv_slot_free_;
};

class VirtualLink {
  public:
    explicit VirtualLink(VirtualLinkParameters parameters);
    VirtualEndpoint& endpoint(int index) { return *endpoints_[static_cast<std::size_t>(index)]; }
    [[nodiscard]] const VirtualLinkParameters& parameters() const { return parameters_; }

  private:
    friend class VirtualEndpoint;
    struct Message {
        std::size_t bytes = 0;
        double arrival = 0;  // data: last byte at the receiver; control: sender's clock
        std::vector<double> words;
    };
    void post(int to, bool control, Message message);
    Message take(int at, bool control);

    VirtualLinkParameters parameters_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Message> queues_[2][2];  // [receiver][control?]
    std::vector<std::unique_ptr<VirtualEndpoint>> endpoints_;
};

}  // namespace piccolo::profiler::testing
