// The bad-input corpus tests/bad-inputs/machines/: every case must fail with exactly the
// one-line message of expected.txt (file, line and field included).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

const std::string kCorpus = std::string(PICCOLO_SOURCE_DIR) + "/tests/bad-inputs/";

struct Case {
    std::string input;
    std::string expected;
};

std::vector<Case> read_cases() {
    std::ifstream in(kCorpus + "machines/expected.txt");
    std::vector<Case> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.front() == '#') continue;
        const auto separator = line.find(" ||| ");
        REQUIRE_MESSAGE(separator != std::string::npos, "malformed line: " << line);
        cases.push_back({line.substr(0, separator), line.substr(separator + 5)});
    }
    return cases;
}

bool ends_with(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Paths in the corpus are relative to tests/bad-inputs/; names without '/' are presets.
Machine machine_of(const std::string& name_or_path) {
    return load_machine(name_or_path.find('/') == std::string::npos ? name_or_path
                                                                    : kCorpus + name_or_path);
}

void run(const std::string& input) {
    std::istringstream words(input);
    std::string first;
    words >> first;
    if (first == "args:") {
        std::string command, name;
        words >> command >> name;
        REQUIRE(command == "machines");
        load_machine(name);
    } else if (first == "layout:") {
        std::string machine;
        int nodes = 0, ppn = 0;
        words >> machine >> nodes >> ppn;
        RankLayout layout(machine_of(machine), nodes, ppn);
    } else if (ends_with(input, ".csv")) {
        load_loggp_csv(kCorpus + input);
    } else {
        load_machine(kCorpus + input);
    }
}

// Messages name files by the path they were opened with; show them relative to the corpus.
std::string relative(std::string message) {
    for (auto at = message.find(kCorpus); at != std::string::npos; at = message.find(kCorpus)) {
        message.erase(at, kCorpus.size());
    }
    return message;
}

}  // namespace

TEST_CASE("every bad machine input fails with its exact one-line message") {
    const std::vector<Case> cases = read_cases();
    CHECK(cases.size() >= 17);
    for (const Case& c : cases) {
        CAPTURE(c.input);
        std::string message = "no error";
        try {
            run(c.input);
        } catch (const InputError& e) {
            message = relative(e.what());
        }
        CHECK(message == c.expected);
        CHECK(message.find('\n') == std::string::npos);
    }
}
