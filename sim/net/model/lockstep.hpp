// sim/net/model/lockstep.hpp: a pool of threads that run one step of work per index in lock step
// (NetSim: the blocks of a split mesh evaluate their clock edge in parallel, docs/net_sim.md).
//
// run(fn) calls fn(i) once for every i in 0..size()-1 and returns when all calls are done: the
// calling thread runs fn(0), one worker thread each of the others. A waiting thread spins for up
// to 200 us (loads only, no PAUSE: on a virtual machine a PAUSE loop makes the hypervisor take
// the vCPU off its core, and a hand-over then costs microseconds), then sleeps
// (std::atomic::wait), so an idle pool costs nothing. On a machine with no core free for a worker
// (other processes running), a step would wait for the scheduler to run the worker, a time slice
// or more: when, in six of the last eight steps, the caller waited for the workers longer than
// its own share of the step took plus `slow`, the next steps run every index on the calling
// thread, one after the other, and then the pool tries parallel steps again. The first such
// serial run is `serial` steps long; one that follows the last within 1,000 parallel steps is
// twice as long as the last (at most 64 x `serial`). An exception from any call is rethrown by
// run() (the first, by index) after every call of the step has finished.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace hpcnet::sim {

class LockstepPool {
 public:
  explicit LockstepPool(unsigned size, std::chrono::microseconds slow = std::chrono::microseconds(20),
                        unsigned serial = 50);
  ~LockstepPool();
  LockstepPool(const LockstepPool&) = delete;
  LockstepPool& operator=(const LockstepPool&) = delete;

  unsigned size() const { return size_; }
  void run(const std::function<void(unsigned)>& fn);
  uint64_t serial_steps() const { return serial_steps_; }  // steps run on the caller alone so far

 private:
  void worker(unsigned index);

  const unsigned size_;
  const std::chrono::microseconds slow_;
  const unsigned serial_;
  unsigned serial_left_ = 0;  // steps still to run on the caller alone
  unsigned serial_len_ = 0;   // length of the last serial run
  bool fell_back_ = false;    // a serial run happened before
  uint64_t parallel_run_ = 0; // parallel steps since the last serial run
  uint8_t slow_log_ = 0;      // the last eight parallel steps, 1: slow
  uint64_t serial_steps_ = 0;
  std::vector<std::exception_ptr> errors_;
  // What crosses between the cores, one cache line per writer: the caller writes fn_ and step_
  // to start a step, the workers write left_ when done; sleepers_ counts the threads asleep in
  // std::atomic::wait, so that a notify() (in libstdc++ an atomic add on a shared counter, a
  // transfer between the cores, and a system call when someone sleeps) happens only when needed.
  alignas(64) const std::function<void(unsigned)>* fn_ = nullptr;
  std::atomic<uint64_t> step_{0};  // incremented to start a step; kStop ends the workers
  alignas(64) std::atomic<uint64_t> left_{0};  // workers still running the current step
  alignas(64) std::atomic<uint32_t> sleepers_{0};
  std::vector<std::thread> threads_;
};

}  // namespace hpcnet::sim
