// bench/link/link_speed.cpp: `hpcnet link --scenario speed`: simulation speed of the two-node
// system with fault injection off and on, the same stream (nicb::stream_run, timed around the
// stream alone) run in turn, off then on, --speed-pairs times: the ratio of each pair is taken, so
// that a drift of the machine's speed during the command moves both sides alike.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "link/link_bench.hpp"

namespace hpcnet::bench::linkb {

void run_speed(const LinkBenchOptions& o, nicb::Report& rep, Progress& prog) {
  Results t({{"pair", ""},
             {"faults", ""},
             {"simulated_cycles", "cycles"},
             {"wall_s", "wall s"},
             {"cycles_per_wall_s", "cycles/wall-s"},
             {"faults_injected", "faults"},
             {"replays", ""},
             {"speed_ratio_on_to_off", "on/off cycles/s"},
             {"wall_ratio_on_to_off", "on/off wall"}});
  rep.config(t);
  t.config("message_bytes", o.msg_size).config("messages", o.msgs).config("fault_rate", o.speed_ber);
  t.config("link_seed", fmt::format("{}", o.link_seed));
  nicb::NicBenchOptions off = point_options(o, {nicb::kDefaultLinkRetx, o.nic.link_delay, 0.0});
  nicb::NicBenchOptions on = off;
  LinkFaultOptions& f = on.faults;
  f.ber = f.burst = f.drop = f.repeat = f.ctl = o.speed_ber;
  std::vector<double> speed, wall;
  for (unsigned k = 1; k <= o.speed_pairs; ++k) {
    const nicb::StreamRun a = nicb::stream_run(off, false, o.msg_size, o.msgs, fmt::format("link speed {}, faults off", k));
    const nicb::StreamRun b = nicb::stream_run(on, false, o.msg_size, o.msgs, fmt::format("link speed {}, faults on", k));
    const double sa = double(a.sim_cycles) / a.wall_s, sb = double(b.sim_cycles) / b.wall_s;
    speed.push_back(sb / sa);
    wall.push_back(b.wall_s / a.wall_s);
    for (const nicb::StreamRun* r : {&a, &b}) {
      const LinkStats& l = r->link;
      const bool is_on = r == &b;
      t.add({num(k), word(is_on ? "on" : "off"), num(r->sim_cycles), num(r->wall_s, 3), num(double(r->sim_cycles) / r->wall_s, 0),
             num(l.flit_faults[0] + l.flit_faults[1] + l.ctl_faults[0] + l.ctl_faults[1]), num(l.replays[0] + l.replays[1]),
             is_on ? num(sb / sa, 3) : num(std::nan(""), 3), is_on ? num(b.wall_s / a.wall_s, 3) : num(std::nan(""), 3)});
    }
    prog.step(fmt::format("speed pair {}: {:.0f} cycles/s off, {:.0f} on", k, sa, sb));
  }
  std::sort(speed.begin(), speed.end());
  std::sort(wall.begin(), wall.end());
  rep.emit("speed",
           fmt::format("Simulation speed with fault injection off and on ({} RDMA writes of {}, delay {}; on: bit errors, bursts, "
                       "drops and repeats at {:g} per flit and control words hit and lost at {:g}, both directions), run in "
                       "turn",
                       o.msgs, nicb::size_text(o.msg_size), o.nic.link_delay, o.speed_ber, o.speed_ber),
           t,
           {fmt::format("median of {} pairs: speed with faults on / off {:.3f} (simulated cycles per wall second); wall time "
                        "of the same stream on / off {:.3f} (more cycles: the replays)",
                        o.speed_pairs, speed[speed.size() / 2], wall[wall.size() / 2])});
}

}  // namespace hpcnet::bench::linkb
