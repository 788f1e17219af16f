#include "text_files.hpp"

#include <fmt/format.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "piccolo/core/error.hpp"

namespace piccolo::cli {

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("{}: cannot open for reading", path));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

namespace {

InputError cannot_write(const std::string& path) {
    return InputError(fmt::format("{}: cannot open for writing (check the directory)", path));
}

}  // namespace

void write_text_file(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text << std::flush;
        return;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text)) throw cannot_write(path);
}

void check_writable(const std::string& path) {
    if (path == "-") return;
    std::error_code error;
    const bool existed = std::filesystem::exists(path, error);
    {
        // Appending writes nothing and keeps the file's contents.
        std::ofstream probe(path, std::ios::binary | std::ios::app);
        if (!probe) throw cannot_write(path);
    }
    if (!existed) std::filesystem::remove(path, error);
}

std::string count_of(long long n, std::string_view noun) {
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

}  // namespace piccolo::cli
