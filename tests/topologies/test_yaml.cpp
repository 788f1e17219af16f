// Machine YAML: the schema's forms, exact round trips, the writer's exact text, error messages.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

// The example of configs/README.md.
constexpr const char* kExample = R"(name: example
description: "two nodes' worth of a small GPU cluster"
device_radix: 4
style: nccl
sharing: fair
levels:
  - name: node
    fanout: 4
    radix: 1
    overhead: offload
    capacity: 2.0e11
    reclaim_per_byte: 3.0e-10
    loggp:
      - {s: 1,     L: 2.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 3.0e-6, G: 1.0e-11}
      - {s: 65536, L: 4.0e-6, o_s: 1.5e-6, o_r: 1.5e-6, g: 3.0e-6, G: 1.2e-11}
  - name: group
    fanout: 16
    radix: unlimited
    loggp: {L: 5.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 3.0e-6, G: 5.0e-11}
  - name: system
    rendezvous: 65536
    L: 6.0e-6
    o_s: 1.0e-6
    o_r: 1.0e-6
    g: 3.0e-6
    G: 5.0e-11
compute:
  reduce_per_byte: 2.4e-12
  permute_latency: 5.0e-6
  permute_per_byte: 1.6e-12
  copy_per_byte: 1.6e-12
placement: round-robin
)";

std::string yaml_error(const std::string& text) {
    try {
        parse_machine_yaml(text, "m.yaml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

// A valid two-level machine with one line replaced, for error tests.
std::string minimal(const std::string& node_extra = "", const std::string& top_extra = "") {
    return "name: tiny\n" + top_extra +
           "levels:\n"
           "  - name: node\n"
           "    fanout: 2\n" +
           node_extra +
           "    L: 1.0e-6\n"
           "    o_s: 1.0e-6\n"
           "    o_r: 1.0e-6\n"
           "    g: 1.0e-6\n"
           "    G: 1.0e-10\n"
           "  - name: system\n"
           "    L: 2.0e-6\n"
           "    o_s: 1.0e-6\n"
           "    o_r: 1.0e-6\n"
           "    g: 1.0e-6\n"
           "    G: 1.0e-10\n";
}

}  // namespace

TEST_CASE("the README example loads field by field") {
    const Machine m = parse_machine_yaml(kExample, "example.yaml");
    CHECK(m.name == "example");
    CHECK(m.description == "two nodes' worth of a small GPU cluster");
    CHECK(m.device_radix == 4);
    REQUIRE(m.levels.size() == 3);
    CHECK(m.devices_per_node() == 4);
    CHECK(m.levels[0].name == "node");
    CHECK(m.levels[0].radix == 1);
    REQUIRE(m.levels[0].loggp.rows().size() == 2);
    CHECK(m.levels[0].loggp.rows()[1].bytes == 65536);
    CHECK(m.levels[0].loggp.rows()[1].params == LogGP{4.0e-6, 1.5e-6, 1.5e-6, 3.0e-6, 1.2e-11});
    CHECK(m.levels[1].fanout == 16);
    CHECK_FALSE(m.levels[1].radix.has_value());
    REQUIRE(m.levels[1].loggp.rows().size() == 1);
    CHECK(m.levels[1].loggp.rows()[0].bytes == 0);
    CHECK(m.levels[1].loggp.at(1) == LogGP{5.0e-6, 1.0e-6, 1.0e-6, 3.0e-6, 5.0e-11});
    CHECK(m.levels[2].fanout == 0);
    CHECK(m.levels[2].loggp.at(123) == LogGP{6.0e-6, 1.0e-6, 1.0e-6, 3.0e-6, 5.0e-11});
    CHECK(m.compute.reduce_per_byte == 2.4e-12);
    CHECK(m.compute.permute_latency == 5.0e-6);
    CHECK(m.compute.permute_per_byte == 1.6e-12);
    CHECK(m.compute.copy_per_byte == 1.6e-12);
    CHECK(m.placement.kind == PlacementKind::round_robin);
    CHECK(m.style == Style::nccl);
    CHECK(m.sharing == Sharing::fair);
    CHECK(m.levels[0].overhead == OverheadModel::offload);
    CHECK(m.levels[0].capacity == 2.0e11);
    CHECK_FALSE(m.levels[1].capacity.has_value());
    CHECK(m.levels[0].reclaim_per_byte == 3.0e-10);
    CHECK(m.levels[1].reclaim_per_byte == 0);
    CHECK_FALSE(m.levels[1].rendezvous.has_value());
    CHECK(m.levels[2].rendezvous == 65536);
}

TEST_CASE("the example of configs/README.md is this example, comments aside") {
    std::ifstream in(std::string(PICCOLO_SOURCE_DIR) + "/configs/README.md");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string readme = buffer.str();
    const auto marker = readme.find("<!-- example: tests/topologies/test_yaml.cpp");
    REQUIRE(marker != std::string::npos);
    const auto begin = readme.find("```yaml\n", marker);
    REQUIRE(begin != std::string::npos);
    const auto end = readme.find("```", begin + 8);
    REQUIRE(end != std::string::npos);
    const std::string example = readme.substr(begin + 8, end - begin - 8);
    CHECK(parse_machine_yaml(example, "README.md") == parse_machine_yaml(kExample, "example.yaml"));
}

TEST_CASE("the three ways to write a constant table are the same machine") {
    const std::string shortcut = minimal();
    std::string mapping = shortcut;
    const std::string node_keys =
        "    L: 1.0e-6\n    o_s: 1.0e-6\n    o_r: 1.0e-6\n    g: 1.0e-6\n    G: 1.0e-10\n";
    mapping.replace(mapping.find(node_keys), node_keys.size(),
                    "    loggp: {L: 1.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 1.0e-6, G: 1.0e-10}\n");
    std::string table = shortcut;
    table.replace(table.find(node_keys), node_keys.size(),
                  "    loggp:\n      - {s: 0, L: 1.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 1.0e-6, "
                  "G: 1.0e-10}\n");
    const Machine a = parse_machine_yaml(shortcut, "a.yaml");
    CHECK(parse_machine_yaml(mapping, "b.yaml") == a);
    CHECK(parse_machine_yaml(table, "c.yaml") == a);
    // Defaults: no device radix, no compute costs, block placement.
    CHECK_FALSE(a.device_radix.has_value());
    CHECK(a.compute == ComputeCosts{});
    CHECK(a.placement == Placement{});
}

TEST_CASE("write -> read gives back the same machine, bit for bit") {
    Machine m = parse_machine_yaml(kExample, "example.yaml");
    CHECK(parse_machine_yaml(machine_to_yaml(m), "back.yaml") == m);

    // Doubles that need all 17 digits, a subnormal, quotes and a newline in the text, a list.
    m.name = "odd \"name\"";
    m.description = "line one\nline two\\ \t end: #not a comment";
    m.levels[0].loggp = LogGPTable({LogGPRow{1, LogGP{0.1, 1.0 / 3, 2.0 / 3, 1e-300, 5e-324}},
                                    LogGPRow{1e6 + 0.5, LogGP{0.3, 0.2, 0.1, 0, 1.0 / 7}}});
    m.compute.reduce_per_byte = std::nextafter(1e-12, 1.0);
    m.placement = {PlacementKind::explicit_list, {1, 0, 1, 0}};
    const std::string text = machine_to_yaml(m);
    const Machine back = parse_machine_yaml(text, "back.yaml");
    CHECK(back == m);
    CHECK(machine_to_yaml(back) == text);
}

TEST_CASE("the writer's exact text") {
    Machine m = parse_machine_yaml(minimal("    radix: 2\n", "device_radix: 3\n"), "m.yaml");
    m.levels[1].loggp = LogGPTable({LogGPRow{1, LogGP{2e-6, 1e-6, 1e-6, 1e-6, 1e-10}},
                                    LogGPRow{4096, LogGP{3e-6, 1e-6, 1e-6, 1e-6, 2.5e-11}}});
    m.compute.copy_per_byte = 1.5e-12;
    CHECK(machine_to_yaml(m) ==
          "# piccolo machine description (schema: configs/README.md).\n"
          "# Units: seconds, bytes, bytes per second, seconds per byte.\n"
          "name: \"tiny\"\n"
          "description: \"\"\n"
          "device_radix: 3\n"
          "levels:\n"
          "  - name: \"node\"\n"
          "    fanout: 2\n"
          "    radix: 2\n"
          "    L: 1e-06\n"
          "    o_s: 1e-06\n"
          "    o_r: 1e-06\n"
          "    g: 1e-06\n"
          "    G: 1e-10\n"
          "  - name: \"system\"\n"
          "    loggp:\n"
          "      - {s: 1, L: 2e-06, o_s: 1e-06, o_r: 1e-06, g: 1e-06, G: 1e-10}\n"
          "      - {s: 4096, L: 3e-06, o_s: 1e-06, o_r: 1e-06, g: 1e-06, G: 2.5e-11}\n"
          "compute:\n"
          "  reduce_per_byte: 0\n"
          "  permute_latency: 0\n"
          "  permute_per_byte: 0\n"
          "  copy_per_byte: 1.5e-12\n"
          "placement: block\n");
}

TEST_CASE("the writer's text for the optional keys, and their round trip") {
    Machine m = parse_machine_yaml(minimal(""), "m.yaml");
    m.style = Style::nccl;
    m.sharing = Sharing::fair;
    m.levels[0].overhead = OverheadModel::cpu;
    m.levels[0].capacity = 2.5e10;
    m.levels[0].reclaim_per_byte = 3.5e-10;
    m.levels[1].rendezvous = 65536;
    m.placement = {PlacementKind::explicit_list, {0, 1}};
    const std::string text = machine_to_yaml(m);
    CHECK(text ==
          "# piccolo machine description (schema: configs/README.md).\n"
          "# Units: seconds, bytes, bytes per second, seconds per byte.\n"
          "name: \"tiny\"\n"
          "description: \"\"\n"
          "style: nccl\n"
          "sharing: fair\n"
          "levels:\n"
          "  - name: \"node\"\n"
          "    fanout: 2\n"
          "    overhead: cpu\n"
          "    capacity: 25000000000\n"
          "    reclaim_per_byte: 3.5e-10\n"
          "    L: 1e-06\n"
          "    o_s: 1e-06\n"
          "    o_r: 1e-06\n"
          "    g: 1e-06\n"
          "    G: 1e-10\n"
          "  - name: \"system\"\n"
          "    rendezvous: 65536\n"
          "    L: 2e-06\n"
          "    o_s: 1e-06\n"
          "    o_r: 1e-06\n"
          "    g: 1e-06\n"
          "    G: 1e-10\n"
          "compute:\n"
          "  reduce_per_byte: 0\n"
          "  permute_latency: 0\n"
          "  permute_per_byte: 0\n"
          "  copy_per_byte: 0\n"
          "placement: {list: [0, 1]}\n");
    CHECK(parse_machine_yaml(text, "back.yaml") == m);
}

TEST_CASE("schema errors: one line with file, line and field") {
    CHECK(yaml_error(minimal("    radx: 2\n")) ==
          "m.yaml:5: levels[0].radx: unknown key (known keys here: name, fanout, radix, overhead, "
          "rendezvous, capacity, reclaim_per_byte, loggp, L, o_s, o_r, g, G)");
    CHECK(yaml_error(minimal("", "nmae: x\n")) ==
          "m.yaml:2: nmae: unknown key (known keys here: name, description, device_radix, levels, "
          "compute, placement, sharing, style)");
    CHECK(yaml_error(minimal("    fanout: 3\n")) ==
          "m.yaml:5: levels[0].fanout: duplicate key (give each key once)");
    CHECK(yaml_error(minimal("    radix: 0\n")) ==
          "m.yaml:5: levels[0].radix: must be >= 1 (concurrent transfers per direction; "
          "'unlimited' or omit the key for no limit), got 0");
    CHECK(yaml_error(minimal("    radix: two\n")) ==
          "m.yaml:5: levels[0].radix: expected a whole number >= 1 (concurrent transfers per "
          "direction; 'unlimited' or omit the key for no limit), got 'two'");
    CHECK(yaml_error(minimal("", "device_radix: -1\n")) ==
          "m.yaml:2: device_radix: must be >= 1 (concurrent transfers per direction; "
          "'unlimited' or omit the key for no limit), got -1");
    CHECK(yaml_error(minimal("    loggp: {L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n")) ==
          "m.yaml:5: levels[0].loggp: give either a loggp table or the keys L, o_s, o_r, g, G on "
          "the level, not both");
    CHECK(yaml_error(minimal("", "placement: scatter\n")) ==
          "m.yaml:2: placement: expected block, round-robin or {list: [node of rank 0, node of "
          "rank 1, ...]} (got 'scatter')");
    CHECK(yaml_error(minimal("", "placement: {list: [0, -1]}\n")) ==
          "m.yaml:2: placement.list[1]: must be >= 0 (node index of the rank), got -1");
    CHECK(yaml_error(minimal("", "compute: {reduce_per_byte: fast}\n")) ==
          "m.yaml:2: compute.reduce_per_byte: expected a number in seconds per byte (got 'fast')");
    CHECK(yaml_error(minimal("", "compute: {permute_latency: -.inf}\n")) ==
          "m.yaml:2: compute.permute_latency: must be finite and >= 0 (got -inf)");
    CHECK(yaml_error("levels: []\n") == "m.yaml:1: name: missing (every machine needs a name)");
    CHECK(yaml_error("name: x\n") ==
          "m.yaml:1: levels: missing (list the levels innermost first (node, optional groups, "
          "system), each with name, fanout and loggp)");
    CHECK(yaml_error("- a\n- b\n") ==
          "m.yaml:1: expected a mapping with the keys name, description, device_radix, levels, "
          "compute, placement, sharing, style (see configs/README.md)");
    CHECK(yaml_error("") ==
          "m.yaml: expected a mapping with the keys name, description, device_radix, levels, "
          "compute, placement, sharing, style (see configs/README.md)");
    CHECK(yaml_error("name: [unclosed\n") ==
          "m.yaml:2: YAML syntax error: end of sequence flow not found");
}

TEST_CASE("schema errors inside levels and tables") {
    const std::string missing_fanout =
        "name: x\nlevels:\n  - name: node\n    L: 1\n    o_s: 1\n    o_r: 1\n    g: 1\n    G: 1\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(missing_fanout) ==
          "m.yaml:3: levels[0].fanout: missing (children per unit: devices per node for the first "
          "level, nodes per group, ...)");
    const std::string missing_table =
        "name: x\nlevels:\n  - {name: node, fanout: 2}\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(missing_table) ==
          "m.yaml:3: levels[0].loggp: missing (give loggp: [{s, L, o_s, o_r, g, G}, ...] or L, "
          "o_s, o_r, g, G on the level)");
    const std::string missing_parameter =
        "name: x\nlevels:\n  - {name: node, fanout: 2, L: 1, o_s: 1, o_r: 1, g: 1}\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(missing_parameter) ==
          "m.yaml:3: levels[0].G: missing (every LogGP row needs L, o_s, o_r, g and G; G is in "
          "seconds per byte)");
    const std::string missing_size =
        "name: x\nlevels:\n  - name: node\n    fanout: 2\n    loggp:\n"
        "      - {s: 1, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n"
        "      - {L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(missing_size) ==
          "m.yaml:7: levels[0].loggp[1].s: missing (the message size in bytes this row holds for)");
    const std::string empty_table =
        "name: x\nlevels:\n  - name: node\n    fanout: 2\n    loggp: []\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(empty_table) ==
          "m.yaml:5: levels[0].loggp: needs at least one row {s, L, o_s, o_r, g, G}");
    const std::string zero_fanout =
        "name: x\nlevels:\n  - {name: node, fanout: 0, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(zero_fanout) ==
          "m.yaml:3: levels[0].fanout: must be >= 1 (children per unit: devices per node, nodes "
          "per group), got 0");
    const std::string unnamed =
        "name: x\nlevels:\n  - {fanout: 2, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n"
        "  - {name: system, L: 1, o_s: 1, o_r: 1, g: 1, G: 1}\n";
    CHECK(yaml_error(unnamed) == "m.yaml:3: levels[0].name: missing (e.g. node, group, system)");
}
