// XML: byte-identical round trips, PICCL files, exact error messages.
#include <doctest/doctest.h>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"

using namespace piccolo;

TEST_CASE("write -> read -> write is byte-identical for every algorithm and collective") {
    for (Collective c : all_collectives)
        for (const AlgorithmInfo& info : algorithms()) {
            if (!builds(info, c)) continue;
            const Schedule s = generate({c, std::string(info.name), 3, 12, 1000, true});
            const std::string first = schedule_to_xml(s);
            const LoadedSchedule back = parse_schedule_xml(first, "mem.xml");
            CHECK(schedule_to_xml(back.schedule) == first);
            CHECK(back.schedule.has_payload());
            CHECK(back.schedule.deps.items == s.deps.items);
            CHECK(back.schedule.shape.bytes == s.shape.bytes);
            CHECK(back.schedule.shape.pieces == s.shape.pieces);
            CHECK(verify(back.schedule).ok());
        }
}

TEST_CASE("the XML format, exactly: an MPI-style ring waits for its previous send to be sent") {
    const Schedule s = generate({Collective::allgather, "ring", 0, 3, 10, true});
    CHECK(schedule_to_xml(s) ==
          "<collective name=\"allgather\" algorithm=\"ring\" k=\"0\" nodes=\"3\" "
          "buffer_size=\"30\" style=\"mpi\" format=\"piccolo-1\">\n"
          "  <transfer id=\"0\" size=\"10\" src=\"0\" dst=\"1\" deps=\"-1\" blocks=\"0\"/>\n"
          "  <transfer id=\"1\" size=\"10\" src=\"1\" dst=\"2\" deps=\"-1\" blocks=\"1\"/>\n"
          "  <transfer id=\"2\" size=\"10\" src=\"2\" dst=\"0\" deps=\"-1\" blocks=\"2\"/>\n"
          "  <transfer id=\"3\" size=\"10\" src=\"0\" dst=\"1\" deps=\"2\" sent_deps=\"0\" "
          "blocks=\"2\"/>\n"
          "  <transfer id=\"4\" size=\"10\" src=\"1\" dst=\"2\" deps=\"0\" sent_deps=\"1\" "
          "blocks=\"0\"/>\n"
          "  <transfer id=\"5\" size=\"10\" src=\"2\" dst=\"0\" deps=\"1\" sent_deps=\"2\" "
          "blocks=\"1\"/>\n"
          "</collective>\n");
}

TEST_CASE("the styles of a ring: what step 2 of rank 0 waits for") {
    auto step2 = [](Style style) {
        const Schedule s = generate({Collective::allgather, "ring", 0, 3, 10, true, style});
        CHECK(s.style == to_string(style));
        return std::pair(std::vector<TaskId>(s.deps.row(3).begin(), s.deps.row(3).end()),
                         std::vector<TaskId>(s.sent_deps_of(3).begin(), s.sent_deps_of(3).end()));
    };
    // The block it forwards (task 2, delivered) always; its own previous send (task 0)
    // delivered in the nccl style, sent in the mpi style, not at all when pipelined.
    CHECK(step2(Style::nccl) == std::pair(std::vector<TaskId>{2, 0}, std::vector<TaskId>{}));
    CHECK(step2(Style::mpi) == std::pair(std::vector<TaskId>{2}, std::vector<TaskId>{0}));
    CHECK(step2(Style::pipelined) == std::pair(std::vector<TaskId>{2}, std::vector<TaskId>{}));
}

TEST_CASE("tasks are put in id order whatever their order in the file") {
    const std::string ordered =
        "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"2\" style=\"nccl\">\n"
        "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"0\" deps=\"-1\"/>\n"
        "<transfer id=\"2\" size=\"1\" src=\"0\" dst=\"1\" deps=\"1\" sent_deps=\"0\"/>\n"
        "</collective>\n";
    const std::string shuffled =
        "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"2\" style=\"nccl\">\n"
        "<transfer id=\"2\" size=\"1\" src=\"0\" dst=\"1\" deps=\"1\" sent_deps=\"0\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"0\" deps=\"-1\"/>\n"
        "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n"
        "</collective>\n";
    const LoadedSchedule a = parse_schedule_xml(ordered, "a.xml");
    const LoadedSchedule b = parse_schedule_xml(shuffled, "b.xml");
    CHECK(schedule_to_xml(a.schedule) == schedule_to_xml(b.schedule));
    CHECK(b.schedule.external_ids.empty());  // ids are 0..n-1 once sorted
    CHECK(b.schedule.sent_deps_of(2).size() == 1);
    CHECK(b.schedule.sent_deps_of(2)[0] == 0);
    CHECK(b.lines == std::vector<std::uint32_t>{4, 3, 2});  // each task keeps its own line
    CHECK(b.schedule.style == "nccl");
}

TEST_CASE("payload lists compress ascending stretches of three or more") {
    const Schedule s = generate({Collective::allgather, "rm", 4, 16, 1, true});
    const std::string xml = schedule_to_xml(s);
    CHECK(xml.find("blocks=\"0-3\"") != std::string::npos);
    CHECK(xml.find("blocks=\"0-15\"") == std::string::npos);  // nobody sends everything
}

TEST_CASE("a hand-written PICCL file loads, verifies structurally, and keeps its ids") {
    const LoadedSchedule loaded =
        read_schedule_xml(std::string(PICCOLO_SOURCE_DIR) + "/tests/data/piccl-ring-8.xml");
    const Schedule& s = loaded.schedule;
    CHECK(s.shape.ranks == 8);
    CHECK(s.shape.bytes == 1048576);
    CHECK(s.size() == 24);
    CHECK_FALSE(s.has_payload());
    CHECK(s.external_id(16) == 20);  // ids 16..19 are skipped in the file
    CHECK(s.deps.row(16).size() == 2);
    CHECK(s.deps.row(16)[0] == 8);
    CHECK(s.deps.row(16)[1] == 15);
    CHECK(loaded.lines[0] == 3);
    CHECK(loaded.lines[16] == 21);
    const VerifyReport report = verify(s);
    CHECK(report.ok());
    CHECK_FALSE(report.data_flow_checked);
    // Written back in piccolo's format, it reads back identically.
    const std::string xml = schedule_to_xml(s);
    CHECK(schedule_to_xml(parse_schedule_xml(xml, "again.xml").schedule) == xml);
    CHECK(xml.find("<transfer id=\"20\" size=\"1048576\" src=\"0\" dst=\"1\" deps=\"8,15\"/>") !=
          std::string::npos);
}

TEST_CASE("reader errors name the file, the line and the problem") {
    auto error_of = [](const std::string& xml) {
        try {
            parse_schedule_xml(xml, "x.xml");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string head = "<collective name=\"allgather\" nodes=\"2\" buffer_size=\"2\">\n";
    CHECK(error_of(
              head +
              "<transfer id=\"0\" size=\"1.5\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n</collective>") ==
          "x.xml:2: size: must be an integer >= 0 (got \"1.5\")");
    CHECK(error_of(
              head +
              "<transfer id=\"0\" size=\"-4\" src=\"0\" dst=\"1\" deps=\"-1\"/>\n</collective>") ==
          "x.xml:2: size: must be an integer >= 0 (got \"-4\")");
    CHECK(
        error_of(head +
                 "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"7\"/>\n</collective>") ==
        "x.xml:2: deps: task id=0 depends on id 7, which does not exist");
    CHECK(error_of(head + "\n<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\"/>\n<transfer "
                          "id=\"0\" size=\"1\" src=\"1\" dst=\"0\"/>\n</collective>") ==
          "x.xml:4: id 0 is used twice (ids must be unique)");
    CHECK(error_of(head + "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\"") ==
          "x.xml:2: not well-formed XML: Error parsing element attribute");
    CHECK(error_of(head + "<transfer id=\"0\" src=\"0\" dst=\"1\"/></collective>") ==
          "x.xml:2: <transfer> lacks the attribute size");
    CHECK(error_of(head + "<message id=\"0\"/></collective>") ==
          "x.xml:2: unknown element <message> (expected <transfer> or <compute>)");
    CHECK(error_of("<schedule/>") == "x.xml:1: root element is <schedule>, expected <collective>");
    CHECK(error_of("") == "x.xml:1: not well-formed XML: No document element found");
}
