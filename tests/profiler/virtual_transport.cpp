#include "virtual_transport.hpp"

#include <algorithm>
#include <stdexcept>

namespace piccolo::profiler::testing {

VirtualLink::VirtualLink(VirtualLinkParameters parameters) : parameters_(parameters) {
    endpoints_.push_back(std::make_unique<VirtualEndpoint>(*this, 0));
    endpoints_.push_back(std::make_unique<VirtualEndpoint>(*this, 1));
}

void VirtualLink::post(int to, bool control, Message message) {
    {
        const std::lock_guard lock(mutex_);
        queues_[to][control ? 1 : 0].push_back(std::move(message));
    }
    changed_.notify_all();
}

VirtualLink::Message VirtualLink::take(int at, bool control) {
    std::unique_lock lock(mutex_);
    auto& queue = queues_[at][control ? 1 : 0];
    changed_.wait(lock, [&] { return !queue.empty(); });
    Message message = std::move(queue.front());
    queue.pop_front();
    return message;
}

VirtualEndpoint::VirtualEndpoint(VirtualLink& link, int self)
    : link_(link),
      self_(self),
      send_slot_free_(static_cast<std::size_t>(link.parameters().slots), 0.0),
      recv_slot_free_(static_cast<std::size_t>(link.parameters().slots), 0.0) {}

double VirtualEndpoint::inject(std::size_t bytes) {
    const LogGP& p = link_.parameters().loggp;
    const double wire = static_cast<double>(bytes - 1) * p.G;
    // DESIGN.md: start at max(ready, free send slot); the slot stays busy max(o_s, g) + (m-1)G;
    // the last byte arrives o_s + (m-1)G + L after the start. The CPU is busy for o_s.
    auto slot = std::min_element(send_slot_free_.begin(), send_slot_free_.end());
    const double start = std::max(clock_, *slot);
    *slot = start + std::max(p.o_s, p.g) + wire;
    clock_ = start + p.o_s;
    return start + p.o_s + wire + p.L;
}

void VirtualEndpoint::send(int peer, std::size_t bytes, int /*message*/) {
    link_.post(peer, false, {bytes, inject(bytes), {}});
}

void VirtualEndpoint::recv(int /*peer*/, std::size_t bytes) {
    const auto message = link_.take(self_, false);
    if (message.bytes != bytes) throw std::logic_error("virtual link: size mismatch");
    // Completion o_r after the arrival, or after the call if the data was there already.
    clock_ = std::max(clock_, message.arrival) + link_.parameters().loggp.o_r;
}

void VirtualEndpoint::send_concurrent(int peer, std::size_t bytes, int count) {
    for (int i = 0; i < count; ++i) send(peer, bytes, i);
}

void VirtualEndpoint::recv_concurrent(int /*peer*/, std::size_t bytes, int count) {
    // Each reception holds one receive slot for (m-1)G from its first byte's arrival, then
    // costs o_r of CPU time; with more arrivals than slots the extra ones wait for a slot.
    const LogGP& p = link_.parameters().loggp;
    const double wire = static_cast<double>(bytes - 1) * p.G;
    for (int i = 0; i < count; ++i) {
        const auto message = link_.take(self_, false);
        if (message.bytes != bytes) throw std::logic_error("virtual link: size mismatch");
        auto slot = std::min_element(recv_slot_free_.begin(), recv_slot_free_.end());
        const double first_byte = message.arrival - wire;
        const double done = std::max(first_byte, *slot) + wire;
        *slot = done;
        clock_ = std::max(clock_, done) + p.o_r;
    }
}

// The link has independent directions: the send is injected first (the CPU pays o_s), then the
// peer's message is received as by recv().
void VirtualEndpoint::exchange(int peer, std::size_t bytes) {
    send(peer, bytes, 0);
    recv(peer, bytes);
}

void VirtualEndpoint::send_control(int peer, std::span<const double> words) {
    link_.post(peer, true, {0, clock_, {words.begin(), words.end()}});
}

void VirtualEndpoint::recv_control(int /*peer*/, std::span<double> words) {
    const auto message = link_.take(self_, true);
    std::copy_n(message.words.begin(), std::min(words.size(), message.words.size()), words.begin());
    clock_ = std::max(clock_, message.arrival);
}

}  // namespace piccolo::profiler::testing
