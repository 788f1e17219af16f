// A job's result as bytes, and back (select_job_result.hpp).
#include "select_job_result.hpp"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace piccolo::detail {

namespace {

class Writer {
  public:
    template <typename T>
    void put(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
    }
    void put(const std::string& text) {
        put(static_cast<std::uint64_t>(text.size()));
        bytes_ += text;
    }
    std::string take() { return std::move(bytes_); }

  private:
    std::string bytes_;
};

class Reader {
  public:
    explicit Reader(std::string_view bytes) : bytes_(bytes) {}
    template <typename T>
    void get(T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(&value, take(sizeof value).data(), sizeof value);
    }
    void get(std::string& text) {
        std::uint64_t size = 0;
        get(size);
        text = std::string(take(size));
    }
    [[nodiscard]] bool at_end() const { return bytes_.empty(); }

  private:
    std::string_view take(std::size_t n) {
        if (n > bytes_.size()) throw std::runtime_error("a job's result is cut short");
        const std::string_view head = bytes_.substr(0, n);
        bytes_.remove_prefix(n);
        return head;
    }
    std::string_view bytes_;
};

// The job's [scale][size] slots of a per-point array: contiguous (Sweep::time_index).
std::size_t first_slot(const Sweep& sweep, std::size_t u) {
    return sweep.time_index(u, 0, 0);
}
std::size_t slot_count(const Sweep& sweep) {
    return sweep.scales.size() * sweep.sizes.size();
}

}  // namespace

std::string save_job_result(const Sweep& sweep, const Job& job, std::size_t u,
                            std::span<const double> prebounds) {
    Writer out;
    out.put(job.error);
    out.put(job.hash);
    out.put(job.hashed);
    out.put(job.bounded_runs);
    out.put(job.bounded_work);
    out.put(job.stopped_runs);
    out.put(job.generate_seconds);
    out.put(job.bound_seconds);
    out.put(job.simulate_seconds);
    out.put(sweep.rounds[u]);
    const std::size_t first = first_slot(sweep, u), count = slot_count(sweep);
    for (std::size_t i = 0; i < count; ++i) {
        out.put(sweep.times[first + i]);
        out.put(sweep.bounds[first + i]);
        if (!prebounds.empty()) out.put(prebounds[first + i]);
    }
    return out.take();
}

void load_job_result(Sweep& sweep, Job& job, std::size_t u, std::span<double> prebounds,
                     std::string_view bytes) {
    Reader in(bytes);
    in.get(job.error);
    in.get(job.hash);
    in.get(job.hashed);
    in.get(job.bounded_runs);
    in.get(job.bounded_work);
    in.get(job.stopped_runs);
    in.get(job.generate_seconds);
    in.get(job.bound_seconds);
    in.get(job.simulate_seconds);
    in.get(sweep.rounds[u]);
    const std::size_t first = first_slot(sweep, u), count = slot_count(sweep);
    for (std::size_t i = 0; i < count; ++i) {
        in.get(sweep.times[first + i]);
        in.get(sweep.bounds[first + i]);
        if (!prebounds.empty()) in.get(prebounds[first + i]);
    }
    if (!in.at_end()) throw std::runtime_error("a job's result is longer than this sweep's");
}

}  // namespace piccolo::detail
