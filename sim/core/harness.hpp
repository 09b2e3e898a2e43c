// sim/core/harness.hpp: clocking, reset, FST trace window, RTL-assertion check and watchdog
// around one Verilated model. HarnessCore holds everything that does not depend on the model
// class; Harness<V> adds the model (which must have clk_i and rst_ni ports).
//
// One cycle = settle() then edge(): callers set inputs, settle() evaluates them with clk low
// (combinational outputs now reflect the inputs: sample handshakes here), edge() raises clk and
// evaluates, so outputs read afterwards are post-edge values. step() does both.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "sim/core/trace.hpp"
#include "sim/core/watchdog.hpp"

namespace hpcnet::sim {

// FST traces count time in cycles: 10 units of 100 ps a cycle, the settled values of cycle c at
// c ns and the rising edge that ends it at c + 0.5 ns (a viewer's ns axis reads cycles).
inline constexpr uint64_t kTraceUnitsPerCycle = 10;

class HarnessCore {
 public:
  explicit HarnessCore(double clock_mhz);
  virtual ~HarnessCore();
  HarnessCore(const HarnessCore&) = delete;
  HarnessCore& operator=(const HarnessCore&) = delete;

  VerilatedContext& context() { return *ctx_; }
  uint64_t cycles() const { return cycles_; }  // rising edges so far (reset included)
  double clock_mhz() const { return clock_mhz_; }

  // Trace window; set it before its first cycle (a window already under way opens at once). An
  // empty window takes the process's request (requested_trace(), sim/core/trace.hpp) unless it
  // is TraceWindow::off(). Throws TraceError when the file cannot be written.
  void trace(TraceWindow window);
  bool tracing() const { return fst_ != nullptr; }
  void close_trace();  // flush and close now (also done at the window's end and on destruction)

  // Throw Stall when progress() has not changed for `limit` cycles; 0 disables.
  void watchdog(uint64_t limit, std::function<uint64_t()> progress, Watchdog::Dump dump = {});

 protected:
  void init_time();        // after the model exists (it sets the time precision)
  void after_settle();     // trace, error check
  void after_edge();       // trace, window end, error check, counter, watchdog
  void check_error();
  virtual void attach_trace(VerilatedFstC& fst) = 0;
  virtual std::string model_name() const = 0;
  void end_trace();  // the harness ends: close, and record what became of the window

  std::unique_ptr<VerilatedContext> ctx_;

 private:
  void open_trace();

  double clock_mhz_;
  uint64_t cycles_ = 0;
  uint64_t half_period_ = 1;  // in units of the context's time precision
  TraceWindow window_;
  std::string file_;        // the file bound to window_ (unique in the process)
  size_t outcome_ = SIZE_MAX;  // index in trace_outcomes()
  uint64_t dumped_ = 0;        // the last cycle written to the trace
  uint64_t settled_ = 0;       // the last cycle simulated (settled)
  bool window_done_ = false;
  std::unique_ptr<VerilatedFstC> fst_;
  Watchdog watchdog_;
  std::function<uint64_t()> progress_;
};

template <class V>
class Harness final : public HarnessCore {
 public:
  explicit Harness(double clock_mhz = 200.0, TraceWindow window = {})
      : HarnessCore(clock_mhz), model_(make_model(ctx_.get())) {
    init_time();
    model_->clk_i = 0;
    model_->rst_ni = 1;  // reset deasserted first so that asserting it is an edge
    model_->eval();
    trace(std::move(window));
  }
  ~Harness() override {
    end_trace();
    make_current();  // the current context may be another harness's, already destroyed
    model_->final();
    model_.reset();
  }

  V& dut() { return *model_; }
  V* operator->() { return model_.get(); }

  void eval() {  // re-settle combinational logic after changing inputs (no clock edge)
    make_current();
    model_->eval();
    check_error();
  }
  void settle() {
    make_current();
    model_->clk_i = 0;
    model_->eval();
    after_settle();
  }
  void edge() {
    make_current();
    model_->clk_i = 1;
    model_->eval();
    after_edge();
  }
  void step(uint64_t n = 1) {
    for (uint64_t i = 0; i < n; ++i) {
      settle();
      edge();
    }
  }
  void set_reset(bool asserted) { model_->rst_ni = asserted ? 0 : 1; }
  // Synchronous reset: hold rst_ni low for `n` rising edges, then release it.
  void reset(unsigned n = 10) {
    set_reset(true);
    step(n);
    set_reset(false);
  }

 private:
  void attach_trace(VerilatedFstC& fst) override { model_->trace(&fst, 99); }
  std::string model_name() const override { return model_->modelName(); }
  // Verilator 5.006 registers a model's scopes in the thread's current context and reports a
  // failed assertion ($error, $fatal) to it, not to the model's own context: every harness makes
  // its context the current one before it constructs, evaluates or destroys its model, so that an
  // error is seen by the harness whose model raised it (check_error) while other harnesses exist.
  void make_current() { Verilated::threadContextp(ctx_.get()); }
  static std::unique_ptr<V> make_model(VerilatedContext* ctx) {
    Verilated::threadContextp(ctx);  // ctx_ of the harness under construction (make_current)
    return std::make_unique<V>(ctx, "TOP");
  }

  std::unique_ptr<V> model_;
};

}  // namespace hpcnet::sim
