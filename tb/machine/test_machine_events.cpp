// test_machine_events.cpp: remote events on the machine, and many messages in progress at one
// receiver.
//  - Several senders write messages of many packets to one node at once, each with a remote
//    event; the receiver, woken by an event, finds every byte of that message already in memory
//    (events come after all the data, whatever the packets' order under adaptive routing), and
//    each sender's transfers complete without error.
//  - Incast: every other node writes several messages of many packets to one node at once (RDMA
//    writes with remote events, all submitted before any is waited for): on 8x8 the receiver has
//    the messages of 63 senders in progress together, far more than the 16 its first table held
//    (which deadlocked beyond that). An RxOccupancy fabric reads the heads arriving on every NIC's
//    link and counts, per receiver, the messages whose first packet has come and whose bytes are
//    not all in: the 8x8 test requires that count above 16. The receiver, woken by an event,
//    finds every byte of that message in memory; at the end its memory holds every message
//    exactly, and every transfer completed without error.
#include <algorithm>
#include <map>
#include <memory>
#include <random>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/tb/seed.hpp"
#include "machine_tb.hpp"
#include "sim/nic/nic_device.hpp"

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

namespace nf = hpcnet::nic_formats;

// Messages in progress at each NIC's receiver, from the heads arriving on its link (VC0 WRITEs):
// a message counts from its first packet to come until its bytes reach MSG_LEN.
class RxOccupancy final : public hpcnet::sim::Fabric {
 public:
  explicit RxOccupancy(std::vector<hpcnet::sim::NicDevice*> nics) : nics_(std::move(nics)), open_(nics_.size()), max_(nics_.size(), 0) {}
  std::string name() const override { return "rx occupancy"; }
  void sample() override {
    for (size_t i = 0; i < nics_.size(); ++i) {
      const hpcnet::sim::NicFlit& f = nics_[i]->link().rx;
      if (!f.valid || !f.head || f.vc != 0) continue;
      const nf::PktHead h = nf::PktHead::unpack({f.data[0], f.data[1], f.data[2], f.data[3]});
      if (h.ptype != nf::PktType::WRITE) continue;
      const auto it = open_[i].try_emplace(uint32_t(h.src_node) << 8 | h.msg_id, h.msg_len).first;
      max_[i] = std::max(max_[i], open_[i].size());
      it->second = h.len >= it->second ? 0 : it->second - h.len;
      if (it->second == 0) open_[i].erase(it);
    }
  }
  size_t max_open(size_t i) const { return max_.at(i); }

 private:
  std::vector<hpcnet::sim::NicDevice*> nics_;
  std::vector<std::map<uint32_t, uint32_t>> open_;  // {SRC_NODE, MSG_ID} -> bytes still to come
  std::vector<size_t> max_;
};

uint8_t incast_byte(unsigned s, unsigned r, size_t i) { return uint8_t(s * 37 + r * 101 + i * 13 + 5); }

// Every node but kDst writes `rounds` messages of `size` bytes to kDst with a remote event, all
// submitted at once; kDst checks each message when its event comes. Returns the most messages
// RxOccupancy saw in progress at kDst.
size_t incast_case(MeshShape shape, NetMode mode, unsigned rounds, uint32_t size, const char* name) {
  MachineConfig cfg;
  cfg.net.shape = shape;
  cfg.net.mode = mode;
  cfg.max_cycles = 20'000'000;
  const unsigned N = shape.nodes(), kDst = N / 2 + shape.k[0] / 2;  // a node inside the mesh
  // kDst's memory: slot (s, r) of sender s's round r, then a 16-byte event slot per (s, r); a
  // sender's: its rounds' sources
  const size_t slots = size_t(N) * rounds, ev_base = slots * size;
  Job job(std::move(cfg), ev_base + slots * 16);
  std::vector<hpcnet::sim::NicDevice*> nics;
  for (unsigned n = 0; n < N; ++n) nics.push_back(&job.m.nic(n));
  auto occ_owner = std::make_unique<RxOccupancy>(nics);
  RxOccupancy& occ = *occ_owner;
  job.m.cluster().add_fabric(std::move(occ_owner));
  const auto slot = [&](unsigned s, unsigned r) { return size_t(s) * rounds + r; };
  for (unsigned s = 0; s < N; ++s) {
    if (s == kDst) continue;
    std::vector<uint8_t> img(size_t(rounds) * size);
    for (unsigned r = 0; r < rounds; ++r)
      for (size_t i = 0; i < size; ++i) img[r * size + i] = incast_byte(s, r, i);
    job.fill(s, img);
  }
  job.each([&](unsigned s) {
    rdma_ep* ep = job.ep[s];
    if (s != kDst) {
      for (unsigned r = 0; r < rounds; ++r) {
        rdma_event re{{job.key[kDst], job.va[kDst] + ev_base + 16 * slot(s, r)}, {}};
        re.data[0] = uint8_t(r + 1);
        re.data[1] = uint8_t(s + 1);
        rdma_opts o = tb_opts(uint16_t(r));
        o.remote_event = &re;
        REQUIRE(rdma_write(ep, kDst, 0, rdma_addr{job.key[kDst], job.va[kDst] + slot(s, r) * size},
                           rdma_addr{job.key[s], job.va[s] + r * size}, size, &o) == 0);
      }
      REQUIRE(rdma_quiet(ep) == 0);
      return;
    }
    // the receiver: an event says that message is all in
    std::vector<bool> got(slots, false);
    for (unsigned n = 0; n < (N - 1) * rounds;) {
      bool any = false;
      for (unsigned k = 0; k < N; ++k)
        for (unsigned r = 0; r < rounds; ++r) {
          if (k == kDst || got[slot(k, r)]) continue;
          uint8_t ev[16] = {};
          rdma_mem_read(ep, job.va[s] + ev_base + 16 * slot(k, r), ev, 16);
          if (ev[0] == 0) continue;
          REQUIRE(ev[0] == r + 1);
          REQUIRE(ev[1] == k + 1);
          std::vector<uint8_t> mem(size);
          rdma_mem_read(ep, job.va[s] + slot(k, r) * size, mem.data(), size);
          for (size_t i = 0; i < size; ++i) {
            INFO("sender " << k << " round " << r << " byte " << i);
            REQUIRE(mem[i] == incast_byte(k, r, i));
          }
          got[slot(k, r)] = true;
          ++n;
          any = true;
        }
      if (!any) hpcnet::this_platform()->relax();
    }
  });
  // every slot at kDst: each sender's messages, nothing in its own
  const std::vector<uint8_t> img = job.image(kDst);
  size_t bad = 0;
  for (unsigned s = 0; s < N; ++s)
    for (unsigned r = 0; r < rounds; ++r)
      for (size_t i = 0; i < size; ++i) bad += img[slot(s, r) * size + i] != (s == kDst ? 0 : incast_byte(s, r, i));
  CHECK(bad == 0);
  WARN(name << ": at most " << occ.max_open(kDst) << " messages in progress at node " << kDst << ", " << job.m.cycles() << " cycles");
  return occ.max_open(kDst);
}

}  // namespace

TEST_CASE("machine: 15 senders write messages of many packets with remote events to one node: each event after all its data", "[machine]") {
  SECTION("ADBR") { events_case(NetMode::adbr, "machine events adbr"); }
  SECTION("DOR-VCT") { events_case(NetMode::dor_vct, "machine events dorvct"); }
}

// The messages of more than 16 senders at one receiver at once: more than the first table held.
TEST_CASE("machine: 23 nodes write messages of many packets with remote events to one node at once (6x4 ADBR)", "[machine]") {
  CHECK(incast_case(MeshShape(6, 4), NetMode::adbr, 1, 1024, "machine incast 6x4") > 16);
}

TEST_CASE("machine: 15 nodes write messages of many packets with remote events to one node at once (4x4 torus DOR-VCT)", "[machine]") {
  incast_case(MeshShape(4, 4).as_torus(), NetMode::dor_vct, 2, 2048, "machine incast torus");
}

TEST_CASE("machine: 63 nodes write messages of many packets with remote events to one node at once (8x8 ADBR)", "[machine][long]") {
  CHECK(incast_case(MeshShape(8, 8), NetMode::adbr, 2, 1024, "machine incast 8x8") > 16);
}

// Beyond the default NIC's 64 nodes: the benchmark model with a route table of 256 (make test-long
// builds it); 127 senders' messages in progress at one receiver.
TEST_CASE("machine: 127 nodes write messages of many packets with remote events to one node at once (16x8 ADBR)", "[machine][long]") {
  CHECK(incast_case(MeshShape(16, 8), NetMode::adbr, 1, 1024, "machine incast 16x8") > 64);
}
