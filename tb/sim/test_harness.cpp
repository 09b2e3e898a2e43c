// test_harness.cpp: Harness<V> clocking/reset and the FST trace window (on Vssm_top_1core).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "Vssm_top_1core.h"
#include "gtkwave/fstapi.h"
#include "sim/core/errors.hpp"
#include "sim/core/fst_merge.hpp"
#include "sim/core/harness.hpp"

using namespace hpcnet::sim;
namespace fs = std::filesystem;

namespace {

fs::path out(const std::string& name) {
  fs::path p = fs::path(HPCNET_SIM_TEST_DIR) / name;
  fs::remove(p);
  return p;
}

// Timestamps (#t lines) of an FST file, via fst2vcd (empty if the tool is missing).
std::vector<uint64_t> fst_times(const fs::path& fst) {
  const fs::path vcd = fst.string() + ".vcd";
  std::vector<uint64_t> times;
  if (std::system(("fst2vcd -f " + fst.string() + " -o " + vcd.string() + " >/dev/null 2>&1").c_str()) != 0)
    return times;
  std::ifstream in(vcd);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '#') times.push_back(std::stoull(line.substr(1)));
  return times;
}

}  // namespace

TEST_CASE("harness: cycle counter and reset", "[sim][harness]") {
  Harness<Vssm_top_1core> h;
  h.reset(10);
  CHECK(h.cycles() == 10);
  CHECK(h->rst_ni == 1);
  h.step(5);
  CHECK(h.cycles() == 15);
  CHECK(h->clk_i == 1);
  CHECK(!h.tracing());
}

TEST_CASE("harness: FST trace covers only the window", "[sim][harness][trace]") {
  const fs::path f = out("window.fst");
  {
    Harness<Vssm_top_1core> h(200.0, TraceWindow{f.string(), 100, 149});
    h.step(100);  // cycles 0..99
    CHECK(!fs::exists(f));  // opened lazily at the first cycle
    h.step(1);    // cycle 100
    CHECK(h.tracing());
    h.step(49);   // cycles 101..149
    CHECK(!h.tracing());  // closed after the last cycle
    h.step(100);
  }
  REQUIRE(fs::exists(f));
  CHECK(fs::file_size(f) > 0);
  auto t = fst_times(f);
  if (t.empty()) {
    WARN("fst2vcd not available; window contents not checked");
  } else {
    // the time axis counts cycles, whatever the clock: 10 units (of 100 ps) a cycle, two dumps per
    // cycle (clock low at c ns, clock high at c + 0.5 ns)
    CHECK(t.front() == 100 * kTraceUnitsPerCycle);
    CHECK(t.back() == 149 * kTraceUnitsPerCycle + kTraceUnitsPerCycle / 2);
    std::ifstream vcd(f.string() + ".vcd");
    const std::string head((std::istreambuf_iterator<char>(vcd)), std::istreambuf_iterator<char>());
    CHECK_THAT(head.substr(0, head.find("$enddefinitions")), Catch::Matchers::Contains("100ps"));  // 10 units = 1 ns = 1 cycle
  }
}

TEST_CASE("harness: no trace file without a window or before it starts", "[sim][harness][trace]") {
  const fs::path f = out("late.fst");
  {
    Harness<Vssm_top_1core> h(200.0, TraceWindow{f.string(), 1000, 2000});
    h.step(500);
  }
  CHECK(!fs::exists(f));
}

TEST_CASE("harness: watchdog throws Stall without progress", "[sim][harness][watchdog]") {
  Harness<Vssm_top_1core> h;
  uint64_t progress = 0;
  h.watchdog(100, [&] { return progress; }, [] { return std::string("dump hook called"); });
  h.step(50);
  progress = 1;
  h.step(99);
  try {
    h.step(10);
    FAIL("no stall");
  } catch (const Stall& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("dump hook called"));
    CHECK(h.cycles() == 151);  // last progress seen at cycle 51
  }
}

TEST_CASE("harness: an RTL error flag becomes AssertionFailed and not an abort", "[sim][harness]") {
  // No RTL assertion is reachable in ssm_top from here: raise the context's error flag the way
  // a failed assertion does under fatalOnError(false).
  Harness<Vssm_top_1core> h;
  CHECK(!h.context().fatalOnError());
  h.step(3);
  h.context().gotError(true);
  CHECK_THROWS_AS(h.step(), AssertionFailed);
  h.step();  // the flag was consumed
  CHECK(h.cycles() == 4);
}

// Nothing about a trace fails silently (sim/core/trace.hpp).
namespace {
const TraceOutcome* outcome_of(const std::vector<TraceOutcome>& all, const fs::path& f) {
  for (const TraceOutcome& o : all)
    if (o.file == f.string()) return &o;
  return nullptr;
}
}  // namespace

TEST_CASE("trace: a malformed request names the problem", "[sim][harness][trace]") {
  CHECK_THROWS_WITH(parse_trace_spec("t.fst:x", "HPCNET_TRACE"), Catch::Contains("first cycle 'x' is not a whole number"));
  CHECK_THROWS_WITH(parse_trace_spec("t.fst:10:-3", "HPCNET_TRACE"), Catch::Contains("last cycle '-3'"));
  CHECK_THROWS_WITH(parse_trace_spec("t.fst:10:5", "HPCNET_TRACE"), Catch::Contains("last cycle 5 is below the first 10"));
  CHECK_THROWS_WITH(parse_trace_spec(":10", "HPCNET_TRACE"), Catch::Contains("no file name"));
  const TraceWindow w = parse_trace_spec("dir/t.fst:10:20", "x");
  CHECK(w.file == "dir/t.fst");
  CHECK(w.first == 10);
  CHECK(w.last == 20);
}

TEST_CASE("trace: a file that cannot be written fails before the run", "[sim][harness][trace]") {
  const fs::path blocker = out("blocker");
  std::ofstream(blocker) << "a file, not a folder";
  CHECK_THROWS_AS(Harness<Vssm_top_1core>(200.0, TraceWindow{(blocker / "t.fst").string(), 0, 10}), TraceError);
  const fs::path deep = fs::path(HPCNET_SIM_TEST_DIR) / "made" / "by" / "harness" / "t.fst";
  fs::remove_all(fs::path(HPCNET_SIM_TEST_DIR) / "made");
  {
    Harness<Vssm_top_1core> h(200.0, TraceWindow{deep.string(), 0, 5});
    h.step(10);
  }
  CHECK(fs::file_size(deep) > 0);  // the missing folders were made
}

TEST_CASE("trace: a window the run never reaches is reported and one partly reached says so", "[sim][harness][trace]") {
  const fs::path never = out("never.fst"), part = out("part.fst");
  {
    Harness<Vssm_top_1core> a(200.0, TraceWindow{never.string(), 1000, 2000});
    Harness<Vssm_top_1core> b(200.0, TraceWindow{part.string(), 100, 5000});
    a.step(300);
    b.step(300);
  }
  const auto all = trace_outcomes();
  const TraceOutcome* n = outcome_of(all, never);
  const TraceOutcome* p = outcome_of(all, part);
  REQUIRE(n);
  REQUIRE(p);
  CHECK(!n->written);
  CHECK(n->end == 299);  // cycles 0..299 ran
  CHECK_THAT(n->text(), Catch::Contains("no trace written") && Catch::Contains("ended at cycle 299"));
  CHECK(p->written);
  CHECK(p->from == 100);
  CHECK(p->to == 299);
  CHECK_THAT(p->text(), Catch::Contains("cycles 100..299") && Catch::Contains("ended before cycle 5000"));
}

TEST_CASE("trace: two models never write the same file", "[sim][harness][trace]") {
  const fs::path f = out("same.fst"), f2 = out("same-2.fst");
  {
    Harness<Vssm_top_1core> a(200.0, TraceWindow{f.string(), 0, 20});
    Harness<Vssm_top_1core> b(200.0, TraceWindow{f.string(), 0, 20});
    a.step(30);
    b.step(30);
  }
  CHECK(fs::file_size(f) > 0);
  CHECK(fs::file_size(f2) > 0);
  const auto all = trace_outcomes();
  REQUIRE(outcome_of(all, f2));
  CHECK(outcome_of(all, f2)->written);
}

namespace {

// An FST's variables (aliases included) and value changes, read with GTKWave's reader.
struct FstCount {
  uint64_t vars = 0, changes = 0, first = 0, last = 0;
};
FstCount fst_count(const fs::path& f) {
  void* r = fstReaderOpen(f.string().c_str());
  REQUIRE(r);
  FstCount c;
  c.vars = fstReaderGetVarCount(r);
  fstReaderSetFacProcessMaskAll(r);
  fstReaderIterBlocks(
      r, [](void* u, uint64_t, fstHandle, const unsigned char*) { ++static_cast<FstCount*>(u)->changes; }, &c, nullptr);
  c.first = fstReaderGetStartTime(r);
  c.last = fstReaderGetEndTime(r);
  fstReaderClose(r);
  return c;
}

}  // namespace

TEST_CASE("trace: the traces of one run merged into one file keep every variable and change in time order", "[sim][harness][trace]") {
  const fs::path f = out("merge.fst"), f2 = out("merge-2.fst");
  const unsigned run = trace_run() + 1;
  {
    Harness<Vssm_top_1core> a(200.0, TraceWindow{f.string(), 0, 40});
    Harness<Vssm_top_1core> b(200.0, TraceWindow{f.string(), 15, 70});
    for (int i = 0; i < 80; ++i) {
      a.step(1);
      b.step(1);
    }
  }
  const FstCount ca = fst_count(f), cb = fst_count(f2);
  REQUIRE(ca.changes > 0);
  REQUIRE(cb.changes > 0);
  CHECK(trace_merge_run(run) == f.string());
  CHECK(!fs::exists(f2));
  const FstCount m = fst_count(f);
  CHECK(m.vars == ca.vars + cb.vars);
  CHECK(m.changes == ca.changes + cb.changes);
  CHECK(m.first == std::min(ca.first, cb.first));
  CHECK(m.last == std::max(ca.last, cb.last));
  const std::vector<uint64_t> t = fst_times(f);
  CHECK(std::is_sorted(t.begin(), t.end()));
  const auto all = trace_outcomes();
  REQUIRE(outcome_of(all, f2));
  CHECK_THAT(outcome_of(all, f2)->text(), Catch::Contains("merged into " + f.string()));
  CHECK_THAT(outcome_of(all, f)->text(), Catch::Contains("merged with the 1 other traces"));
  CHECK_THROWS_AS(fst_merge({(fs::path(HPCNET_SIM_TEST_DIR) / "no-such.fst").string()}, out("x.fst").string()), TraceError);
}

TEST_CASE("trace: the command line's request goes to the models of the run it names", "[sim][harness][trace]") {
  const fs::path f = out("run.fst"), f2 = out("run-2.fst");
  set_trace_request(TraceWindow{f.string(), 0, 10}, trace_run() + 2);
  auto run = [](unsigned models) {  // one run: `models` harnesses alive at once
    std::vector<std::unique_ptr<Harness<Vssm_top_1core>>> hs;
    for (unsigned i = 0; i < models; ++i) hs.push_back(std::make_unique<Harness<Vssm_top_1core>>());
    for (auto& h : hs) h->step(20);
  };
  run(1);  // not this one
  CHECK(!fs::exists(f));
  run(2);  // this one: both models, each to its own file
  CHECK(fs::file_size(f) > 0);
  CHECK(fs::file_size(f2) > 0);
  fs::remove(f);
  run(1);  // not this one
  CHECK(!fs::exists(f));
  set_trace_request({}, 1);
}
