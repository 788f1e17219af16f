#pragma once
// Wording shared by the selector's emitters, so that every format names things the same way.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "piccolo/select/select.hpp"

namespace piccolo::detail {

std::string scale_label(const Scale& scale);                // "16 nodes x 4 = 64 ranks"
std::string size_label(std::uint64_t bytes);                // "64 KiB", "1000 B"
std::string time_label(double seconds);                     // "12.35 us": 4 significant digits
std::string choice_label(const AlgorithmOutcome& outcome);  // "rm k=4", "ring"
std::string choice_label(const Choice& choice);
// "allgather rm k = 49 at p = 75264", "allreduce ring at p = 64": a candidate in verbose notes.
std::string candidate_label(Collective collective, std::string_view algorithm, bool has_radix,
                            int k, Rank ranks);
// "5-7" for consecutive runs, "5, 9" otherwise.
std::string k_list_label(const std::vector<int>& ks);
// One line saying what a size means for each collective of the result.
std::string size_semantics(const SelectResult& result);
// What the speedups are measured against: "the faster of ring and rd" for Allgather and Allreduce
// alone; with other collectives, each one's baseline (baseline_algorithms_of()), e.g. "the
// faster of the collective's baseline algorithms: ring and rd for allgather, binomial for bcast".
std::string baseline_phrase(const std::vector<Collective>& collectives);
// Does the sweep hold a collective besides Allgather and Allreduce?
bool has_newer_collectives(const std::vector<Collective>& collectives);

// The whole result as a tree (emit_json.cpp); the YAML emitter prints the same tree.
nlohmann::ordered_json result_tree(const SelectResult& result);

}  // namespace piccolo::detail
