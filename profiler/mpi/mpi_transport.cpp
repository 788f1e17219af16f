#include "mpi_transport.hpp"

#include <chrono>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace piccolo::profiler {
namespace {

constexpr int data_tag = 1;
constexpr int control_tag = 2;

int checked_count(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(INT_MAX)) {
        throw std::length_error("message of " + std::to_string(bytes) +
                                " bytes exceeds MPI's int count");
    }
    return static_cast<int>(bytes);
}

}  // namespace

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void spin_for(double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
    }
}

MpiTransport::MpiTransport(MPI_Comm comm, std::size_t capacity) : comm_(comm) {
    reserve(capacity);
}

void MpiTransport::reserve(std::size_t bytes) {
    // resize() value-initializes, i.e. writes every page now rather than inside a timed region.
    if (send_buffer_.size() < bytes) send_buffer_.resize(bytes, 1);
    if (recv_buffer_.size() < bytes) recv_buffer_.resize(bytes, 0);
}

void MpiTransport::produce(std::size_t bytes, int messages) {
    const std::size_t total = bytes * static_cast<std::size_t>(messages);
    reserve(total);
    std::memset(send_buffer_.data(), ++generation_, total);
}

void MpiTransport::send(int peer, std::size_t bytes, int message) {
    const std::size_t offset = bytes * static_cast<std::size_t>(message);
    reserve(offset + bytes);
    MPI_Send(send_buffer_.data() + offset, checked_count(bytes), MPI_BYTE, peer, data_tag, comm_);
}

void MpiTransport::recv(int peer, std::size_t bytes) {
    reserve(bytes);
    MPI_Recv(recv_buffer_.data(), checked_count(bytes), MPI_BYTE, peer, data_tag, comm_,
             MPI_STATUS_IGNORE);
}

void MpiTransport::send_concurrent(int peer, std::size_t bytes, int count) {
    reserve(bytes * static_cast<std::size_t>(count));
    requests_.assign(static_cast<std::size_t>(count), MPI_REQUEST_NULL);
    // Distinct buffer regions: the transfers must not share memory to be truly independent.
    for (int i = 0; i < count; ++i) {
        MPI_Isend(send_buffer_.data() + static_cast<std::size_t>(i) * bytes, checked_count(bytes),
                  MPI_BYTE, peer, data_tag, comm_, &requests_[static_cast<std::size_t>(i)]);
    }
    MPI_Waitall(count, requests_.data(), MPI_STATUSES_IGNORE);
}

void MpiTransport::recv_concurrent(int peer, std::size_t bytes, int count) {
    reserve(bytes * static_cast<std::size_t>(count));
    requests_.assign(static_cast<std::size_t>(count), MPI_REQUEST_NULL);
    for (int i = 0; i < count; ++i) {
        MPI_Irecv(recv_buffer_.data() + static_cast<std::size_t>(i) * bytes, checked_count(bytes),
                  MPI_BYTE, peer, data_tag, comm_, &requests_[static_cast<std::size_t>(i)]);
    }
    MPI_Waitall(count, requests_.data(), MPI_STATUSES_IGNORE);
}

void MpiTransport::exchange(int peer, std::size_t bytes) {
    reserve(bytes);
    requests_.assign(2, MPI_REQUEST_NULL);
    // Receive posted first, so that the peer's send finds it waiting (no unexpected-message copy).
    MPI_Irecv(recv_buffer_.data(), checked_count(bytes), MPI_BYTE, peer, data_tag, comm_,
              &requests_[0]);
    MPI_Isend(send_buffer_.data(), checked_count(bytes), MPI_BYTE, peer, data_tag, comm_,
              &requests_[1]);
    MPI_Waitall(2, requests_.data(), MPI_STATUSES_IGNORE);
}

void MpiTransport::busy_wait(double seconds) {
    spin_for(seconds);
}

void MpiTransport::start_timer() {
    timer_start_ = steady_seconds();
}

double MpiTransport::stop_timer() {
    return steady_seconds() - timer_start_;
}

void MpiTransport::send_control(int peer, std::span<const double> words) {
    MPI_Send(words.data(), static_cast<int>(words.size()), MPI_DOUBLE, peer, control_tag, comm_);
}

void MpiTransport::recv_control(int peer, std::span<double> words) {
    MPI_Recv(words.data(), static_cast<int>(words.size()), MPI_DOUBLE, peer, control_tag, comm_,
             MPI_STATUS_IGNORE);
}

}  // namespace piccolo::profiler
