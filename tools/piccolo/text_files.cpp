#include "text_files.hpp"

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <sstream>

#include "piccolo/error.hpp"

namespace piccolo::cli {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: cannot open for reading", path));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_text_file(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text << std::flush;
        return;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text))
        throw InputError(fmt::format("{}: cannot open for writing (check the directory)", path));
}

}  // namespace piccolo::cli
