// The verifier must reject: every structural defect, a deleted dependency (naming the task), a
// double-counted contribution, an incomplete result.
#include <doctest/doctest.h>

#include <algorithm>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

std::string message(const Schedule& s) {
    const VerifyReport r = verify(s);
    return r.ok() ? "ok" : r.violation->message;
}

bool verify_structure_only_ok(const std::string& xml) {
    std::vector<TaskId> order;
    return !verify_structure(parse_schedule_xml(xml, "m.xml").schedule, order);
}

}  // namespace

TEST_CASE("deleting a needed dependency from a ring allgather is caught and names the task") {
    const Schedule s = generate({Collective::allgather, "ring", 0, 8, 64, true});
    REQUIRE(verify(s).ok());
    // Task 10 (step 1, 2->3) forwards block 1, delivered by task 1 (1->2).
    REQUIRE(s.deps.row(10).size() == 1);
    CHECK(message(without_dependency(s, 10, 0)) ==
          "task id=10 (transfer 2->3): uses block 1 on rank 2, but task id=1 (transfer 1->2) "
          "that put it there is not in its dependency closure (missing dependency)");
}

namespace {

// Each dependency of `s` removed in turn: whether the verifier rejected the result (with a message
// naming a task), and the dependency's kind as seen from the task that lists it.
struct Removal {
    bool rejected;
    bool on_own_send;  // the task's rank sent the dependency (stream order, not data)
};

std::vector<Removal> remove_each_dependency(const Schedule& s) {
    std::vector<Removal> out;
    for (TaskId t = 0; t < s.size(); ++t)
        for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
            const TaskId d = s.deps.row(t)[i];
            const VerifyReport r = verify(without_dependency(s, t, i));
            if (r.violation) CHECK(r.violation->message.rfind("task id=", 0) == 0);
            out.push_back({!r.ok(), s.kind[d] == TaskKind::transfer && s.src[d] == s.src[t] &&
                                        s.dst[d] != s.src[t]});
        }
    return out;
}

struct Case {
    Collective collective;
    std::string algorithm;
    int k;
    Rank p;
};

// ring, rd, rm, prd and prm at powers and non-powers of k, both collectives.
const std::vector<Case> kCases = [] {
    std::vector<Case> cases;
    for (Collective c : {Collective::allgather, Collective::allreduce})
        for (Case x :
             {Case{c, "ring", 0, 5}, Case{c, "rd", 0, 8}, Case{c, "prd", 0, 6}, Case{c, "rm", 3, 9},
              Case{c, "rm", 2, 6}, Case{c, "prm", 3, 9}, Case{c, "prm", 4, 7}})
            cases.push_back(x);
    return cases;
}();

}  // namespace

TEST_CASE("mpi style: removing any one dependency of ring, rd, prd, rm, prm is rejected") {
    for (const Case& x : kCases) {
        const Schedule s = generate({x.collective, x.algorithm, x.k, x.p, 12, true, Style::mpi});
        REQUIRE(verify(s).ok());
        const std::vector<Removal> removals = remove_each_dependency(s);
        std::size_t rejected = 0;
        for (const Removal& r : removals) rejected += r.rejected ? 1 : 0;
        INFO(to_string(x.collective), " ", x.algorithm, " k=", x.k, " p=", x.p);
        CHECK(!removals.empty());
        CHECK(rejected == removals.size());
        // Ring allgather: p - 1 steps, step 1 free, each later send waits for one receive:
        // p (p - 2) = 15. Recursive doubling allgather: log2 p = 3 rounds, 8 (3 - 1) = 16.
        if (x.collective == Collective::allgather && x.algorithm == "ring")
            CHECK(removals.size() == 15);
        if (x.collective == Collective::allgather && x.algorithm == "rd")
            CHECK(removals.size() == 16);
    }
}

TEST_CASE("nccl style: only a dependency on the rank's own earlier send may be redundant") {
    // NCCL runs a rank's operations in stream order, so each send also waits for the rank's
    // previous send. That edge moves no data: the verifier accepts its removal unless a later
    // reduce writes in place over what that send reads (allreduce). Every other dependency (a
    // receive, a reduce) is needed.
    for (const Case& x : kCases) {
        const Schedule s = generate({x.collective, x.algorithm, x.k, x.p, 12, true, Style::nccl});
        REQUIRE(verify(s).ok());
        std::size_t accepted = 0;
        for (const Removal& r : remove_each_dependency(s)) {
            INFO(to_string(x.collective), " ", x.algorithm, " k=", x.k, " p=", x.p);
            CHECK((r.rejected || r.on_own_send));
            accepted += r.rejected ? 0 : 1;
        }
        // Ring allgather: 5 ranks, each of steps 2..4 waits for its own previous send, and
        // nothing overwrites a block: all 15 are redundant.
        if (x.collective == Collective::allgather && x.algorithm == "ring") CHECK(accepted == 15);
    }
}

// Not covered above, because some of their receive dependencies are legitimately redundant:
// k-ring (at a phase boundary the rank's first send, of a block it already holds, waits for the
// previous phase's last receive: order, not data) and the pipelined style (a send lists every
// receive of the data it forwards, some of which it also reaches through another dependency).

TEST_CASE("deleting the dependency of a reduce-scatter send on its reduce is a race") {
    const Schedule s = generate({Collective::allreduce, "ring", 0, 4, 40, true});
    // Find a transfer whose only dependency is a reduce and drop it.
    for (TaskId t = 0; t < s.size(); ++t) {
        if (s.kind[t] != TaskKind::transfer || s.deps.row(t).size() != 1) continue;
        if (s.kind[s.deps.row(t)[0]] != TaskKind::reduce) continue;
        CHECK(message(without_dependency(s, t, 0)).find("not in its dependency closure") !=
              std::string::npos);
        return;
    }
    FAIL("no reduce-scatter send found");
}

TEST_CASE("a sent dependency delivers no data") {
    // Rank 1 forwards block 0, which task 0 brings it, after its own send of block 1 (task 1)
    // is merely *sent*: nothing waited for block 0 to arrive, a race.
    const std::string xml =
        "<collective name=\"allgather\" nodes=\"3\" buffer_size=\"3\">\n"
        "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\" blocks=\"0\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"0\" deps=\"-1\" blocks=\"1\"/>\n"
        "<transfer id=\"2\" size=\"1\" src=\"1\" dst=\"2\" deps=\"-1\" sent_deps=\"1\" "
        "blocks=\"0\"/>\n"
        "</collective>\n";
    CHECK(message(parse_schedule_xml(xml, "m.xml").schedule) ==
          "task id=2 (transfer 1->2): uses block 0 on rank 1, but task id=0 (transfer 0->1) that "
          "put it there is not in its dependency closure (missing dependency)");
}

TEST_CASE("a task can wait only for its own rank's sends to be sent") {
    // Only rank 0 learns when task 0 is sent; rank 1 cannot wait for that.
    const std::string xml =
        "<collective name=\"allgather\" nodes=\"3\" buffer_size=\"3\">\n"
        "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\" blocks=\"0\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"2\" deps=\"-1\" sent_deps=\"0\" "
        "blocks=\"0\"/>\n"
        "</collective>\n";
    CHECK(message(parse_schedule_xml(xml, "m.xml").schedule) ==
          "task id=1 (transfer 1->2): sent_deps: task id=0 (transfer 0->1) is another rank's send "
          "(a task can wait only for its own rank's sends to be sent; list it in deps)");
}

TEST_CASE("a sent dependency on a rank's own send reaches what that send waited for") {
    // Rank 1 gets block 0 (task 0), forwards it to 2 (task 1, delivered dep), then forwards it
    // to 0 again waiting only for its own send (task 1) to be sent: task 1 started after block
    // 0 was delivered, so the data is there.
    const std::string xml =
        "<collective name=\"allgather\" nodes=\"3\" buffer_size=\"3\">\n"
        "<transfer id=\"0\" size=\"1\" src=\"0\" dst=\"1\" deps=\"-1\" blocks=\"0\"/>\n"
        "<transfer id=\"1\" size=\"1\" src=\"1\" dst=\"2\" deps=\"0\" blocks=\"0\"/>\n"
        "<transfer id=\"2\" size=\"1\" src=\"1\" dst=\"0\" deps=\"-1\" sent_deps=\"1\" "
        "blocks=\"0\"/>\n"
        "</collective>\n";
    CHECK(verify_structure_only_ok(xml));
    const VerifyReport report = verify(parse_schedule_xml(xml, "m.xml").schedule);
    REQUIRE(report.violation);  // the collective is incomplete, but no task races
    CHECK(report.violation->message.find("incomplete allgather") == 0);
}

TEST_CASE("only a transfer can be awaited as sent") {
    Schedule s = generate({Collective::allreduce, "rm", 2, 4, 8, true, Style::mpi});
    TaskId reduce = 0;
    while (s.kind[reduce] != TaskKind::reduce) ++reduce;
    s.sent_deps.items.push_back(reduce);  // the last task now waits for a reduce to be "sent"
    s.sent_deps.offsets.back() = static_cast<std::uint32_t>(s.sent_deps.items.size());
    // p = 4, k = 2: tasks 0-3 are round 1's sends, 4 the first reduce; 15 is rank 3's last reduce.
    CHECK(reduce == 4);
    CHECK(message(s) ==
          "task id=15 (reduce on rank 3): sent_deps: task id=4 (reduce on rank 0) is not a "
          "transfer (only a transfer is sent; list it in deps)");
}

TEST_CASE("structural defects") {
    Schedule s = generate({Collective::allgather, "ring", 0, 4, 8, true});
    SUBCASE("src == dst") {
        s.dst[5] = s.src[5];
        CHECK(message(s) == "task id=5 (transfer 1->1): src and dst are the same rank");
    }
    SUBCASE("rank out of range") {
        s.dst[5] = 4;
        CHECK(message(s) == "task id=5 (transfer 1->4): dst=4 is outside 0..3 (nodes=4)");
    }
    SUBCASE("size zero") {
        s.size_values.push_back(0);
        s.size_class[3] = static_cast<std::uint32_t>(s.size_values.size() - 1);
        CHECK(message(s) == "task id=3 (transfer 3->0): size must be at least 1 byte");
    }
    SUBCASE("size that does not match the payload") {
        s.size_values.push_back(9);
        s.size_class[3] = static_cast<std::uint32_t>(s.size_values.size() - 1);
        CHECK(message(s) ==
              "task id=3 (transfer 3->0): size=9 but the 1 blocks it carries hold 8 bytes");
    }
    SUBCASE("cycle") {
        // Task 5 (1->2) depends on 0 (0->1), task 10 (2->3) on 5; make 0 depend on 10.
        Csr<TaskId> deps;
        for (TaskId t = 0; t < s.size(); ++t) {
            for (TaskId d : s.deps.row(t)) deps.items.push_back(d);
            if (t == 0) deps.items.push_back(10);
            deps.close_row();
        }
        s.deps = deps;
        // The named tasks must form the cycle: each depends on the next, the last on the first.
        const std::string m = message(s);
        REQUIRE(m.find("dependency cycle: it depends on task id=") != std::string::npos);
        std::vector<TaskId> named{static_cast<TaskId>(std::stoul(m.substr(8)))};
        for (std::size_t at = m.find("id=", m.find("cycle")); at != std::string::npos;
             at = m.find("id=", at + 3))
            named.push_back(static_cast<TaskId>(std::stoul(m.substr(at + 3))));
        CHECK(m.find("which depends on it (a cycle of " + std::to_string(named.size()) +
                     " tasks)") != std::string::npos);
        for (std::size_t i = 0; i < named.size(); ++i) {
            const TaskId t = named[i], d = named[(i + 1) % named.size()];
            const auto row = s.deps.row(t);
            INFO(m);
            CHECK(std::find(row.begin(), row.end(), d) != row.end());
        }
    }
}

TEST_CASE("a dependency cycle is named task by task, cut in the middle when long") {
    // Tasks 0..11 on ranks 0..11 in a ring of dependencies: i depends on i + 1, 11 on 0. The
    // search starts at 0 and follows dependents: 11, 10, ..., 1, whose dependent 0 closes it;
    // the message lists 1..6, skips 7, 8, 9 and ends with 10, 11.
    std::string xml = "<collective name=\"allgather\" nodes=\"12\" buffer_size=\"12\">\n";
    for (int i = 0; i < 12; ++i)
        xml += "<transfer id=\"" + std::to_string(i) + "\" size=\"1\" src=\"" +
               std::to_string(i) + "\" dst=\"" + std::to_string((i + 1) % 12) + "\" deps=\"" +
               std::to_string((i + 1) % 12) + "\"/>\n";
    xml += "</collective>\n";
    CHECK(message(parse_schedule_xml(xml, "m.xml").schedule) ==
          "task id=0 (transfer 0->1): dependency cycle: it depends on task id=1, which depends "
          "on id=2, which depends on id=3, which depends on id=4, which depends on id=5, which "
          "depends on id=6, ... (3 more), which depends on id=10, which depends on id=11, which "
          "depends on it (a cycle of 12 tasks)");
}

TEST_CASE("a schedule that stops early is incomplete") {
    Schedule s = generate({Collective::allgather, "ring", 0, 4, 8, true});
    // Keep the first two steps only (8 transfers).
    s.kind.resize(8);
    s.src.resize(8);
    s.dst.resize(8);
    s.size_class.resize(8);
    s.deps.offsets.resize(9);
    s.deps.items.resize(s.deps.offsets.back());
    s.payload.offsets.resize(9);
    s.payload.items.resize(s.payload.offsets.back());
    CHECK(message(s) == "incomplete allgather: rank 0 never receives block 1");
}

TEST_CASE("double counting in an allreduce is caught") {
    // Two ranks, each sends its vector twice and reduces both copies.
    const std::string xml =
        "<collective name=\"allreduce\" nodes=\"2\" buffer_size=\"4\" segments=\"1\">\n"
        "<transfer id=\"0\" size=\"4\" src=\"0\" dst=\"1\" deps=\"-1\" segments=\"0\"/>\n"
        "<transfer id=\"1\" size=\"4\" src=\"0\" dst=\"1\" deps=\"-1\" segments=\"0\"/>\n"
        "<compute id=\"2\" rank=\"1\" size=\"4\" kind=\"reduce\" deps=\"0,1\" segments=\"0\"/>\n"
        "</collective>\n";
    const Schedule s = parse_schedule_xml(xml, "twice.xml").schedule;
    CHECK(message(s) ==
          "task id=2 (reduce on rank 1): counts the contributions of ranks 0 to "
          "segment 0 twice (operand from task id=1 (transfer 0->1))");
}
