#pragma once
// The --style option that gen, sim and select share: one spelling, one help text.

#include <string>
#include <string_view>

#include "piccolo/core/style.hpp"

namespace CLI {
class App;
}

namespace piccolo::cli {

// Adds --style to `command`; `default_text` says what an absent option means.
void add_style_option(CLI::App& command, std::string& value, std::string_view default_text);
// Throws InputError naming --style and the known styles.
Style parse_style_option(std::string_view value);

}  // namespace piccolo::cli
