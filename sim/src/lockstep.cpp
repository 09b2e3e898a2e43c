// lockstep.cpp: LockstepPool (lockstep.hpp).
#include "hpcnet/sim/lockstep.hpp"

#include <bit>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HPCNET_PAUSE() _mm_pause()
#else
#define HPCNET_PAUSE() ((void)0)
#endif

namespace hpcnet::sim {

namespace {
constexpr uint64_t kStop = ~uint64_t{0};
constexpr int kSpins = 4000;  // about 10-40 us of spinning before sleeping
}  // namespace

LockstepPool::LockstepPool(unsigned size, std::chrono::microseconds slow, unsigned serial)
    : size_(size), slow_(slow), serial_(serial), errors_(size) {
  if (size == 0) throw std::invalid_argument("LockstepPool: size must be at least 1");
  for (unsigned i = 1; i < size; ++i) threads_.emplace_back([this, i] { worker(i); });
}

LockstepPool::~LockstepPool() {
  step_.store(kStop, std::memory_order_release);
  step_.notify_all();
  for (auto& t : threads_) t.join();
}

void LockstepPool::worker(unsigned index) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t s = step_.load(std::memory_order_acquire);
    for (int spin = 0; s == seen; s = step_.load(std::memory_order_acquire)) {
      if (++spin < kSpins) {
        HPCNET_PAUSE();
      } else {
        step_.wait(seen, std::memory_order_acquire);
      }
    }
    if (s == kStop) return;
    seen = s;
    try {
      (*fn_)(index);
    } catch (...) {
      errors_[index] = std::current_exception();
    }
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) left_.notify_one();
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
  step_.fetch_add(1, std::memory_order_release);
  step_.notify_all();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    fn(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  uint64_t left = left_.load(std::memory_order_acquire);
  if (left != 0) {
    const auto t1 = std::chrono::steady_clock::now();
    for (int spin = 0; left != 0; left = left_.load(std::memory_order_acquire)) {
      if (++spin < kSpins) {
        HPCNET_PAUSE();
      } else {
        left_.wait(left, std::memory_order_acquire);
      }
    }
    // waiting longer than the caller's own share took plus `slow`: a worker was not running.
    // Six such steps among the last eight: the machine has no core to spare for now.
    const bool slow = std::chrono::steady_clock::now() - t1 > (t1 - t0) + slow_;
    slow_log_ = static_cast<uint8_t>(slow_log_ << 1 | (slow ? 1 : 0));
  } else {
    slow_log_ = static_cast<uint8_t>(slow_log_ << 1);
  }
  if (std::popcount(slow_log_) >= 6) {
    serial_left_ = serial_;
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
