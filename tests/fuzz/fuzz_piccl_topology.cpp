// libFuzzer target: the PICCL topology XML importer. It reads files (the topology and the CSV
// profiles it names), so each input is written to a private folder that also holds two valid
// profiles, l0.csv and l1.csv, for the groups to name.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace {

std::filesystem::path make_folder() {
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("piccolo-fuzz-piccl-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "l0.csv") << "s,L,o_s,o_r,g,G\n1,2e-6,1e-7,1e-7,1e-7,1e-11\n";
    std::ofstream(folder / "l1.csv") << "s,L,o_s,o_r,g,G\n1,5e-6,1e-7,1e-7,1e-7,1e-10\n"
                                        "65536,9e-6,2e-7,2e-7,2e-7,5e-11\n";
    return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::filesystem::path folder = make_folder();
    const std::filesystem::path topology = folder / "topo.xml";
    std::ofstream(topology, std::ios::binary)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    try {
        const piccolo::Machine machine = piccolo::load_piccl_topology(topology);
        (void)piccolo::machine_to_yaml(machine);
    } catch (const piccolo::InputError&) {
    }
    return 0;
}
