#pragma once
// An owned MPI communicator (a duplicate or a split), freed by scope before MPI_Finalize.

#include <mpi.h>

namespace piccolo::profiler {

class Communicator {
  public:
    explicit Communicator(MPI_Comm parent) { MPI_Comm_dup(parent, &comm_); }
    // Collective over `parent`; ranks passing MPI_UNDEFINED as color get MPI_COMM_NULL.
    Communicator(MPI_Comm parent, int color, int key) {
        MPI_Comm_split(parent, color, key, &comm_);
    }
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;
    ~Communicator() {
        if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    }
    [[nodiscard]] MPI_Comm get() const { return comm_; }

  private:
    MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace piccolo::profiler
