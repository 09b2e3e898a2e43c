// bench/nic/nic_demo.cpp: `hpcnet nic-demo`, the NIC's demo scenario (docs/nic.md): two nodes,
// NICs back to back, one process (endpoint) on each. Node 0 writes a buffer into node 1 with a
// remote event, reads it back, sends an immediate write and a mini-packet, and makes one
// protected access on purpose (a key it does not have): a readable summary of each step with its
// time, every byte checked against the host's own copy, the error completion shown, and an FST
// trace of both NICs with --trace.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "common/registry.hpp"
#include "common/results.hpp"
#include "hpcnet/rdma.h"
#include "link/link_faults.hpp"
#include "sim/nic/nic_pair.hpp"

namespace hpcnet::bench {

namespace {

struct NicDemoOptions {
  unsigned bytes = 3000;  // the RDMA write and read
  std::string csv;
  LinkFaultOptions faults;  // from the first step on
};

struct Step {
  std::string what;
  uint64_t cycles = 0;
  bool ok = false;
  std::string detail;
};

int nic_demo(const NicDemoOptions& o) {
  sim::NicPairConfig cfg;
  o.faults.config(cfg);
  sim::NicPair pair(cfg);
  rdma_ep *a = nullptr, *b = nullptr;
  uint64_t src = 0, back = 0, dst = 0, ev = 0;
  uint16_t ks = 0, kb = 0, kd = 0, ke = 0;
  std::vector<uint8_t> data(o.bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 13 + 7);
  pair.spawn(1, 0, 0, [&] {
    if (rdma_open(&b)) throw std::runtime_error("nic-demo: no endpoint on node 1");
    dst = rdma_alloc(b, o.bytes + 256, 5);
    ev = rdma_alloc(b, 64, 0);
    rdma_reg_mr(b, dst, o.bytes + 256, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE, &kd);
    rdma_reg_mr(b, ev, 64, RDMA_ACCESS_WRITE, &ke);
  });
  pair.spawn(0, 0, 0, [&] {
    if (rdma_open(&a)) throw std::runtime_error("nic-demo: no endpoint on node 0");
    src = rdma_alloc(a, o.bytes, 17);
    back = rdma_alloc(a, o.bytes, 0);
    rdma_reg_mr(a, src, o.bytes, RDMA_ACCESS_READ, &ks);
    rdma_reg_mr(a, back, o.bytes, RDMA_ACCESS_WRITE, &kb);
  });
  pair.run();
  // The source is filled from outside the simulated threads, where a CPU store is immediate: in a
  // thread it costs 20 cycles a 64-byte line and is not progress for the watchdog, so a fill of
  // more than about 640 KB (200,000 cycles) stopped the set-up on it (issue 33).
  rdma_mem_write(a, src, data.data(), data.size());

  std::vector<Step> steps;
  auto timed = [&](const std::string& what, const std::function<void()>& fn) {
    const uint64_t t0 = pair.cycles();
    fn();
    steps.push_back({what, pair.cycles() - t0, false, {}});
    return &steps.back();
  };
  const unsigned vb = rdma_vp(b);
  o.faults.arm(pair.link());
  const uint64_t traffic_at = pair.cycles();  // AT of --link-dead counts from here
  // 1. RDMA write with a remote event: node 1 waits on the event
  uint8_t evd[16];
  int rc_w = -1;
  Step* s = timed(fmt::format("RDMA write {} B, remote event", o.bytes), [&] {
    pair.spawn(0, 0, 0, [&] {
      rdma_event re{{ke, ev}, {}};
      std::memcpy(re.data, "hpcnet nic demo!", 16);
      rdma_opts opt{};
      opt.submit = -1;
      opt.remote_event = &re;
      rdma_write(a, 1, vb, {kd, dst}, {ks, src}, o.bytes, &opt);
      rc_w = rdma_quiet(a);
    });
    pair.spawn(1, 0, 0, [&] { rdma_wait_event(b, ev, evd); });
    pair.run();
  });
  std::vector<uint8_t> got(o.bytes);
  rdma_mem_read(b, dst, got.data(), got.size());
  s->ok = rc_w == 0 && got == data && std::memcmp(evd, "hpcnet nic demo!", 16) == 0;
  s->detail = s->ok ? "bytes identical, event seen" : "WRONG";
  // 2. RDMA read back
  int rc_r = -1;
  s = timed(fmt::format("RDMA read {} B back", o.bytes), [&] {
    pair.spawn(0, 0, 0, [&] {
      rdma_read(a, 1, vb, {kd, dst}, {kb, back}, o.bytes, nullptr);
      rc_r = rdma_quiet(a);
    });
    pair.run();
  });
  rdma_mem_read(a, back, got.data(), got.size());
  s->ok = rc_r == 0 && got == data;
  s->detail = s->ok ? "bytes identical" : "WRONG";
  // 3. immediate write of 100 bytes behind the buffer
  int rc_i = -1;
  s = timed("immediate write 100 B", [&] {
    pair.spawn(0, 0, 0, [&] {
      rdma_write_imm(a, 1, vb, {kd, dst + o.bytes + 10}, data.data(), 100, nullptr);
      rc_i = rdma_quiet(a);
    });
    pair.run();
  });
  std::vector<uint8_t> imm(100);
  rdma_mem_read(b, dst + o.bytes + 10, imm.data(), imm.size());
  s->ok = rc_i == 0 && std::memcmp(imm.data(), data.data(), 100) == 0;
  s->detail = s->ok ? "bytes identical" : "WRONG";
  // 4. a mini-packet
  char msg[120] = {};
  int got_len = -1;
  rdma_mp_info info{};
  s = timed("mini-packet 'hello, node 1'", [&] {
    pair.spawn(0, 0, 0, [&] { rdma_mp_send(a, 1, vb, "hello, node 1", 13, nullptr); });
    pair.spawn(1, 0, 0, [&] { got_len = rdma_mp_recv(b, msg, &info, 1); });
    pair.run();
  });
  s->ok = got_len == 13 && std::memcmp(msg, "hello, node 1", 13) == 0 && info.src_node == 0;
  s->detail = s->ok ? fmt::format("received from node {} VP {}", info.src_node, info.src_vp) : "WRONG";
  // 5. a protected access: a write that would run past the end of node 1's region (its last 40
  // bytes are inside: none of them may be written)
  rdma_cqe e{};
  int n_cqe = 0, rc_p = 0;
  const uint64_t edge = dst + o.bytes + 256 - 40;
  std::vector<uint8_t> before(40), after(40);
  rdma_mem_read(b, edge, before.data(), 40);
  s = timed("write past the end of the target's region", [&] {
    pair.spawn(0, 0, 0, [&] {
      rdma_write(a, 1, vb, {kd, edge}, {ks, src}, 64, nullptr);
      rc_p = rdma_quiet(a);
      n_cqe = rdma_poll_cq(a, &e, 1);
    });
    pair.run();
  });
  rdma_mem_read(b, edge, after.data(), 40);
  s->ok = rc_p < 0 && n_cqe == 1 && e.status == rc_p && after == before;
  s->detail = s->ok ? fmt::format("error CQ entry: {}{}, no byte touched",
                                  nic_formats::to_string(nic_formats::Status(-e.status & 0x7F)),
                                  (-e.status & 0x80) ? " (found at the target)" : "")
                    : "WRONG";

  bool ok = true;
  fmt::print("hpcnet nic-demo: two nodes, NICs back to back, {:.1f} MHz, PCIe 8 GB/s each way\n",
             pair.config().clock_mhz);
  for (const Step& st : steps) {
    fmt::print("  {:<40} {:>6} cycles = {:>6.2f} us ... {}\n", st.what, st.cycles, pair.ns(st.cycles) / 1000.0,
               st.detail);
    ok = ok && st.ok;
  }
  const sim::PcieStats p0 = pair.nic(0).pcie().dma().stats(), p1 = pair.nic(1).pcie().dma().stats();
  fmt::print("  link         : {} flits carried\n", pair.link().flits());
  if (o.faults.any()) {
    const LinkStats l = read_link_stats(pair);
    fmt::print("  link faults  : {}; the traffic starts at cycle {}\n", o.faults.text(), traffic_at);
    for (unsigned n = 0; n < 2; ++n)
      fmt::print("  link {} -> {}  : {} faults on flits, {} on control words; node {} dropped {} (CRC {}, framing {}, "
                 "seq {}, dup {}); node {} replayed {} times ({} timeouts)\n",
                 n, 1 - n, l.flit_faults[n], l.ctl_faults[n], 1 - n, l.drops(1 - n), l.crc[1 - n], l.framing[1 - n],
                 l.seq[1 - n], l.dup[1 - n], n, l.replays[n], l.timeouts[n]);
  }
  fmt::print("  PCIe node 0  : {} read requests, {} write beats; node 1: {} read requests, {} write beats\n",
             p0.read_requests, p0.write_beats, p1.read_requests, p1.write_beats);
  fmt::print("  result       : {}\n", ok ? "PASS" : "FAIL");
  Results r({{"step", ""}, {"cycles", ""}, {"time_us", ""}, {"ok", ""}, {"detail", ""}});
  for (const Step& st : steps)
    r.add({word(st.what), num(st.cycles), num(pair.ns(st.cycles) / 1000.0), word(st.ok ? "yes" : "no"), word(st.detail)});
  save_results(r, o.csv, "nic-demo");
  if (!ok) std::fprintf(stderr, "hpcnet: check failed: nic-demo: a step's bytes or completion differ\n");
  return ok ? kExitOk : kExitCheckFailed;
}

}  // namespace

void add_nic_demo(Registry& reg) {
  reg.add("nic-demo", "NIC demo: two nodes back to back, write, read, immediate, mini-packet, a protected access; summary + trace",
          [](CLI::App& c) -> Runner {
            auto st = std::make_shared<NicDemoOptions>();
            c.add_option("--bytes", st->bytes, "bytes of the RDMA write and read")->check(CLI::Range(1u, 1u << 20));
            c.add_option("--csv", st->csv, "also write the steps as CSV to this file");
            st->faults.add(c, "from the first step on");
            return [st] {
              st->faults.check();
              return nic_demo(*st);
            };
          },
          "which run to trace: the demo builds one two-node system, run 1 (node 0's NIC writes FILE, node 1's FILE-2)");
}

}  // namespace hpcnet::bench
