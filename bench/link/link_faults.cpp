// bench/link/link_faults.cpp: the fault options of the NIC commands and the link counters read
// back (link_faults.hpp).
#include "link/link_faults.hpp"

#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "hpcnet/nic_formats.hpp"

namespace hpcnet::bench {

const CLI::Validator& LinkFaultOptions::rate() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        double x = 0;
        try {
          x = std::stod(s);
        } catch (const std::exception&) {
          return fmt::format("'{}' is not a number", s);
        }
        return x >= 0 && x <= kMaxRate ? "" : fmt::format("Value {} not in range 0 to {:g}", s, kMaxRate);
      },
      fmt::format("FLOAT in [0 - {:g}]", kMaxRate));
  return v;
}

void LinkFaultOptions::add(CLI::App& app, const std::string& what) {
  const std::string per = fmt::format(" ({})", what);
  // (add_option spelled out: scripts/check_docs.py finds the options by it)
  app.add_option("--link-ber", ber, "link faults: probability per flit of a one-bit error, both directions" + per)->check(rate());
  app.add_option("--link-burst", burst, "link faults: probability per flit of an error burst (2 to 16 adjacent bits)" + per)
      ->check(rate());
  app.add_option("--link-drop", drop, "link faults: probability per flit that it is lost" + per)->check(rate());
  app.add_option("--link-repeat", repeat, "link faults: probability per flit that it arrives twice" + per)->check(rate());
  app.add_option("--link-ctl", ctl,
                 "link faults: probability per control word (acknowledgements, credits; one a cycle each way) of a bit "
                 "error, and apart of its loss" + per)
      ->check(rate());
  app.add_option("--link-dead", dead,
                 "link faults: both directions dead for CYCLES cycles from AT cycles after the traffic starts, AT:CYCLES "
                 "(e.g. 3000:10000; CYCLES 1 to 1000000)");
  app.add_option("--link-seed", seed, "link faults: seed of the faults (same seed, same faults on the same traffic)");
}

void LinkFaultOptions::check() {
  dead_at = dead_cycles = 0;
  if (dead.empty()) return;
  const size_t c = dead.find(':');
  auto whole = [](std::string_view s, uint64_t& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  if (c == std::string::npos || !whole(std::string_view(dead).substr(0, c), dead_at) ||
      !whole(std::string_view(dead).substr(c + 1), dead_cycles))
    throw UsageError("--link-dead", fmt::format("'{}' is not AT:CYCLES (two whole numbers, e.g. 3000:10000)", dead));
  if (dead_cycles == 0)
    throw UsageError("--link-dead",
                     "CYCLES 0 (dead for good) is refused: the link goes down and every transfer ends with LINK_DOWN, "
                     "so there is nothing to measure (tb/nic/test_nic_link_down.cpp shows it)");
  if (dead_cycles > 1000000) throw UsageError("--link-dead", fmt::format("CYCLES {} is above 1000000", dead_cycles));
  if (dead_at > (uint64_t{1} << 40)) throw UsageError("--link-dead", fmt::format("AT {} is above 2^40", dead_at));
}

std::string LinkFaultOptions::text() const {
  if (!any()) return "none";
  std::vector<std::string> v;
  const std::pair<double, const char*> r[] = {{ber, "bit errors"}, {burst, "bursts"}, {drop, "drops"}, {repeat, "repeats"}};
  for (const auto& [p, name] : r)
    if (p > 0) v.push_back(fmt::format("{} {:g} per flit", name, p));
  if (ctl > 0) v.push_back(fmt::format("control words hit and lost {:g} each", ctl));
  if (dead_cycles > 0) v.push_back(fmt::format("dead {} cycles from {} cycles after the traffic starts", dead_cycles, dead_at));
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return fmt::format("{}; both directions, seed {}", s, seed);
}

void LinkFaultOptions::arm(sim::NicBackToBack& link) const {
  sim::LinkFaults f, c;
  f.bit_error = ber;
  f.burst = burst;
  f.drop = drop;
  f.repeat = repeat;
  c.bit_error = ctl;
  c.drop = ctl;
  if (dead_cycles > 0) {
    f.dead_at = c.dead_at = link.now() + dead_at;
    f.dead_cycles = c.dead_cycles = dead_cycles;
  }
  for (unsigned i = 0; i < 2; ++i) link.wire(i).set_faults(f, c);
}

void LinkFaultOptions::columns(Results& r) const {
  if (!any()) return;
  r.config("link_ber_per_flit", ber)
      .config("link_burst_per_flit", burst)
      .config("link_drop_per_flit", drop)
      .config("link_repeat_per_flit", repeat)
      .config("link_ctl_per_word", ctl)
      .config("link_dead_at_cycles", dead_cycles ? fmt::format("{}", dead_at) : "")
      .config("link_dead_cycles", double(dead_cycles))
      .config("link_seed", fmt::format("{}", seed));
}

LinkStats read_link_stats(sim::NicPair& pair) {
  namespace f = nic_formats;
  LinkStats s;
  uint64_t status[2] = {0, 0}, drops[2] = {0, 0};
  for (unsigned n = 0; n < 2; ++n)
    pair.spawn(n, 0, 0, [&, n] {
      status[n] = pair.driver(n).read_reg(f::LINK_STATUS_OFFSET);
      drops[n] = pair.driver(n).read_reg(f::LINK_DROPS_OFFSET);
    });
  pair.run();
  for (unsigned n = 0; n < 2; ++n) {
    s.replays[n] = f::LINK_STATUS_RETRIES.get(status[n]);
    s.timeouts[n] = f::LINK_STATUS_TIMEOUTS.get(status[n]);
    s.crc[n] = f::LINK_DROPS_CRC.get(drops[n]);
    s.framing[n] = f::LINK_DROPS_FRAMING.get(drops[n]);
    s.seq[n] = f::LINK_DROPS_SEQ.get(drops[n]);
    s.dup[n] = f::LINK_DROPS_DUP.get(drops[n]);
    const sim::LinkWire& w = pair.link().wire(n);
    for (const sim::FaultEvent& e : w.log()) ++(e.ctl ? s.ctl_faults[n] : s.flit_faults[n]);
    s.flits[n] = w.flits_put();
  }
  return s;
}

}  // namespace hpcnet::bench
