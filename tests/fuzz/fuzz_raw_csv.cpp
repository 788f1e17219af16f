// libFuzzer target: the profiler's raw CSV reader and the fit (piccolo fit). A fit that succeeds
// must write a machine YAML that the machine reader accepts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/topologies/machine_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string yaml;
    try {
        std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
        const piccolo::profiler::RawData raw = piccolo::profiler::parse_raw_csv(in, "fuzz.csv");
        const piccolo::profiler::ProfileFit fit = piccolo::profiler::fit_profile(raw, "fuzz.csv");
        yaml = piccolo::profiler::profile_yaml(raw, fit);
    } catch (const piccolo::InputError&) {
        return 0;
    }
    try {
        (void)piccolo::parse_machine_yaml(yaml, "fitted.yaml");
    } catch (const piccolo::InputError&) {
        std::abort();  // fit wrote a machine that does not load
    }
    return 0;
}
