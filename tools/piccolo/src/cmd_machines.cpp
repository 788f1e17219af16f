// piccolo machines: list the machine presets, or print one machine as YAML.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "machine_option.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo::cli {

namespace {

std::string radix_text(const std::optional<int>& radix) {
    return radix ? std::to_string(*radix) : "-";
}

// "node/group(128)/system": level names, with the units per level above the node.
std::string levels_text(const Machine& machine) {
    std::string text;
    for (std::size_t l = 0; l < machine.levels.size(); ++l) {
        const Level& level = machine.levels[l];
        if (!text.empty()) text += '/';
        text += level.name;
        if (l > 0 && level.fanout > 0) text += fmt::format("({})", level.fanout);
    }
    return text;
}

// "8/1/-": device radix, then the radix of each level ("-" = unlimited).
std::string radices_text(const Machine& machine) {
    std::string text = radix_text(machine.device_radix);
    for (const Level& level : machine.levels) {
        text += '/';
        text += radix_text(level.radix);
    }
    return text;
}

void list_presets() {
    struct Row {
        std::string name, devices, levels, radices, description;
    };
    std::vector<Row> rows{{"name", "devices/node", "levels (nodes per group)",
                           "radix device/node/...", "description"}};
    for (const std::string& name : preset_names()) {
        const Machine m = load_preset(name);
        rows.push_back({name, std::to_string(m.devices_per_node()), levels_text(m), radices_text(m),
                        m.description});
    }
    std::size_t widths[4] = {};
    for (const Row& row : rows) {
        widths[0] = std::max(widths[0], row.name.size());
        widths[1] = std::max(widths[1], row.devices.size());
        widths[2] = std::max(widths[2], row.levels.size());
        widths[3] = std::max(widths[3], row.radices.size());
    }
    for (const Row& row : rows) {
        fmt::print("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", row.name, widths[0], row.devices,
                   widths[1], row.levels, widths[2], row.radices, widths[3], row.description);
    }
    fmt::print(
        "\nDefault: {}. Radix '-' = unlimited. 'piccolo machines NAME' prints a preset's "
        "YAML;\na .yaml/.yml file or a PICCL topology .xml is checked and printed as "
        "piccolo YAML.\n",
        default_preset_name());
}

void show_machine(const std::string& name_or_file, const std::vector<std::string>& sets) {
    const std::vector<std::string> names = preset_names();
    if (sets.empty() && std::find(names.begin(), names.end(), name_or_file) != names.end()) {
        fmt::print("{}", preset_yaml(name_or_file));  // as shipped, with its source comments
        return;
    }
    fmt::print("{}", machine_to_yaml(load_machine_with(name_or_file, sets)));
}

}  // namespace

void add_machines_command(CLI::App& app) {
    struct Options {
        std::string machine;
        std::vector<std::string> sets;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "machines", "List the machine presets, or print one machine (preset or file) as YAML");
    cmd->add_option("machine,-m,--machine", o->machine,
                    "preset name, piccolo .yaml/.yml file or PICCL topology .xml to print");
    add_set_option(*cmd, o->sets);
    cmd->callback([o] {
        if (o->machine.empty() && !o->sets.empty())
            throw InputError("--set: name the machine to change (piccolo machines NAME --set ...)");
        if (o->machine.empty()) {
            list_presets();
        } else {
            show_machine(o->machine, o->sets);
        }
    });
}

}  // namespace piccolo::cli
