// scheduler.cpp: fiber creation, resumption order, exception capture and teardown.
#include "hpcnet/sim/scheduler.hpp"

#include <stdexcept>

#include <boost/context/protected_fixedsize_stack.hpp>
#include <fmt/format.h>

namespace ctx = boost::context;

namespace hpcnet::sim {

struct Scheduler::Thread {
  ThreadId id = 0;
  CpuId cpu;
  std::string name;
  bool service = false;
  std::function<void()> fn;
  ctx::fiber fiber;   // the thread's context while it is suspended
  ctx::fiber caller;  // the main loop's context while the thread runs
  uint64_t wake_at = 0;
  bool done = false;
  std::exception_ptr error;
  const char* what = "starting";
  uint64_t arg = 0;
  bool has_arg = false;
  uint64_t since = 0;
};

Scheduler::Scheduler(SchedConfig cfg) : cfg_(cfg), cpu_busy_(size_t(cfg.num_pe) * cfg.num_threads, 0) {}

Scheduler::~Scheduler() { shutdown(); }

Scheduler::ThreadId Scheduler::spawn(CpuId cpu, std::function<void()> fn, std::string name) {
  if (cpu.pe >= cfg_.num_pe || cpu.thread >= cfg_.num_threads)
    throw std::out_of_range(fmt::format("spawn: cpu pe{}.t{} outside {} PEs x {} threads", cpu.pe, cpu.thread,
                                        cfg_.num_pe, cfg_.num_threads));
  char& busy = cpu_busy_[size_t(cpu.pe) * cfg_.num_threads + cpu.thread];
  if (busy) throw std::logic_error(fmt::format("spawn: pe{}.t{} already runs a thread", cpu.pe, cpu.thread));
  busy = 1;
  return add(cpu, std::move(fn), std::move(name), false);
}

Scheduler::ThreadId Scheduler::spawn_service(CpuId cpu, std::function<void()> fn, std::string name) {
  return add(cpu, std::move(fn), std::move(name), true);
}

Scheduler::ThreadId Scheduler::add(CpuId cpu, std::function<void()> fn, std::string name, bool service) {
  if (stopping_) throw std::logic_error("spawn after shutdown");
  auto t = std::make_unique<Thread>();
  Thread* tp = t.get();
  tp->id = threads_.size();
  tp->cpu = cpu;
  tp->name = std::move(name);
  tp->service = service;
  tp->fn = std::move(fn);
  tp->wake_at = now_;
  tp->since = now_;
  tp->fiber = ctx::fiber(std::allocator_arg, ctx::protected_fixedsize_stack(cfg_.stack_bytes),
                         [tp](ctx::fiber&& caller) {
                           tp->caller = std::move(caller);
                           try {
                             tp->fn();
                           } catch (const ctx::detail::forced_unwind&) {
                             throw;  // teardown of a suspended fiber: let Boost unwind it
                           } catch (...) {
                             tp->error = std::current_exception();
                           }
                           tp->done = true;
                           return std::move(tp->caller);
                         });
  threads_.push_back(std::move(t));
  if (!service) ++live_;
  return tp->id;
}

void Scheduler::resume(Thread& t) {
  current_ = &t;
  t.fiber = std::move(t.fiber).resume();
  current_ = nullptr;
  if (!t.done) return;
  t.fn = nullptr;
  if (!t.service) {
    --live_;
    ++finished_;
    cpu_busy_[size_t(t.cpu.pe) * cfg_.num_threads + t.cpu.thread] = 0;
  }
  if (t.error) {
    std::exception_ptr e = t.error;
    t.error = nullptr;
    std::rethrow_exception(e);
  }
}

void Scheduler::run_cycle(uint64_t now) {
  now_ = now;
  // Index loop: threads spawned during the pass are appended and run in it too.
  for (size_t i = 0; i < threads_.size(); ++i) {
    Thread& t = *threads_[i];
    if (!t.done && t.wake_at <= now) resume(t);
  }
}

void Scheduler::yield() {
  Thread& t = *current_;
  t.caller = std::move(t.caller).resume();
}

Scheduler::ThreadId Scheduler::current() const {
  if (!current_) throw std::logic_error("not called from a simulated thread");
  return current_->id;
}

CpuId Scheduler::current_cpu() const {
  if (!current_) throw std::logic_error("current_cpu: not called from a simulated thread");
  return current_->cpu;
}

void Scheduler::sleep(uint64_t cycles) {
  if (stopping_) return;
  if (!current_) throw std::logic_error("sleep: not called from a simulated thread");
  if (cycles == 0) return;
  current_->wake_at = now_ + cycles;
  yield();
}

void Scheduler::block() {
  if (stopping_) return;
  if (!current_) throw std::logic_error("block: not called from a simulated thread");
  current_->wake_at = kNever;
  yield();
}

void Scheduler::wake(ThreadId id, uint64_t at) {
  Thread& t = *threads_.at(id);
  if (!t.done) t.wake_at = at;
}

void Scheduler::note(const char* what, uint64_t arg, bool has_arg) {
  if (!current_) return;
  Thread& t = *current_;
  if (t.what != what || t.arg != arg) t.since = now_;
  t.what = what;
  t.arg = arg;
  t.has_arg = has_arg;
}

std::string Scheduler::describe_running() const {
  std::string s;
  for (const auto& tp : threads_) {
    const Thread& t = *tp;
    if (t.done || t.service) continue;
    s += fmt::format("  pe{}.t{}{}{}: in {}", t.cpu.pe, t.cpu.thread, t.name.empty() ? "" : " ", t.name, t.what);
    if (t.has_arg) s += fmt::format("(0x{:x})", t.arg);
    s += fmt::format(" since cycle {}, ", t.since);
    s += t.wake_at == kNever ? std::string("blocked") : fmt::format("sleeping until cycle {}", t.wake_at);
    s += "\n";
  }
  return s;
}

void Scheduler::shutdown() {
  if (stopping_) return;
  stopping_ = true;
  // Destroying a suspended fiber unwinds its stack (forced_unwind); platform calls made by
  // destructors on the way see stopping() and return without yielding.
  for (auto& t : threads_) {
    current_ = t.get();
    t->fiber = ctx::fiber{};
  }
  current_ = nullptr;
  threads_.clear();
  live_ = 0;
}

}  // namespace hpcnet::sim
