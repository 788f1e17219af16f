// Preset lookup and the "name or file" entry point used by the CLI.

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <fmt/format.h>

#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "presets.hpp"

namespace piccolo {

namespace {

std::string known_presets() {
    std::string list;
    for (const detail::EmbeddedPreset& preset : detail::embedded_presets()) {
        if (!list.empty()) list += ", ";
        list += preset.name;
    }
    return list;
}

const detail::EmbeddedPreset* find_preset(std::string_view name) {
    for (const detail::EmbeddedPreset& preset : detail::embedded_presets()) {
        if (preset.name == name) return &preset;
    }
    return nullptr;
}

std::string lowercase_extension(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension;
}

}  // namespace

std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    for (const detail::EmbeddedPreset& preset : detail::embedded_presets()) {
        names.emplace_back(preset.name);
    }
    return names;
}

std::string_view default_preset_name() {
    return "delta";
}

std::string_view preset_yaml(std::string_view name) {
    if (const detail::EmbeddedPreset* preset = find_preset(name)) return preset->yaml;
    throw InputError(fmt::format("unknown machine preset '{}' (known: {})", name, known_presets()));
}

Machine load_preset(std::string_view name) {
    const std::string_view text = preset_yaml(name);
    return parse_machine_yaml(text, fmt::format("configs/machines/{}.yaml", name));
}

Machine load_machine(std::string_view name_or_file, ImportWarnings* warnings) {
    if (find_preset(name_or_file)) return load_preset(name_or_file);
    const std::filesystem::path path(name_or_file);
    const std::string extension = lowercase_extension(path);
    if (extension == ".yaml" || extension == ".yml") return load_machine_yaml(path);
    if (extension == ".xml") return load_piccl_topology(path, warnings);
    if (!name_or_file.empty() && input_file_exists(path)) {
        throw InputError(fmt::format(
            "{}: unknown machine file type '{}' (use .yaml/.yml for piccolo machines or .xml for "
            "PICCL topologies)",
            name_or_file, extension));
    }
    throw InputError(fmt::format(
        "unknown machine '{}': not a preset ({}) nor a .yaml/.yml/.xml file; run 'piccolo "
        "machines' to list the presets",
        name_or_file, known_presets()));
}

}  // namespace piccolo
