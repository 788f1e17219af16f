// Machine overrides (`--set PATH=VALUE`, `--set PATH*FACTOR`): what each path changes, the new
// name, and the one-line errors naming the override at fault.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

using namespace piccolo;

namespace {

Machine with(const std::string& machine, const std::vector<std::string>& texts) {
    std::vector<MachineOverride> overrides;
    for (const std::string& text : texts) overrides.push_back(parse_override(text));
    return apply_overrides(load_machine(machine), overrides);
}

std::string error_of(const std::string& machine, const std::vector<std::string>& texts) {
    try {
        with(machine, texts);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

// A machine with a two-row node table, to see that a factor changes every row.
Machine two_rows() {
    return parse_machine_yaml(R"(name: rows
levels:
  - name: node
    fanout: 2
    loggp:
      - {s: 1,    L: 1.0e-6, o_s: 1.0e-6, o_r: 2.0e-6, g: 3.0e-6, G: 1.0e-10}
      - {s: 4096, L: 2.0e-6, o_s: 4.0e-6, o_r: 5.0e-6, g: 6.0e-6, G: 3.0e-10}
  - name: system
    L: 2.0e-6
    o_s: 1.0e-6
    o_r: 1.0e-6
    g: 1.0e-6
    G: 2.0e-10
)",
                              "rows.yaml");
}

}  // namespace

TEST_CASE("parse: PATH=VALUE and PATH*FACTOR") {
    const MachineOverride set = parse_override("node.radix=2");
    CHECK(set.path == "node.radix");
    CHECK(set.op == MachineOverride::Op::set);
    CHECK(set.value == "2");
    const MachineOverride scale = parse_override("system.G*0.5");
    CHECK(scale.path == "system.G");
    CHECK(scale.op == MachineOverride::Op::scale);
    CHECK(scale.factor == 0.5);
    CHECK(scale.text == "system.G*0.5");
}

TEST_CASE("a factor scales every row of the level's table, nothing else") {
    const Machine base = two_rows();
    const MachineOverride half = parse_override("node.G*0.5");
    const Machine m = apply_overrides(base, std::span(&half, 1));
    REQUIRE(m.levels[0].loggp.rows().size() == 2);
    CHECK(m.levels[0].loggp.rows()[0].params.G == 0.5e-10);
    CHECK(m.levels[0].loggp.rows()[1].params.G == 1.5e-10);
    CHECK(m.levels[0].loggp.rows()[1].params.L == 2.0e-6);  // untouched
    CHECK(m.levels[1] == base.levels[1]);
    CHECK(m.name == "rows[node.G*0.5]");
    // = sets every row to the value.
    const MachineOverride set = parse_override("node.o_r=7e-6");
    const Machine n = apply_overrides(base, std::span(&set, 1));
    CHECK(n.levels[0].loggp.rows()[0].params.o_r == 7e-6);
    CHECK(n.levels[0].loggp.rows()[1].params.o_r == 7e-6);
}

TEST_CASE("delta: the keys of the examples") {
    const Machine m = with("delta", {"system.G*0.5", "node.radix=2", "device_radix=4",
                                     "node.capacity=2e11", "sharing=fair"});
    CHECK(m.name ==
          "delta[system.G*0.5,node.radix=2,device_radix=4,node.capacity=2e11,sharing=fair]");
    CHECK(m.levels[1].loggp.at(1).G == 2.5e-11);  // 5.0e-11 / 2
    CHECK(m.levels[1].loggp.at(1).L == 1.07454e-05);
    CHECK(m.levels[0].radix == 2);
    CHECK(m.device_radix == 4);
    CHECK(m.levels[0].capacity == 2e11);
    CHECK(m.sharing == Sharing::fair);

    const Machine n = with("delta", {"device_radix=unlimited", "style=mpi", "placement=round-robin",
                                     "compute.reduce_per_byte*2", "node.overhead=cpu",
                                     "system.rendezvous=65536", "node.radix*3"});
    CHECK_FALSE(n.device_radix.has_value());
    CHECK(n.style == Style::mpi);
    CHECK(n.placement.kind == PlacementKind::round_robin);
    CHECK(n.compute.reduce_per_byte == 2 * 2.4116e-12);
    CHECK(n.levels[0].overhead == OverheadModel::cpu);
    CHECK(n.levels[1].rendezvous == 65536u);
    CHECK(n.levels[0].radix == 3);
    CHECK(with("delta", {}) == load_preset("delta"));  // no override: the same machine and name
}

TEST_CASE("a level's reclaim cost, set and scaled") {
    const Machine m = with("delta", {"node.reclaim_per_byte=2e-10"});
    CHECK(m.levels[0].reclaim_per_byte == 2e-10);
    CHECK(m.levels[1].reclaim_per_byte == 0);
    CHECK(with("delta", {"node.reclaim_per_byte=2e-10", "node.reclaim_per_byte*1.5"})
              .levels[0]
              .reclaim_per_byte == doctest::Approx(3e-10).epsilon(1e-15));
    CHECK(error_of("delta", {"node.reclaim_per_byte=-1e-10"}) ==
          "--set node.reclaim_per_byte=-1e-10: machine 'delta[node.reclaim_per_byte=-1e-10]': "
          "levels[0].reclaim_per_byte: must be finite and >= 0 seconds per byte (got -1e-10)");
}

TEST_CASE("bad overrides: one line naming the override") {
    CHECK(error_of("delta", {"system.G"}) ==
          "--set system.G: expected PATH=VALUE or PATH*FACTOR (e.g. system.G*0.5, node.radix=2)");
    CHECK(error_of("delta", {"system.G*half"}) ==
          "--set system.G*half: factor 'half' is not a finite number");
    CHECK(error_of("delta", {"system.G=fast"}) == "--set system.G=fast: 'fast' is not a number");
    CHECK(error_of("delta", {"system.Q*2"}) ==
          "--set system.Q*2: unknown key 'Q' of level 'system' (known: L, o_s, o_r, g, G, radix, "
          "fanout, overhead, rendezvous, capacity, reclaim_per_byte)");
    CHECK(error_of("delta", {"network.G*2"}) ==
          "--set network.G*2: unknown path 'network.G' (known: LEVEL.KEY with LEVEL one of node, "
          "system and KEY one of L, o_s, o_r, g, G, radix, fanout, overhead, rendezvous, "
          "capacity, reclaim_per_byte; or device_radix, sharing, style, placement, compute.reduce_per_byte, "
          "compute.permute_latency, compute.permute_per_byte, compute.copy_per_byte)");
    CHECK(error_of("delta", {"node.radix*0.5"}) ==
          "--set node.radix*0.5: 0.5 is not a whole number");
    CHECK(error_of("delta", {"system.radix*2"}) ==
          "--set system.radix*2: is unlimited here, nothing to scale; set a value with =");
    CHECK(error_of("delta", {"sharing=fairly"}) ==
          "--set sharing=fairly: expected fifo or fair (got 'fairly')");
    // Values that make the machine invalid: validate_machine's message, under the new name.
    CHECK(error_of("delta", {"system.G*-1"}) ==
          "--set system.G*-1: LogGP table row 0: G: must be finite and >= 0 (got -5e-11)");
    CHECK(error_of("delta", {"node.radix=0"}) ==
          "--set node.radix=0: machine 'delta[node.radix=0]': levels[0].radix: must be 1..4096 or "
          "unset (got 0)");
    // delta shares its lanes fairly; with FIFO lanes a capacity has nothing to share it.
    CHECK(error_of("delta", {"sharing=fifo", "node.capacity=2e11"}) ==
          "--set node.capacity=2e11: machine 'delta[sharing=fifo,node.capacity=2e11]': "
          "levels[0].capacity: an internal capacity is shared fairly; add 'sharing: fair' to the "
          "machine");
    // The override blamed is the one that broke the machine, not the last one given.
    CHECK(error_of("delta", {"device_radix=0", "sharing=fair"}) ==
          "--set device_radix=0: machine 'delta[device_radix=0,sharing=fair]': device_radix: must "
          "be 1..4096 or unset (got 0)");
    // Overrides act together: capacity before sharing=fair is fine.
    CHECK(error_of("delta", {"sharing=fifo", "node.capacity=2e11", "sharing=fair"}) == "no error");
}

TEST_CASE("a machine of one level: one node whose table prices every message") {
    Machine m = two_rows();
    m.levels.pop_back();
    CHECK_NOTHROW(validate_machine(m));
    const RankLayout layout(m, 1, 2);
    CHECK(layout.common_level(0, 1) == 0);
    CHECK(layout.unit_of(1, 0) == 0);
    try {
        RankLayout two(m, 2, 2);
        FAIL("two nodes of a one-level machine were accepted");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) ==
              "machine 'rows': 2 nodes do not fit: a machine of one level is a single node; run 1 "
              "node, or add a system level above the node");
    }
    m.levels[0].fanout = 0;  // the only level holds the devices: it needs a fanout
    CHECK_THROWS_AS(validate_machine(m), InputError);
    m.levels.clear();
    CHECK_THROWS_AS(validate_machine(m), InputError);
}

TEST_CASE("docs/modelling.md: the one-level example loads and runs one node") {
    std::ifstream in(std::string(PICCOLO_SOURCE_DIR) + "/docs/modelling.md");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const std::size_t marker = doc.find("<!-- example: tests/topologies/test_override.cpp");
    REQUIRE(marker != std::string::npos);
    const std::size_t begin = doc.find("```yaml\n", marker) + 8;
    const std::size_t end = doc.find("```", begin);
    const Machine m = parse_machine_yaml(doc.substr(begin, end - begin), "modelling.md");
    CHECK(m.name == "one-box");
    REQUIRE(m.levels.size() == 1);
    CHECK(m.devices_per_node() == 8);
    CHECK(RankLayout(m, 1, 8).common_level(0, 7) == 0);
    CHECK_THROWS_AS(RankLayout(m, 2, 8), InputError);
}
