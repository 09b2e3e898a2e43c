// lockstep.cpp: LockstepPool (lockstep.hpp).
#include "sim/net/model/lockstep.hpp"

#include <bit>
#include <stdexcept>

namespace hpcnet::sim {

namespace {
constexpr uint64_t kStop = ~uint64_t{0};
// A waiting thread spins for up to kSpin, then sleeps (std::atomic::wait). The spin loop only
// loads: no PAUSE instruction, because a virtual machine's hypervisor takes a vCPU that executes
// PAUSE in a loop off its core (pause-loop exiting, KVM) and the hand-over then costs
// microseconds; measured on the 2-vCPU KVM machines: 2-5 us per step with PAUSE (docs/net_sim.md).
constexpr auto kSpin = std::chrono::microseconds(200);
constexpr uint64_t kRecent = 1000;      // parallel steps after which a fallback counts as a new one
constexpr unsigned kMaxDoubling = 64;   // the longest serial run: 64 times the first

// Waits until a.load() != old; returns the new value. sleepers: incremented while asleep.
uint64_t wait_change(const std::atomic<uint64_t>& a, uint64_t old, std::atomic<uint32_t>& sleepers) {
  uint64_t v = a.load(std::memory_order_acquire);
  if (v != old) return v;
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (unsigned i = 1;; ++i) {
    v = a.load(std::memory_order_acquire);
    if (v != old) return v;
    if ((i & 1023) == 0 && std::chrono::steady_clock::now() > until) break;
  }
  // Asleep: the changer sees sleepers > 0 (its change and this increment are sequentially
  // consistent, so either it sees the increment or the load below sees its change).
  sleepers.fetch_add(1, std::memory_order_seq_cst);
  for (;;) {
    v = a.load(std::memory_order_seq_cst);
    if (v != old) break;
    a.wait(old, std::memory_order_acquire);
  }
  sleepers.fetch_sub(1, std::memory_order_relaxed);
  return v;
}
}  // namespace

LockstepPool::LockstepPool(unsigned size, std::chrono::microseconds slow, unsigned serial)
    : size_(size), slow_(slow), serial_(serial), errors_(size) {
  if (size == 0) throw std::invalid_argument("LockstepPool: size must be at least 1");
  for (unsigned i = 1; i < size; ++i) threads_.emplace_back([this, i] { worker(i); });
}

LockstepPool::~LockstepPool() {
  step_.store(kStop, std::memory_order_seq_cst);
  step_.notify_all();
  for (auto& t : threads_) t.join();
}

void LockstepPool::worker(unsigned index) {
  uint64_t seen = 0;
  for (;;) {
    const uint64_t s = wait_change(step_, seen, sleepers_);
    if (s == kStop) return;
    seen = s;
    try {
      (*fn_)(index);
    } catch (...) {
      errors_[index] = std::current_exception();
    }
    if (left_.fetch_sub(1, std::memory_order_seq_cst) == 1 && sleepers_.load(std::memory_order_seq_cst) != 0)
      left_.notify_all();
  }
}

void LockstepPool::run(const std::function<void(unsigned)>& fn) {
  if (size_ == 1) {
    fn(0);
    return;
  }
  if (serial_left_ > 0) {  // the workers were slow to run: the caller does the step alone
    --serial_left_;
    ++serial_steps_;
    for (unsigned i = 0; i < size_; ++i) fn(i);
    return;
  }
  fn_ = &fn;
  left_.store(size_ - 1, std::memory_order_relaxed);
  step_.fetch_add(1, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) != 0) step_.notify_all();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    fn(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  uint64_t left = left_.load(std::memory_order_acquire);
  if (left != 0) {
    const auto t1 = std::chrono::steady_clock::now();
    while (left != 0) left = wait_change(left_, left, sleepers_);
    // waiting longer than the caller's own share took plus `slow`: a worker was not running.
    // Six such steps among the last eight: the machine has no core to spare for now.
    const bool slow = std::chrono::steady_clock::now() - t1 > (t1 - t0) + slow_;
    slow_log_ = static_cast<uint8_t>(slow_log_ << 1 | (slow ? 1 : 0));
  } else {
    slow_log_ = static_cast<uint8_t>(slow_log_ << 1);
  }
  ++parallel_run_;
  if (std::popcount(slow_log_) >= 6) {
    // a fallback soon after the last one: the core is still taken, stay serial twice as long;
    // otherwise (a passing hiccup of the machine) a short serial run
    serial_len_ = fell_back_ && parallel_run_ < kRecent ? std::min(serial_len_ * 2, serial_ * kMaxDoubling) : serial_;
    fell_back_ = true;
    parallel_run_ = 0;
    serial_left_ = serial_len_;
    slow_log_ = 0;
  }
  for (auto& e : errors_) {
    if (e) {
      std::exception_ptr first = e;
      for (auto& x : errors_) x = nullptr;
      std::rethrow_exception(first);
    }
  }
}

}  // namespace hpcnet::sim
