// piccolo-mpi: `piccolo select` and `piccolo compare` with their sweeps' jobs spread over the
// ranks of an MPI job (README.md). Every rank parses the same command line through the piccolo
// CLI's own commands and runs the same sweep; MpiJobRunner hands each batch's jobs out; rank 0
// writes every output and shows the progress.
#include <mpi.h>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>

#include "piccolo/cli/commands.hpp"
#include "job_runner.hpp"
#include "piccolo/core/error.hpp"

namespace {

// MPI_Init_thread ... MPI_Finalize. Only the ending of a run that worked finalizes: a rank that
// fails leaves at once (end_run), since MPI_Finalize would wait for ranks still sweeping.
class MpiSession {
  public:
    MpiSession(int& argc, char**& argv) { MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &level_); }
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    ~MpiSession() { MPI_Finalize(); }
    [[nodiscard]] int level() const { return level_; }

  private:
    int level_ = MPI_THREAD_SINGLE;
};

// One line on stderr (where `say`), then the process ends with `code` at once; the launcher
// (mpirun, mpiexec) then ends the other ranks and exits non-zero.
[[noreturn]] void end_run(int code, bool say, const std::string& line) {
    std::fflush(stdout);
    if (say) fmt::print(stderr, "{}\n", line);
    std::fflush(stderr);
    std::_Exit(code);
}

int run(int argc, char** argv, piccolo::mpi_sweep::MpiJobRunner& runner) {
    const bool writer = runner.rank() == 0;
    const std::string me = fmt::format("piccolo-mpi (rank {} of {})", runner.rank(), runner.size());
    CLI::App app{
        "piccolo-mpi: piccolo select and compare with their sweeps spread over MPI ranks "
        "(mpirun -n N piccolo-mpi select ...); the options are piccolo's"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "piccolo-mpi 0.1.0");
    const piccolo::cli::SweepHooks hooks{&runner, writer};
    piccolo::cli::add_select_command_with(app, hooks);
    piccolo::cli::add_compare_command_with(app, hooks);
    // What every rank finds alike (the command line, the files it names) rank 0 alone reports;
    // what happens to one rank only, that rank reports.
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        if (writer) return app.exit(e);
        return 0;
    } catch (const CLI::ParseError& e) {
        end_run(2, writer, fmt::format("piccolo-mpi: error: {} (see piccolo-mpi --help)", e.what()));
    } catch (const piccolo::InputError& e) {
        end_run(2, writer, fmt::format("piccolo-mpi: error: {}", e.what()));
    } catch (const std::bad_alloc&) {
        end_run(2, true,
                fmt::format("{}: error: not enough memory for this sweep (give fewer threads or "
                            "a smaller --memory-budget per rank, or fewer ranks per node)",
                            me));
    } catch (const std::exception& e) {
        end_run(1, true, fmt::format("{}: internal error: {} (please report it)", me, e.what()));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::optional<MpiSession> session(std::in_place, argc, argv);
    if (session->level() < MPI_THREAD_SERIALIZED)
        end_run(2, true,
                "piccolo-mpi: error: this MPI library does not provide MPI_THREAD_SERIALIZED "
                "(one thread per rank talks MPI while the others run jobs); use one that does");
    int code = 0;
    {
        piccolo::mpi_sweep::MpiJobRunner runner(MPI_COMM_WORLD);
        code = run(argc, argv, runner);
    }
    session.reset();
    return code;
}
