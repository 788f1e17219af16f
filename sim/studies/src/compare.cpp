// The comparison sweep: the selector once per machine, on one shared set of points.
#include "piccolo/studies/compare.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "piccolo/core/error.hpp"

namespace piccolo {

namespace {

// Node counts every machine holds, from the default scales of each.
std::vector<int> common_node_counts(const std::vector<Machine>& machines) {
    std::vector<int> common;
    for (std::size_t i = 0; i < machines.size(); ++i) {
        std::vector<int> counts;
        for (const Scale& s : default_select_scales(machines[i])) counts.push_back(s.nodes);
        if (i == 0) {
            common = counts;
            continue;
        }
        std::erase_if(common, [&](int n) {
            return std::find(counts.begin(), counts.end(), n) == counts.end();
        });
    }
    return common;
}

}  // namespace

Comparison compare(const CompareRequest& request) {
    if (request.machines.empty()) throw InputError("compare: give at least one machine");
    SelectRequest sweep = request.sweep;
    if (sweep.scales.empty()) {
        int ppn = request.ranks_per_node;
        if (ppn == 0) {
            ppn = std::numeric_limits<int>::max();
            for (const Machine& m : request.machines) ppn = std::min(ppn, m.devices_per_node());
        }
        for (int nodes : common_node_counts(request.machines)) sweep.scales.push_back({nodes, ppn});
    }
    Comparison out;
    out.machines = request.machines;
    for (const Machine& machine : request.machines) {
        sweep.machine = machine;
        out.results.push_back(select(sweep));
        for (const std::string& note : out.results.back().notes)
            if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
                out.notes.push_back(note);
    }
    return out;
}

std::string best_label(const PointSelection& point) {
    const AlgorithmOutcome* best = point.best_outcome();
    if (!best) return "-";
    return best->has_radix ? fmt::format("{} k={}", best->algorithm, best->k) : best->algorithm;
}

bool same_choice(const PointSelection& a, const PointSelection& b) {
    const AlgorithmOutcome* x = a.best_outcome();
    const AlgorithmOutcome* y = b.best_outcome();
    if (!x || !y) return !x && !y;
    return x->algorithm == y->algorithm && x->k == y->k;
}

std::vector<ChoiceChange> choice_changes(const Comparison& comparison) {
    std::vector<ChoiceChange> changes;
    for (std::size_t p = 0; p < comparison.point_count(); ++p)
        for (std::size_t m = 1; m < comparison.results.size(); ++m)
            if (!same_choice(comparison.results[0].points[p], comparison.results[m].points[p]))
                changes.push_back({p, m});
    return changes;
}

double time_ratio(const Comparison& comparison, std::size_t machine, std::size_t point) {
    const AlgorithmOutcome* ref = comparison.results[0].points[point].best_outcome();
    const AlgorithmOutcome* here = comparison.results[machine].points[point].best_outcome();
    if (!ref || !here || here->time <= 0) return 0;
    return ref->time / here->time;
}

}  // namespace piccolo
