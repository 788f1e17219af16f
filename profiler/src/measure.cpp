#include "piccolo/profiler/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <set>

#include "piccolo/profiler/stats.hpp"

namespace piccolo::profiler {
namespace {

enum class Request { finish = 0, prtt = 1, receive_overhead = 2, radix = 3 };

// One request to the partner: `reps` repetitions of one pattern.
struct Command {
    Request request = Request::finish;
    int n = 1;
    double delay = 0;
    std::size_t bytes = 1;
    int reps = 0;
};

constexpr std::size_t command_words = 5;

std::array<double, command_words> encode(const Command& c) {
    // Doubles hold every integer below 2^53 exactly, so one word type is enough.
    return {static_cast<double>(c.request), static_cast<double>(c.n), c.delay,
            static_cast<double>(c.bytes), static_cast<double>(c.reps)};
}

Command decode(const std::array<double, command_words>& w) {
    return {static_cast<Request>(static_cast<int>(w[0])), static_cast<int>(w[1]), w[2],
            static_cast<std::size_t>(w[3]), static_cast<int>(w[4])};
}

constexpr std::size_t ack_bytes = 1;

// Outside the timed region both sides write the data they will send (Transport::produce); the
// partner then says it is ready, so that its writing never delays the client's timed sends.
double client_repetition(Transport& t, int peer, const Command& c) {
    std::array<double, 1> ready{};
    switch (c.request) {
        case Request::prtt:
            t.produce(c.bytes, c.n);
            t.recv_control(peer, ready);
            t.start_timer();
            t.send(peer, c.bytes, 0);
            for (int i = 1; i < c.n; ++i) {
                if (c.delay > 0) t.busy_wait(c.delay);
                t.send(peer, c.bytes, i);
            }
            t.recv(peer, c.bytes);
            return t.stop_timer();
        case Request::receive_overhead:
            // The client is the receiver here: it asks for a message, waits long enough for it
            // to have arrived, and times only the receive call.
            t.recv_control(peer, ready);
            t.send(peer, ack_bytes, 0);
            t.busy_wait(c.delay);
            t.start_timer();
            t.recv(peer, c.bytes);
            return t.stop_timer();
        case Request::radix:
            t.produce(c.bytes, c.n);
            t.start_timer();
            t.send_concurrent(peer, c.bytes, c.n);
            t.recv(peer, ack_bytes);
            return t.stop_timer();
        case Request::finish:
            break;
    }
    return 0;
}

void partner_repetition(Transport& t, int client, const Command& c) {
    constexpr std::array<double, 1> ready{1};
    switch (c.request) {
        case Request::prtt:
            t.produce(c.bytes, 1);
            t.send_control(client, ready);
            for (int i = 0; i < c.n; ++i) t.recv(client, c.bytes);
            t.send(client, c.bytes, 0);
            return;
        case Request::receive_overhead:
            t.produce(c.bytes, 1);
            t.send_control(client, ready);
            t.recv(client, ack_bytes);
            t.send(client, c.bytes, 0);
            return;
        case Request::radix:
            t.recv_concurrent(client, c.bytes, c.n);
            t.send(client, ack_bytes, 0);
            return;
        case Request::finish:
            return;
    }
}

// Repeats one pattern in batches until the median is precise enough (stopping rule on the
// confidence interval), the repetition cap is reached or the time budget is spent.
std::vector<double> run_series(Transport& t, int peer, Command command,
                               const MeasureSettings& settings) {
    std::vector<double> samples;
    int to_discard = settings.warmup;
    const auto start = std::chrono::steady_clock::now();
    const auto max_reps = static_cast<std::size_t>(std::max(settings.max_reps, 1));
    const auto min_reps = static_cast<std::size_t>(std::max(settings.min_reps, 1));
    while (samples.size() < max_reps) {
        command.reps = std::max(settings.batch, 1) + to_discard;
        const auto words = encode(command);
        t.send_control(peer, words);
        for (int r = 0; r < command.reps; ++r) {
            const double seconds = client_repetition(t, peer, command);
            if (to_discard > 0) {
                --to_discard;
            } else {
                samples.push_back(seconds);
            }
        }
        if (samples.size() < min_reps) continue;
        if (summarize(samples).relative_ci_half_width() <= settings.target_ci) break;
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        if (elapsed.count() > settings.series_budget_s) break;
    }
    return samples;
}

void record(const std::vector<double>& samples, const std::string& level, SampleKind kind,
            const Command& command, std::vector<RawSample>& out) {
    int rep = 0;
    for (double seconds : samples) {
        out.push_back({level, kind, command.n, command.delay, command.bytes, rep++, seconds});
    }
}

LiveSizePoint measure_size(Transport& t, int peer, const MeasureSettings& settings,
                           const std::string& level, std::size_t bytes, std::vector<RawSample>& out,
                           const ProgressLog& log) {
    LiveSizePoint point;
    point.bytes = bytes;
    std::size_t reps = 0;
    auto series = [&](Request request, int n, double delay, SampleKind kind) {
        const Command command{request, n, delay, bytes, 0};
        const auto samples = run_series(t, peer, command, settings);
        record(samples, level, kind, command, out);
        reps += samples.size();
        return summarize(samples).median;
    };
    const int n = std::max(settings.train_length, 2);
    point.prtt1 = series(Request::prtt, 1, 0, SampleKind::prtt);
    point.prtt_n = series(Request::prtt, n, 0, SampleKind::prtt);
    // d = PRTT(1,0,s) (Hoefler et al.): long enough that the sender, not the network, sets
    // the pace of the train, so the extra time per message is o_s + d.
    point.prtt_nd = series(Request::prtt, n, point.prtt1, SampleKind::prtt);
    // Waiting a full round trip guarantees the requested message has arrived before the
    // receive call is timed.
    point.o_r = series(Request::receive_overhead, 1, 2 * point.prtt1, SampleKind::o_r);
    if (log) {
        log(fmt::format(
            "{:>8} {:>9} B: PRTT(1,0,s) {:9.3f} us  gap {:9.3f} us  o_s {:8.3f} us  "
            "o_r {:8.3f} us  ({} samples)",
            level, bytes, point.prtt1 * 1e6, (point.prtt_n - point.prtt1) / (n - 1) * 1e6,
            ((point.prtt_nd - point.prtt1) / (n - 1) - point.prtt1) * 1e6, point.o_r * 1e6, reps));
    }
    return point;
}

}  // namespace

MeasureSettings MeasureSettings::quick() {
    MeasureSettings s;
    s.max_bytes = std::size_t{1} << 20;
    s.grid_factor = 4;
    s.refine_rounds = 1;
    s.train_length = 8;
    s.warmup = 1;
    s.batch = 5;
    s.min_reps = 10;
    s.max_reps = 40;
    s.target_ci = 0.05;
    s.series_budget_s = 0.3;
    s.radix_concurrency = {1, 2, 4, 8};
    s.radix_bytes = std::size_t{256} << 10;
    return s;
}

std::vector<std::size_t> geometric_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                         double factor) {
    min_bytes = std::max<std::size_t>(min_bytes, 1);
    std::vector<std::size_t> sizes;
    std::size_t s = min_bytes;
    while (s < max_bytes) {
        sizes.push_back(s);
        const auto next = static_cast<std::size_t>(std::llround(static_cast<double>(s) * factor));
        s = std::max(s + 1, next);
    }
    sizes.push_back(std::max(max_bytes, min_bytes));
    return sizes;
}

std::vector<std::size_t> refinement_sizes(const std::vector<std::size_t>& sizes,
                                          const std::vector<double>& values, double tolerance) {
    std::set<std::size_t> added;
    const std::set<std::size_t> present(sizes.begin(), sizes.end());
    auto add_midpoint = [&](std::size_t a, std::size_t b) {
        const auto mid = static_cast<std::size_t>(
            std::llround(std::sqrt(static_cast<double>(a) * static_cast<double>(b))));
        if (mid > a && mid < b && !present.contains(mid)) added.insert(mid);
    };
    for (std::size_t i = 1; i + 1 < sizes.size() && i + 1 < values.size(); ++i) {
        const auto x0 = static_cast<double>(sizes[i - 1]);
        const auto x1 = static_cast<double>(sizes[i]);
        const auto x2 = static_cast<double>(sizes[i + 1]);
        const double chord =
            values[i - 1] + (values[i + 1] - values[i - 1]) * (x1 - x0) / (x2 - x0);
        if (std::abs(values[i] - chord) > tolerance * std::abs(values[i])) {
            add_midpoint(sizes[i - 1], sizes[i]);
            add_midpoint(sizes[i], sizes[i + 1]);
        }
    }
    return {added.begin(), added.end()};
}

std::vector<LiveSizePoint> measure_loggp(Transport& transport, int peer,
                                         const MeasureSettings& settings, const std::string& level,
                                         std::vector<RawSample>& out, const ProgressLog& log) {
    std::vector<LiveSizePoint> points;
    for (std::size_t bytes :
         geometric_sizes(settings.min_bytes, settings.max_bytes, settings.grid_factor)) {
        points.push_back(measure_size(transport, peer, settings, level, bytes, out, log));
    }
    const int n = std::max(settings.train_length, 2);
    for (int round = 0; round < settings.refine_rounds; ++round) {
        std::vector<std::size_t> sizes;
        std::vector<double> round_trip, gap;
        for (const auto& p : points) {
            sizes.push_back(p.bytes);
            round_trip.push_back(p.prtt1);
            gap.push_back((p.prtt_n - p.prtt1) / (n - 1));
        }
        std::set<std::size_t> extra;
        for (std::size_t s : refinement_sizes(sizes, round_trip, settings.bend_tolerance)) {
            extra.insert(s);
        }
        for (std::size_t s : refinement_sizes(sizes, gap, settings.bend_tolerance)) {
            extra.insert(s);
        }
        if (extra.empty()) break;
        if (log)
            log(fmt::format("{:>8}: refining around bends: {} more sizes", level, extra.size()));
        for (std::size_t bytes : extra) {
            points.push_back(measure_size(transport, peer, settings, level, bytes, out, log));
        }
        std::sort(points.begin(), points.end(),
                  [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    }
    return points;
}

void measure_radix(Transport& transport, int peer, const MeasureSettings& settings,
                   const std::string& scope, std::vector<RawSample>& out, const ProgressLog& log) {
    for (int c : settings.radix_concurrency) {
        const Command command{Request::radix, c, 0, settings.radix_bytes, 0};
        const auto samples = run_series(transport, peer, command, settings);
        record(samples, scope, SampleKind::radix, command, out);
        if (log) {
            const double seconds = summarize(samples).median;
            log(fmt::format("{:>8} radix probe: {:2} in flight x {} B: {:8.3f} GB/s", scope, c,
                            settings.radix_bytes,
                            static_cast<double>(c) * static_cast<double>(settings.radix_bytes) /
                                seconds / 1e9));
        }
    }
}

void serve(Transport& transport, int client) {
    while (true) {
        std::array<double, command_words> words{};
        transport.recv_control(client, words);
        const Command command = decode(words);
        if (command.request == Request::finish) return;
        for (int r = 0; r < command.reps; ++r) partner_repetition(transport, client, command);
    }
}

void finish_serving(Transport& transport, int partner) {
    const auto words = encode(Command{});
    transport.send_control(partner, words);
}

}  // namespace piccolo::profiler
