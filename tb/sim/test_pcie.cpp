// test_pcie.cpp: the PCIe host model (sim/host/pcie.hpp) under a C++ fake device on a Node:
// random reads and writes exact against a shadow copy (frames aligned, zeros outside, in order),
// the refused requests, the timing formulas of docs/sim.md (isolated read latency, streaming
// writes and reads, both directions at once, the tag limit), write-combined and uncached PIO
// through the host bus, the node's watchdog and stall report, and which devices get a link.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fake_device.hpp"
#include "hpcnet/tb/seed.hpp"
#include "pcie_fake_device.hpp"
#include "sim/core/errors.hpp"
#include "sim/host/pcie.hpp"
#include "sim/system/cluster.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;
using hpcnet::sim::test::FakeDevice;
using hpcnet::sim::test::PcieFake;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kBase = 0x1000'0000;  // start of the test region (4 KB aligned)

// A device that declares two PCIe links: both would order its register reads, which one window
// cannot follow (the node refuses it).
class TwoPcieLinks final : public Device {
 public:
  TwoPcieLinks() : Device(0xFA4E'0003, "two-pcie") {}
  void set_reset(bool) override {}
  void eval() override {}
  void edge() override {}
  std::vector<std::unique_ptr<HostLink>> make_host_links(HostMemory& mem) override {
    auto links = a_.host_links(mem);
    for (auto& l : b_.host_links(mem)) links.push_back(std::move(l));
    return links;
  }

 private:
  PcieAttachment a_, b_;
};

struct PcieRig {
  PcieFake* dev = nullptr;
  std::unique_ptr<Cluster> cluster;
  Node* node = nullptr;

  explicit PcieRig(PcieConfig pc = {}, uint64_t seed = 1, uint64_t watchdog = 1000, bool pio = false) {
    NodeConfig nc;
    nc.clock_mhz = 312.5;
    if (pio) nc.device_bus[PcieFake::kId] = pcie_pio_bus();
    auto d = std::make_unique<PcieFake>(seed);
    d->pcie.config = pc;
    dev = d.get();
    std::vector<std::unique_ptr<Device>> devs;
    devs.push_back(std::move(d));
    cluster = std::make_unique<Cluster>(ClusterConfig{watchdog, 0});
    node = &cluster->add_node(std::make_unique<Node>(nc, std::move(devs)));
  }
  PcieDma& dma() { return dev->pcie.dma(); }
  HostMemory& mem() { return node->memory(); }
  void run_until_done() {
    cluster->run_until([&] { return dev->done() && dma().idle(); });
  }
};

// Every accepted read's frames, in acceptance order: the right count, tag and last flag, data
// equal to the expected bytes inside the request and zero outside; at most one frame per cycle.
void check_frames(const PcieFake& dev) {
  size_t fi = 0, bad = 0;
  std::string first_bad;
  for (const auto& ra : dev.read_accepts) {
    const uint64_t end = ra.op.addr + ra.op.len;
    const uint64_t base = ra.op.addr & ~uint64_t{31};
    const size_t n = (end + 31) / 32 - ra.op.addr / 32;
    for (size_t k = 0; k < n; ++k, ++fi) {
      REQUIRE(fi < dev.frames.size());
      const auto& f = dev.frames[fi];
      bool ok = f.tag == ra.op.tag && f.last == (k + 1 == n);
      for (unsigned b = 0; b < 32 && ok; ++b) {
        const uint64_t a = base + 32 * k + b;
        const uint8_t want = a >= ra.op.addr && a < end ? ra.expect[a - ra.op.addr] : 0;
        ok = f.data[b] == want;
      }
      if (fi > 0) ok = ok && f.cycle > dev.frames[fi - 1].cycle;
      if (!ok && bad++ == 0)
        first_bad = "read of " + std::to_string(ra.op.len) + " bytes at +" + std::to_string(ra.op.addr - kBase) +
                    " tag " + std::to_string(ra.op.tag) + ": frame " + std::to_string(k);
    }
  }
  INFO(first_bad);
  CHECK(bad == 0);
  CHECK(fi == dev.frames.size());
}

std::vector<uint8_t> pattern(size_t n, uint32_t salt) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t((i * 131 + salt * 7 + (i >> 8)) ^ salt);
  return v;
}

// Streams `bytes` of 4 KB write transactions and/or 4 KB reads, back to back, no idle, no stall.
void add_stream(PcieFake& d, uint64_t bytes, bool write, bool read) {
  for (uint64_t off = 0; off < bytes; off += 4096) {
    if (write) d.writes.push_back({kBase + off, pattern(4096, unsigned(off >> 12)), 0, false, 0});
    if (read) d.reads.push_back({kBase + (1 << 24) + off, 4096, unsigned(off >> 12) % 256, 0});
  }
}

}  // namespace

TEST_CASE("pcie: random reads and writes are exact against a shadow copy with aligned frames in order",
          "[sim][pcie]") {
  const uint64_t seed = tb::seed("pcie random");
  struct Case {
    const char* name;
    PcieConfig cfg;
  };
  PcieConfig small = {};
  small.mrrs = 128;
  small.mps = 128;
  small.rcb = 128;
  PcieConfig tight = {};  // few tags, a small completion buffer, one queued request: the waits
  tight.mps = 128;
  tight.max_read_tags = 3;
  tight.cpl_buffer_bytes = 512;
  tight.write_buffer_tlps = 1;
  tight.read_queue = 1;
  tight.read_latency = 40;
  for (const Case& c : {Case{"defaults", PcieConfig{}}, Case{"mps/mrrs 128 rcb 128", small}, Case{"tight", tight}}) {
    INFO(c.name);
    PcieRig r(c.cfg, seed, 5000);
    std::mt19937_64 rng(seed);
    constexpr size_t kRegion = 64 * 1024;
    std::vector<uint8_t> shadow = pattern(kRegion, 99);
    r.mem().write(kBase, shadow.data(), shadow.size());
    r.dev->shadow = &shadow;
    r.dev->shadow_base = kBase;
    r.dev->p_idle = 0.3;
    r.dev->p_stall = 0.3;
    auto pick = [&](uint64_t& addr, unsigned& len) {
      const unsigned kind = unsigned(rng() % 10);
      len = kind < 4 ? 1 + unsigned(rng() % 64) : kind < 7 ? 65 + unsigned(rng() % 448) : 513 + unsigned(rng() % 3584);
      addr = kBase + rng() % (kRegion - len);
      if (addr % 4096 + len > 4096) len = unsigned(4096 - addr % 4096);
    };
    for (unsigned i = 0; i < 250; ++i) {
      uint64_t a;
      unsigned n;
      pick(a, n);
      r.dev->reads.push_back({a, n, i % 256, 0});
      pick(a, n);
      std::vector<uint8_t> data(n);
      for (auto& b : data) b = uint8_t(rng());
      r.dev->writes.push_back({a, std::move(data), 0, false, 0});
    }
    r.run_until_done();
    check_frames(*r.dev);
    std::vector<uint8_t> back(kRegion);
    r.mem().read(kBase, back.data(), back.size());
    CHECK(back == shadow);
    const PcieStats& s = r.dma().stats();
    CHECK(s.read_requests == 250);
    CHECK(s.reads_done == 250);
    CHECK(s.write_transactions == 250);
    CHECK(s.rsp_stall_cycles > 0);  // the back-pressure did happen
    CHECK(s.max_tags_in_use <= c.cfg.max_read_tags);
    CHECK(s.max_cpl_buffer <= c.cfg.cpl_buffer_bytes);
    CHECK(s.read_latency_min >= c.cfg.read_latency);
  }
}

TEST_CASE("pcie: a read accepted after a write's last beat sees the write while its TLPs still queue", "[sim][pcie]") {
  // Each 4 KB write leaves its TLPs queued behind the link (the device outruns it); the reads of
  // its first and last bytes, accepted right after its last beat, must not overtake them.
  PcieRig r;
  constexpr size_t kRegion = 16 * 4096;
  std::vector<uint8_t> shadow(kRegion, 0);
  r.dev->shadow = &shadow;
  r.dev->shadow_base = kBase;
  for (unsigned i = 0; i < 16; ++i) {
    const uint64_t a = kBase + 4096 * i;
    r.dev->writes.push_back({a, pattern(4096, 50 + i), 0, false, 0});
    r.dev->reads.push_back({a + 4096 - 64, 64, 2 * i, 0});
    r.dev->reads.push_back({a, 40, 2 * i + 1, 0});
  }
  r.run_until_done();
  check_frames(*r.dev);
  for (size_t k = 0; k < r.dev->read_accepts.size(); ++k) {
    INFO("read " << k);
    CHECK(r.dev->read_accepts[k].cycle > r.dev->write_done[k / 2]);  // it did come after the write
    CHECK(r.dev->read_accepts[k].cycle < r.dev->write_done[k / 2] + 20);  // while the write was on its way
  }
}

TEST_CASE("pcie: a register read's completion does not pass the device's posted writes", "[sim][pcie][pio]") {
  // A slow link (4 bytes a cycle) with room for every TLP: 64 KB of writes leave the device in
  // about 2,000 cycles and queue for some 18,000; a register read the device answers right after
  // its last beat reaches the CPU only once they are all in memory (a driver that reads a status
  // register after the device's writes sees them).
  PcieConfig pc;
  pc.raw_bytes_per_cycle = 4;
  pc.write_buffer_tlps = 256;
  PcieRig r(pc, 1, 100000, true);
  constexpr size_t kBytes = 16 * 4096;
  for (unsigned i = 0; i < 16; ++i) r.dev->writes.push_back({kBase + 4096 * i, pattern(4096, 90 + i), 0, false, 0});
  r.dev->mmio_value = 0x5151;
  uint64_t value = 0, t_issue = 0, t_back = 0, applied = 0, formed = 0;
  bool in_memory = false;
  r.node->spawn(0, 0, [&] {
    Platform& p = r.node->platform();
    Platform::Device& io = p.open(PcieFake::kId);
    while (r.dev->write_done.size() < 16) p.relax();
    t_issue = p.now_cycles();
    value = io.mmio_read64(0x40);
    t_back = p.now_cycles();
    applied = r.dma().stats().writes_applied;
    formed = r.dma().write_mark();
    std::vector<uint8_t> got(kBytes);
    r.mem().read(kBase, got.data(), kBytes);  // the host's bytes now (no CPU time)
    in_memory = true;
    for (unsigned i = 0; i < 16; ++i) in_memory = in_memory && std::equal(got.begin() + 4096 * i, got.begin() + 4096 * (i + 1), pattern(4096, 90 + i).begin());
  });
  r.cluster->run();
  INFO("read issued at " << t_issue << ", back at " << t_back);
  CHECK(value == 0x5151);
  CHECK(formed == kBytes / 256);  // MPS 256
  CHECK(applied == formed);
  CHECK(in_memory);
  CHECK(t_back - t_issue > 10000);  // it waited for the queued writes (alone: about 125 cycles)
}

TEST_CASE("pcie: write TLPs are cut at MPS boundaries and completions at RCB boundaries", "[sim][pcie]") {
  for (unsigned mps : {128u, 256u}) {
    INFO("mps " << mps);
    PcieConfig cfg;
    cfg.mps = mps;
    PcieRig r(cfg);
    // 1000 bytes from offset 40: TLPs end at every MPS-aligned address and at the end.
    r.dev->writes.push_back({kBase + 40, pattern(1000, 1), 0, false, 0});
    // a read of 300 bytes from offset 200 (MRRS 256): TLPs [200, 256) and [256, 500);
    // completions end at RCB (64) boundaries, at most MPS bytes each
    r.dev->reads.push_back({kBase + 8192 + 200, 300, 7, 0});
    r.run_until_done();
    const PcieStats& s = r.dma().stats();
    const uint64_t wtlps = (40 + 1000 + mps - 1) / mps;  // [40, mps), ..., [.., 1040)
    CHECK(s.up_write_tlps == wtlps);
    CHECK(s.up_read_tlps == 2);
    CHECK(s.down_tlps == (mps == 256 ? 2u : 3u));  // 56 | 244 or 56 | 128 + 116
    CHECK(s.up_bytes == 1000 + 24 * (wtlps + 2));
    CHECK(s.down_bytes == 300 + 24 * s.down_tlps);
    std::vector<uint8_t> back(1000);
    r.mem().read(kBase + 40, back.data(), back.size());
    CHECK(back == pattern(1000, 1));
  }
}

TEST_CASE("pcie: a bad request or write beat is refused naming its field", "[sim][pcie]") {
  auto read_err = [](uint64_t addr, unsigned len) {
    PcieRig r;
    r.dev->reads.push_back({addr, len, 0, 0});
    r.run_until_done();
  };
  CHECK_THROWS_AS(read_err(kBase, 0), ProtocolError);
  CHECK_THROWS_WITH(read_err(kBase, 0), Contains("rd_req_len 0"));
  CHECK_THROWS_WITH(read_err(kBase, 4097), Contains("rd_req_len 4097"));
  CHECK_THROWS_WITH(read_err(kBase + 4096 - 16, 32), Contains("rd_req_addr") && Contains("crosses a 4 KB boundary"));
  CHECK_NOTHROW(read_err(kBase + 4096 - 32, 32));
  CHECK_NOTHROW(read_err(kBase, 4096));
  auto write_err = [](uint64_t addr, size_t len, bool raw, unsigned raw_len) {
    PcieRig r;
    r.dev->writes.push_back({addr, std::vector<uint8_t>(len, 5), 0, raw, raw_len});
    r.run_until_done();
  };
  CHECK_THROWS_WITH(write_err(kBase + 20, 0, true, 16), Contains("wr_len 16") && Contains("leaves the beat's 32-byte frame"));
  CHECK_THROWS_WITH(write_err(kBase + 20, 0, true, 0), Contains("wr_len 0"));
  CHECK_THROWS_WITH(write_err(kBase + 4096 - 16, 32, false, 0), Contains("crosses a 4 KB boundary at wr_addr"));
  CHECK_NOTHROW(write_err(kBase + 4096 - 16, 16, false, 0));
  CHECK_NOTHROW(write_err(kBase + 12, 20, true, 20));
}

TEST_CASE("pcie: a valid dropped or changed before ready is a protocol error", "[sim][pcie]") {
  HostMemory mem;
  PcieConfig cfg;
  cfg.max_read_tags = 1;  // a 4 KB read keeps 15 TLPs unsent: rd_req_ready stays low
  cfg.read_queue = 1;
  PcieDma dma(mem, cfg);
  PcieDmaPort p;
  uint64_t now = 0;
  auto cycle = [&](auto&& set) {
    dma.drive(p, now);
    set();
    dma.sample(p, now);
    ++now;
  };
  cycle([&] {
    p.rd_req_valid = true;
    p.rd_req_addr = kBase;
    p.rd_req_len = 4096;
    p.rd_req_tag = 1;
  });
  REQUIRE(dma.stats().read_requests == 1);
  cycle([&] { p.rd_req_addr = kBase + 4096; });
  CHECK_FALSE(p.rd_req_ready);
  CHECK_THROWS_WITH(cycle([&] { p.rd_req_addr = kBase + 8192; }), Contains("rd_req_addr/len/tag changed"));
}

TEST_CASE("pcie: an isolated read's first frame comes read_latency plus a documented constant after acceptance",
          "[sim][pcie]") {
  struct Case {
    uint64_t latency;
    uint64_t offset;
    unsigned len;
    uint64_t constant;  // 1 + ceil((first completion payload + 24) / 25.6)
  };
  for (const Case& c : {Case{250, 0, 32, 4}, Case{250, 8, 8, 3}, Case{100, 64, 32, 4}, Case{250, 0, 256, 12},
                        Case{250, 32, 64, 5}}) {
    INFO("latency " << c.latency << " offset " << c.offset << " len " << c.len);
    PcieConfig cfg;
    cfg.read_latency = c.latency;
    PcieRig r(cfg);
    r.dev->reads.push_back({kBase + c.offset, c.len, 3, 50});
    r.run_until_done();
    REQUIRE(r.dev->read_accepts.size() == 1);
    REQUIRE(!r.dev->frames.empty());
    const uint64_t lat = r.dev->frames.front().cycle - r.dev->read_accepts.front().cycle;
    CHECK(lat == c.latency + c.constant);
    CHECK(r.dma().stats().read_latency_min == lat);
    CHECK(r.dma().stats().read_latency_max == lat);
  }
}

TEST_CASE("pcie: streaming 1 MB of writes takes bytes times 1 plus 24 over mps over 25.6 cycles", "[sim][pcie]") {
  constexpr uint64_t kBytes = 1 << 20;
  for (unsigned mps : {256u, 128u}) {
    PcieConfig cfg;
    cfg.mps = mps;
    PcieRig r(cfg);
    add_stream(*r.dev, kBytes, true, false);
    r.run_until_done();
    const double expect = double(kBytes) * (1.0 + 24.0 / mps) / 25.6;
    const double took = double(r.node->cycles() - r.dev->first_write_beat);
    INFO("mps " << mps << ": " << took << " cycles, formula " << expect);
    CHECK(std::abs(took - expect) <= 0.02 * expect);
    CHECK(took >= expect);
    const PcieStats& s = r.dma().stats();
    CHECK(s.up_write_tlps == kBytes / mps);
    CHECK(s.up_bytes == kBytes + 24 * (kBytes / mps));
    CHECK(s.up_busy_cycles == Approx(expect));
    CHECK(s.wr_stall_cycles > 0);  // the device (32 B/cycle) outruns the link
    std::vector<uint8_t> back(4096);
    r.mem().read(kBase + kBytes - 4096, back.data(), back.size());
    CHECK(back == pattern(4096, unsigned(kBytes / 4096 - 1)));
  }
}

TEST_CASE("pcie: streaming 1 MB of reads takes bytes times 1 plus 24 over the completion size over 25.6 cycles",
          "[sim][pcie]") {
  constexpr uint64_t kBytes = 1 << 20;
  for (unsigned mps : {256u, 128u}) {  // MRRS 256: completions of 256 or 128 bytes
    PcieConfig cfg;
    cfg.mps = mps;
    PcieRig r(cfg);
    add_stream(*r.dev, kBytes, false, true);
    r.run_until_done();
    const double expect = double(kBytes) * (1.0 + 24.0 / cfg.completion_bytes()) / 25.6;
    const double took = double(r.dev->frames.back().cycle + 1 - r.dev->read_accepts.front().cycle);
    INFO("mps " << mps << ": " << took << " cycles, formula " << expect);
    CHECK(std::abs(took - expect) <= 0.02 * expect);
    const PcieStats& s = r.dma().stats();
    CHECK(s.down_tlps == kBytes / cfg.completion_bytes());
    CHECK(s.down_bytes == kBytes + 24 * s.down_tlps);
    CHECK(s.up_read_tlps == kBytes / cfg.mrrs);
    CHECK(took <= expect + double(cfg.read_latency) + 16);  // only the first read's latency shows
  }
}

TEST_CASE("pcie: with mrrs 128 the 32 tags limit streaming reads to tags times mrrs per round trip", "[sim][pcie]") {
  constexpr uint64_t kBytes = 1 << 20;
  PcieConfig cfg;
  cfg.mrrs = 128;
  cfg.mps = 128;
  PcieRig r(cfg);
  add_stream(*r.dev, kBytes, false, true);
  r.run_until_done();
  // a tag returns when its completion has crossed: read_latency + (128 + 24) / 25.6 after it left
  const double round_trip = double(cfg.read_latency) + (128.0 + 24.0) / 25.6;
  const double expect = double(kBytes) / (cfg.max_read_tags * 128.0 / round_trip);
  const double took = double(r.dev->frames.back().cycle + 1 - r.dev->read_accepts.front().cycle);
  INFO(took << " cycles, tag-limited formula " << expect << ", link formula " << kBytes * (1 + 24.0 / 128) / 25.6);
  CHECK(std::abs(took - expect) <= 0.02 * expect);
  CHECK(r.dma().stats().max_tags_in_use == cfg.max_read_tags);
}

TEST_CASE("pcie: reads and writes together use the two directions independently", "[sim][pcie]") {
  constexpr uint64_t kBytes = 1 << 20;
  PcieRig r;
  add_stream(*r.dev, kBytes, true, true);
  r.run_until_done();
  const PcieConfig& cfg = r.dma().config();
  // upstream: the writes plus the read requests' headers; downstream: the completions
  const double up = (double(kBytes) * (1.0 + 24.0 / cfg.mps) + 24.0 * double(kBytes / cfg.mrrs)) / 25.6;
  const double down = double(kBytes) * (1.0 + 24.0 / cfg.completion_bytes()) / 25.6;
  const double wtook = double(r.dev->write_done.back() + 1 - r.dev->first_write_beat);
  const double rtook = double(r.dev->frames.back().cycle + 1 - r.dev->read_accepts.front().cycle);
  INFO("writes " << wtook << " cycles (formula " << up << "), reads " << rtook << " (formula " << down << ")");
  // the writes' last TLP is still on the link after its last beat: at most the buffer's worth
  CHECK(std::abs(wtook - up) <= 0.02 * up);
  CHECK(std::abs(rtook - down) <= 0.02 * down);
  CHECK(double(r.node->cycles()) < 0.6 * (up + down) + 1000.0);  // overlapped, not one after the other
  std::vector<uint8_t> back(4096);
  r.mem().read(kBase + 4096 * 17, back.data(), back.size());
  CHECK(back == pattern(4096, 17));
}

TEST_CASE("pcie: uncached PIO words reach the device 20 cycles apart", "[sim][pcie][pio]") {
  PcieRig r({}, 1, 1000, true);
  uint64_t t0 = 0;
  r.node->spawn(0, 0, [&] {
    Platform& p = r.node->platform();
    Platform::Device& io = p.open(PcieFake::kId);
    t0 = p.now_cycles();
    for (uint64_t i = 0; i < 16; ++i) io.mmio_write64(0x1000 + 8 * i, i);
  });
  r.cluster->run();
  r.cluster->run_for(600);
  const auto& log = r.dev->mmio_log;
  REQUIRE(log.size() == 16);
  CHECK(log[0].cycle == t0 + pcie_pio_bus().write_latency);
  for (size_t i = 1; i < 16; ++i) {
    INFO("word " << i);
    CHECK(log[i].cycle - log[i - 1].cycle == 20);
    CHECK(log[i].addr == 0x1000 + 8 * i);
    CHECK(log[i].data == i);
  }
  // a 128-byte descriptor written uncached: write_latency + 15 x 20 cycles to its last word
  CHECK(log[15].cycle - t0 == 125 + 300);
}

TEST_CASE("pcie: a write-combined 128-byte descriptor arrives as two bursts of back-to-back words", "[sim][pcie][pio]") {
  PcieRig r({}, 1, 1000, true);
  std::vector<uint64_t> desc(16), odd(16);
  for (unsigned i = 0; i < 16; ++i) desc[i] = 0xD000 + i, odd[i] = 0xE000 + i;
  uint64_t t0 = 0, t1 = 0;
  r.node->spawn(0, 0, [&] {
    Platform& p = r.node->platform();
    Platform::Device& io = p.open(PcieFake::kId);
    t0 = p.now_cycles();
    io.mmio_write_wc(0x2000, desc.data(), desc.size());
    io.mmio_write64(0x2800, 1);  // doorbell, after the flush
    p.compute(1000);
    t1 = p.now_cycles();
    io.mmio_write_wc(0x3010, odd.data(), odd.size());  // not line aligned: lines of 6, 8 and 2 words
  });
  r.cluster->run();
  r.cluster->run_for(600);
  const auto& log = r.dev->mmio_log;
  REQUIRE(log.size() == 33);
  const BusConfig bus = pcie_pio_bus();
  const uint64_t t = t0 + bus.write_latency;
  for (unsigned i = 0; i < 16; ++i) {
    INFO("word " << i);
    CHECK(log[i].cycle == t + (i < 8 ? i : bus.wc_burst_cycles + i - 8));
    CHECK(log[i].addr == 0x2000 + 8 * i);
    CHECK(log[i].data == desc[i]);
  }
  // documented: the last word write_latency + 20 + 7 = 152 cycles after the call (uncached: 425)
  CHECK(log[15].cycle - t0 == 152);
  CHECK(log[16].addr == 0x2800);
  CHECK(log[16].cycle == t + 2 * bus.wc_burst_cycles);  // behind the second burst on the link
  const uint64_t u = t1 + bus.write_latency;
  for (unsigned i = 0; i < 16; ++i) {
    INFO("unaligned word " << i);
    const uint64_t at = i < 6 ? u + i : i < 14 ? u + 20 + (i - 6) : u + 40 + (i - 14);
    CHECK(log[17 + i].cycle == at);
    CHECK(log[17 + i].addr == 0x3010 + 8 * i);
    CHECK(log[17 + i].data == odd[i]);
  }
  CHECK(r.node->bus(0).stats().wc_bursts == 5);
  CHECK(r.node->bus(0).stats().writes == 33);
}

TEST_CASE("pcie: the default mmio_write_wc writes word by word", "[sim][pio]") {
  struct Recorder final : Platform::Device {
    std::vector<std::pair<uint64_t, uint64_t>> writes;
    DeviceId id() const override { return 1; }
    void mmio_write64(uint64_t offset, uint64_t value) override { writes.emplace_back(offset, value); }
    uint64_t mmio_read64(uint64_t) override { return 0; }
    void set_irq_handler(std::function<void()>) override {}
    Platform& platform() override { throw std::logic_error("not used"); }
  } rec;
  const uint64_t w[3] = {7, 8, 9};
  static_cast<Platform::Device&>(rec).mmio_write_wc(0x40, w, 3);
  REQUIRE(rec.writes.size() == 3);
  CHECK(rec.writes[0] == std::pair<uint64_t, uint64_t>{0x40, 7});
  CHECK(rec.writes[2] == std::pair<uint64_t, uint64_t>{0x50, 9});
}

TEST_CASE("pcie: the watchdog counts PCIe traffic as progress and a stall report shows the link", "[sim][pcie]") {
  PcieRig r({}, 1, 2000);
  r.dev->rsp_ready = false;
  r.dev->reads.push_back({kBase, 100, 5, 0});
  try {
    r.cluster->run_for(10000);
    FAIL("no stall");
  } catch (const Stall& e) {
    CHECK_THAT(e.what(), Contains("pcie: 1 read request(s) in flight"));
  }
  CHECK(r.dma().stats().read_requests == 1);
}

TEST_CASE("pcie: only devices that ask get a link and device_bus sets one window's timing", "[sim][pcie][pio]") {
  PcieConfig link_cfg;
  PcieFake* fake = nullptr;
  auto devices = [&] {
    std::vector<std::unique_ptr<Device>> v;
    v.push_back(std::make_unique<FakeDevice>());
    auto p = std::make_unique<PcieFake>();
    p->pcie.config = link_cfg;
    fake = p.get();
    v.push_back(std::move(p));
    return v;
  };
  NodeConfig nc;
  nc.device_bus[PcieFake::kId] = pcie_pio_bus();
  Node n(nc, devices());
  CHECK(n.num_host_links(0) == 0);
  CHECK(n.num_host_links(1) == 1);
  REQUIRE(fake->pcie.attached());  // the node made the link the device declared
  CHECK(fake->pcie.dma().config().mps == PcieConfig{}.mps);
  CHECK(n.bus(0).config().spacing == BusConfig{}.spacing);
  CHECK(n.bus(1).config().spacing == 20);
  CHECK(n.bus(1).config().wc_burst_cycles == 20);
  nc.device_bus[0x1234] = BusConfig{};
  CHECK_THROWS_WITH(Node(nc, devices()), Contains("device_bus names device 0x1234"));
  nc.device_bus.erase(0x1234);
  link_cfg.mrrs = 100;
  CHECK_THROWS_WITH(Node(nc, devices()), Contains("PcieConfig.mrrs = 100"));
  std::vector<std::unique_ptr<Device>> two;
  two.push_back(std::make_unique<TwoPcieLinks>());
  CHECK_THROWS_WITH(Node(NodeConfig{}, std::move(two)), Contains("two host links that order its register reads"));
}
