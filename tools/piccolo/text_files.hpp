#pragma once
// Whole text files for the subcommands, with the CLI's one-line errors.

#include <string>

namespace piccolo::cli {

std::string read_text_file(const std::string& path);                     // throws InputError
void write_text_file(const std::string& path, const std::string& text);  // "-" = stdout

}  // namespace piccolo::cli
