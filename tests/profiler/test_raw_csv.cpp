#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/raw_data.hpp"

using namespace piccolo::profiler;

TEST_CASE("raw CSV round trip is exact") {
    RawData data;
    data.machine_name = "box";
    data.description = "two ranks, shared memory";
    data.levels = {{"node", 8}, {"system", 0}};
    data.info = {{"date", "2026-11-21T00:00:00Z"}, {"command", "mpirun -n 2 x --quick"}};
    data.samples = {
        {"node", SampleKind::prtt, 1, 0, 8, 0, 3.0000000000000001e-7},
        {"node", SampleKind::prtt, 16, 2.9999999999999997e-7, 4096, 7, 1.2345678901234567e-5},
        {"node", SampleKind::o_r, 1, 6e-7, 8, 1, 1.5e-7},
        {"device", SampleKind::radix, 4, 0, 1048576, 2, 3.3e-4},
        {"copy", SampleKind::compute, 1, 0, 16777216, 0, 4e-4},
        {"node", SampleKind::concurrent, 2, 0, 4194304, 3, 3.3800000000000002e-4},
        {"node", SampleKind::reclaim, 1, 0, 65536, 4, -1.25e-7},
    };
    std::stringstream text;
    write_raw_csv(text, data);
    const RawData back = parse_raw_csv(text, "memory");
    CHECK(back.machine_name == data.machine_name);
    CHECK(back.description == data.description);
    REQUIRE(back.levels.size() == 2);
    CHECK(back.levels[0].name == "node");
    CHECK(back.levels[0].fanout == 8);
    CHECK(back.info == data.info);
    REQUIRE(back.samples.size() == data.samples.size());
    for (std::size_t i = 0; i < data.samples.size(); ++i) {
        CHECK(back.samples[i].level == data.samples[i].level);
        CHECK(back.samples[i].kind == data.samples[i].kind);
        CHECK(back.samples[i].n == data.samples[i].n);
        CHECK(back.samples[i].delay == data.samples[i].delay);
        CHECK(back.samples[i].bytes == data.samples[i].bytes);
        CHECK(back.samples[i].rep == data.samples[i].rep);
        CHECK(back.samples[i].seconds == data.samples[i].seconds);
    }
}

TEST_CASE("raw CSV tolerates CRLF, blank lines and spaces around fields") {
    std::istringstream text(
        "# machine: m\r\n\r\nlevel,kind,n,delay_s,bytes,rep,seconds\r\n node , prtt ,1,0, "
        "8,0,1e-6\r\n");
    const RawData data = parse_raw_csv(text, "crlf.csv");
    REQUIRE(data.samples.size() == 1);
    CHECK(data.machine_name == "m");
    CHECK(data.samples[0].level == "node");
    CHECK(data.samples[0].seconds == 1e-6);
}

// Every case of tests/bad-inputs/profiler/expected.txt (the table the CLI test runs through
// `piccolo fit`): one InputError, one line, naming the file (and the line when it has one).
TEST_CASE("malformed raw CSVs: InputError with one line naming file and line") {
    const std::string corpus = PICCOLO_SOURCE_DIR "/tests/bad-inputs/profiler/";
    std::ifstream table(corpus + "expected.txt");
    REQUIRE(table);
    int cases = 0;
    for (std::string line; std::getline(table, line);) {
        if (line.empty() || line.front() == '#') continue;
        const auto separator = line.find(" ||| ");
        REQUIRE(separator != std::string::npos);
        const std::string file = line.substr(std::string("args: fit ").size(),
                                             separator - std::string("args: fit ").size());
        const std::string expected = line.substr(separator + 5);
        CAPTURE(file);
        std::string message;
        try {
            const RawData raw = read_raw_csv(corpus + file);
            const auto fit = fit_profile(raw, corpus + file);
            try {  // the machine, named by its file as `piccolo fit` names it
                piccolo::profiler::to_machine(raw, fit);
            } catch (const piccolo::InputError& e) {
                throw piccolo::InputError(corpus + file + ": " + e.what());
            }
        } catch (const piccolo::InputError& e) {
            message = e.what();
        }
        CHECK(message.find(expected) != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
        ++cases;
    }
    CHECK(cases == 23);
}

TEST_CASE("raw CSV with a UTF-8 byte-order mark reads as without it") {
    std::istringstream plain("level,kind,n,delay_s,bytes,rep,seconds\nnode,prtt,1,0,8,0,1e-6\n");
    std::istringstream marked(
        "\xEF\xBB\xBFlevel,kind,n,delay_s,bytes,rep,seconds\nnode,prtt,1,0,8,0,1e-6\n");
    const RawData a = parse_raw_csv(plain, "plain.csv");
    const RawData b = parse_raw_csv(marked, "marked.csv");
    REQUIRE(b.samples.size() == 1);
    CHECK(b.samples[0].bytes == a.samples[0].bytes);
    CHECK(b.samples[0].seconds == a.samples[0].seconds);
}
