#pragma once
// Whole text files for the subcommands, with the CLI's one-line errors.

#include <string>
#include <string_view>

namespace piccolo::cli {

std::string read_text_file(const std::string& path);                     // throws InputError
void write_text_file(const std::string& path, const std::string& text);  // "-" = stdout
// Throws write_text_file's InputError now if `path` could not be written, so that a long run does
// not fail at its end; leaves an existing file as it is and creates none ("-" passes).
void check_writable(const std::string& path);
// "1 node", "2 nodes", "0 nodes": English plurals of the nouns the CLI counts (regular ones).
std::string count_of(long long n, std::string_view noun);

}  // namespace piccolo::cli
