// libFuzzer target: the machine YAML reader. What it accepts must be written and read back to an
// equal machine, and must lay out a small run without error or crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine.hpp"
#include "piccolo/topologies/machine_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    piccolo::Machine machine;
    try {
        machine = piccolo::parse_machine_yaml(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    } catch (const piccolo::InputError&) {
        return 0;
    }
    if (piccolo::parse_machine_yaml(piccolo::machine_to_yaml(machine), "again.yaml") != machine)
        std::abort();  // the writer and the reader disagree
    try {
        const piccolo::RankLayout layout(machine, 2, 1);
        (void)layout.common_level(0, 1);
    } catch (const piccolo::InputError&) {
    }
    return 0;
}
