// The measured cells of a calibration, generated once and replayed per evaluation in parallel
// (calibrate_cells.hpp).
#include "calibrate_cells.hpp"

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <limits>
#include <map>
#include <string>
#include <utility>

#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/select/select_fingerprint.hpp"

namespace piccolo::detail {

CalibrationCells::CalibrationCells(const Measurement& m, bool payload) : m_(m) {
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> by_hash;
    dag_of_row_.reserve(m.candidates.size());
    for (std::size_t row = 0; row < m.candidates.size(); ++row) {
        const MeasuredRow& r = m.candidates[row];
        try {
            Schedule schedule = generate({r.collective, r.algorithm, r.k, m.ranks, r.bytes, payload,
                                          parse_style(r.style), m.root});
            // Everything the engine reads, sizes included: equal hashes replay alike.
            const TimingHash hash = timing_hash(schedule, true);
            const auto [at, added] = by_hash.try_emplace({hash.first, hash.second}, dags_.size());
            if (added) {
                Schedule::Successors successors = schedule.joined_successors();
                dags_.push_back({std::move(schedule), std::move(successors), row});
            }
            dag_of_row_.push_back(at->second);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}:{}: {}", m.origin, r.line, e.what()));
        }
    }
}

std::vector<double> CalibrationCells::predict(const Machine& machine,
                                              std::span<const std::size_t> rows) const {
    const RankLayout layout(machine, m_.nodes, m_.ranks_per_node);
    // The DAGs the rows need, each once, in the order the rows first need them.
    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> slot(dags_.size(), none), needed;
    for (std::size_t row : rows) {
        const std::size_t dag = dag_of_row_.at(row);
        if (slot[dag] == none) {
            slot[dag] = needed.size();
            needed.push_back(dag);
        }
    }
    std::vector<double> times(needed.size());
    std::vector<std::string> errors(needed.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, needed.size()), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) {
            const Dag& dag = dags_[needed[i]];
            try {
                times[i] = simulate(dag.schedule, dag.successors, machine, layout, {}).makespan;
            } catch (const InputError& e) {  // kept, so that the first row's error is thrown
                errors[i] = fmt::format("{}:{}: {}", m_.origin, m_.candidates[dag.first_row].line,
                                        e.what());
            }
        }
    });
    for (const std::string& error : errors)
        if (!error.empty()) throw InputError(error);
    std::vector<double> out;
    out.reserve(rows.size());
    for (std::size_t row : rows) out.push_back(times[slot[dag_of_row_[row]]]);
    return out;
}

}  // namespace piccolo::detail
