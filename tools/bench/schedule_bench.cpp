// Benchmark (not a test): schedule generation + XML write and XML parse of a 1024-rank ring
// Allgather (1,047,552 transfers), single thread. Each rate is reported with a baseline measured
// in the same run on the same data: the DOM reader (parse_schedule_xml_dom, pugixml) and
// pugixml's bare DOM parse of the same text for reading, and formatting the same integers with
// std::to_chars for writing. Also prints the IR's bytes per transfer.
#include <fmt/format.h>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <pugixml.hpp>
#include <string>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"

using namespace piccolo;
using Clock = std::chrono::steady_clock;

namespace {

template <class F>
double best_of(int repetitions, F&& f) {
    double best = 1e30;
    for (int i = 0; i < repetitions; ++i) {
        const auto start = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - start).count());
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    const Rank p = argc > 1 ? std::stoi(argv[1]) : 1024;
    const int repetitions = argc > 2 ? std::stoi(argv[2]) : 5;
    const GenerateRequest request{Collective::allgather, "ring", 0, p, 1 << 20, true};
    std::size_t transfers = 0, bytes = 0;
    std::string xml;

    const std::string file = argc > 3 ? argv[3] : "/tmp/piccolo-bench-ring.xml";
    const double generate_write = best_of(repetitions, [&] {
        const Schedule s = generate(request);
        write_schedule_xml(s, file);
        transfers = s.transfer_count();
    });
    const double generate_string =
        best_of(repetitions, [&] { xml = schedule_to_xml(generate(request)); });
    bytes = xml.size();
    const double generate_only =
        best_of(repetitions, [&] { transfers = generate(request).transfer_count(); });

    // Baseline for writing: print the same number of integers (six per transfer) with to_chars.
    std::string scratch(bytes + 64, ' ');
    const double format_baseline = best_of(repetitions, [&] {
        char* out = scratch.data();
        for (std::size_t t = 0; t < transfers; ++t)
            for (int field = 0; field < 6; ++field) {
                out = std::to_chars(out, out + 24, t * 7 + static_cast<std::size_t>(field)).ptr;
                *out++ = ' ';
                if (out > scratch.data() + bytes) out = scratch.data();
            }
    });

    LoadedSchedule loaded;
    const double parse = best_of(repetitions, [&] { loaded = read_schedule_xml(file); });
    const double parse_memory =
        best_of(repetitions, [&] { loaded = parse_schedule_xml(xml, "bench.xml"); });
    const double dom_reader =
        best_of(repetitions, [&] { loaded = parse_schedule_xml_dom(xml, "bench.xml"); });
    const double pugixml_only = best_of(repetitions, [&] {
        std::string copy = xml;
        pugi::xml_document doc;
        doc.load_buffer_inplace(copy.data(), copy.size());
    });

    fmt::print("ring allgather p={}: {} transfers, {:.1f} MB of XML\n", p, transfers, bytes / 1e6);
    fmt::print("generate + write   {:8.3f} s  {:6.2f} M transfers/s   to {}\n", generate_write,
               transfers / generate_write / 1e6, file);
    fmt::print("  (generate alone {:.3f} s; generate + write into one std::string {:.3f} s)\n",
               generate_only, generate_string);
    fmt::print("  baseline to_chars of 6 integers/transfer {:.3f} s: ratio {:.2f}\n",
               format_baseline, generate_write / format_baseline);
    fmt::print("parse              {:8.3f} s  {:6.2f} M transfers/s   from {}\n", parse,
               transfers / parse / 1e6, file);
    fmt::print("  (from a string already in memory {:.3f} s)\n", parse_memory);
    fmt::print("  baseline pugixml DOM parse alone {:.3f} s: ratio {:.2f}\n", pugixml_only,
               parse_memory / pugixml_only);
    fmt::print("  baseline DOM reader (parse_schedule_xml_dom) {:.3f} s: ratio {:.2f}\n",
               dom_reader, parse_memory / dom_reader);
    const Schedule& ir = loaded.schedule;
    const std::size_t ir_bytes =
        ir.kind.size() +
        4 * (ir.src.size() + ir.dst.size() + ir.size_class.size() + ir.deps.offsets.size() +
             ir.deps.items.size() + ir.sent_deps.offsets.size() + ir.sent_deps.items.size() +
             ir.payload.offsets.size() + ir.payload.items.size()) +
        4 * loaded.lines.size();
    fmt::print("IR: {:.1f} bytes per transfer (with the line of each task)\n",
               static_cast<double>(ir_bytes) / static_cast<double>(transfers));
    return loaded.schedule.size() == transfers ? 0 : 1;
}
