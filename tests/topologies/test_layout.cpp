// Rank placement and lowest common level on a 3-level machine: 4 devices per node, 2 nodes per
// group, one system.
#include <doctest/doctest.h>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine.hpp"

using namespace piccolo;

namespace {

Machine three_levels(Placement placement = {}) {
    const LogGPTable constant({LogGPRow{0, LogGP{1e-6, 1e-6, 1e-6, 1e-6, 1e-10}}});
    Machine m;
    m.name = "three";
    m.device_radix = 2;
    m.levels = {Level{"node", 4, 1, constant}, Level{"group", 2, std::nullopt, constant},
                Level{"system", 0, std::nullopt, constant}};
    m.placement = std::move(placement);
    return m;
}

std::string layout_error(const Machine& m, int nodes, int ppn) {
    try {
        RankLayout layout(m, nodes, ppn);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("block placement: rank r on node r / ppn") {
    const RankLayout layout(three_levels(), 4, 4);  // 16 ranks, nodes 0..3, groups {0,1} {2,3}
    REQUIRE(layout.ranks() == 16);
    CHECK(layout.nodes() == 4);
    CHECK(layout.level_count() == 3);
    for (int r = 0; r < 16; ++r) {
        CHECK(layout.node_of(r) == r / 4);
        CHECK(layout.unit_of(r, 0) == r / 4);
        CHECK(layout.unit_of(r, 1) == r / 8);  // group = node / 2
        CHECK(layout.unit_of(r, 2) == 0);      // one system
    }
    CHECK(layout.common_level(0, 1) == 0);   // node 0 with node 0
    CHECK(layout.common_level(5, 7) == 0);   // node 1 with node 1
    CHECK(layout.common_level(0, 4) == 1);   // nodes 0, 1: group 0
    CHECK(layout.common_level(8, 12) == 1);  // nodes 2, 3: group 1
    CHECK(layout.common_level(0, 8) == 2);   // groups 0, 1
    CHECK(layout.common_level(7, 15) == 2);  // nodes 1, 3: groups 0, 1
    CHECK(layout.common_level(12, 3) == 2);  // symmetric
}

TEST_CASE("block placement with fewer ranks than devices per node") {
    const RankLayout layout(three_levels(), 3, 2);  // ranks 0,1 | 2,3 | 4,5
    REQUIRE(layout.ranks() == 6);
    CHECK(layout.node_of(1) == 0);
    CHECK(layout.node_of(2) == 1);
    CHECK(layout.node_of(5) == 2);
    CHECK(layout.common_level(1, 2) == 1);  // nodes 0, 1 share group 0
    CHECK(layout.common_level(3, 4) == 2);  // node 1 in group 0, node 2 in group 1
}

TEST_CASE("round-robin placement: rank r on node r % nodes") {
    const RankLayout layout(three_levels({PlacementKind::round_robin, {}}), 4, 2);
    REQUIRE(layout.ranks() == 8);
    const int expected_node[] = {0, 1, 2, 3, 0, 1, 2, 3};
    for (int r = 0; r < 8; ++r) CHECK(layout.node_of(r) == expected_node[r]);
    CHECK(layout.common_level(0, 4) == 0);  // both on node 0
    CHECK(layout.common_level(0, 1) == 1);  // nodes 0, 1: group 0
    CHECK(layout.common_level(2, 3) == 1);  // nodes 2, 3: group 1
    CHECK(layout.common_level(0, 2) == 2);  // nodes 0, 2
    CHECK(layout.common_level(5, 7) == 2);  // nodes 1, 3
}

TEST_CASE("explicit placement list") {
    // ranks 0..3 on nodes 3, 0, 2, 1; groups (node / 2): 1, 0, 1, 0.
    const RankLayout layout(three_levels({PlacementKind::explicit_list, {3, 0, 2, 1}}), 4, 1);
    REQUIRE(layout.ranks() == 4);
    CHECK(layout.node_of(0) == 3);
    CHECK(layout.unit_of(0, 1) == 1);
    CHECK(layout.unit_of(1, 1) == 0);
    CHECK(layout.common_level(0, 2) == 1);  // nodes 3, 2: group 1
    CHECK(layout.common_level(1, 3) == 1);  // nodes 0, 1: group 0
    CHECK(layout.common_level(0, 1) == 2);  // nodes 3, 0
    // Two ranks of one node under an explicit list.
    const RankLayout shared(three_levels({PlacementKind::explicit_list, {1, 0, 1, 0}}), 2, 2);
    CHECK(shared.common_level(0, 2) == 0);
    CHECK(shared.common_level(0, 1) == 1);
}

TEST_CASE("two-level machines: node, then system") {
    Machine m = three_levels();
    m.levels.erase(m.levels.begin() + 1);
    const RankLayout layout(m, 3, 4);
    CHECK(layout.common_level(0, 3) == 0);
    CHECK(layout.common_level(0, 4) == 1);
    CHECK(layout.common_level(11, 4) == 1);
    CHECK(layout.unit_of(11, 0) == 2);
    CHECK(layout.unit_of(11, 1) == 0);
}

TEST_CASE("impossible layouts are refused, naming the machine and the limit") {
    const Machine m = three_levels();
    CHECK(layout_error(m, 0, 4) == "machine 'three': nodes must be >= 1 (got 0)");
    CHECK(layout_error(m, 2, 0) ==
          "machine 'three': ranks per node must be between 1 and the 4 devices per node (got 0); "
          "use fewer ranks per node or more nodes");
    CHECK(layout_error(m, 2, 5) ==
          "machine 'three': ranks per node must be between 1 and the 4 devices per node (got 5); "
          "use fewer ranks per node or more nodes");
    CHECK(layout_error(three_levels({PlacementKind::explicit_list, {0, 1, 0}}), 2, 2) ==
          "machine 'three': placement list has 3 entries but the run has 4 ranks (2 nodes x 2 per "
          "node); give one node index per rank");
    CHECK(layout_error(three_levels({PlacementKind::explicit_list, {0, 1, 2, 0}}), 2, 2) ==
          "machine 'three': placement list[2] = 2 is not a node of this run (0..1)");
    CHECK(layout_error(three_levels({PlacementKind::explicit_list, {0, 0, 0, 0, 0, 1}}), 2, 3) ==
          "machine 'three': placement list puts more than 4 ranks on node 0, which has 4 devices");

    Machine bounded = three_levels();
    bounded.levels.back().fanout = 3;  // 3 groups of 2 nodes: at most 6 nodes
    CHECK_NOTHROW(RankLayout(bounded, 6, 4));
    CHECK(layout_error(bounded, 7, 4) ==
          "machine 'three': 7 nodes do not fit: the machine holds at most 6 nodes (product of the "
          "fanouts of levels[1..2])");
}

TEST_CASE("validate_machine names the broken field") {
    auto error_of = [](const Machine& m) -> std::string {
        try {
            validate_machine(m);
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK(error_of(three_levels()) == "no error");
    Machine one_level = three_levels();
    one_level.levels.resize(1);
    CHECK(error_of(one_level) == "no error");  // one node whose table prices every message
    Machine no_level = three_levels();
    no_level.levels.clear();
    CHECK(error_of(no_level) ==
          "machine 'three': levels: needs at least 1 level, innermost first (node, optional "
          "groups, system); got 0");
    Machine zero_fanout = three_levels();
    zero_fanout.levels[1].fanout = 0;
    CHECK(error_of(zero_fanout) == "machine 'three': levels[1].fanout: must be >= 1 (got 0)");
    Machine zero_radix = three_levels();
    zero_radix.levels[0].radix = 0;
    CHECK(error_of(zero_radix) ==
          "machine 'three': levels[0].radix: must be 1..4096 or unset (got 0)");
    Machine no_table = three_levels();
    no_table.levels[2].loggp = LogGPTable();
    CHECK(error_of(no_table) ==
          "machine 'three': levels[2].loggp: LogGP table: needs at least one row (s, L, o_s, o_r, "
          "g, G)");
    Machine bad_cost = three_levels();
    bad_cost.compute.reduce_per_byte = -1;
    CHECK(error_of(bad_cost) ==
          "machine 'three': compute.reduce_per_byte: must be finite and >= 0 (got -1)");
}
