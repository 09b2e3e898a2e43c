// test_host_memory.cpp: sparse memory, allocator, DMA slave timing (port driven by hand).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/host/host_memory.hpp"

using namespace hpcnet;
using namespace hpcnet::sim;

namespace {

// A minimal DMA master: issues `ops` in order (valid held until accepted), records cycles.
struct Master {
  struct Op {
    bool write;
    uint64_t addr;
    unsigned len;
    unsigned tag;
    uint8_t fill = 0;
  };
  std::vector<Op> ops;
  size_t next = 0;
  std::vector<uint64_t> accept_cycle;
  std::vector<std::pair<uint64_t, DmaPort>> rsps;
  bool rsp_ready = true;

  void cycle(HostMemory& mem, DmaPort& port, uint64_t now) {
    mem.drive(port, now);
    port.req_valid = next < ops.size();
    if (port.req_valid) {
      const Op& o = ops[next];
      port.req_write = o.write;
      port.req_addr = o.addr;
      port.req_len = o.len;
      port.req_tag = o.tag;
      port.req_wdata.fill(o.fill);
    }
    port.rsp_ready = rsp_ready;
    if (port.req_valid && port.req_ready) {
      accept_cycle.push_back(now);
    }
    if (port.rsp_valid && port.rsp_ready) rsps.emplace_back(now, port);
    const bool adv = port.req_valid && port.req_ready;
    mem.sample(port, now);
    if (adv) ++next;
  }
};

}  // namespace

TEST_CASE("host memory: sparse byte access with zero on first touch", "[sim][memory]") {
  HostMemory mem;
  CHECK(mem.read64(0x1234'5678'9000) == 0);
  CHECK(mem.pages_touched() == 0);
  mem.write64(0x7fff'ffff'fff8, 0x1122334455667788);
  const char msg[] = "crosses a page boundary";
  mem.write(0x4000 - 5, msg, sizeof msg);
  char back[sizeof msg] = {};
  mem.read(0x4000 - 5, back, sizeof back);
  CHECK(std::strcmp(back, msg) == 0);
  CHECK(mem.read64(0x7fff'ffff'fff8) == 0x1122334455667788);
  CHECK(mem.pages_touched() == 3);
  uint8_t b = 0xff;
  mem.read(0x7fff'ffff'fff7, &b, 1);
  CHECK(b == 0);
}

TEST_CASE("host memory: allocator alignment reuse and zeroing", "[sim][memory]") {
  HostMemory mem;
  DmaRegion a = mem.alloc(100, 64);
  DmaRegion b = mem.alloc(4096, 4096);
  DmaRegion c = mem.alloc(8, 1 << 20);
  CHECK(a.phys >= mem.config().alloc_base);
  CHECK(a.bytes == 100);
  CHECK(b.phys % 4096 == 0);
  CHECK(c.phys % (1 << 20) == 0);
  CHECK((a.phys + 128 <= b.phys || b.phys + 4096 <= a.phys));
  CHECK((b.phys + 4096 <= c.phys || c.phys + 64 <= b.phys));
  mem.fill(b.phys, 0xab, 4096);
  mem.free(b);
  DmaRegion b2 = mem.alloc(4096, 4096);
  CHECK(b2.phys == b.phys);  // first fit reuses the hole
  for (uint64_t off = 0; off < 4096; off += 8) REQUIRE(mem.read64(b2.phys + off) == 0);
  mem.free(a);
  mem.free(b2);
  mem.free(c);
  CHECK(mem.bytes_allocated() == 0);
  DmaRegion big = mem.alloc(1 << 21, 64);  // everything coalesced again
  CHECK(big.phys == mem.config().alloc_base);
  CHECK_THROWS(mem.alloc(10, 48));
  CHECK_THROWS(mem.free(DmaRegion{0x42, 8}));
}

TEST_CASE("host memory: DMA latency of writes and reads", "[sim][memory][dma]") {
  MemConfig cfg;
  cfg.latency = 60;
  HostMemory mem(cfg);
  Master m;
  m.ops = {{true, 0x1000'0000, 32, 1, 0x5a}, {false, 0x1000'0000, 16, 2}};
  DmaPort port;
  uint64_t visible = 0;
  for (uint64_t now = 0; now < 200; ++now) {
    m.cycle(mem, port, now);
    if (!visible && mem.read64(0x1000'0000) != 0) visible = now;
  }
  REQUIRE(m.accept_cycle.size() == 2);
  CHECK(m.accept_cycle[0] == 0);
  // drive() of cycle 60 applies the write; this loop sees it after that cycle's drive.
  CHECK(visible == m.accept_cycle[0] + 60);
  REQUIRE(m.rsps.size() == 1);
  CHECK(m.rsps[0].first == m.accept_cycle[1] + 60);
  CHECK(m.rsps[0].second.rsp_tag == 2);
  for (unsigned i = 0; i < 32; ++i) CHECK(m.rsps[0].second.rsp_rdata[i] == (i < 16 ? 0x5a : 0));  // lanes >= len zero
  CHECK(mem.stats().dma_writes == 1);
  CHECK(mem.stats().dma_bytes_read == 16);
}

TEST_CASE("host memory: DMA bandwidth follows bytes_per_cycle", "[sim][memory][dma]") {
  for (double bpc : {8.0, 2.5, 32.0}) {
    MemConfig cfg;
    cfg.bytes_per_cycle = bpc;
    cfg.latency = 10;
    cfg.max_outstanding = 64;
    HostMemory mem(cfg);
    Master m;
    for (unsigned i = 0; i < 5000; ++i) m.ops.push_back({i % 2 == 0, 0x1000'0000 + 32 * uint64_t(i), 32, i % 16});
    DmaPort port;
    const uint64_t cycles = 4000;
    for (uint64_t now = 0; now < cycles; ++now) m.cycle(mem, port, now);
    const double expect = bpc * double(cycles) / 32.0;
    INFO("bytes/cycle " << bpc);
    CHECK(double(m.accept_cycle.size()) >= expect - 1.0);
    CHECK(double(m.accept_cycle.size()) <= expect + 2.0);
  }
}

TEST_CASE("host memory: in-order completion with read after write and the outstanding limit", "[sim][memory][dma]") {
  MemConfig cfg;
  cfg.latency = 30;
  cfg.max_outstanding = 4;
  cfg.bytes_per_cycle = 64;
  cfg.burst_bytes = 64;
  HostMemory mem(cfg);
  Master m;
  const uint64_t a = 0x1000'0020;
  m.ops = {{false, a, 8, 0}, {true, a, 8, 1, 0x11}, {false, a, 8, 2}, {true, a, 8, 3, 0x22}, {false, a, 8, 4},
           {false, a + 8, 4, 5}};
  DmaPort port;
  m.rsp_ready = false;  // hold the first response: everything behind it waits
  for (uint64_t now = 0; now < 100; ++now) m.cycle(mem, port, now);
  CHECK(m.accept_cycle.size() == 4);  // the fifth waits for a free slot
  CHECK(m.rsps.empty());
  CHECK(mem.read64(a) == 0);  // the write behind the blocked read is not applied yet
  m.rsp_ready = true;
  for (uint64_t now = 100; now < 300; ++now) m.cycle(mem, port, now);
  REQUIRE(m.rsps.size() == 4);
  std::vector<unsigned> tags;
  for (auto& r : m.rsps) tags.push_back(r.second.rsp_tag);
  CHECK(tags == std::vector<unsigned>{0, 2, 4, 5});
  CHECK(m.rsps[0].second.rsp_rdata[0] == 0x00);
  CHECK(m.rsps[1].second.rsp_rdata[0] == 0x11);  // read after write sees the write
  CHECK(m.rsps[2].second.rsp_rdata[0] == 0x22);
  CHECK(mem.stats().rsp_stall_cycles > 0);
}

TEST_CASE("host memory: DMA requests crossing 32 bytes are protocol errors", "[sim][memory][dma]") {
  HostMemory mem;
  Master m;
  m.ops = {{false, 0x1000'0018, 16, 0}};
  DmaPort port;
  CHECK_THROWS_AS(m.cycle(mem, port, 0), ProtocolError);
}

TEST_CASE("host memory: several DMA ports share bandwidth and the outstanding limit fairly", "[sim][memory]") {
  MemConfig cfg;
  cfg.max_outstanding = 4;
  cfg.bytes_per_cycle = 8.0;
  HostMemory mem(cfg);
  constexpr unsigned kPorts = 3, kOps = 60;
  std::array<DmaPort, kPorts> port{};
  std::vector<DmaPort*> ports;
  for (auto& p : port) ports.push_back(&p);
  std::array<unsigned, kPorts> issued{}, done{};
  std::array<std::vector<unsigned>, kPorts> rsp_tags;
  size_t max_pending = 0;
  uint64_t now = 0;
  for (; now < 20000 && (done[0] + done[1] + done[2]) < kPorts * kOps; ++now) {
    mem.drive(ports, now);
    for (unsigned i = 0; i < kPorts; ++i) {  // every port always has a 32-byte read to issue
      DmaPort& p = port[i];
      p.req_valid = issued[i] < kOps;
      p.req_write = false;
      p.req_addr = 0x1000'0000 + 0x1000 * i + 32 * (issued[i] % 64);
      p.req_len = 32;
      p.req_tag = issued[i] % 16;
      p.rsp_ready = true;
      if (p.rsp_valid) {
        rsp_tags[i].push_back(p.rsp_tag);
        ++done[i];
      }
    }
    mem.sample(ports, now);
    for (unsigned i = 0; i < kPorts; ++i) issued[i] += port[i].req_valid && port[i].req_ready;
    max_pending = std::max(max_pending, mem.dma_pending());
    // fairness at every moment: no port is more than one request ahead of another
    const auto [lo, hi] = std::minmax({issued[0], issued[1], issued[2]});
    if (lo < kOps) REQUIRE(hi - lo <= 1);
  }
  for (unsigned i = 0; i < kPorts; ++i) {
    CHECK(done[i] == kOps);
    for (unsigned k = 0; k < kOps; ++k) CHECK(rsp_tags[i][k] == k % 16);  // in order per port
  }
  CHECK(max_pending <= cfg.max_outstanding);
  // the shared bandwidth: 3 x 60 x 32 bytes at 8 bytes/cycle take at least 720 cycles
  CHECK(now >= kPorts * kOps * 32 / 8);
  CHECK(mem.stats().dma_reads == kPorts * kOps);
}
