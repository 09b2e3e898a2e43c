// scheduler.cpp: fiber creation, resumption order, exception capture and teardown.
#include "sim/core/scheduler.hpp"

#include <stdexcept>

#include <boost/context/protected_fixedsize_stack.hpp>
#include <fmt/format.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace ctx = boost::context;

namespace hpcnet::sim {

namespace {
// Thrown at a suspended thread's yield point by shutdown(): unwinds its stack (destructors run;
// their platform calls see stopping() and return without yielding). Not a std::exception, so
// the thread's own handlers of std::exception let it through.
struct Unwind {};
}  // namespace

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
  // The fiber's stack, and the stack it was last resumed from (AddressSanitizer's fiber
  // annotations: ASan must be told which stack runs, or it takes an exception unwinding on a fiber
  // for a stack overflow; Debian's Boost.Context does not tell it).
  const void* stack_bottom = nullptr;
  size_t stack_size = 0;
  const void* caller_bottom = nullptr;
  size_t caller_size = 0;
  void* main_fake = nullptr;   // ASan's fake stack of the main side while the fiber runs
  void* fiber_fake = nullptr;  // ... of the fiber while it is suspended
};

namespace {
// The fiber stack allocator, noting where the stack is (for the annotations).
struct NotedStack {
  ctx::protected_fixedsize_stack stack;
  const void** bottom;
  size_t* size;
  ctx::stack_context allocate() {
    ctx::stack_context sc = stack.allocate();
    *bottom = static_cast<char*>(sc.sp) - sc.size;  // sp is the top: stacks grow down
    *size = sc.size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) noexcept { stack.deallocate(sc); }
};
}  // namespace

// The four halves of a stack switch, as AddressSanitizer wants them announced (no code without
// ASan): the side that leaves names the stack it goes to; the side that arrives learns the stack
// it came from. A fiber that finishes leaves for good (no fake stack to keep).
void Scheduler::leave_main(Thread& t) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(&t.main_fake, t.stack_bottom, t.stack_size);
#else
  (void)t;
#endif
}
void Scheduler::arrive_main(Thread& t) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(t.main_fake, nullptr, nullptr);
#else
  (void)t;
#endif
}
void Scheduler::arrive_fiber(Thread& t) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(t.fiber_fake, &t.caller_bottom, &t.caller_size);
#else
  (void)t;
#endif
}
void Scheduler::leave_fiber(Thread& t, bool for_good) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(for_good ? nullptr : &t.fiber_fake, t.caller_bottom, t.caller_size);
#else
  (void)t;
  (void)for_good;
#endif
}

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
  tp->fiber = ctx::fiber(std::allocator_arg,
                         NotedStack{ctx::protected_fixedsize_stack(cfg_.stack_bytes), &tp->stack_bottom, &tp->stack_size},
                         [this, tp](ctx::fiber&& caller) {
                           arrive_fiber(*tp);
                           tp->caller = std::move(caller);
                           try {
                             if (!stopping_) tp->fn();  // a thread never started is not started at shutdown
                           } catch (const Unwind&) {
                             // shutdown() unwound the suspended thread
                           } catch (...) {
                             tp->error = std::current_exception();
                           }
                           tp->done = true;
                           leave_fiber(*tp, true);
                           return std::move(tp->caller);
                         });
  threads_.push_back(std::move(t));
  if (!service) ++live_;
  return tp->id;
}

namespace {
thread_local Scheduler* t_running = nullptr;  // the scheduler whose fiber runs on this OS thread
}  // namespace

Scheduler* Scheduler::running() { return t_running; }

void Scheduler::switch_to(Thread& t) {
  current_ = &t;
  Scheduler* const outer = t_running;
  t_running = this;
  leave_main(t);
  t.fiber = std::move(t.fiber).resume();
  arrive_main(t);
  t_running = outer;
  current_ = nullptr;
}

void Scheduler::resume(Thread& t) {
  switch_to(t);
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
  leave_fiber(t, false);
  t.caller = std::move(t.caller).resume();
  arrive_fiber(t);
  if (stopping_) throw Unwind{};
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
  // Every unfinished thread is resumed once more: its yield throws Unwind, which unwinds its stack
  // and finishes the fiber (a thread that never ran returns at once). Its error, if any, is dropped.
  for (auto& t : threads_)
    if (!t->done && t->fiber) switch_to(*t);
  threads_.clear();
  live_ = 0;
}

}  // namespace hpcnet::sim
