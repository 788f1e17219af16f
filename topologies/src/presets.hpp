#pragma once
// The machine presets of configs/machines/, compiled in by CMake (cmake/embed_presets.cmake
// writes embedded_presets.cpp into the build folder), so presets work with no files around.

#include <span>
#include <string_view>

namespace piccolo::detail {

struct EmbeddedPreset {
    std::string_view name;  // file name without .yaml
    std::string_view yaml;  // the file's text, comments included
};

// Sorted by name.
std::span<const EmbeddedPreset> embedded_presets();

}  // namespace piccolo::detail
