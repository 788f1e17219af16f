// Schedule::joined_successors(): cohorts of consecutive tasks with the same dependencies are listed
// once, by their first task, and the engine makes the whole cohort ready when that task is. The
// replay must not change, event for event.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <span>
#include <vector>

#include "grid_machines.hpp"
#include "hand_cases.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

std::vector<TaskId> row_of(const PackedRows& list, TaskId t) {
    const std::span<const TaskId> row = list.row(t);
    return {row.begin(), row.end()};
}

// The tasks a joined list's row names (its items are indices into `waiters`).
std::vector<TaskId> tasks_in_row(const Schedule::Successors& joined, const PackedRows& list,
                                 TaskId t) {
    std::vector<TaskId> tasks;
    for (std::uint32_t item : list.row(t)) tasks.push_back(joined.task_of(item));
    return tasks;
}

}  // namespace

TEST_CASE("joined successors: cohorts of equal dependency rows, by hand") {
    // 2, 3 and 4 wait for 0 and 1 (one cohort); 5 for 0 alone; 6 for 0 and 1 again, but also for
    // 2 to be sent, so it leads a cohort of its own; 7 waits for nothing.
    const Schedule s = hand::schedule(8, {{0, 1, 1},
                                          {1, 0, 1},
                                          {0, 2, 1, "0,1"},
                                          {0, 3, 1, "0,1"},
                                          {0, 4, 1, "0,1"},
                                          {1, 5, 1, "0"},
                                          {1, 6, 1, "0,1", "2"},
                                          {1, 7, 1}});
    const Schedule::Successors plain = s.successors();
    CHECK(plain.cohort.empty());
    CHECK(row_of(plain.delivered, 0) == std::vector<TaskId>{2, 3, 4, 5, 6});
    const Schedule::Successors joined = s.joined_successors();
    CHECK(joined.cohort == std::vector<std::uint32_t>{1, 1, 3, 0, 0, 1, 1, 1});
    // The waiters: cohort leaders with dependencies (0, 1 and 7 wait for nothing).
    CHECK(plain.waiters.empty());
    CHECK(joined.waiters == std::vector<TaskId>{2, 5, 6});
    CHECK(row_of(joined.delivered, 0) == std::vector<TaskId>{0, 1, 2});
    CHECK(tasks_in_row(joined, joined.delivered, 0) == std::vector<TaskId>{2, 5, 6});
    CHECK(tasks_in_row(joined, joined.delivered, 1) == std::vector<TaskId>{2, 6});
    CHECK(tasks_in_row(joined, joined.sent, 2) == std::vector<TaskId>{6});
    CHECK(joined.delivered.size() == 5);
}

TEST_CASE("joined successors: the first cohort late in the file, of sent dependencies") {
    // No two neighbours share a first delivered dependency, so nothing joins before 5 and 6:
    // neither waits for a delivery, both for 2 to be sent. 7 waits for what 3 waits for, but
    // not next to it.
    const Schedule s = hand::schedule(8, {{0, 1, 1},
                                          {1, 0, 1},
                                          {0, 2, 1, "0"},
                                          {0, 3, 1, "1"},
                                          {1, 4, 1, "0"},
                                          {1, 5, 1, "", "2"},
                                          {1, 6, 1, "", "2"},
                                          {1, 7, 1, "1"}});
    const Schedule::Successors joined = s.joined_successors();
    CHECK(joined.cohort == std::vector<std::uint32_t>{1, 1, 1, 1, 1, 2, 0, 1});
    CHECK(joined.waiters == std::vector<TaskId>{2, 3, 4, 5, 7});
    CHECK(tasks_in_row(joined, joined.sent, 2) == std::vector<TaskId>{5});
    CHECK(tasks_in_row(joined, joined.delivered, 1) == std::vector<TaskId>{3, 7});
}

TEST_CASE("joined successors: where nothing joins, the plain lists, naming tasks") {
    // A chain and a fan: no two neighbours wait for the same tasks.
    const Schedule s =
        hand::schedule(4, {{0, 1, 1}, {1, 2, 1, "0"}, {2, 3, 1, "1"}, {1, 3, 1, "0,1"}});
    const Schedule::Successors joined = s.joined_successors();
    CHECK(joined.cohort.empty());
    CHECK(joined.waiters.empty());
    CHECK(row_of(joined.delivered, 0) == std::vector<TaskId>{1, 3});
    CHECK(row_of(joined.delivered, 1) == std::vector<TaskId>{2, 3});
    CHECK(joined.delivered.rows() == 4);
}

TEST_CASE("joined successors: rm with k = 4 on 16 ranks lists each round's three sends once") {
    // Two rounds; in the second, each rank's three sends wait for its three receives (delivered)
    // and its three sends (sent) of the first: 16 x 3 x 3 items in each list, a third joined.
    GenerateRequest request{Collective::allgather, "rm", 4, 16, 64, false};
    request.style = Style::mpi;
    const Schedule s = generate(request);
    const Schedule::Successors plain = s.successors(), joined = s.joined_successors();
    CHECK(plain.delivered.size() == 144);
    CHECK(plain.sent.size() == 144);
    CHECK(joined.delivered.size() == 48);
    CHECK(joined.sent.size() == 48);
    std::size_t leaders_of_three = 0;
    for (std::uint32_t length : joined.cohort) leaders_of_three += length == 3 ? 1 : 0;
    CHECK(leaders_of_three == 16);
    CHECK(joined.waiters.size() == 16);  // the second round's leaders; the first waits for none
}

TEST_CASE("joined successors: the same replay, event for event, over the generator grid") {
    // p = 9 and 16: radices 3 x 3 and 4 x 4 put several sends of a rank in a later round.
    std::size_t cases = 0, joined_cases = 0;
    grid::for_each_case({9, 16}, {16, 1048576}, [&](const grid::Case& x) {
        INFO(x.label());
        SimOptions options = x.options;
        options.record_trace = true;  // every event's time, through the engine's general path
        const Schedule::Successors plain = x.schedule.successors();
        const Schedule::Successors joined = x.schedule.joined_successors();
        const SimResult a = simulate(x.schedule, plain, x.machine, x.layout, options);
        const SimResult b = simulate(x.schedule, joined, x.machine, x.layout, options);
        CHECK(a.makespan == b.makespan);
        CHECK(a.rank_finish == b.rank_finish);
        REQUIRE(a.transfer_trace.size() == b.transfer_trace.size());
        for (std::size_t i = 0; i < a.transfer_trace.size(); ++i) {
            const TransferTrace &u = a.transfer_trace[i], &v = b.transfer_trace[i];
            CHECK(std::vector<double>{u.ready, u.send_start, u.inject_start, u.inject_end,
                                      u.receive_start, u.sent, u.complete} ==
                  std::vector<double>{v.ready, v.send_start, v.inject_start, v.inject_end,
                                      v.receive_start, v.sent, v.complete});
        }
        REQUIRE(a.compute_trace.size() == b.compute_trace.size());
        for (std::size_t i = 0; i < a.compute_trace.size(); ++i)
            CHECK(std::vector<double>{a.compute_trace[i].ready, a.compute_trace[i].start,
                                      a.compute_trace[i].end} ==
                  std::vector<double>{b.compute_trace[i].ready, b.compute_trace[i].start,
                                      b.compute_trace[i].end});
        options.record_trace = false;  // the plain replays' own path (delta, dgx-h100)
        CHECK(simulate(x.schedule, plain, x.machine, x.layout, options).makespan ==
              simulate(x.schedule, joined, x.machine, x.layout, options).makespan);
        // Given up part way (also between two tasks of one cohort): the same step, the same time.
        options.give_up_after = a.makespan * 0.6;
        const SimResult c = simulate(x.schedule, plain, x.machine, x.layout, options);
        const SimResult d = simulate(x.schedule, joined, x.machine, x.layout, options);
        CHECK(c.gave_up);
        CHECK(c.gave_up == d.gave_up);
        CHECK(c.makespan == d.makespan);
        ++cases;
        joined_cases += joined.cohort.empty() ? 0 : 1;
    });
    MESSAGE(fmt::format("{} cases, {} with cohorts of joined tasks", cases, joined_cases));
    CHECK(joined_cases * 4 > cases);
}

TEST_CASE("joined successors: a same-time READY of a lower id goes before the rest of a cohort") {
    // Tasks 2 and 3 both wait for task 0 alone: a joined cohort, ready at 6 us. Task 2 is a copy of
    // no cost, so it releases task 1 at that same 6 us; by (time, kind, id) task 1 takes rank
    // 1's send port before task 3 (sim/engine/README.md, "Events and ties"). cpu overheads, L = 3
    // us, o_s = 2, o_r = 1, g = 3, G = 0: task 0 is delivered at 2 + 3 + 1 = 6; task 1 sends at 6,
    // task 3 at 6 + g = 9, delivered at 9 + 2 + 3 + 1 = 15; task 4 (rank 0 -> 1, after task 3)
    // is delivered at 15 + 6 = 21. Served in the cohort's order instead, rank 1 finished at 18.
    const Schedule s = parse_schedule_xml(R"(<collective name="allgather" nodes="2" buffer_size="16">
  <transfer id="0" size="64" src="0" dst="1" deps="-1"/>
  <transfer id="1" size="3" src="1" dst="0" deps="2"/>
  <compute id="2" rank="0" size="3" kind="copy" deps="0"/>
  <transfer id="3" size="3" src="1" dst="0" deps="0"/>
  <transfer id="4" size="16" src="0" dst="1" deps="3"/>
</collective>
)",
                                          "run.xml")
                           .schedule;
    const Machine m = parse_machine_yaml(R"(name: tie
levels:
  - name: node
    fanout: 2
    overhead: cpu
    loggp: {L: 3.0e-6, o_s: 2.0e-6, o_r: 1.0e-6, g: 3.0e-6, G: 0}
)",
                                         "tie.yaml");
    CHECK(s.joined_successors().cohort[2] == 2);  // the cohort the case is about
    for (const bool joined : {false, true}) {
        INFO("joined lists: " << joined);
        const Schedule::Successors lists = joined ? s.joined_successors() : s.successors();
        const SimResult r = simulate(s, lists, m, RankLayout(m, 1, 2), SimOptions{});
        REQUIRE(r.rank_finish.size() == 2);
        CHECK(r.rank_finish[0] == doctest::Approx(15e-6).epsilon(1e-12));
        CHECK(r.rank_finish[1] == doctest::Approx(21e-6).epsilon(1e-12));
    }
}
