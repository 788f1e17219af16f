// piccolo compare: a changed choice computed by hand, --vary against separate --set runs, and the
// one-line errors of bad overrides and --vary specs.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/studies/compare.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

namespace piccolo::cli {
void add_select_command(CLI::App& app);
void add_compare_command(CLI::App& app);
}  // namespace piccolo::cli

using namespace piccolo;

namespace {

namespace fs = std::filesystem;

// Two devices per node; g = 0, so a round costs T = o_s + (m-1)G + L + o_r (sim/engine/README.md).
Machine hand_machine() {
    return parse_machine_yaml(R"(name: hand
device_radix: 1
levels:
  - name: node
    fanout: 2
    loggp: {L: 1.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 0, G: 1.0e-11}
  - name: system
    loggp: {L: 3.0e-6, o_s: 1.0e-6, o_r: 1.0e-6, g: 0, G: 1.0e-10}
)",
                              "hand.yaml");
}

std::string run(std::vector<std::string> args) {
    CLI::App app{"piccolo"};
    app.require_subcommand(1);
    cli::add_select_command(app);
    cli::add_compare_command(app);
    args.insert(args.begin(), "piccolo");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    try {
        app.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const InputError& e) {
        return e.what();
    } catch (const CLI::ParseError& e) {
        return std::string("parse error: ") + e.what();
    }
    return "";
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::path(PICCOLO_BINARY_DIR) / "test-compare";
    fs::create_directories(dir);
    return dir / name;
}

std::vector<std::vector<std::string>> csv_rows(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (char c : line) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                cells.push_back(std::exchange(cell, {}));
            else
                cell += c;
        }
        cells.push_back(cell);
        rows.push_back(std::move(cells));
    }
    return rows;
}

}  // namespace

TEST_CASE("halving the inter-node G turns k-ring k=2 into RD at 64 KiB (by hand)") {
    // p = 4 ranks on 2 nodes, m = 65536 B. T_i = 1e-6 + 65535e-11 + 1e-6 + 1e-6 = 3.65535 us.
    // k-ring k=2: T_I(m) + 2 T_i(m) (one inter-node round, then the node's rounds);
    // RD: T_i(m) + T_I(2m) (the pair on one node first, then 2m across nodes).
    // G_I = 1e-10: T_I(m) = 5e-6 + 65535e-10 = 11.5535 us, T_I(2m) = 5e-6 + 131071e-10 = 18.1071
    //   us: k-ring 18.8642 us < RD 21.76245 us.
    // G_I = 5e-11: T_I(m) = 8.27675 us, T_I(2m) = 11.55355 us: k-ring 15.58745 us > RD 15.2089 us.
    const Machine base = hand_machine();
    const MachineOverride faster = parse_override("system.G*0.5");
    CompareRequest request;
    request.machines = {base, apply_overrides(base, std::span(&faster, 1))};
    request.sweep.collectives = {Collective::allgather};
    request.sweep.algorithms = {"k-ring", "rd"};
    request.sweep.sizes = {65536};
    request.sweep.scales = {{2, 2}};
    const Comparison c = compare(request);
    REQUIRE(c.point_count() == 1);
    const AlgorithmOutcome* before = c.results[0].points[0].best_outcome();
    const AlgorithmOutcome* after = c.results[1].points[0].best_outcome();
    REQUIRE(before);
    REQUIRE(after);
    CHECK(before->algorithm == "k-ring");
    CHECK(before->k == 2);
    CHECK(before->time == doctest::Approx(18.8642e-6).epsilon(1e-9));
    CHECK(after->algorithm == "rd");
    CHECK(after->time == doctest::Approx(15.2089e-6).epsilon(1e-9));
    const std::vector<ChoiceChange> changes = choice_changes(c);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].machine == 1);
    CHECK(c.results[1].machine == "hand[system.G*0.5]");
    const std::string table = emit_compare_table(c);
    CHECK(table.find("Changed choices vs the reference hand: 1 of 1 (point, machine) pairs\n"
                     "  allgather 2 nodes x 2 = 4 ranks 64 KiB: k-ring k=2 (18.86 us) -> rd "
                     "(15.21 us) on hand[system.G*0.5]\n") != std::string::npos);
}

TEST_CASE("--vary: the same choices and times as separate select --set runs") {
    const fs::path vary = scratch("vary.csv");
    REQUIRE(run({"compare", "--vary", "system.G=0.25x..4x:5", "-n", "16", "--format", "csv", "-o",
                 vary.string()}) == "");
    // (collective, size, nodes, machine) -> algorithm, k, time_s
    std::map<std::string, std::string> compared, separate;
    for (const auto& row : csv_rows(vary)) {
        if (row[0] == "collective") continue;
        compared[row[0] + " " + row[1] + " " + row[3] + " " + row[6]] =
            row[8] + " " + row[9] + " " + row[10];
    }
    const std::vector<std::string> factors{"0.25", "0.5", "1", "2", "4"};
    for (const std::string& f : factors) {
        const fs::path file = scratch("set-" + f + ".csv");
        REQUIRE(run({"select", "--set", "system.G*" + f, "-n", "16", "--format", "csv", "-o",
                     file.string()}) == "");
        for (const auto& row : csv_rows(file)) {
            if (row[0] == "collective" || row[15] != "1") continue;  // the best of each point
            separate[row[0] + " " + row[1] + " " + row[5] + " " + row[3]] =
                row[9] + " " + row[10] + " " + row[12];
        }
    }
    CHECK(compared.size() == 2 * 24 * 5);  // collectives x sizes x points
    CHECK(compared == separate);
    CHECK(compared.count("allgather 8 16 delta[system.G*0.25]") == 1);
}

TEST_CASE("compare: one-line errors naming the option") {
    CHECK(run({"compare", "--set", "system.Q*2"}).find("--set system.Q*2: unknown key 'Q'") == 0);
    CHECK(run({"compare", "--variant", "system.G=fast"}) ==
          "--set system.G=fast: 'fast' is not a number");
    CHECK(run({"compare", "--vary", "system.G=0.25x..4:5"}) ==
          "--vary system.G=0.25x..4:5: give both ends as factors (0.5x..2x) or both as values "
          "(1..4)");
    CHECK(run({"compare", "--vary", "system.G=1x..2x:1"}) ==
          "--vary system.G=1x..2x:1: N must be a whole number from 2 to 1000");
    CHECK(run({"compare", "--vary", "system.G"}).find("expected PATH=A..B:N") != std::string::npos);
    CHECK(run({"compare", "--format", "yaml"}) ==
          "--format: 'yaml' is not one of table, csv, json");
    CHECK(run({"select", "--set", "node.radix=0"}) ==
          "--set node.radix=0: machine 'delta[node.radix=0]': levels[0].radix: must be 1..4096 or "
          "unset (got 0)");
}

TEST_CASE("--vary spacing: factors geometric, values even, texts that read back exactly") {
    std::vector<std::string> texts;
    for (const MachineOverride& o : parse_vary("system.G=0.25x..4x:5")) texts.push_back(o.text);
    CHECK(texts == std::vector<std::string>{"system.G*0.25", "system.G*0.5", "system.G*1",
                                            "system.G*2", "system.G*4"});
    texts.clear();
    for (const MachineOverride& o : parse_vary("node.radix=1..4:4")) texts.push_back(o.text);
    CHECK(texts ==
          std::vector<std::string>{"node.radix=1", "node.radix=2", "node.radix=3", "node.radix=4"});
}
