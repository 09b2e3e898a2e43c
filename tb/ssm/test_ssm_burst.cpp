// Integration: ssm_burst_reduce through libssm on one node: random lengths (not multiples of the
// 32-byte DMA beat), buffers at random element-aligned offsets, in place and not, every type and
// op, 1..20 participants. Every destination must equal a host reference folded in ascending
// window order; a participant with a different length poisons the group (ERR_MISMATCH for all).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "sim/ssm/ssm_node.hpp"
#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/seed.hpp"

using hpcnet::sim::SsmNode;

namespace {

// One element of `type` from raw bytes, combined as the engine documents (a OP b).
template <class T>
T combine(int op, T a, T b) {
  if (op == SSM_SUM) {
    if constexpr (std::is_integral_v<T>) return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
    else return a + b;
  }
  if constexpr (std::is_floating_point_v<T>) {  // no NaN in these inputs; -0 < +0
    const bool a_less = a < b || (a == b && std::signbit(a) && !std::signbit(b));
    if (op == SSM_MAX) return a_less ? b : a;
    const bool b_less = b < a || (a == b && std::signbit(b) && !std::signbit(a));
    return b_less ? b : a;
  } else {
    if (op == SSM_MAX) return a < b ? b : a;
    return b < a ? b : a;
  }
}

template <class T>
void fold_into(std::vector<uint8_t>& acc, const std::vector<uint8_t>& in, int op) {
  for (size_t i = 0; i + sizeof(T) <= acc.size(); i += sizeof(T)) {
    T a, b;
    std::memcpy(&a, &acc[i], sizeof(T));
    std::memcpy(&b, &in[i], sizeof(T));
    const T r = combine<T>(op, a, b);
    std::memcpy(&acc[i], &r, sizeof(T));
  }
}

std::vector<uint8_t> random_buffer(std::mt19937_64& rng, int type, size_t len) {
  std::vector<uint8_t> b(len);
  for (size_t i = 0; i < len; i += 8) {
    uint64_t v = rng();
    if (type == SSM_DOUBLE) v = std::bit_cast<uint64_t>(std::ldexp(double(int64_t(v >> 11)) / 0x1p52, int(v % 40) - 20));
    std::memcpy(&b[i], &v, std::min<size_t>(8, len - i));
  }
  return b;
}

}  // namespace

TEST_CASE("ssm: burst reduce with random lengths offsets types ops and group sizes", "[ssm][burst]") {
  const uint64_t seed = hpcnet::tb::seed("ssm burst");
  std::mt19937_64 rng(seed);
  SsmNode n;
  auto& p = n.platform();
  for (int trial = 0; trial < 24; ++trial) {
    const int type = std::array{SSM_INT32, SSM_INT64, SSM_UINT64, SSM_DOUBLE}[trial % 4];
    const int op = int(rng() % 3);
    const unsigned g = trial < 4 ? 20 : 1 + unsigned(rng() % 20);
    const size_t esize = type == SSM_INT32 ? 4 : 8;
    const size_t len = esize * (1 + rng() % (trial % 3 == 0 ? 700 : 40));
    const bool in_place = trial % 5 == 1;
    INFO("trial " << trial << " type " << type << " op " << op << " group " << g << " len " << len);
    std::vector<hpcnet::DmaRegion> sr(g), dr(g);
    std::vector<uint64_t> src(g), dst(g);
    std::vector<std::vector<uint8_t>> in(g);
    for (unsigned k = 0; k < g; ++k) {
      sr[k] = p.dma_alloc(len + 64, 64);
      dr[k] = p.dma_alloc(len + 64, 64);
      src[k] = sr[k].phys + esize * (rng() % (32 / esize));  // any element-aligned offset
      dst[k] = in_place ? src[k] : dr[k].phys + esize * (rng() % (32 / esize));
      in[k] = random_buffer(rng, type, len);
      n.sys.memory().write(src[k], in[k].data(), len);
    }
    std::vector<uint8_t> ref = in[0];
    for (unsigned k = 1; k < g; ++k) {
      if (type == SSM_INT32) fold_into<int32_t>(ref, in[k], op);
      else if (type == SSM_INT64) fold_into<int64_t>(ref, in[k], op);
      else if (type == SSM_UINT64) fold_into<uint64_t>(ref, in[k], op);
      else fold_into<double>(ref, in[k], op);
    }
    std::vector<int> rc(g, 1);
    n.run_all([&](unsigned pe, unsigned t) { rc[pe * 4 + t] = ssm_burst_reduce(src[pe * 4 + t], dst[pe * 4 + t], len, type, op, g, 0); },
              g);
    for (unsigned k = 0; k < g; ++k) {
      CHECK(rc[k] == SSM_OK);
      std::vector<uint8_t> out(len);
      n.sys.memory().read(dst[k], out.data(), len);
      CHECK(out == ref);
      // Bytes around the destination are untouched (guard: a source or the zeroed allocation).
      if (!in_place && dst[k] > dr[k].phys) {
        uint8_t before = 0xFF;
        n.sys.memory().read(dst[k] - 1, &before, 1);
        CHECK(before == 0);
      }
    }
    for (unsigned k = 0; k < g; ++k) {
      p.dma_free(sr[k]);
      p.dma_free(dr[k]);
    }
  }
  CHECK(n.drv.errors().empty());
}

TEST_CASE("ssm: burst reduce with a participant of another length: ERR_MISMATCH for all and no data moved",
          "[ssm][burst][errors]") {
  SsmNode n;
  auto& p = n.platform();
  const auto a = p.dma_alloc(4096, 64), b = p.dma_alloc(4096, 64);
  std::vector<int> rc(4, 0);
  n.run_all(
      [&](unsigned pe, unsigned t) {
        const unsigned k = pe * 4 + t;
        rc[k] = ssm_burst_reduce(a.phys + 256 * k, b.phys + 256 * k, k == 2 ? 64 : 128, SSM_INT64, SSM_SUM, 4, 0);
      },
      4);
  for (int r : rc) CHECK(r == -int(hpcnet::ssm_regs::State::ERR_MISMATCH));
  std::vector<uint8_t> out(4096, 0xAA);
  n.sys.memory().read(b.phys, out.data(), out.size());
  CHECK(std::all_of(out.begin(), out.end(), [](uint8_t x) { return x == 0; }));
  // The unit takes the next group normally.
  std::vector<int> ok(2, 1);
  n.run_all([&](unsigned, unsigned t) { ok[t] = ssm_burst_reduce(a.phys + 8 * t, b.phys + 64 * t, 8, SSM_INT64, SSM_SUM, 2, 0); }, 2);
  CHECK(ok[0] == SSM_OK);
  CHECK(ok[1] == SSM_OK);
}
