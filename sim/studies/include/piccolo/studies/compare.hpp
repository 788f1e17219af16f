#pragma once
// What-if comparisons: one selector sweep (select.hpp) per machine over the same collectives,
// scales and sizes, and the points where the best (algorithm, k) differs from the first machine's,
// the reference. Output formats: table, CSV, JSON, and the HTML report (report.hpp).

#include <cstddef>
#include <string>
#include <vector>

#include "piccolo/select/select.hpp"

namespace piccolo {

struct CompareRequest {
    std::vector<Machine> machines;  // the first is the reference; at least one
    // Everything but `machine`: the same sweep runs on every machine. Empty scales: the node
    // counts of default_select_scales() that every machine holds, with `ranks_per_node` ranks.
    SelectRequest sweep;
    int ranks_per_node = 0;  // 0: the fewest devices per node of the machines
};

struct Comparison {
    std::vector<Machine> machines;
    std::vector<SelectResult> results;  // one per machine, the same points in the same order
    std::vector<std::string> notes;     // the sweeps' notes, once each

    [[nodiscard]] std::size_t point_count() const {
        return results.empty() ? 0 : results.front().points.size();
    }
};

// Throws InputError (one line) for a request no machine could run; else deterministic, like
// select().
Comparison compare(const CompareRequest& request);

// "rm k=4", "ring", "-" (nothing could run): the choice at one point.
std::string best_label(const PointSelection& point);
// Same best algorithm and k (both without a choice counts as the same).
bool same_choice(const PointSelection& a, const PointSelection& b);

// A point where machine `machine` (>= 1) chooses differently from the reference.
struct ChoiceChange {
    std::size_t point = 0;
    std::size_t machine = 0;
};
// By point, then machine.
std::vector<ChoiceChange> choice_changes(const Comparison& comparison);

// Reference time / this machine's best time at one point (> 1: faster than the reference).
double time_ratio(const Comparison& comparison, std::size_t machine, std::size_t point);

std::string emit_compare_table(const Comparison& comparison);
// One row per (collective, scale, size, machine).
std::string emit_compare_csv(const Comparison& comparison);
std::string emit_compare_json(const Comparison& comparison);

}  // namespace piccolo
