// Runs Allgather, Allreduce, Bcast, Barrier and Reduce through the MPI library it is linked with
// and checks every result, so that a tuning file the library loads is shown to keep the
// collectives correct. Built twice (MPICH and Open MPI, tests/mpi/CMakeLists.txt).
//
//   collectives_check [--allgather BYTES] [--allreduce BYTES] [--only allgather|allreduce]
//
// Allgather BYTES is the per-rank contribution and Allreduce BYTES the vector size (ints, so a
// multiple of 4), as in piccolo select. Exit status 0: every result was right; 1: a result was
// wrong (the rank and the first wrong element are printed); 2: bad arguments; 3: a collective
// returned an error (printed with the library's error string: a tuning file naming an algorithm
// that cannot run shows up this way in Open MPI; MPICH asserts instead).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Options {
    long allgather_bytes = 4096;
    long allreduce_bytes = 4096;
    std::string only;  // empty: all five collectives
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        const char* value = argv[i + 1];
        if (option == "--only") {
            o.only = value;
            continue;
        }
        char* end = nullptr;
        const long bytes = std::strtol(value, &end, 10);
        if (*end != '\0' || bytes < 4 || bytes % 4 != 0) return false;
        if (option == "--allgather")
            o.allgather_bytes = bytes;
        else if (option == "--allreduce")
            o.allreduce_bytes = bytes;
        else
            return false;
    }
    return argc % 2 == 1 && (o.only.empty() || o.only == "allgather" || o.only == "allreduce");
}

// Element i of rank r's contribution: distinct for every (rank, element).
int value(int rank, long i) {
    return static_cast<int>(rank * 100003 + i % 100003);
}

// Errors are returned (MPI_ERRORS_RETURN), reported here, and end the run.
void must_succeed(int rc, const char* what, int rank) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0, error_class = 0;
    MPI_Error_string(rc, text, &length);
    MPI_Error_class(rc, &error_class);
    std::fprintf(stderr, "collectives_check: rank %d: %s failed: error class %d: %s\n", rank, what,
                 error_class, text);
    std::exit(3);
}

bool check(const char* what, int rank, const std::vector<int>& got,
           const std::vector<int>& expected) {
    for (std::size_t i = 0; i < got.size(); ++i)
        if (got[i] != expected[i]) {
            std::fprintf(stderr, "collectives_check: rank %d: %s element %zu is %d, expected %d\n",
                         rank, what, i, got[i], expected[i]);
            return false;
        }
    return true;
}

bool run_allgather(long bytes, int rank, int size) {
    const long count = bytes / 4;
    std::vector<int> mine(count), all(count * size), expected(count * size);
    for (long i = 0; i < count; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) expected[r * count + i] = value(r, i);
    must_succeed(MPI_Allgather(mine.data(), static_cast<int>(count), MPI_INT, all.data(),
                               static_cast<int>(count), MPI_INT, MPI_COMM_WORLD),
                 "MPI_Allgather", rank);
    return check("allgather", rank, all, expected);
}

bool run_allreduce(long bytes, int rank, int size) {
    const long count = bytes / 4;
    std::vector<int> mine(count), sum(count), expected(count, 0);
    for (long i = 0; i < count; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) expected[i] += value(r, i);
    must_succeed(MPI_Allreduce(mine.data(), sum.data(), static_cast<int>(count), MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD),
                 "MPI_Allreduce", rank);
    return check("allreduce", rank, sum, expected);
}

bool run_others(int rank, int size) {
    constexpr long count = 1000;
    std::vector<int> data(count), expected(count);
    for (long i = 0; i < count; ++i) expected[i] = value(size - 1, i);
    if (rank == size - 1) data = expected;
    must_succeed(MPI_Bcast(data.data(), count, MPI_INT, size - 1, MPI_COMM_WORLD), "MPI_Bcast",
                 rank);
    bool ok = check("bcast", rank, data, expected);
    must_succeed(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", rank);
    std::vector<int> mine(count), sum(count), total(count, 0);
    for (long i = 0; i < count; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) total[i] += value(r, i);
    must_succeed(MPI_Reduce(mine.data(), sum.data(), count, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD),
                 "MPI_Reduce", rank);
    if (rank == 0) ok = check("reduce", rank, sum, total) && ok;
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    Options o;
    if (!parse(argc, argv, o)) {
        if (rank == 0)
            std::fprintf(stderr,
                         "collectives_check: usage: [--allgather BYTES] [--allreduce BYTES] "
                         "[--only allgather|allreduce] (BYTES: a multiple of 4, at least 4)\n");
        MPI_Finalize();
        return 2;
    }
    bool ok = true;
    if (o.only.empty() || o.only == "allgather") ok = run_allgather(o.allgather_bytes, rank, size);
    if (o.only.empty() || o.only == "allreduce")
        ok = run_allreduce(o.allreduce_bytes, rank, size) && ok;
    if (o.only.empty()) ok = run_others(rank, size) && ok;
    int all_ok = ok ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("collectives_check: %d ranks, allgather %ld B per rank, allreduce %ld B: %s\n",
                    size, o.allgather_bytes, o.allreduce_bytes, all_ok ? "correct" : "WRONG");
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
