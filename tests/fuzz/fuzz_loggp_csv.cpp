// libFuzzer target: the PICCL LogGP profile CSV reader (s,L,o_s,o_r,g,G).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        piccolo::ImportWarnings warnings;  // the warning of a negative L - o_s - o_r is fuzzed too
        const piccolo::LogGPTable table = piccolo::parse_loggp_csv(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv", &warnings);
        (void)table.at(1024);
    } catch (const piccolo::InputError&) {
    }
    return 0;
}
