// The presets of configs/machines/: all load, round-trip, match the files, and say what they say.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

std::string source_file(const std::string& relative) {
    std::ifstream in(std::string(PICCOLO_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string error_of(auto&& action) {
    try {
        action();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the preset list") {
    CHECK(preset_names() == std::vector<std::string>{"aurora", "delta", "dgx-h100", "frontier",
                                                     "laptop-measured-2026-11-22", "laptop-mpi",
                                                     "nvl72", "polaris"});
    CHECK(default_preset_name() == "delta");
}

TEST_CASE("every preset loads, is named after its file, and round-trips") {
    for (const std::string& name : preset_names()) {
        CAPTURE(name);
        const Machine m = load_preset(name);
        CHECK(m.name == name);
        CHECK_FALSE(m.description.empty());
        CHECK(m.description.find('\n') == std::string::npos);
        CHECK(parse_machine_yaml(machine_to_yaml(m), "written.yaml") == m);
        CHECK(load_machine(name) == m);
        // The embedded text is the file of the source tree (the build re-embeds on change).
        CHECK(preset_yaml(name) == source_file("configs/machines/" + name + ".yaml"));
        CHECK(load_machine_yaml(std::string(PICCOLO_SOURCE_DIR) + "/configs/machines/" + name +
                                ".yaml") == m);
        // One full node of the preset is a valid layout.
        CHECK_NOTHROW(RankLayout(m, 1, m.devices_per_node()));
    }
}

TEST_CASE("delta: the paper's settings") {
    const Machine m = load_preset(default_preset_name());
    CHECK(m.name == "delta");
    CHECK(m.device_radix == 8);
    REQUIRE(m.levels.size() == 2);
    CHECK(m.levels[0].name == "node");
    CHECK(m.levels[0].fanout == 4);
    CHECK(m.levels[0].radix == 1);
    // PICCL's measured NCCL intra-node row, with o_s and o_r taken out of L:
    // 1.470980e-05 - 4.4927e-06 - 4.4717e-06 = 5.7454e-06.
    CHECK(m.levels[0].loggp.at(1) ==
          LogGP{5.7454e-06, 4.4927e-06, 4.4717e-06, 1.3003e-05, 1.2187e-11});
    CHECK(m.levels[1].name == "system");
    CHECK_FALSE(m.levels[1].radix.has_value());
    CHECK(m.levels[1].loggp.at(1 << 20).G == 5.0e-11);  // 1 / (20 GB/s)
    CHECK(m.placement.kind == PlacementKind::block);
}

TEST_CASE("the other presets' shapes") {
    struct Shape {
        const char* name;
        int device_radix;
        int devices;
        std::optional<int> node_radix;
        std::vector<int> group_fanouts;  // levels between node and system
        Sharing sharing = Sharing::fifo;
    };
    const Shape shapes[] = {
        {"polaris", 8, 4, 2, {112}, Sharing::fair},  // 2 Slingshot-11 NICs, shared as on delta
        {"dgx-h100", 8, 8, 8, {}},     // 8 NDR ports, fat tree
        {"frontier", 8, 8, 4, {128}},  // 8 GCDs, 4 NICs, a cabinet per group
        {"aurora", 8, 12, 8, {64}},    // 12 tiles, 8 NICs, a rack per group
        {"laptop-mpi", 1, 8, std::nullopt, {}},
        {"nvl72", 8, 72, 72, {}},  // one NVLink domain of 72 GPUs per node, a NIC per GPU
    };
    for (const Shape& shape : shapes) {
        CAPTURE(shape.name);
        const Machine m = load_preset(shape.name);
        CHECK(m.device_radix == shape.device_radix);
        CHECK(m.devices_per_node() == shape.devices);
        CHECK(m.levels.front().radix == shape.node_radix);
        CHECK(m.sharing == shape.sharing);
        REQUIRE(m.levels.size() == shape.group_fanouts.size() + 2);
        for (std::size_t g = 0; g < shape.group_fanouts.size(); ++g) {
            CHECK(m.levels[g + 1].name == "group");
            CHECK(m.levels[g + 1].fanout == shape.group_fanouts[g]);
        }
        CHECK(m.levels.back().name == "system");
    }
}

TEST_CASE("nvl72: NVLink 5 inside the rack, 400 Gb/s InfiniBand between racks") {
    const Machine m = load_preset("nvl72");
    // 1 / (0.82 x 900 GB/s) and 1 / (0.8 x 50 GB/s), rounded as written in the file.
    CHECK(m.levels[0].loggp.at(1).G == 1.3550e-12);
    CHECK(m.levels[1].loggp.at(1).G == 2.5e-11);
    CHECK(m.compute.reduce_per_byte == 4.6875e-13);  // 3 / (0.8 x 8e12)
    CHECK_NOTHROW(RankLayout(m, 4, 72));
}

TEST_CASE("laptop-mpi: eager up to 4096 B, rendezvous above, one node only") {
    const Machine m = load_preset("laptop-mpi");
    const LogGPTable& node = m.levels[0].loggp;
    CHECK(node.at(4096) == LogGP{1.0e-07, 1.0e-07, 1.0e-07, 2.0e-07, 2.0e-10});
    CHECK(node.at(1 << 20) == LogGP{1.0e-06, 3.0e-07, 5.0e-07, 5.0e-07, 1.0e-10});
    CHECK(error_of([&] { RankLayout(m, 2, 8); }) ==
          "machine 'laptop-mpi': 2 nodes do not fit: the machine holds at most 1 nodes (product of "
          "the fanouts of levels[1..1])");
}

TEST_CASE("load_machine: preset, YAML file, PICCL XML, or a clear error") {
    const std::string data = std::string(PICCOLO_SOURCE_DIR) + "/tests/topologies/data/";
    CHECK(load_machine(data + "two-level.yaml").name == "two-level");
    CHECK(load_machine(data + "piccl-topo.xml").name == "piccl-topo");
    CHECK(error_of([] { load_preset("deltaa"); }) ==
          "unknown machine preset 'deltaa' (known: aurora, delta, dgx-h100, frontier, "
          "laptop-measured-2026-11-22, laptop-mpi, nvl72, polaris)");
    CHECK(error_of([] { load_machine("deltaa"); }) ==
          "unknown machine 'deltaa': not a preset (aurora, delta, dgx-h100, frontier, "
          "laptop-measured-2026-11-22, laptop-mpi, nvl72, polaris) nor a .yaml/.yml/.xml file; run "
          "'piccolo machines' to list the presets");
    CHECK(error_of([&] { load_machine(data + "l0.csv"); }) ==
          data +
              "l0.csv: unknown machine file type '.csv' (use .yaml/.yml for piccolo machines or "
              ".xml for PICCL topologies)");
    CHECK(error_of([&] { load_machine(data + "missing.yaml"); }) ==
          data + "missing.yaml: cannot open machine file (No such file or directory)");
}
