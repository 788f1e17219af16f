// The verifier must reject: every structural defect, a deleted dependency (naming the task), a
// double-counted contribution, an incomplete result.
#include <doctest/doctest.h>

#include "piccolo/generate.hpp"
#include "piccolo/schedule_xml.hpp"
#include "piccolo/verify.hpp"

using namespace piccolo;

namespace {

// Rebuilds the dependency lists with `task`'s dependency number `which` removed.
Schedule without_dependency(Schedule s, TaskId task, std::size_t which) {
    Csr<TaskId> deps;
    for (TaskId t = 0; t < s.size(); ++t) {
        const auto row = s.deps.row(t);
        for (std::size_t i = 0; i < row.size(); ++i)
            if (t != task || i != which) deps.items.push_back(row[i]);
        deps.close_row();
    }
    s.deps = std::move(deps);
    return s;
}

std::string message(const Schedule& s) {
    const VerifyReport r = verify(s);
    return r.ok() ? "ok" : r.violation->message;
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

TEST_CASE("every single dependency of a small RM allgather and allreduce is needed") {
    // Deleting any one dependency breaks the proof (Waitall edges carry the older data), or the
    // schedule stays correct only if the edge was redundant: count both.
    for (Collective c : {Collective::allgather, Collective::allreduce}) {
        const Schedule s = generate({c, "rm", 3, 9, 6, true});
        std::size_t rejected = 0, total = 0;
        for (TaskId t = 0; t < s.size(); ++t)
            for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                ++total;
                rejected += verify(without_dependency(s, t, i)).ok() ? 0 : 1;
            }
        INFO(to_string(c));
        CHECK(total > 0);
        CHECK(rejected > 0);
    }
}

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
        CHECK(message(s).find("dependency cycle") != std::string::npos);
    }
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
