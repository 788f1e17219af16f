// set_message_size (resize.cpp): a schedule generated at one size and resized to another has,
// task by task, the bytes of the schedule generated at that size directly, for every algorithm,
// style and both collectives, with sizes that do and do not divide into equal segments. The
// direct generation is the oracle: it sizes each message from the pieces it carries.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "piccolo/core/style.hpp"
#include "piccolo/schedules/generate.hpp"

using namespace piccolo;

namespace {

Schedule generated(Collective c, const AlgorithmInfo& info, int k, Rank p, Style style,
                   std::uint64_t bytes) {
    GenerateRequest request{c, std::string(info.name), k, p, bytes, true};
    request.style = style;
    return generate(request);
}

}  // namespace

TEST_CASE("set_message_size: every task has the bytes of a direct generation at that size") {
    const Rank p = 12;
    for (const AlgorithmInfo& info : algorithms())
        for (const int k : info.valid_radices ? info.valid_radices(p) : std::vector<int>{0})
            for (Style style : all_styles)
                for (Collective c : all_collectives) {
                    if (!builds(info, c)) continue;
                    // 4096 = 12 x 341 + 4 (unequal segments); 12288 = 12 x 1024 (equal).
                    Schedule resized = generated(c, info, k, p, style, 12288);
                    for (std::uint64_t bytes : {4096ULL, 12ULL, 12288ULL, 1000003ULL}) {
                        set_message_size(resized, bytes);
                        const Schedule direct = generated(c, info, k, p, style, bytes);
                        INFO(fmt::format("{} k={} {} {} bytes", info.name, k, to_string(style),
                                         to_string(c),
                                         bytes));
                        REQUIRE(resized.size() == direct.size());
                        CHECK(resized.shape.bytes == bytes);
                        std::size_t differ = 0;
                        for (TaskId t = 0; t < direct.size(); ++t)
                            differ += resized.bytes(t) != direct.bytes(t) ? 1 : 0;
                        CHECK(differ == 0);
                    }
                }
}
