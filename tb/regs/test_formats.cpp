// test_formats: the generated format structs (hpcnet/ssm_regs.hpp, gsn_formats.hpp,
// rtr_formats.hpp) pack and unpack exactly as the layouts documented in docs/*_regs.md and
// docs/*_formats.md, checked against field arithmetic written out by hand here, independently of
// the generator; and the bit helpers of hpcnet/formats.hpp.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>

#include "hpcnet/formats.hpp"
#include "hpcnet/gsn_formats.hpp"
#include "hpcnet/rtr_formats.hpp"
#include "hpcnet/ssm_regs.hpp"

namespace f = hpcnet::formats;
namespace ssm = hpcnet::ssm_regs;
namespace gsn = hpcnet::gsn_formats;
namespace rtr = hpcnet::rtr_formats;

// The helpers are constexpr: a format packs at compile time.
static_assert(ssm::Entry{0x3, true, false, 0x12}.pack() == ssm::Entry::Words{0xe12, 0});
static_assert(f::sign_extend(0xfe, 8) == -2 && f::sign_extend(0x7f, 8) == 127);
static_assert(rtr::ROUTE_HOPS.at(2).word == 0 && rtr::ROUTE_HOPS.at(2).lsb == 16);
static_assert(ssm::ENTRY_VALUE.bit() == 10 && ssm::Entry::kWords == 2 && gsn::Msg::kBits == 128);

TEST_CASE("formats: bit fields inside and across 64-bit words", "[formats]") {
  std::array<std::uint64_t, 3> w{};
  f::put_bits(w.data(), 60, 8, 0xab);  // bits 60..67: 4 bits in word 0, 4 in word 1
  CHECK(w[0] == 0xb000'0000'0000'0000ull);
  CHECK(w[1] == 0xa);
  CHECK(f::get_bits(w.data(), 60, 8) == 0xab);
  f::put_bits(w.data(), 64, 64, ~0ull);  // a whole word
  CHECK(w == std::array<std::uint64_t, 3>{0xb000'0000'0000'0000ull, ~0ull, 0});
  f::put_bits(w.data(), 62, 4, 0x1f);  // truncated to the field: 0xf
  CHECK(f::get_bits(w.data(), 60, 8) == 0xff);
  CHECK(f::get_bits(w.data(), 127, 2) == 1);
  const f::Field x{1, 62, 4};
  x.write(w.data(), 0x5);
  CHECK(x.read(w.data()) == 0x5);
  CHECK(w[2] == 0x1);
  CHECK(x.at(1).bit() == 130);
}

TEST_CASE("formats: ssm entry cmd_args slot and ovf_node against the documented layout", "[formats]") {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t v = rng(), r = rng();
    // entry: {value[73:10], l[9], p[8], cnt[7:0]}
    const ssm::Entry e{v, (r & 1) != 0, (r & 2) != 0, std::uint32_t(r >> 8) & 0xff};
    const ssm::Entry::Words ew{(v << 10) | (r & 1) << 9 | ((r >> 1) & 1) << 8 | ((r >> 8) & 0xff), v >> 54};
    CHECK(e.pack() == ew);
    CHECK(ssm::Entry::unpack(ew) == e);
    // cmd_args: readers[7:0] size[11:8] group[23:16] type[26:24] rop[29:28] io[31] length[63:32]
    const ssm::CmdArgs a{std::uint32_t(r & 0xff), std::uint32_t(r >> 8) & 0xf, std::uint32_t(r >> 16) & 0xff,
                         static_cast<ssm::RedType>((r >> 24) & 7), static_cast<ssm::RedOp>((r >> 28) & 3),
                         ((r >> 31) & 1) != 0, std::uint32_t(v)};
    const std::uint64_t aw = (r & 0xff) | (r & 0xf00) | (r & 0xff0000) | (r & 0x7000000) | (r & 0x30000000) |
                             (r & 0x80000000) | (v << 32);
    CHECK(a.pack()[0] == aw);
    CHECK(ssm::CmdArgs::unpack({aw}) == a);
    CHECK(ssm::CmdArgs::unpack({~0ull}).pack()[0] == 0xffff'ffff'b7ff'0fffull);  // reserved bits stay 0
    // slot: value[63:0] state[71:64] tag[79:72]
    const ssm::Slot s{v, static_cast<ssm::State>(r & 0xff), std::uint32_t(r >> 8) & 0xff};
    CHECK(s.pack() == ssm::Slot::Words{v, r & 0xffff});
    // ovf_node: tag, value, {l[128], p[129], counter[143:136]}, next[255:192]
    const ssm::OvfNode n{r, v, (v & 1) != 0, (v & 2) != 0, std::uint32_t(v >> 8) & 0xff, r ^ v};
    const ssm::OvfNode::Words nw{r, v, v & 0xff03, r ^ v};
    CHECK(n.pack() == nw);
    CHECK(ssm::OvfNode::unpack(nw) == n);
  }
  // Out-of-range member values are truncated to their fields.
  CHECK(ssm::Entry{0, false, false, 0x1ff}.pack()[0] == 0xff);
}

TEST_CASE("formats: gsn msg against the documented layout (4 x 32-bit words)", "[formats]") {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 100; ++i) {
    gsn::Msg m;
    m.value = rng();
    m.addr = rng() & 0xffff'ffff'ffffull;
    const std::uint64_t r = rng();
    m.type = static_cast<hpcnet::ssm_regs::RedType>(r & 3);
    m.op = static_cast<hpcnet::ssm_regs::RedOp>((r >> 2) & 3);
    m.kind = static_cast<gsn::Kind>((r >> 4) & 1);
    m.err = ((r >> 5) & 1) != 0;
    m.zero = std::uint32_t(r >> 6) & 0x3ff;
    // value [63:0], addr [111:64], type [113:112], op [115:114], kind [116], err [117], zero [127:118]
    const std::uint32_t w3 = std::uint32_t((m.addr >> 32) & 0xffff) | std::uint32_t(r & 3) << 16 |
                             std::uint32_t((r >> 2) & 3) << 18 | std::uint32_t((r >> 4) & 1) << 20 |
                             std::uint32_t((r >> 5) & 1) << 21 | (std::uint32_t(r >> 6) & 0x3ff) << 22;
    const gsn::Msg::Words w{m.value, (m.addr & 0xffff'ffffull) | std::uint64_t(w3) << 32};
    CHECK(m.pack() == w);
    CHECK(gsn::Msg::unpack(w) == m);
  }
  CHECK(static_cast<unsigned>(gsn::Kind::REDUCE) == 1);
}

TEST_CASE("formats: router head and route against the documented layout", "[formats]") {
  // hops of dimension d in byte d (two's complement), hop counter in byte 3
  for (int x : {0, 1, -1, 127, -128, 5})
    for (int y : {0, -7, 100})
      for (int z : {0, 3, -128}) {
        rtr::Head h;
        h.route.hops = {x, y, z};
        h.hop_count = unsigned(x + 128);
        const std::uint64_t w = std::uint64_t(std::uint8_t(x)) | std::uint64_t(std::uint8_t(y)) << 8 |
                                std::uint64_t(std::uint8_t(z)) << 16 | std::uint64_t(x + 128) << 24;
        CHECK(h.pack()[0] == w);
        CHECK(rtr::Head::unpack({w}) == h);
        CHECK(rtr::Route::unpack({w & 0xffffff}) == h.route);
      }
  rtr::Route r;
  r.hops = {200, -200, 0};  // truncated to 8 bits: 200 = -56 as a signed byte
  CHECK(rtr::Route::unpack(r.pack()).hops == std::array<std::int32_t, 3>{-56, 56, 0});
}
