#pragma once
// The measured cells of a calibration, ready to be predicted thousands of times: the fit
// (calibrate.cpp) evaluates the same cells on machines that differ only in a few factors, and a
// cell's schedule does not depend on the machine, only its replay does. So every schedule is
// generated once, cells whose schedules time alike (the same DAG: rm with k = 8 ... 15 at
// p = 16 factor into the same rounds) are replayed once per evaluation, and the replays of one
// evaluation run in parallel. Each replay writes its own slot, so the times, and everything
// summed from them in row order, are the same for any number of threads.

#include <cstddef>
#include <span>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/studies/accuracy.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo::detail {

class CalibrationCells {
  public:
    // Generates the schedule of every candidate of `m` (which must outlive this object). Throws
    // InputError "ORIGIN:LINE: ..." for a candidate that cannot be generated.
    // `payload`: generate payload too (prices_reclaim of the profile: the reclaim needs it).
    CalibrationCells(const Measurement& m, bool payload);

    // The engine's time of each of `rows` (indices into m.candidates), in the order of `rows`:
    // predict_candidates' numbers for those rows. Throws InputError as predict_candidates does
    // (the first failing row in order, whatever the threads).
    [[nodiscard]] std::vector<double> predict(const Machine& machine,
                                              std::span<const std::size_t> rows) const;

    [[nodiscard]] std::size_t distinct_schedules() const { return dags_.size(); }

  private:
    struct Dag {
        Schedule schedule;
        Schedule::Successors successors;
        std::size_t first_row = 0;  // for messages
    };
    const Measurement& m_;
    std::vector<Dag> dags_;
    std::vector<std::size_t> dag_of_row_;
};

}  // namespace piccolo::detail
