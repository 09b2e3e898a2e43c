// hpcnet/sim/lockstep.hpp: a pool of threads that run one step of work per index in lock step
// (NetSim: the blocks of a split mesh evaluate their clock edge in parallel, docs/net_sim.md).
//
// run(fn) calls fn(i) once for every i in 0..size()-1 and returns when all calls are done: the
// calling thread runs fn(0), one worker thread each of the others. The workers spin briefly for
// the next step, then sleep (std::atomic::wait), so an idle pool costs nothing and a busy machine
// degrades to the cost of a wake-up per step. An exception from any call is rethrown by run()
// (the first, by index) after every call of the step has finished.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace hpcnet::sim {

class LockstepPool {
 public:
  explicit LockstepPool(unsigned size);
  ~LockstepPool();
  LockstepPool(const LockstepPool&) = delete;
  LockstepPool& operator=(const LockstepPool&) = delete;

  unsigned size() const { return size_; }
  void run(const std::function<void(unsigned)>& fn);

 private:
  void worker(unsigned index);

  const unsigned size_;
  const std::function<void(unsigned)>* fn_ = nullptr;
  std::atomic<uint64_t> step_{0};  // incremented to start a step; kStop ends the workers
  // 64-bit atomics: libstdc++ then counts the waiters and notify() makes no system call when none
  // sleeps (a 32-bit one is waited on directly by futex and every notify() is a system call)
  std::atomic<uint64_t> left_{0};  // workers still running the current step
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace hpcnet::sim
