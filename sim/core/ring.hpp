// sim/core/ring.hpp: fixed-capacity FIFO without per-operation heap allocation.
#pragma once

#include <cassert>
#include <cstddef>
#include <vector>

namespace hpcnet::sim {

template <class T>
class Ring {
 public:
  explicit Ring(size_t capacity = 16) : buf_(capacity ? capacity : 1) {}
  size_t size() const { return count_; }
  size_t capacity() const { return buf_.size(); }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == buf_.size(); }
  T& front() { assert(count_); return buf_[head_]; }
  const T& front() const { assert(count_); return buf_[head_]; }
  T& operator[](size_t i) { return buf_[(head_ + i) % buf_.size()]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) % buf_.size()]; }
  void push(const T& v) {
    assert(!full());
    buf_[(head_ + count_) % buf_.size()] = v;
    ++count_;
  }
  void pop() {
    assert(count_);
    head_ = (head_ + 1) % buf_.size();
    --count_;
  }

 private:
  std::vector<T> buf_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace hpcnet::sim
