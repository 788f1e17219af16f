#include "text_files.hpp"

#include <unistd.h>

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

void write_in_place(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (!out || !(out << text)) throw cannot_write(path);
}

}  // namespace

// A regular file is written under a temporary name in its folder and renamed over the path once
// complete, so that a run that dies while writing (or a piccolo-mpi run a rank of which is
// killed) leaves no file that looks complete. A path that is no regular file (/dev/stdout, a
// FIFO, a symbolic link, which a rename would replace) is written in place.
void write_text_file(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text << std::flush;
        return;
    }
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::symlink_status(path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return write_in_place(path, text);
    const std::string temporary = fmt::format("{}.piccolo-tmp-{}", path, getpid());
    bool written = false;
    {
        std::ofstream out(temporary, std::ios::binary);
        written = out && (out << text) && out.flush();
    }
    if (written) std::filesystem::rename(temporary, path, error);
    if (!written || error) {
        std::filesystem::remove(temporary, error);
        throw cannot_write(path);
    }
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
