// stream.hpp: test-side ends of a valid/ready stream under random idle cycles and back-pressure
// (the project's handshake: a beat moves on a clock edge where valid and ready are both high; a
// source never takes valid back and keeps its value until the beat moves).
//   StreamSource<T>  a queue of values offered one at a time: each cycle a value not yet shown
//                    is shown with probability (100 - idle_pct)%, and not before its release
//                    cycle (push(v, not_before): a responder's latency); once shown it stays
//                    until taken.
//   StreamSink       ready with probability ready_pct% each cycle.
//   HoldCheck<T>     the other direction: that a module's output obeys the rule (a value shown
//                    and not taken is shown again, unchanged, in the next cycle).
// Per cycle: step() before driving the model's inputs, then, with the outputs sampled before the
// clock edge, fire(ready) / check(valid, ready, value).
#pragma once
#include <cstdint>
#include <deque>
#include <utility>

#include "hpcnet/tb/rng.hpp"

namespace hpcnet::tb {

template <class T>
class StreamSource {
 public:
  unsigned idle_pct = 0;  // chance of an idle cycle before a value is shown

  void push(T v, std::uint64_t not_before = 0) { q_.emplace_back(std::move(v), not_before); }
  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }

  // Decides this cycle's valid (`now`: the cycle count the release times are in).
  void step(Rng& rng, std::uint64_t now = 0) {
    if (!shown_ && !q_.empty() && now >= q_.front().second && !rng.pct(idle_pct)) shown_ = true;
  }
  bool valid() const { return shown_; }
  const T& data() const { return q_.front().first; }  // the value shown (or next); !empty()

  // The sink's ready of this cycle: true when the beat moved (the value has left the queue).
  bool fire(bool ready) {
    if (!shown_ || !ready) return false;
    q_.pop_front();
    shown_ = false;
    return true;
  }

 private:
  std::deque<std::pair<T, std::uint64_t>> q_;
  bool shown_ = false;
};

class StreamSink {
 public:
  unsigned ready_pct = 100;
  void step(Rng& rng) { ready_ = rng.pct(ready_pct); }
  bool ready() const { return ready_; }

 private:
  bool ready_ = true;
};

template <class T>
class HoldCheck {
 public:
  // This cycle's output; false when the rule was broken (last cycle's value, not taken, is now
  // withdrawn or changed).
  bool check(bool valid, bool ready, const T& v) {
    const bool ok = !held_ || (valid && v == last_);
    held_ = valid && !ready;
    if (held_) last_ = v;
    return ok;
  }
  const T& held() const { return last_; }  // the value last held, for a failure report

 private:
  bool held_ = false;
  T last_{};
};

}  // namespace hpcnet::tb
