// The schedule XML rules fed directly with tags, as a token source hands them over: the
// whole-text instance gives the reference result and messages, the one-pass instance the same
// IR or NotStreamable; and through the readers, a syntax error further on in a file comes before
// a broken rule earlier in it. Expected values are worked by hand.
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "schedule_xml_rules.hpp"
#include "schedule_xml_stream.hpp"

using namespace piccolo;
using detail::NotStreamable;
using detail::ScheduleRules;
using detail::XmlTag;

namespace {

std::string error_of(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        return e.what();
    } catch (const NotStreamable&) {
        return "(declined)";
    }
    return "(no error)";
}

XmlTag tag(std::string_view name, std::uint32_t line, std::vector<detail::XmlAttribute> a) {
    return XmlTag{name, std::move(a), true, line};
}

const XmlTag root = tag("collective", 1, {{"name", "AllGather"}, {"nodes", "2"},
                                          {"buffer_size", "16"}, {"nodes", "9"}});

template <class Id>
LoadedSchedule read(const std::vector<XmlTag>& tasks) {
    ScheduleRules<Id> rules("r.xml", Payload::read, tasks.size());
    rules.root(root);
    for (const XmlTag& t : tasks) rules.element(t);
    return rules.finish();
}

}  // namespace

TEST_CASE("rules: ids in any order come out sorted, dependencies resolved to task indexes") {
    // Ids 7, 3, 5 on lines 2, 3, 4: sorted, 3 (line 3) is task 0, 5 (line 4) task 1, 7 task 2.
    const std::vector<XmlTag> tasks = {
        tag("transfer", 2, {{"id", "7"}, {"size", "8"}, {"src", "0"}, {"dst", "1"},
                            {"deps", "3,5"}, {"blocks", "0"}, {"blocks", "1"}}),
        tag("transfer", 3, {{"id", "3"}, {"size", "8"}, {"src", "1"}, {"dst", "0"},
                            {"blocks", "1"}}),
        tag("compute", 4, {{"id", "5"}, {"size", "4"}, {"rank", "0"}, {"kind", "copy"},
                           {"deps", "3"}}),
    };
    const LoadedSchedule loaded = read<std::int64_t>(tasks);
    const Schedule& s = loaded.schedule;
    CHECK(s.shape.collective == Collective::allgather);
    CHECK(s.shape.ranks == 2);  // the first of two nodes attributes
    CHECK(s.shape.bytes == 8);  // buffer_size / nodes
    CHECK(s.kind == std::vector<TaskKind>{TaskKind::transfer, TaskKind::copy, TaskKind::transfer});
    CHECK(s.src == std::vector<Rank>{1, 0, 0});
    CHECK(s.dst == std::vector<Rank>{0, 0, 1});
    CHECK(s.size_values == std::vector<std::uint64_t>{8, 4});
    CHECK(s.size_class == std::vector<std::uint32_t>{0, 1, 0});
    CHECK(s.deps.offsets == std::vector<std::uint32_t>{0, 0, 1, 3});
    CHECK(s.deps.items == std::vector<TaskId>{0, 0, 1});
    CHECK(s.payload.offsets == std::vector<std::uint32_t>{0, 1, 1, 2});
    CHECK(s.payload.items == std::vector<std::uint32_t>{1, 1});  // the last blocks attribute
    CHECK(s.external_ids == std::vector<std::int64_t>{3, 5, 7});
    CHECK(loaded.lines == std::vector<std::uint32_t>{3, 4, 2});
    // One pass holds ascending ids only: it leaves this file to the whole-text reading.
    CHECK(error_of([&] { read<std::uint32_t>(tasks); }) == "(declined)");
}

TEST_CASE("rules: one pass builds the same IR from ascending ids, declines where a rule breaks") {
    const std::vector<XmlTag> tasks = {
        tag("transfer", 2, {{"id", "4"}, {"size", "8"}, {"src", "0"}, {"dst", "1"}}),
        tag("transfer", 5, {{"id", "9"}, {"size", "8"}, {"src", "1"}, {"dst", "0"},
                            {"deps", "4"}, {"sent_deps", "-1"}}),
    };
    for (const LoadedSchedule& loaded : {read<std::uint32_t>(tasks), read<std::int64_t>(tasks)}) {
        CHECK(loaded.schedule.deps.items == std::vector<TaskId>{0});
        CHECK(loaded.schedule.deps.offsets == std::vector<std::uint32_t>{0, 0, 1});
        CHECK(loaded.schedule.sent_deps.offsets == std::vector<std::uint32_t>{0, 0, 0});
        CHECK(loaded.schedule.external_ids == std::vector<std::int64_t>{4, 9});
        CHECK(loaded.lines == std::vector<std::uint32_t>{2, 5});
    }
    const std::vector<XmlTag> broken = {
        tag("transfer", 2, {{"id", "0"}, {"size", "8"}, {"src", "0"}, {"dst", "1"}}),
        tag("compute", 3, {{"id", "1"}, {"size", "8"}, {"rank", "0"}, {"kind", "sum"}}),
    };
    CHECK(error_of([&] { read<std::int64_t>(broken); }) ==
          "r.xml:3: kind: unknown compute kind \"sum\" (reduce, permute, copy)");
    CHECK(error_of([&] { read<std::uint32_t>(broken); }) == "(declined)");
    const std::vector<XmlTag> twice = {
        tag("transfer", 2, {{"id", "0"}, {"size", "8"}, {"src", "0"}, {"dst", "1"}}),
        tag("transfer", 3, {{"id", "0"}, {"size", "8"}, {"src", "1"}, {"dst", "0"}}),
    };
    CHECK(error_of([&] { read<std::int64_t>(twice); }) ==
          "r.xml:3: id 0 is used twice (ids must be unique)");
    // A dependency range wider than the file's 2 tasks: the whole-text reading knows the count
    // beforehand and refuses it on its line; one pass finds out at the end.
    const std::vector<XmlTag> wide = {
        tag("transfer", 2, {{"id", "0"}, {"size", "8"}, {"src", "0"}, {"dst", "1"}}),
        tag("transfer", 3, {{"id", "1"}, {"size", "8"}, {"src", "1"}, {"dst", "0"},
                            {"deps", "0-2"}}),
    };
    CHECK(error_of([&] { read<std::int64_t>(wide); }) ==
          "r.xml:3: deps: value out of range in \"0-2\"");
    CHECK(error_of([&] { read<std::uint32_t>(wide); }) == "(declined)");
}

TEST_CASE("rules: both instances read the root of a rooted collective, and refuse a bad one") {
    const std::vector<XmlTag> tasks = {
        tag("transfer", 2, {{"id", "0"}, {"size", "8"}, {"src", "2"}, {"dst", "0"}}),
    };
    auto rooted = [&]<class Id>(Id, std::string_view value) {
        ScheduleRules<Id> rules("r.xml", Payload::read, tasks.size());
        rules.root(tag("collective", 1, {{"name", "bcast"}, {"nodes", "3"}, {"buffer_size", "8"},
                                         {"root", value}, {"root", "0"}}));
        for (const XmlTag& t : tasks) rules.element(t);
        return rules.finish();
    };
    // The first of two root attributes, as for every attribute of <collective>.
    CHECK(rooted(std::uint32_t{}, "2").schedule.shape.root == 2);
    CHECK(rooted(std::int64_t{}, "2").schedule.shape.root == 2);
    CHECK(rooted(std::int64_t{}, "2").schedule.shape.collective == Collective::bcast);
    CHECK(error_of([&] { rooted(std::int64_t{}, "3"); }) ==
          "r.xml:1: root: rank 3 is not one of the 3 nodes (0..2)");
    CHECK(error_of([&] { rooted(std::int64_t{}, "-1"); }) ==
          "r.xml:1: root: must be an integer >= 0 (got \"-1\")");
    CHECK(error_of([&] { rooted(std::uint32_t{}, "3"); }) == "(declined)");
    // Through the readers: the streaming reader takes a rooted file and leaves a bad root to the
    // DOM walk, whose message the caller sees.
    const std::string text =
        "<collective name=\"reduce\" nodes=\"3\" buffer_size=\"8\" root=\"1\">\n"
        "<transfer id=\"0\" size=\"8\" src=\"2\" dst=\"1\"/>\n"
        "</collective>\n";
    std::string streamed = text;
    const std::optional<LoadedSchedule> loaded = detail::stream_schedule_xml(streamed, "s.xml");
    REQUIRE(loaded.has_value());
    CHECK(loaded->schedule.shape.root == 1);
    CHECK(loaded->schedule.shape.collective == Collective::reduce);
    std::string bad = text;
    bad.replace(bad.find("root=\"1\""), 8, "root=\"7\"");
    CHECK_FALSE(detail::stream_schedule_xml(bad, "s.xml").has_value());
    CHECK(error_of([&] { parse_schedule_xml(bad, "s.xml"); }) ==
          "s.xml:1: root: rank 7 is not one of the 3 nodes (0..2)");
}

TEST_CASE("readers: a syntax error further on comes before a broken rule earlier in the file") {
    const std::string text =
        "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"2\">\n"
        "<transfer id=\"0\" size=\"-8\" src=\"0\" dst=\"1\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"0\"\n"
        "</collective>\n";
    std::string streamed = text;
    CHECK_FALSE(detail::stream_schedule_xml(streamed, "s.xml").has_value());
    CHECK(error_of([&] { parse_schedule_xml(text, "s.xml"); }) ==
          "s.xml:4: not well-formed XML: Error parsing start element tag");
    const std::string closed = text.substr(0, text.rfind("\n</")) + "/>\n</collective>\n";
    CHECK(error_of([&] { parse_schedule_xml(closed, "s.xml"); }) ==
          "s.xml:2: size: must be an integer >= 0 (got \"-8\")");
}
