// PICCL imports: the topology XML of tools/loggp_sim and its CSV LogGP profiles.
#include <doctest/doctest.h>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

const std::string kData = std::string(PICCOLO_SOURCE_DIR) + "/tests/topologies/data/";

}  // namespace

TEST_CASE("CSV profile: rows as written (L without the overheads), interpolated between them") {
    const LogGPTable table = load_loggp_csv(kData + "l0.csv");
    REQUIRE(table.rows().size() == 3);
    // PICCL's L is half a round trip: 15 us - o_s 4.5 us - o_r 4.25 us = 6.25 us of wire latency;
    // row 1025: 15 - 4.0 - 4.5 = 6.5 us; row 65537: 17.5 - 4.0 - 4.5 = 9.0 us.
    CHECK(table.rows()[0].params.L == doctest::Approx(6.25e-06).epsilon(1e-12));
    CHECK(table.rows()[1].params.L == doctest::Approx(6.5e-06).epsilon(1e-12));
    CHECK(table.rows()[2].params.L == doctest::Approx(9.0e-06).epsilon(1e-12));
    CHECK(table.rows()[0].params.o_s == 4.5e-06);
    CHECK(table.rows()[0].params.o_r == 4.25e-06);
    CHECK(table.rows()[2].params.g == 1.3e-05);
    CHECK(table.rows()[2].params.G == 1.0e-11);
    // Halfway between s = 1 and s = 1025: o_s = (4.5 + 4.0) / 2 = 4.25 us, o_r = 4.375 us,
    // L = (6.25 + 6.5) / 2 = 6.375 us.
    const LogGP mid = table.at(513);
    CHECK(mid.o_s == doctest::Approx(4.25e-06).epsilon(1e-15));
    CHECK(mid.o_r == doctest::Approx(4.375e-06).epsilon(1e-15));
    CHECK(mid.L == doctest::Approx(6.375e-06).epsilon(1e-12));
    // A quarter of the way from 1025 to 65537 (65537 - 1025 = 64512, a quarter is 16128):
    // L = 6.5 + 0.25 * (9.0 - 6.5) = 7.125 us.
    CHECK(table.at(1025 + 16128).L == doctest::Approx(7.125e-06).epsilon(1e-12));
    CHECK(table.at(1e9) == table.rows()[2].params);
}

TEST_CASE("CSV with a UTF-8 byte-order mark (spreadsheets write one): read as without it") {
    const LogGPTable table = load_loggp_csv(kData + "bom.csv");
    REQUIRE(table.rows().size() == 1);
    CHECK(table.rows()[0].bytes == 1);
    CHECK(table.rows()[0].params.G == 1.2e-11);
    const Machine machine = load_piccl_topology(kData + "piccl-bom.xml");
    CHECK(machine.levels.front().loggp == table);
}

TEST_CASE("CSV with Windows line endings") {
    const LogGPTable table = load_loggp_csv(kData + "l1.csv");
    REQUIRE(table.rows().size() == 1);
    // L: 20 - 4.5 - 4.5 = 11 us.
    CHECK(table.rows()[0].bytes == 1);
    CHECK(table.rows()[0].params.L == doctest::Approx(1.1e-05).epsilon(1e-12));
    CHECK(table.rows()[0].params.G == 5.0e-11);
}

TEST_CASE("PICCL topology: level 0 groups are nodes, ports the node radix") {
    const Machine m = load_piccl_topology(kData + "piccl-topo.xml");
    CHECK(m.name == "piccl-topo");
    CHECK(m.description == "imported from PICCL topology " + kData + "piccl-topo.xml");
    CHECK_FALSE(m.device_radix.has_value());  // PICCL passes it on the command line (--radix)
    REQUIRE(m.levels.size() == 2);
    CHECK(m.levels[0].name == "node");
    CHECK(m.levels[0].fanout == 4);
    CHECK(m.levels[0].radix == 2);
    CHECK(m.levels[0].loggp == load_loggp_csv(kData + "l0.csv"));
    CHECK(m.levels[1].name == "system");
    CHECK(m.levels[1].fanout == 2);  // bounded to the topology's two nodes
    CHECK_FALSE(m.levels[1].radix.has_value());
    CHECK(m.levels[1].loggp == load_loggp_csv(kData + "l1.csv"));
    CHECK(m.placement.kind == PlacementKind::block);

    const RankLayout layout(m, 2, 4);
    CHECK(layout.common_level(0, 3) == 0);
    CHECK(layout.common_level(3, 4) == 1);
    CHECK_THROWS_AS(RankLayout(m, 3, 4), InputError);  // more nodes than the topology has

    // The imported machine is an ordinary one: YAML round trip.
    CHECK(parse_machine_yaml(machine_to_yaml(m), "converted.yaml") == m);
}

TEST_CASE("PICCL topology: interleaved ranks become an explicit list, ports default to 1") {
    const Machine m = load_piccl_topology(kData + "piccl-interleaved.xml");
    CHECK(m.levels[0].fanout == 3);
    CHECK(m.levels[0].radix == 1);  // parser.py: int(group.get("ports", 1))
    CHECK(m.placement.kind == PlacementKind::explicit_list);
    CHECK(m.placement.node_of_rank == std::vector<int>{0, 1, 0, 1, 0, 1});
    const RankLayout layout(m, 2, 3);
    CHECK(layout.node_of(4) == 0);
    CHECK(layout.common_level(0, 2) == 0);
    CHECK(layout.common_level(0, 1) == 1);
}

TEST_CASE("PICCL topology with three levels") {
    const Machine m = load_piccl_topology(kData + "piccl-3level.xml");
    REQUIRE(m.levels.size() == 3);
    CHECK(m.levels[0].name == "node");
    CHECK(m.levels[0].fanout == 2);
    CHECK(m.levels[1].name == "group1");
    CHECK(m.levels[1].fanout == 2);
    CHECK(m.levels[1].radix == 4);
    CHECK(m.levels[2].name == "system");
    CHECK(m.levels[2].fanout == 2);
    const RankLayout layout(m, 4, 2);
    CHECK(layout.common_level(0, 1) == 0);
    CHECK(layout.common_level(1, 2) == 1);
    CHECK(layout.common_level(3, 4) == 2);
}

TEST_CASE("PICCL topology of one node, ports=\"-1\" is unlimited") {
    const Machine m = load_piccl_topology(kData + "piccl-one-node.xml");
    REQUIRE(m.levels.size() == 2);
    CHECK(m.levels[0].fanout == 3);
    CHECK_FALSE(m.levels[0].radix.has_value());
    CHECK(m.levels[1].name == "system");
    CHECK(m.levels[1].fanout == 1);
    CHECK_THROWS_AS(RankLayout(m, 2, 3), InputError);
}

TEST_CASE("PICCL param_file paths relative to PICCL's root are found from the folders above") {
    const Machine m = load_piccl_topology(kData + "piccl-root-relative.xml");
    CHECK(m.levels[0].loggp == load_loggp_csv(kData + "l0.csv"));
    CHECK(m.levels[1].loggp == load_loggp_csv(kData + "l1.csv"));
}

TEST_CASE("CSV profile: L below o_s + o_r becomes a wire latency of 0, with one warning a row") {
    ImportWarnings warnings;
    const std::string csv = kData + "negative-latency.csv";
    const LogGPTable table = load_loggp_csv(csv, &warnings);
    // Row 1: 3 - 2 - 1.5 = -0.5 us; row 1024: 6 - 2 - 1.5 = 2.5 us; row 65536: 4 - 3 - 2 = -1 us.
    REQUIRE(table.rows().size() == 3);
    CHECK(table.rows()[0].params.L == 0);
    CHECK(table.rows()[1].params.L == doctest::Approx(2.5e-06).epsilon(1e-12));
    CHECK(table.rows()[2].params.L == 0);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0] == csv +
                             ":2: column L: L - o_s - o_r = 3e-06 - 2e-06 - 1.5e-06 = -5e-07 s is "
                             "below 0; the wire latency for s = 1 is set to 0 (o_s + o_r alone "
                             "exceed this half round trip)");
    CHECK(warnings[1] == csv +
                             ":4: column L: L - o_s - o_r = 4e-06 - 3e-06 - 2e-06 = -1e-06 s is "
                             "below 0; the wire latency for s = 65536 is set to 0 (o_s + o_r "
                             "alone exceed this half round trip)");
    // Through the topology: the same lines, once for the file however many groups name it.
    ImportWarnings from_topology;
    load_machine(kData + "piccl-negative-latency.xml", &from_topology);
    CHECK(from_topology == warnings);
    // A profile with every L above o_s + o_r warns of nothing.
    ImportWarnings none;
    load_loggp_csv(kData + "l0.csv", &none);
    CHECK(none.empty());
}
