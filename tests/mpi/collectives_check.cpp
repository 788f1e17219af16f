// Runs Allgather, Allreduce, Bcast, Reduce, Reduce_scatter_block, Alltoall and Barrier through the
// MPI library it is linked with and checks every result, so that a tuning file the library loads
// is shown to keep the collectives correct. Built twice (MPICH and Open MPI,
// tests/mpi/CMakeLists.txt).
//
//   collectives_check [--allgather BYTES] [--allreduce BYTES] [--bcast BYTES] [--reduce BYTES]
//                     [--reduce_scatter BYTES] [--alltoall BYTES] [--only COLLECTIVE]
//
// BYTES (ints, so a multiple of 4) as in piccolo select: Allgather's per-rank contribution,
// Allreduce's vector, Bcast's and Reduce's buffer (root 0), Reduce_scatter_block's recvcount x 4,
// Alltoall's sendcount x 4. --only runs that one collective (no Barrier). Exit status 0: every
// result was right; 1: a result was
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

constexpr const char* names[] = {"allgather", "allreduce",      "bcast",
                                 "reduce",    "reduce_scatter", "alltoall"};
constexpr int count_of_names = 6;

struct Options {
    long bytes[count_of_names] = {4096, 4096, 4096, 4096, 4096, 4096};  // in the order of names
    std::string only;  // empty: every collective
};

int index_of(const std::string& name) {
    for (int i = 0; i < count_of_names; ++i)
        if (name == names[i]) return i;
    return -1;
}

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
        const int which = option.rfind("--", 0) == 0 ? index_of(option.substr(2)) : -1;
        if (which < 0) return false;
        o.bytes[which] = bytes;
    }
    return argc % 2 == 1 && (o.only.empty() || index_of(o.only) >= 0);
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

// Root 0, as piccolo select sweeps Bcast and Reduce.
bool run_bcast(long bytes, int rank, int) {
    const long count = bytes / 4;
    std::vector<int> data(count, -1), expected(count);
    for (long i = 0; i < count; ++i) expected[i] = value(0, i);
    if (rank == 0) data = expected;
    must_succeed(MPI_Bcast(data.data(), static_cast<int>(count), MPI_INT, 0, MPI_COMM_WORLD),
                 "MPI_Bcast", rank);
    return check("bcast", rank, data, expected);
}

bool run_reduce(long bytes, int rank, int size) {
    const long count = bytes / 4;
    std::vector<int> mine(count), sum(count, -1), total(count, 0);
    for (long i = 0; i < count; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) total[i] += value(r, i);
    must_succeed(MPI_Reduce(mine.data(), sum.data(), static_cast<int>(count), MPI_INT, MPI_SUM, 0,
                            MPI_COMM_WORLD),
                 "MPI_Reduce", rank);
    return rank != 0 || check("reduce", rank, sum, total);
}

// MPI_Reduce_scatter_block: rank r ends with the sum of every rank's block r.
bool run_reduce_scatter(long bytes, int rank, int size) {
    const long count = bytes / 4;
    std::vector<int> mine(count * size), sum(count, -1), expected(count, 0);
    for (long i = 0; i < count * size; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) expected[i] += value(r, rank * count + i);
    must_succeed(MPI_Reduce_scatter_block(mine.data(), sum.data(), static_cast<int>(count),
                                          MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                 "MPI_Reduce_scatter_block", rank);
    return check("reduce_scatter", rank, sum, expected);
}

// Block d of rank r's send buffer goes to rank d; the receive buffer starts at -1, so an
// algorithm that ignores the send buffer (MPICH's in-place pairwise_sendrecv_replace) shows.
bool run_alltoall(long bytes, int rank, int size) {
    const long count = bytes / 4;
    std::vector<int> mine(count * size), got(count * size, -1), expected(count * size);
    for (long i = 0; i < count * size; ++i) mine[i] = value(rank, i);
    for (int r = 0; r < size; ++r)
        for (long i = 0; i < count; ++i) expected[r * count + i] = value(r, rank * count + i);
    must_succeed(MPI_Alltoall(mine.data(), static_cast<int>(count), MPI_INT, got.data(),
                              static_cast<int>(count), MPI_INT, MPI_COMM_WORLD),
                 "MPI_Alltoall", rank);
    return check("alltoall", rank, got, expected);
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
                         "collectives_check: usage: [--COLLECTIVE BYTES]... [--only COLLECTIVE] "
                         "(COLLECTIVE: allgather, allreduce, bcast, reduce, reduce_scatter or "
                         "alltoall; BYTES: a multiple of 4, at least 4)\n");
        MPI_Finalize();
        return 2;
    }
    using Run = bool (*)(long, int, int);
    constexpr Run runs[] = {run_allgather, run_allreduce,      run_bcast,
                            run_reduce,    run_reduce_scatter, run_alltoall};
    bool ok = true;
    for (int i = 0; i < count_of_names; ++i)
        if (o.only.empty() || o.only == names[i]) ok = runs[i](o.bytes[i], rank, size) && ok;
    if (o.only.empty()) must_succeed(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier", rank);
    int all_ok = ok ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("collectives_check: %d ranks, %s: %s\n", size,
                    o.only.empty() ? "every collective" : o.only.c_str(),
                    all_ok ? "correct" : "WRONG");
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
