// watchdog.cpp: Stall message of hpcnet::sim::Watchdog.
#include "sim/core/watchdog.hpp"

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

void Watchdog::fire(uint64_t now) {
  std::string msg = fmt::format("watchdog: no progress for {} cycles (cycle {}, last progress at cycle {})",
                                now - last_change_, now, last_change_);
  if (dump_) {
    std::string extra = dump_();
    if (!extra.empty()) msg += "\n" + extra;
  }
  last_change_ = now;  // a caller that catches and continues gets a fresh interval
  throw Stall(msg);
}

}  // namespace hpcnet::sim
