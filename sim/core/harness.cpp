// harness.cpp: model-independent part of the Verilator harness (time, trace window, checks).
#include "sim/core/harness.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

#ifdef HPCNET_UBSAN_SUPPRESSIONS
// Sanitized builds (HPCNET_SANITIZE): UBSan's defaults for every program that links the harness
// (every program that runs a Verilated model): a report stops the program, with the project's
// suppressions (scripts/sanitizers/ubsan.supp, docs/sim.md#sanitizers). UBSAN_OPTIONS overrides.
extern "C" const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1:suppressions=" HPCNET_UBSAN_SUPPRESSIONS;
}
#endif

namespace hpcnet::sim {

HarnessCore::HarnessCore(double clock_mhz) : ctx_(std::make_unique<VerilatedContext>()), clock_mhz_(clock_mhz) {
  ctx_->fatalOnError(false);  // assertion failures set gotError() instead of aborting
  trace_harness_born();
}

HarnessCore::~HarnessCore() { trace_harness_died(); }

void HarnessCore::init_time() {
  // Half a clock period in the context's time unit (10^timeprecision seconds).
  const double half_s = 0.5e-6 / clock_mhz_;
  const double units = half_s / std::pow(10.0, ctx_->timeprecision());
  half_period_ = units >= 1.0 ? static_cast<uint64_t>(std::llround(units)) : 1;
}

void HarnessCore::trace(TraceWindow window) {
  end_trace();
  if (!window.enabled() && window.inherit) window = requested_trace();
  window_ = std::move(window);
  window_done_ = false;
  if (!window_.enabled()) return;
  outcome_ = trace_bind(window_, model_name(), file_);
  ctx_->traceEverOn(true);
}

void HarnessCore::open_trace() {
  fst_ = std::make_unique<VerilatedFstC>();
  // the trace's time axis counts cycles: units of 100 ps, 10 a cycle, so that a waveform viewer's
  // "ns" are cycles (cycle c from c ns, its rising edge at c + 0.5 ns); the model's own time
  // (ctx_->time(), $time) stays in real units of its clock
  fst_->set_time_resolution("100ps");
  fst_->set_time_unit("100ps");
  attach_trace(*fst_);
  fst_->open(file_.c_str());
  trace_opened(outcome_, cycles_);
}

void HarnessCore::close_trace() {
  if (!fst_) return;
  fst_->close();
  fst_.reset();
  window_done_ = true;
  trace_closed(outcome_, dumped_);
}

void HarnessCore::end_trace() {
  close_trace();
  if (outcome_ != SIZE_MAX) trace_ended(outcome_, settled_);
  outcome_ = SIZE_MAX;
}

void HarnessCore::watchdog(uint64_t limit, std::function<uint64_t()> progress, Watchdog::Dump dump) {
  watchdog_ = Watchdog(limit, std::move(dump));
  progress_ = std::move(progress);
}

void HarnessCore::check_error() {
  if (!ctx_->gotError()) return;
  ctx_->gotError(false);
  close_trace();  // keep the waveform of the failure
  throw AssertionFailed(fmt::format("RTL assertion failed at cycle {} (message on stderr)", cycles_));
}

void HarnessCore::after_settle() {
  settled_ = cycles_;
  ctx_->time(2 * cycles_ * half_period_);
  if (!fst_ && !window_done_ && window_.enabled() && cycles_ >= window_.first && cycles_ <= window_.last) open_trace();
  if (fst_) {
    fst_->dump(kTraceUnitsPerCycle * cycles_);
    dumped_ = cycles_;
  }
  check_error();
}

void HarnessCore::after_edge() {
  ctx_->time((2 * cycles_ + 1) * half_period_);
  if (fst_) {
    fst_->dump(kTraceUnitsPerCycle * cycles_ + kTraceUnitsPerCycle / 2);
    dumped_ = cycles_;
    if (cycles_ >= window_.last) close_trace();
  }
  ++cycles_;
  check_error();
  if (progress_) {
    try {
      watchdog_.check(cycles_, progress_());
    } catch (...) {
      close_trace();  // keep the waveform of the stall
      throw;
    }
  }
}

}  // namespace hpcnet::sim
