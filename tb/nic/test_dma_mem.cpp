// test_dma_mem: the shared DMA memory model (tb/include/hpcnet/tb/dma_mem.hpp) against a plain
// byte array: a scripted master writes random transactions (cut into frame beats) and reads random
// ranges, both with random idle cycles, the model with random ready and idle cycles. Every frame
// is checked against the array as it was when its read was taken (aligned, zeros outside the
// request, last, tag, request order, not before the latency); every rule the model checks
// refuses the request or beat that breaks it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "hpcnet/tb/dma_mem.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

using hpcnet::tb::DmaFrame;
using hpcnet::tb::DmaMem;

constexpr std::uint64_t kDmBase = 0x7FF000;  // 24 KB across a few 4 KB pages
constexpr unsigned kDmBytes = 24 * 1024;

struct DmBeat {
  std::uint64_t addr;
  unsigned len;
  std::array<std::uint32_t, 8> data;  // frame-aligned
  bool last;
};

}  // namespace

TEST_CASE("tb: DmaMem answers reads with aligned frames in order and applies write beats", "[tb][dma_mem]") {
  hpcnet::tb::Rng rng(hpcnet::tb::seed("dma_mem"));
  DmaMem dma(rng);
  dma.mem.background = [](std::uint64_t a) { return static_cast<std::uint8_t>(a * 7 + 3); };
  std::vector<std::uint8_t> ref(kDmBytes);
  for (unsigned i = 0; i < kDmBytes; ++i) ref[i] = static_cast<std::uint8_t>((kDmBase + i) * 7 + 3);
  dma.lat = 5;
  dma.lat_jit = 10;
  dma.long_pct = 5;
  dma.long_lat = 60;
  std::deque<DmBeat> beats;
  std::deque<std::pair<DmaFrame, std::uint64_t>> expect;  // frames due, with the earliest cycle
  std::uint64_t reads = 0, frames = 0, tag = 0;
  for (std::uint64_t now = 0; now < 60000; ++now) {
    if (now % 1000 == 0) {
      dma.req_ready_pct = 20 + rng.below(81);
      dma.wr_ready_pct = 20 + rng.below(81);
      dma.rsp_idle_pct = rng.below(60);
    }
    dma.step(now);
    // a write transaction: 1..300 bytes, never across 4 KB, cut into frame beats
    if (beats.empty() && rng.pct(10)) {
      std::uint64_t a = kDmBase + rng.below(kDmBytes - 300);
      unsigned len = rng.rnd(1, 300);
      if ((a & 4095) + len > 4096) len = static_cast<unsigned>(4096 - (a & 4095));
      for (unsigned off = 0; off < len;) {
        DmBeat b{a + off, std::min<unsigned>(32 - ((a + off) & 31), len - off), {}, false};
        for (auto& w : b.data) w = static_cast<std::uint32_t>(rng());
        off += b.len;
        b.last = off == len;
        beats.push_back(b);
      }
    }
    if (!beats.empty() && dma.wr_ready() && rng.pct(70)) {
      const DmBeat& b = beats.front();
      REQUIRE(dma.write(b.addr, b.len, b.data, b.last));
      for (unsigned i = 0; i < b.len; ++i)
        ref[b.addr - kDmBase + i] = static_cast<std::uint8_t>(b.data[((b.addr & 31) + i) / 4] >> (8 * (((b.addr & 31) + i) % 4)));
      beats.pop_front();
    }
    // a read: 1..4096 bytes inside a page
    if (dma.rd_req_ready() && rng.pct(15)) {
      const std::uint64_t a = kDmBase + rng.below(kDmBytes - 4096);
      const unsigned len = rng.rnd(1, static_cast<unsigned>(4096 - (a & 4095)));
      REQUIRE(dma.take_read(a, len, tag, now));
      // byte t of the request goes to byte (a + t) % 32 of frame (a + t) / 32 - a / 32
      const std::size_t first = expect.size(), n = ((a + len - 1) >> 5) - (a >> 5) + 1;
      expect.resize(first + n, {DmaFrame{}, now + dma.lat});
      for (std::size_t k = 0; k < n; ++k) {
        expect[first + k].first.addr = ((a >> 5) + k) << 5;
        expect[first + k].first.tag = tag;
      }
      expect.back().first.last = true;
      for (unsigned t = 0; t < len; ++t)
        expect[first + (((a + t) >> 5) - (a >> 5))].first.data[(a + t) & 31] = ref[a + t - kDmBase];
      ++tag;
      ++reads;
    }
    if (dma.rd_rsp_valid()) {
      REQUIRE(!expect.empty());
      const DmaFrame& f = dma.rd_rsp();
      INFO("frame at 0x" << std::hex << f.addr);
      REQUIRE(now >= expect.front().second);
      REQUIRE(f.addr == expect.front().first.addr);
      REQUIRE(f.tag == expect.front().first.tag);
      REQUIRE(f.last == expect.front().first.last);
      REQUIRE(f.data == expect.front().first.data);
      if (dma.read_fire(rng.pct(60))) {
        expect.pop_front();
        ++frames;
      }
    }
  }
  INFO(reads << " reads, " << frames << " frames, " << dma.writes() << " writes");
  REQUIRE(reads > 3000);
  REQUIRE(dma.writes() > 1000);
  REQUIRE(dma.error().empty());
  for (unsigned i = 0; i < kDmBytes; ++i) REQUIRE(dma.mem.byte(kDmBase + i) == ref[i]);
}

TEST_CASE("tb: DmaMem refuses reads and write beats that break the port's rules", "[tb][dma_mem]") {
  hpcnet::tb::Rng rng(1);
  const std::array<std::uint32_t, 8> d{};
  {
    DmaMem dma(rng);
    CHECK_FALSE(dma.take_read(0x1000, 0, 0, 0));
    CHECK_FALSE(dma.take_read(0x1000, 4097, 0, 0));
    CHECK_FALSE(dma.take_read(0x1FF0, 17, 0, 0));  // across 4 KB
    CHECK(dma.take_read(0x1FF0, 16, 0, 0));
    CHECK(dma.error().find("17 bytes") == std::string::npos);  // the first one is recorded
    CHECK(dma.error().find("0 bytes") != std::string::npos);
  }
  {
    DmaMem dma(rng);
    CHECK_FALSE(dma.write(0x1010, 17, d, true));  // past its frame
    CHECK_FALSE(dma.write(0x1010, 0, d, true));
    CHECK(dma.write(0x1FE0, 32, d, false));
    CHECK_FALSE(dma.write(0x1FE8, 8, d, true));   // not the transaction's next byte
    CHECK_FALSE(dma.write(0x2000, 8, d, true));   // the next byte, but across 4 KB
    CHECK(dma.write_open());
    CHECK(dma.writes() == 0);
    CHECK(!dma.error().empty());
  }
}

namespace {

// The port names of a NIC DMA master as Verilator shows them (for drive() and sample()).
struct DmPorts {
  bool rd_req_valid_o = false, rd_req_ready_i = false, rd_rsp_valid_i = false, rd_rsp_ready_o = false;
  bool rd_rsp_last_i = false, wr_valid_o = false, wr_ready_i = false, wr_last_o = false;
  std::uint64_t rd_req_addr_o = 0, wr_addr_o = 0;
  unsigned rd_req_len_o = 0, wr_len_o = 0;
  std::uint8_t rd_req_tag_o = 0, rd_rsp_tag_i = 0;
  std::array<std::uint32_t, 8> rd_rsp_data_i{}, wr_data_o{};
};

}  // namespace

TEST_CASE("tb: DmaMem on a model's ports - a write transaction then its bytes read back", "[tb][dma_mem]") {
  hpcnet::tb::Rng rng(hpcnet::tb::seed("dma_mem ports"));
  DmaMem dma(rng);
  dma.req_ready_pct = dma.wr_ready_pct = 50;
  dma.rsp_idle_pct = 30;
  dma.lat = 3;
  DmPorts p;
  // 70 bytes from 0x1017: beats of 9, 32, 29 bytes
  std::vector<std::uint8_t> bytes(70);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  const std::uint64_t a0 = 0x1017;
  unsigned off = 0, got = 0;
  bool read_sent = false;
  std::uint64_t now = 0;
  for (; now < 1000 && got < 3; ++now) {
    dma.step(now);
    dma.drive(p);
    p.wr_valid_o = off < bytes.size();
    if (p.wr_valid_o) {
      const std::uint64_t a = a0 + off;
      p.wr_addr_o = a;
      p.wr_len_o = std::min<unsigned>(32 - (a & 31), static_cast<unsigned>(bytes.size()) - off);
      p.wr_last_o = off + p.wr_len_o == bytes.size();
      for (auto& w : p.wr_data_o) w = static_cast<std::uint32_t>(rng());  // lanes outside the beat
      for (unsigned i = 0; i < p.wr_len_o; ++i)
        hpcnet::tb::put_bits(p.wr_data_o, 8 * (static_cast<unsigned>(a & 31) + i), 8, bytes[off + i]);
    }
    p.rd_req_valid_o = off == bytes.size() && !read_sent;
    p.rd_req_addr_o = a0;
    p.rd_req_len_o = 70;
    p.rd_req_tag_o = 5;
    p.rd_rsp_ready_o = rng.pct(50);
    if (p.rd_rsp_valid_i && p.rd_rsp_ready_o) {  // frames 0x1000, 0x1020, 0x1040
      INFO("frame " << got);
      CHECK(p.rd_rsp_tag_i == 5);
      CHECK(p.rd_rsp_last_i == (got == 2));
      for (unsigned i = 0; i < 32; ++i) {
        const std::uint64_t a = 0x1000 + 32 * got + i;
        const std::uint8_t want = a >= a0 && a < a0 + 70 ? bytes[a - a0] : 0;
        CHECK(hpcnet::tb::get_bits(p.rd_rsp_data_i, 8 * i, 8) == want);
      }
      ++got;
    }
    const bool wr_taken = p.wr_valid_o && p.wr_ready_i;
    read_sent |= p.rd_req_valid_o && p.rd_req_ready_i;
    REQUIRE(dma.sample(p, now));
    if (wr_taken) off += p.wr_len_o;
  }
  REQUIRE(got == 3);
  CHECK(dma.writes() == 1);
  CHECK(dma.write_beats() == 3);
  CHECK(dma.reads_idle());
}
