// bench/nic/nic_speed.cpp: `hpcnet nic --scenario speed`: simulated cycles of the two-node system
// per wall-clock second (and per CPU second) for a streaming run and a ping-pong run, timed with
// steady_clock around the run alone (the system's construction, reset and driver set-up timed
// apart), and the process's peak RSS (getrusage).
#include <sys/resource.h>

#include <fmt/format.h>

#include "nic/nic_bench.hpp"

namespace hpcnet::bench::netb {
std::string machine_text();  // bench/net/net_speed.cpp: "AMD EPYC (family 25, model 17), 2 CPUs, 2596 MHz"
}

namespace hpcnet::bench::nicb {

namespace {

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;  // Linux: KiB
}

}  // namespace

void run_speed(const NicBenchOptions& o, Report& rep, Progress& prog) {
  Results t({{"run", ""},
             {"work", ""},
             {"simulated_cycles", "cycles"},
             {"wall_s", "wall s"},
             {"cpu_s", "CPU s"},
             {"cycles_per_wall_s", "cycles/wall-s"},
             {"cycles_per_cpu_s", "cycles/CPU-s"},
             {"setup_wall_s", "set-up s"},
             {"peak_rss_mib", "peak RSS MiB"},
             {"machine", ""}});
  rep.config(t);
  t.config("submit", o.submit);
  const std::string machine = netb::machine_text();
  const unsigned size = 65536;
  const StreamRun s = stream_run(o, false, size, o.speed_msgs, "speed, streaming");
  t.add({word("streaming"), word(fmt::format("{} RDMA writes of {}", o.speed_msgs, size_text(size))), num(s.sim_cycles),
         num(s.wall_s, 3), num(s.cpu_s, 3), num(double(s.sim_cycles) / s.wall_s, 0), num(double(s.sim_cycles) / s.cpu_s, 0),
         num(s.setup_s, 3), num(peak_rss_mib(), 1), word(machine)});
  prog.step(fmt::format("speed, streaming: {:.0f} cycles/s", double(s.sim_cycles) / s.wall_s));
  const PingPongRun p = pingpong_run(o, o.speed_iters, "speed, ping-pong");
  t.add({word("ping-pong"), word(fmt::format("{} round trips of 8 B (PIO-WC RDMA write)", o.speed_iters)), num(p.sim_cycles),
         num(p.wall_s, 3), num(p.cpu_s, 3), num(double(p.sim_cycles) / p.wall_s, 0), num(double(p.sim_cycles) / p.cpu_s, 0),
         num(p.setup_s, 3), num(peak_rss_mib(), 1), word(machine)});
  prog.step(fmt::format("speed, ping-pong: {:.0f} cycles/s", double(p.sim_cycles) / p.wall_s));
  rep.emit("speed",
           "Simulation speed of the two-node system (two Verilated nic_top, PCIe host models, link, software threads): "
           "simulated cycles per second of the timed run alone; set-up = building the system (models, reset, driver "
           "initialisation, buffers); peak RSS of the process so far",
           t);
}

}  // namespace hpcnet::bench::nicb
