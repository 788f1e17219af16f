// The streaming schedule reader against the DOM reader: the same IR, lines and messages for
// generated files, unusual but valid XML (which it leaves to the DOM reader), every malformed
// file of tests/bad-inputs/schedules, and texts longer than one 4 MiB piece.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "schedule_xml_stream.hpp"

using namespace piccolo;

namespace {

void check_same(const LoadedSchedule& a, const LoadedSchedule& b) {
    const Schedule& x = a.schedule;
    const Schedule& y = b.schedule;
    CHECK(x.shape.collective == y.shape.collective);
    CHECK(x.shape.ranks == y.shape.ranks);
    CHECK(x.shape.bytes == y.shape.bytes);
    CHECK(x.shape.pieces == y.shape.pieces);
    CHECK(x.shape.root == y.shape.root);
    CHECK(x.algorithm == y.algorithm);
    CHECK(x.k == y.k);
    CHECK(x.style == y.style);
    CHECK(x.kind == y.kind);
    CHECK(x.src == y.src);
    CHECK(x.dst == y.dst);
    CHECK(x.size_class == y.size_class);
    CHECK(x.size_values == y.size_values);
    CHECK(x.deps.offsets == y.deps.offsets);
    CHECK(x.deps.items == y.deps.items);
    CHECK(x.sent_deps.offsets == y.sent_deps.offsets);
    CHECK(x.sent_deps.items == y.sent_deps.items);
    CHECK(x.payload.offsets == y.payload.offsets);
    CHECK(x.payload.items == y.payload.items);
    CHECK(x.external_ids == y.external_ids);
    CHECK(a.lines == b.lines);
    CHECK(a.origin == b.origin);
}

std::string error_of(const std::function<void()>& read) {
    try {
        read();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

const std::string header = "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"2\">\n";

}  // namespace

TEST_CASE("streaming reader: takes every generated schedule and builds the DOM reader's IR") {
    for (Collective c : all_collectives)
        for (Style style : all_styles)
            for (bool payload : {true, false})
                for (const AlgorithmInfo& info : algorithms()) {
                    if (!builds(info, c)) continue;
                    CAPTURE(info.name);
                    const bool rooted = c == Collective::bcast || c == Collective::reduce;
                    const Rank root = rooted ? 5 : 0;
                    const std::string xml = schedule_to_xml(
                        generate({c, std::string(info.name), 3, 12, 1000, payload, style, root}));
                    std::string text = xml;
                    const std::optional<LoadedSchedule> streamed =
                        detail::stream_schedule_xml(text, "g.xml");
                    REQUIRE(streamed.has_value());
                    CHECK(text == xml);  // handed back unchanged
                    check_same(*streamed, parse_schedule_xml_dom(xml, "g.xml"));
                }
}

TEST_CASE("streaming reader: a text of several 4 MiB pieces, read from a stream") {
    const std::string xml =
        schedule_to_xml(generate({Collective::allgather, "ring", 0, 300, 8, true}));
    REQUIRE(xml.size() > (std::size_t{8} << 20));
    std::istringstream in(xml);
    const std::optional<LoadedSchedule> streamed = detail::stream_schedule_xml(in, "big.xml");
    REQUIRE(streamed.has_value());
    check_same(*streamed, parse_schedule_xml_dom(xml, "big.xml"));
}

TEST_CASE("streaming reader: unusual XML goes to the DOM reader, with the same result") {
    const std::string task = "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n";
    const std::string end = "</collective>\n";
    struct Case {
        std::string text;
        bool streamed;
    };
    const std::vector<Case> cases = {
        {std::string("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- c -->") + header + task +
             end,
         true},
        {header + "loose text\n<!-- note -->" + task + "<!---->" + end, true},
        {"<collective name='allgather' nodes = '2' buffer_size='2'>" + task + end, true},
        {header + "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\">\n </transfer>" +
             end,
         true},
        {header + "<transfer id=\"4\" size=\"1\" src=\"0\" dst=\"1\"/>" +
             "<transfer id=\"9\" size=\"1\" src=\"1\" dst=\"0\" deps=\"4\"/>" + end,
         true},
        {header + "<!-- two\nlines -->\n<transfer id=\"0\"\n size=\"1\" src=\"0\"\n dst=\"1\"/>\n" +
             "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"0\" deps=\"0\"/>" + end,
         true},
        {"<!DOCTYPE collective>\n" + header + task + end, false},
        {header + "a &amp; b" + task + end, false},
        {header + "<![CDATA[x]]>" + task + end, false},
        {"<collective name=\"allgather\" algorithm=\"r\ting\" nodes=\"2\" buffer_size=\"2\">" +
             task + end,
         false},
        {header + "<transfer id=\"1\" size=\"1\" src=\"0\" dst=\"1\"/>" +
             "<transfer id=\"0\" size=\"1\" src=\"1\" dst=\"0\" deps=\"1\"/>" + end,
         false},
        {"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + header + task + end, false},
    };
    for (const Case& c : cases) {
        CAPTURE(c.text);
        std::string text = c.text;
        CHECK(detail::stream_schedule_xml(text, "u.xml").has_value() == c.streamed);
        check_same(parse_schedule_xml(c.text, "u.xml"), parse_schedule_xml_dom(c.text, "u.xml"));
    }
    const std::string piccl = std::string(PICCOLO_SOURCE_DIR) + "/tests/data/piccl-ring-8.xml";
    check_same(read_schedule_xml(piccl),
               parse_schedule_xml_dom(read_input_file(piccl, "schedule", 1 << 20), piccl));
}

TEST_CASE("streaming reader: every malformed schedule gets the DOM reader's message") {
    const std::filesystem::path folder =
        std::filesystem::path(PICCOLO_SOURCE_DIR) / "tests/bad-inputs/schedules";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string file = entry.path().string();
        CAPTURE(file);
        const std::string text = read_input_file(file, "schedule", 1 << 20);
        const std::string expected = error_of([&] { parse_schedule_xml_dom(text, file); });
        if (expected == "(no error)") continue;  // the verifier's cases
        CHECK(error_of([&] { read_schedule_xml(file); }) == expected);
        CHECK(error_of([&] { parse_schedule_xml(text, file); }) == expected);
        ++files;
    }
    CHECK(files >= 10);
}

// The one error the streaming reader reports itself: it would expand the same 2^25 ids a second
// time to reach the same line. Where the rest of the file is XML it leaves to the DOM reader
// (here an entity reference), it declines, and the message is the same.
TEST_CASE("streaming reader: lists past kMaxListItems ids get the DOM reader's message, once") {
    const int tasks = 6000;  // each lists tasks 0..5999: line 5594 passes 2^25 = 33,554,432
    std::string text = header;
    for (int t = 0; t < tasks; ++t)
        text += fmt::format("<transfer id=\"{}\" size=\"1\" src=\"0\" dst=\"1\" deps=\"0-{}\"/>\n",
                            t, tasks - 1);
    const std::string expected =
        "u.xml:5594: deps: the lists of the file name more than 33554432 ids in all; is a range "
        "mistyped?";
    std::string clean = text + "</collective>\n";
    CHECK(error_of([&] { detail::stream_schedule_xml(clean, "u.xml"); }) == expected);

    std::string unusual = text + "<compute id=\"6000\" size=\"1&#48;\"/>\n</collective>\n";
    std::optional<LoadedSchedule> streamed;
    CHECK(error_of([&] { streamed = detail::stream_schedule_xml(unusual, "u.xml"); }) ==
          "(no error)");
    CHECK_FALSE(streamed.has_value());
    CHECK(error_of([&] { parse_schedule_xml(unusual, "u.xml"); }) == expected);
}

// Without the payload (what piccolo sim reads), both readers take a file of more (rank, piece)
// pairs than kMaxRankPieces and skip its payload attributes unread, even malformed ones; with it,
// both refuse the file with the same message.
TEST_CASE("both readers: a file read without its payload has no (rank, piece) limit") {
    const std::string text =
        "<collective name=\"allreduce\" nodes=\"8\" buffer_size=\"64\" segments=\"4000000000\">\n"
        "<transfer id=\"0\" size=\"8\" src=\"0\" dst=\"1\" segments=\"0-3999999999\"/>\n"
        "<transfer id=\"1\" size=\"8\" src=\"1\" dst=\"2\" deps=\"0\" segments=\"x\"/>\n"
        "</collective>\n";
    std::string streamed_text = text;
    const std::optional<LoadedSchedule> streamed =
        detail::stream_schedule_xml(streamed_text, "p.xml", Payload::skip);
    REQUIRE(streamed.has_value());
    const LoadedSchedule dom = parse_schedule_xml_dom(text, "p.xml", Payload::skip);
    check_same(*streamed, dom);
    CHECK(dom.schedule.size() == 2);
    CHECK(dom.schedule.shape.pieces == 4000000000U);
    CHECK_FALSE(dom.schedule.has_payload());
    CHECK(dom.schedule.deps.items == std::vector<TaskId>{0});

    const std::string expected =
        "p.xml:1: nodes x segments: 8 x 4000000000 is more than the 16777216 (rank, segment) "
        "pairs a schedule may have when its segments are read (piccolo sim reads the file "
        "without them)";
    CHECK(error_of([&] { parse_schedule_xml_dom(text, "p.xml"); }) == expected);
    CHECK(error_of([&] { parse_schedule_xml(text, "p.xml"); }) == expected);
}
