// The table `piccolo select` prints: one per collective and scale, one row per message size.
#include <fmt/format.h>
#include <algorithm>
#include <map>
#include <utility>

#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo {

namespace {

using detail::choice_label;
using detail::size_label;
using detail::time_label;

struct Column {
    explicit Column(std::string title, bool align_right = true)
        : header(std::move(title)), right(align_right) {}
    std::string header;
    bool right = true;
    std::vector<std::string> cells;
    [[nodiscard]] std::size_t width() const {
        std::size_t w = header.size();
        for (const std::string& c : cells) w = std::max(w, c.size());
        return w;
    }
};

void print_columns(std::string& out, const std::vector<Column>& columns) {
    std::vector<std::size_t> widths;
    for (const Column& c : columns) widths.push_back(c.width());
    auto row = [&](auto cell) {
        std::string line;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const std::string text = cell(i);
            if (i) line += "  ";
            line += columns[i].right ? fmt::format("{:>{}}", text, widths[i])
                                     : fmt::format("{:<{}}", text, widths[i]);
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    };
    row([&](std::size_t i) { return columns[i].header; });
    for (std::size_t r = 0; r < columns.front().cells.size(); ++r)
        row([&](std::size_t i) { return columns[i].cells[r]; });
}

// "8 B-128 B" style ranges of the sizes at which `skipped` holds.
std::string size_ranges(const std::vector<std::uint64_t>& sizes, const std::vector<bool>& hit) {
    std::string out;
    for (std::size_t i = 0; i < sizes.size();) {
        if (!hit[i]) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < sizes.size() && hit[j + 1]) ++j;
        if (!out.empty()) out += ", ";
        out += i == j ? size_label(sizes[i])
                      : fmt::format("{}-{}", size_label(sizes[i]), size_label(sizes[j]));
        i = j + 1;
    }
    return out;
}

void emit_one(std::string& out, const SelectResult& result, std::size_t c, std::size_t s,
              bool& any_same_schedule) {
    const PointSelection& first = result.at(c, s, 0);
    out += fmt::format(
        "{} on {}: {} ({}; {} style; {})\n", to_string(first.collective), result.machine,
        detail::scale_label(first.scale), fmt::format("size = {}", selection_size_meaning(first.collective)),
        to_string(result.style), result.contention ? "contention modelled" : "no contention");

    Column size{"size"}, best{"best", false}, time{"time"}, speedup{"speedup"},
        baseline{"over", false}, runner{"runner-up", false}, margin{"margin"};
    std::vector<Column> per_algorithm;
    std::vector<std::size_t> radix_algorithms;
    for (std::size_t a = 0; a < first.algorithms.size(); ++a)
        if (first.algorithms[a].has_radix) {
            radix_algorithms.push_back(a);
            per_algorithm.emplace_back(first.algorithms[a].algorithm + " k");
        }
    for (std::size_t z = 0; z < result.sizes.size(); ++z) {
        const PointSelection& p = result.at(c, s, z);
        size.cells.push_back(size_label(p.bytes));
        const AlgorithmOutcome* b = p.best_outcome();
        best.cells.push_back(b ? choice_label(*b) : "-");
        time.cells.push_back(b ? time_label(b->time) : "-");
        speedup.cells.push_back(b && !p.baseline.empty() ? fmt::format("{:.2f}x", p.speedup())
                                                         : "-");
        baseline.cells.push_back(p.baseline.empty() ? "-" : p.baseline);
        runner.cells.push_back(p.runner_up ? choice_label(*p.runner_up) : "-");
        margin.cells.push_back(p.runner_up ? fmt::format("+{:.1f}%", 100 * p.margin()) : "-");
        for (std::size_t i = 0; i < radix_algorithms.size(); ++i) {
            const AlgorithmOutcome& o = p.algorithms[radix_algorithms[i]];
            per_algorithm[i].cells.push_back(o.available ? fmt::format("{}", o.k) : "-");
            any_same_schedule = any_same_schedule || !o.same_schedule_k.empty();
        }
    }
    std::vector<Column> columns{size, best, time, speedup, baseline, runner, margin};
    columns.insert(columns.end(), per_algorithm.begin(), per_algorithm.end());
    print_columns(out, columns);

    // Why an algorithm is missing somewhere: one line per (algorithm, reason).
    for (std::size_t a = 0; a < first.algorithms.size(); ++a) {
        std::map<std::string, std::vector<bool>> reasons;
        for (std::size_t z = 0; z < result.sizes.size(); ++z) {
            const AlgorithmOutcome& o = result.at(c, s, z).algorithms[a];
            if (o.available) continue;
            auto& hit = reasons[o.skipped];
            hit.resize(result.sizes.size(), false);
            hit[z] = true;
        }
        for (const auto& [reason, hit] : reasons)
            out += fmt::format(
                "  {} not run at {}: {}\n", first.algorithms[a].algorithm,
                std::count(hit.begin(), hit.end(), true) == static_cast<long>(hit.size())
                    ? std::string("any size")
                    : size_ranges(result.sizes, hit),
                reason);
    }
    out += "\n";
}

}  // namespace

std::string emit_table(const SelectResult& result) {
    std::string out;
    bool any_same_schedule = false;
    for (std::size_t c = 0; c < result.collectives.size(); ++c)
        for (std::size_t s = 0; s < result.scales.size(); ++s)
            emit_one(out, result, c, s, any_same_schedule);
    out += fmt::format(
        "speedup = time of the baseline ({}, named under 'over') / "
        "time of the best; margin = how much slower the runner-up (the fastest candidate of "
        "another algorithm with a different schedule) is.\n",
        detail::baseline_phrase(result.collectives));
    const auto rooted = [](Collective c) {
        return c == Collective::bcast || c == Collective::reduce;
    };
    if (std::any_of(result.collectives.begin(), result.collectives.end(), rooted))
        out += fmt::format(
            "bcast and reduce are selected at root {} (MPICH's tuning keys have no root).\n",
            select_root);
    if (any_same_schedule)
        out +=
            "k columns: the best k of each algorithm; where several k give the same schedule "
            "(rm/prm take their rounds from the factors of p) the smallest is shown.\n";
    for (const std::string& note : result.notes) out += "note: " + note + "\n";
    return out;
}

}  // namespace piccolo
