// sim/core/scheduler.hpp: simulated software threads as Boost.Context fibers.
//
// Each spawned thread runs on its own fiber and is labelled with a CpuId (pe, thread). The main
// loop calls run_cycle(now) once per device clock cycle; it resumes, in spawn order, every
// fiber whose wake-up time has come, and each runs until it yields (sleep / block / finish).
// No wall-clock input: the same program gives the same cycle counts. An exception escaping a
// thread is rethrown from run_cycle() on the main stack. Service threads (e.g. the interrupt
// service context) do not count towards all_done().
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <boost/context/fiber.hpp>

#include "hpcnet/platform.hpp"

namespace hpcnet::sim {

struct SchedConfig {
  unsigned num_pe = 5;
  unsigned num_threads = 4;            // per PE
  size_t stack_bytes = 256 * 1024;     // per fiber (guard page below)
};

class Scheduler {
 public:
  using ThreadId = size_t;
  static constexpr uint64_t kNever = UINT64_MAX;

  explicit Scheduler(SchedConfig cfg = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;
  const SchedConfig& config() const { return cfg_; }

  // Start a software thread on cpu (pe < num_pe, thread < num_threads, one live thread per
  // cpu). It first runs in the next run_cycle() (or the current one if spawned from a fiber).
  ThreadId spawn(CpuId cpu, std::function<void()> fn, std::string name = {});
  // A thread that does not keep run() going (interrupt service, daemons).
  ThreadId spawn_service(CpuId cpu, std::function<void()> fn, std::string name);

  // Main loop side.
  void run_cycle(uint64_t now);
  bool all_done() const { return live_ == 0; }
  size_t live_threads() const { return live_; }
  uint64_t finished_threads() const { return finished_; }
  uint64_t now() const { return now_; }
  // Unwind every unfinished fiber (their platform calls return at once). Idempotent.
  void shutdown();
  bool stopping() const { return stopping_; }
  // "pe0.t1 name: what(0x..) since cycle N, blocked" per unfinished non-service thread.
  std::string describe_running() const;

  // Fiber side.
  // The scheduler whose simulated thread is running on this OS thread (nullptr on the main
  // stack): a library call made from a simulated thread finds its node through it.
  static Scheduler* running();
  // The node platform whose threads this scheduler runs (set by SimPlatform).
  Platform* platform() const { return platform_; }
  void bind_platform(Platform* p) { platform_ = p; }
  bool in_thread() const { return current_ != nullptr; }
  ThreadId current() const;           // throws std::logic_error outside a thread
  CpuId current_cpu() const;          // throws std::logic_error outside a thread
  void sleep(uint64_t cycles);        // resume `cycles` later (0: return at once)
  void block();                       // until wake()
  void wake(ThreadId id, uint64_t at);  // resume a blocked thread at cycle `at` (>= now)
  // Note what the current thread is doing, for stall reports (what: a string literal).
  void note(const char* what, uint64_t arg = 0, bool has_arg = true);

 private:
  struct Thread;
  ThreadId add(CpuId cpu, std::function<void()> fn, std::string name, bool service);
  void resume(Thread& t);     // switch_to(t), then a finished thread's bookkeeping and error
  void switch_to(Thread& t);  // run t until it yields or finishes
  void yield();
  // AddressSanitizer's stack-switch annotations (empty without ASan).
  static void leave_main(Thread& t);
  static void arrive_main(Thread& t);
  static void arrive_fiber(Thread& t);
  static void leave_fiber(Thread& t, bool for_good);

  SchedConfig cfg_;
  std::vector<std::unique_ptr<Thread>> threads_;
  std::vector<char> cpu_busy_;
  Thread* current_ = nullptr;
  uint64_t now_ = 0;
  size_t live_ = 0;
  uint64_t finished_ = 0;
  bool stopping_ = false;
  Platform* platform_ = nullptr;
};

}  // namespace hpcnet::sim
