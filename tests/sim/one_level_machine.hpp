#pragma once
// A one-level machine of p ranks for the closed-form tests: one LogGP row for every size, a
// device radix, a reduction cost per byte and a permute's latency and cost per byte.
#include <optional>
#include <string>
#include <utility>

#include "piccolo/schedules/schedule.hpp"  // Rank
#include "piccolo/topologies/machine.hpp"

namespace piccolo::test {

inline Machine one_level(std::string name, const LogGP& x, Rank p, int device_radix,
                         double gamma, double permute_latency = 0, double permute_per_byte = 0) {
    Machine m;
    m.name = std::move(name);
    m.device_radix = device_radix;
    m.levels.push_back({"node", p, std::nullopt, LogGPTable({{0, x}})});
    m.compute.reduce_per_byte = gamma;
    m.compute.permute_latency = permute_latency;
    m.compute.permute_per_byte = permute_per_byte;
    validate_machine(m);
    return m;
}

}  // namespace piccolo::test
