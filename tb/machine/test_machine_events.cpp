// test_machine_events.cpp: remote events on the machine: several senders write messages of many
// packets to one node at once, each with a remote event; the receiver, woken by an event, finds
// every byte of that message already in memory (events come after all the data, whatever the
// packets' order under adaptive routing), and each sender's transfers complete without error.
#include <random>

#include "hpcnet/tb/seed.hpp"
#include "machine_tb.hpp"

using namespace machine_tb;
using hpcnet::sim::MeshShape;
using hpcnet::sim::NetMode;

namespace {

void events_case(NetMode mode, const char* name) {
  MachineConfig cfg;
  cfg.net.shape = MeshShape(4, 4);
  cfg.net.mode = mode;
  cfg.max_cycles = 10'000'000;
  constexpr unsigned kDst = 5, kRounds = 4, kMax = 3000, kArea = 4096;
  const unsigned N = cfg.net.shape.nodes();
  // node kDst: an area of kArea bytes per sender, then an event slot of 16 bytes per sender
  Job job(std::move(cfg), size_t(N) * kArea + size_t(N) * 16 + 4096);
  const uint64_t seed = hpcnet::tb::seed(name);
  const uint64_t ev_base = size_t(N) * kArea;
  // every sender: its rounds' sizes and data, fixed up front (the receiver checks them)
  std::vector<std::vector<std::vector<uint8_t>>> data(N);
  std::mt19937_64 rng(seed);
  for (unsigned s = 0; s < N; ++s) {
    if (s == kDst) continue;
    for (unsigned r = 0; r < kRounds; ++r) {
      std::vector<uint8_t> d(129 + rng() % (kMax - 129));
      for (auto& b : d) b = uint8_t(rng());
      data[s].push_back(d);
    }
  }
  unsigned woken = 0;
  job.each([&](unsigned s) {
    rdma_ep* ep = job.ep[s];
    if (s == kDst) {
      // the receiver: an event from sender k says round r of k's data is in
      std::vector<unsigned> next(N, 0);
      for (unsigned got = 0; got < (N - 1) * kRounds;) {
        bool any = false;
        for (unsigned k = 0; k < N; ++k) {
          if (k == kDst || next[k] == kRounds) continue;
          uint8_t ev[16] = {};
          rdma_mem_read(ep, job.va[s] + ev_base + 16 * k, ev, 16);
          if (ev[0] == 0) continue;
          rdma_wait_event(ep, job.va[s] + ev_base + 16 * k, ev);  // takes it, zeroes the slot
          REQUIRE(ev[0] == next[k] + 1);
          const std::vector<uint8_t>& want = data[k][next[k]];
          std::vector<uint8_t> mem(want.size());
          rdma_mem_read(ep, job.va[s] + size_t(k) * kArea, mem.data(), mem.size());
          INFO("sender " << k << " round " << next[k] << ", " << want.size() << " bytes");
          REQUIRE(mem == want);
          ++next[k];
          ++got;
          ++woken;
          any = true;
        }
        if (!any) hpcnet::this_platform()->relax();
      }
      return;
    }
    // a sender: round r's data into its source area, written to kDst with a remote event; the
    // next round starts when the receiver has taken this one's event (its slot is zero again)
    for (unsigned r = 0; r < kRounds; ++r) {
      const std::vector<uint8_t>& d = data[s][r];
      rdma_mem_write(ep, job.va[s], d.data(), d.size());
      rdma_event re{{job.key[kDst], job.va[kDst] + ev_base + 16 * s}, {}};
      re.data[0] = uint8_t(r + 1);
      rdma_opts o = tb_opts(uint16_t(r));
      o.remote_event = &re;
      REQUIRE(rdma_write(ep, kDst, 0, rdma_addr{job.key[kDst], job.va[kDst] + size_t(s) * kArea}, rdma_addr{job.key[s], job.va[s]},
                         uint32_t(d.size()), &o) == 0);
      REQUIRE(rdma_quiet(ep) == 0);
      for (;;) {  // wait until the receiver took the event (its slot read back zero by RDMA)
        uint8_t ev[16] = {};
        const rdma_opts ro = tb_opts();
        REQUIRE(rdma_read(ep, kDst, 0, rdma_addr{job.key[kDst], job.va[kDst] + ev_base + 16 * s},
                          rdma_addr{job.key[s], job.va[s] + kArea}, 16, &ro) == 0);
        REQUIRE(rdma_quiet(ep) == 0);
        rdma_mem_read(ep, job.va[s] + kArea, ev, 16);
        if (ev[0] == 0) break;
        hpcnet::this_platform()->compute(200);
      }
    }
  });
  CHECK(woken == (N - 1) * kRounds);
}

}  // namespace

TEST_CASE("machine: 15 senders write messages of many packets with remote events to one node: each event after all its data", "[machine]") {
  SECTION("ADBR") { events_case(NetMode::adbr, "machine events adbr"); }
  SECTION("DOR-VCT") { events_case(NetMode::dor_vct, "machine events dorvct"); }
}
