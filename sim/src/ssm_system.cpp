// ssm_system.cpp: the per-cycle loop of SsmSystem, limits and stall reports.
#include "hpcnet/sim/ssm_system.hpp"

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "hpcnet/sim/errors.hpp"

namespace hpcnet::sim {

namespace {
// HPCNET_TRACE (see trace_from_env) switches tracing on for any run that did not ask for it.
SsmSystemConfig with_env_trace(SsmSystemConfig cfg) {
  if (!cfg.trace.enabled()) cfg.trace = trace_from_env();
  return cfg;
}
}  // namespace

SsmSystem::SsmSystem(SsmSystemConfig cfg) : SsmSystem(with_env_trace(cfg), nullptr) {}

SsmSystem::SsmSystem(SsmSystemConfig cfg, std::unique_ptr<SsmDut> dut)
    : cfg_(std::move(cfg)),
      dut_(dut ? std::move(dut) : make_ssm_dut(cfg_.num_cores, cfg_.clock_mhz, cfg_.trace)),
      mem_(cfg_.mem),
      sched_(SchedConfig{cfg_.num_pe, cfg_.num_threads, cfg_.stack_bytes}),
      bus_(sched_, cfg_.bus),
      platform_(sched_, bus_, mem_, cfg_.cpu, cfg_.clock_mhz),
      watchdog_(cfg_.watchdog_cycles, [this] { return stall_report(); }) {
  // Synchronous reset with idle host ports.
  dut_->set_reset(true);
  for (unsigned i = 0; i < cfg_.reset_cycles; ++i) {
    dut_->eval(ports_);
    dut_->edge();
    ++now_;
  }
  dut_->set_reset(false);
  ports_ = DevicePorts{};
}

SsmSystem::~SsmSystem() { sched_.shutdown(); }  // unwind threads while bus and memory exist

Scheduler::ThreadId SsmSystem::spawn(unsigned pe, unsigned thread, std::function<void()> fn, std::string name) {
  return sched_.spawn(CpuId{pe, thread}, std::move(fn), std::move(name));
}

uint64_t SsmSystem::progress() const {
  return bus_.stats().requests() + mem_.stats().requests() + sched_.finished_threads() + platform_.irq_calls() +
         gsn_msgs_ + user_progress_;
}

std::string SsmSystem::stall_report() const {
  std::string s = fmt::format("cycle {}: {} thread(s) still running\n", now_, sched_.live_threads());
  s += sched_.describe_running();
  s += fmt::format("  bus: {} queued, {} writes, {} reads; dma: {} pending, {} reads, {} writes; irq line {}",
                   bus_.queued(), bus_.stats().writes, bus_.stats().reads, mem_.dma_pending(), mem_.stats().dma_reads,
                   mem_.stats().dma_writes, ports_.irq ? "high" : "low");
  if (stall_dump_) s += "\n" + stall_dump_();
  return s;
}

void SsmSystem::step() {
  begin_cycle();
  end_cycle();
}

void SsmSystem::begin_cycle() {
  const uint64_t now = now_;
  try {
    mem_.drive(ports_.dma, now);
    sched_.run_cycle(now);
    bus_.drive(ports_.mmio, now);
    if (cfg_.gsn_loopback) {  // a one-node network: one message register from up to down
      ports_.gsn.up_ready = !loop_full_;
      ports_.gsn.dn_valid = loop_full_;
      ports_.gsn.dn_msg = loop_msg_;
    }
    dut_->eval(ports_);
  } catch (...) {
    dut_->close_trace();  // keep the waveform of the failure
    throw;
  }
}

void SsmSystem::settle() {
  try {
    dut_->eval(ports_);
  } catch (...) {
    dut_->close_trace();
    throw;
  }
}

void SsmSystem::end_cycle() {
  const uint64_t now = now_;
  try {
    bus_.sample(ports_.mmio, now);
    mem_.sample(ports_.dma, now);
    platform_.irq_line(ports_.irq, now);
    auto& g = ports_.gsn;
    if (g.up_valid && g.up_ready) ++gsn_msgs_;
    if (cfg_.gsn_loopback) {
      if (g.dn_valid && g.dn_ready) loop_full_ = false;
      if (g.up_valid && g.up_ready) {
        loop_full_ = true;
        loop_msg_ = g.up_msg;
      }
    }
    dut_->edge();
    ++now_;
    check_limits();
  } catch (...) {
    dut_->close_trace();  // keep the waveform of the failure
    throw;
  }
}

void SsmSystem::check_limits() {
  watchdog_.check(now_, progress());
  if (cfg_.max_cycles && now_ >= cfg_.max_cycles)
    throw Timeout(fmt::format("run exceeded max_cycles = {}\n{}", cfg_.max_cycles, stall_report()));
}

void SsmSystem::run() {
  while (!sched_.all_done()) step();
}

void SsmSystem::run_for(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; ++i) step();
}

void SsmSystem::run_until(const std::function<bool()>& done) {
  while (!done()) step();
}

SsmStats SsmSystem::stats() const {
  return SsmStats{now_, bus_.stats(), mem_.stats(), sched_.finished_threads(), platform_.irq_calls()};
}

}  // namespace hpcnet::sim
