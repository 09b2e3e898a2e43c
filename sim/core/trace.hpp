// sim/core/trace.hpp: FST trace windows, who asks for them, and what became of them.
//
// A TraceWindow names a file and a cycle window (harness cycles, reset included). A harness
// built with no window of its own takes the process's request: HPCNET_TRACE=file[:first[:last]]
// or the window a command line set (set_trace_request). The request applies to one *run*: runs
// are counted by the harnesses alive at once (a run starts when the first harness is built while
// no other exists), and every model of that run is traced, each to its own file (the second model
// writes FILE-2.fst, ...; no two harnesses of one process ever write the same file).
//
// Nothing about a trace fails silently: a malformed request throws std::invalid_argument naming
// it; a file that cannot be created throws TraceError when the window opens; a window the run
// never reached is recorded, and trace_outcomes() lists every requested trace with what was
// written (the CLI prints them and fails the command when a trace was asked for and not written).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hpcnet::sim {

// Trace cycles first..last (inclusive, counted by the harness cycle counter) into `file`.
struct TraceWindow {
  std::string file;  // empty: no window of its own (the harness takes the process's request)
  uint64_t first = 0;
  uint64_t last = UINT64_MAX;
  bool inherit = true;  // false: never traced, whatever the request (TraceWindow::off())
  bool enabled() const { return !file.empty(); }
  static TraceWindow off() {
    TraceWindow w;
    w.inherit = false;
    return w;
  }
};

class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "file[:first[:last]]" -> window; throws std::invalid_argument naming `what` and the problem
// (empty file name, a number that is not one, last below first).
TraceWindow parse_trace_spec(const std::string& spec, const std::string& what);

// The window asked for by HPCNET_TRACE=file[:first[:last]] (e.g. one failing test:
// HPCNET_TRACE=/tmp/t.fst:1000:5000 ./test_ssm "name"); disabled when the variable is unset or
// empty; throws std::invalid_argument when it is malformed.
TraceWindow trace_from_env();

// The command line's request: trace run `run` (1 = the first) with `window`. HPCNET_TRACE, when
// set, applies to every run instead.
void set_trace_request(TraceWindow window, unsigned run = 1);

// The number of the current run (0 before the first harness).
unsigned trace_run();

// The window a harness built now with no window of its own takes (empty when none applies).
TraceWindow requested_trace();

// What became of one traced harness.
struct TraceOutcome {
  std::string file;       // the file written (or that would have been)
  std::string model;      // the model's class, e.g. Vssm_top
  unsigned run = 0;       // run number (see above)
  uint64_t first = 0, last = 0;  // the window asked for
  bool written = false;   // the file was opened and closed
  uint64_t from = 0, to = 0;     // cycles written (when written)
  uint64_t end = 0;       // the harness's last cycle simulated
  std::string merged_into;       // the file now holding it (trace_merge_run), or empty
  unsigned merged = 0;           // (the file merged into) the traces it holds
  std::string text() const;      // one line for a user
};
std::vector<TraceOutcome> trace_outcomes();

// A run whose models each wrote their own file (the machine's traced node: its NIC, its router's
// link end, a router plane) in one file: merges the files written for run `run` into the first of
// them (fst_merge.hpp) and removes the others; their outcomes say so. Returns the merged file
// (empty when the run wrote fewer than two). Throws TraceError as fst_merge does.
std::string trace_merge_run(unsigned run);

// The harness's side (HarnessCore): a harness is built / destroyed (counts runs); a window is
// bound to a model (returns the file to write, unique in this process, after checking that it
// can be created: missing folders are made, an unwritable path throws TraceError; returns the
// outcome's index); the window opened / closed / the harness ended.
void trace_harness_born();
void trace_harness_died();
size_t trace_bind(const TraceWindow& w, const std::string& model, std::string& file);
void trace_opened(size_t id, uint64_t cycle);
void trace_closed(size_t id, uint64_t cycle);
void trace_ended(size_t id, uint64_t cycle);

}  // namespace hpcnet::sim
