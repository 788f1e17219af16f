#pragma once
// The keys that name one selection point in every JSON output (select and compare).

#include <nlohmann/json.hpp>

#include "piccolo/select/select.hpp"

namespace piccolo::detail {

inline nlohmann::ordered_json point_identity(const PointSelection& p) {
    nlohmann::ordered_json j;
    j["collective"] = to_string(p.collective);
    j["nodes"] = p.scale.nodes;
    j["ppn"] = p.scale.ranks_per_node;
    j["ranks"] = p.scale.ranks();
    j["size_bytes"] = p.bytes;
    if (p.collective == Collective::bcast || p.collective == Collective::reduce)
        j["root"] = select_root;  // swept at root 0: MPICH's tuning keys have no root
    return j;
}

}  // namespace piccolo::detail
