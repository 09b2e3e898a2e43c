// sim/core/watchdog.hpp: throws Stall when a progress counter stops moving for too long.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace hpcnet::sim {

class Watchdog {
 public:
  using Dump = std::function<std::string()>;  // extra text for the Stall message

  Watchdog() = default;
  explicit Watchdog(uint64_t limit_cycles, Dump dump = {}) : limit_(limit_cycles), dump_(std::move(dump)) {}

  void set_limit(uint64_t cycles) { limit_ = cycles; }  // 0 disables
  uint64_t limit() const { return limit_; }
  void set_dump(Dump dump) { dump_ = std::move(dump); }

  // Call once per cycle with the current progress count; throws Stall after `limit` cycles
  // without a change. The message says where and (via the dump callback) what is stuck.
  void check(uint64_t now, uint64_t progress) {
    if (progress != last_progress_ || !armed_) {
      last_progress_ = progress;
      last_change_ = now;
      armed_ = true;
      return;
    }
    if (limit_ && now - last_change_ >= limit_) fire(now);
  }
  // Restart the no-progress interval (e.g. after a deliberate idle period).
  void kick(uint64_t now) { last_change_ = now; }

 private:
  [[noreturn]] void fire(uint64_t now);

  uint64_t limit_ = 0;
  Dump dump_;
  bool armed_ = false;
  uint64_t last_progress_ = 0;
  uint64_t last_change_ = 0;
};

}  // namespace hpcnet::sim
