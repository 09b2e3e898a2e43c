// nic_att_tb.hpp: the cycle-level driver and checker of nic_att for test_nic_att.cpp: random
// configuration writes and lookups, random idle cycles and back-pressure, the round-robin and
// latency model, and the per-client expected responses from the reference (nic_att_ref.hpp).
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "nic_att_ref.hpp"
#include "sim/core/harness.hpp"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"

namespace hpcnet::tb::nic_att {

using hpcnet::tb::get_bits;
using hpcnet::tb::put_bits;

template <class M>
struct AttTb {
  Params p;
  hpcnet::sim::Harness<M> h{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  M& m = h.dut();
  std::mt19937_64 rng;
  Ref ref;

  struct Client {
    Req req;
    bool showing = false;
    std::deque<Exp> exp;  // expected responses, in order
    unsigned valid_pct = 50, ready_pct = 100;
    std::uint64_t accepted = 0, taken = 0;
  };
  std::vector<Client> cs;
  struct Pending {
    Exp* e;
    std::uint64_t due;  // the cycle of its ATT read
  };
  std::vector<Pending> pend;
  unsigned prio = 0;       // the reference round-robin pointer
  std::uint64_t cyc = 0;   // cycles since construction
  bool gen = true;         // clients make new requests
  unsigned key_pct = 0, att_pct = 0;  // configuration writes per cycle (percent)

  // This cycle's configuration writes.
  bool kw = false, aw = false;
  std::uint64_t ksel = 0, kctrl = 0, aidx = 0, appn = 0;
  Region kreg;

  // Statistics.
  std::array<unsigned, 16> by_status{};
  unsigned idx_range = 0, key_race_old = 0, key_race_new = 0, att_race_old = 0, att_race_new = 0;
  std::uint64_t lat_min = ~std::uint64_t{0}, lat_max = 0;
  std::vector<std::uint64_t> last_key_write;  // the cycle of each key's last write (+1), 0: none
  std::vector<std::uint64_t> last_att_write;

  AttTb(Params p_, std::uint64_t seed)
      : p(p_), rng(seed), ref(p_), cs(p_.clients), last_key_write(p_.num_keys), last_att_write(p_.att_n()) {
    idle_inputs();
    hpcnet::tb::sync_reset(h);
  }
  std::uint64_t rnd(std::uint64_t n) { return n ? rng() % n : 0; }
  bool pct(unsigned x) { return rnd(100) < x; }

  void idle_inputs() {
    m.req_valid_i = 0;
    m.rsp_ready_i = 0;
    m.key_we_i = 0;
    m.att_we_i = 0;
  }

  // ---------------------------------------------------------------- random configuration
  Region rand_region() {
    Region r;
    r.valid = pct(92);
    r.rd = pct(75);
    r.wr = pct(75);
    r.owner = static_cast<unsigned>(rnd(p.num_vp));
    unsigned k = static_cast<unsigned>(rnd(100));
    if (k < 55) r.base = rng() & kAddrMask;
    else if (k < 70) r.base = kAddrMask - rnd(3 * kPage);  // near the top: the end passes 2^48
    else if (k < 88) r.base = rnd(1 << 20);
    else r.base = rng() & kAddrMask & ~(kPage - 1);
    k = static_cast<unsigned>(rnd(100));
    if (k < 4) r.len = 0;
    else if (k < 30) r.len = 1 + rnd(64);
    else if (k < 80) r.len = 1 + rnd(3 * kPage);
    else r.len = 1 + rnd(8 * kPage);
    const std::uint64_t pages = r.len ? ((r.base + r.len - 1) >> 12) - (r.base >> 12) + 1 : 0;
    const std::uint64_t n = p.att_n();
    k = static_cast<unsigned>(rnd(100));
    if (k < 70 && pages <= n) r.attb = static_cast<std::uint32_t>(rnd(n - pages + 1));
    else if (k < 85) r.attb = static_cast<std::uint32_t>(n - rnd(std::max<std::uint64_t>(pages, 1)));  // the last page(s) past the end
    else r.attb = static_cast<std::uint32_t>(rng());  // any 32-bit value: mostly far beyond
    return r;
  }
  void set_key_write(std::uint64_t sel) {
    kw = true;
    ksel = sel;
    kreg = rand_region();
    kctrl = nf::KEY_CTRL_VALID.put(kreg.valid) | nf::KEY_CTRL_READ.put(kreg.rd) |
            nf::KEY_CTRL_WRITE.put(kreg.wr) | nf::KEY_CTRL_OWNER_VP.put(kreg.owner) |
            nf::KEY_CTRL_ATT_BASE.put(kreg.attb);
    const std::uint64_t used = nf::KEY_CTRL_VALID.mask() | nf::KEY_CTRL_READ.mask() | nf::KEY_CTRL_WRITE.mask() |
                               nf::KEY_CTRL_OWNER_VP.mask() | nf::KEY_CTRL_ATT_BASE.mask();
    kctrl |= rng() & ~used;  // reserved bits are ignored
  }
  std::uint64_t rand_key_sel() {
    if (p.num_keys < 65536 && pct(5)) return p.num_keys + rnd(65536 - p.num_keys);  // ignored
    return rnd(p.num_keys);
  }
  void set_att_write(std::uint64_t idx) {
    aw = true;
    aidx = idx;
    appn = rng() & kPpnMask;
  }
  std::uint64_t rand_att_idx() {
    if (pct(5)) return p.att_n() + rnd((std::uint64_t{1} << 32) - p.att_n());  // ignored
    return rnd(p.att_n());
  }

  // Configuration writes while lookups run: half aimed at what is in flight (the key of a request
  // being shown, the ATT entry of a lookup whose read is near).
  void rand_config() {
    if (pct(key_pct)) {
      std::uint64_t sel = rand_key_sel();
      if (pct(50)) {
        const Client& c = cs[rnd(p.clients)];
        if (c.showing && !c.req.phys && c.req.key < p.num_keys) sel = c.req.key;
      }
      set_key_write(sel);
    }
    if (pct(att_pct)) {
      std::uint64_t idx = rand_att_idx();
      if (!pend.empty() && pct(60)) idx = pend[rnd(pend.size())].e->idx;
      set_att_write(idx);
    }
  }

  // ---------------------------------------------------------------- random lookups
  std::uint64_t valid_key() {
    for (unsigned t = 0; t < 16; ++t) {
      std::uint64_t k = rnd(p.num_keys);
      if (ref.tbl[k].valid) return k;
    }
    return rnd(p.num_keys);
  }
  Req rand_req() {
    Req q;
    q.vp = static_cast<unsigned>(rnd(p.num_vp));
    q.phys_ok = pct(50);
    q.write = pct(50);
    q.key = rng() & 0xffff;
    q.addr = rng() & kAddrMask;
    q.len = static_cast<std::uint32_t>(rnd(3 * kPage));
    const unsigned k = static_cast<unsigned>(rnd(100));
    if (k < 8) {  // physical
      q.phys = true;
      return q;
    }
    if (k < 13 && p.num_keys < 65536) {  // key >= NumKeys
      q.key = p.num_keys + rnd(65536 - p.num_keys);
      return q;
    }
    if (k < 18) {  // any key in range, often not registered
      q.key = rnd(p.num_keys);
      return q;
    }
    q.key = valid_key();
    const Region& r = ref.tbl[q.key];
    if (pct(88)) q.vp = r.owner;
    const std::uint64_t L = r.len;
    std::uint64_t off = 0, l = 0;
    const unsigned s = static_cast<unsigned>(rnd(100));
    if (s < 35 && L > 0) {  // inside
      off = rnd(L);
      l = 1 + rnd(std::min<std::uint64_t>(L - off, 3 * kPage));
    } else if (s < 55 && L > 0) {  // around a page boundary of the region
      const std::uint64_t fb = (r.base | (kPage - 1)) + 1;  // first boundary above base
      std::uint64_t b = fb;
      if (fb < r.base + L) b = fb + kPage * rnd((r.base + L - fb + kPage - 1) / kPage);
      const std::uint64_t before = 1 + rnd(std::min<std::uint64_t>(64, b - r.base));
      off = b - r.base - before;
      l = before + 1 + rnd(pct(50) ? 64 : 2 * kPage);
    } else if (s < 65 && L > 0) {  // straddling the end
      off = L - 1 - rnd(std::min<std::uint64_t>(L, 100));
      l = L - off + (pct(30) ? 0 : 1 + rnd(100));
    } else if (s < 70 && L > 0 && r.base <= kAddrMask && kAddrMask - r.base < kPage * 16) {
      // from inside, below 2^48, on through the top of the address space (and the region's end):
      // ADDR + len needs 49 bits
      off = rnd(std::min<std::uint64_t>(L, kAddrMask + 1 - r.base));
      const std::uint64_t to_top = kAddrMask + 1 - (r.base + off);
      l = std::max(to_top, L - off) + rnd(100);
    } else if (s < 74) {  // before the base
      q.addr = (r.base - 1 - rnd(100)) & kAddrMask;
      q.len = static_cast<std::uint32_t>(1 + rnd(300));
      return q;
    } else if (s < 77) {  // len 0
      off = rnd(L + 1);
      l = 0;
    } else if (s < 82) {  // the whole region
      off = 0;
      l = L;
    } else {
      off = rnd(L + 200);
      l = rnd(3 * kPage);
    }
    q.addr = (r.base + off) & kAddrMask;
    q.len = static_cast<std::uint32_t>(l);
    return q;
  }

  // ---------------------------------------------------------------- one cycle
  void drive() {
    for (unsigned c = 0; c < p.clients; ++c) {
      Client& x = cs[c];
      if (!x.showing && gen && pct(x.valid_pct)) {
        x.req = rand_req();
        x.showing = true;
      }
      const Req g = x.showing ? x.req : Req{static_cast<unsigned>(rng() & 31), rng() & 0xffff, rng() & kAddrMask,
                                             static_cast<std::uint32_t>(rng()), pct(50), pct(50), pct(50)};
      put_bits(m.req_valid_i, c, 1, x.showing);
      put_bits(m.req_vp_i, c * 5, 5, g.vp);
      put_bits(m.req_addr_i, c * 64, 64, (g.key << 48) | g.addr);
      put_bits(m.req_len_i, c * 32, 32, g.len);
      put_bits(m.req_write_i, c, 1, g.write);
      put_bits(m.req_phys_i, c, 1, g.phys);
      put_bits(m.req_phys_ok_i, c, 1, g.phys_ok);
      put_bits(m.rsp_ready_i, c, 1, pct(x.ready_pct));
    }
    m.key_we_i = kw;
    m.key_sel_i = static_cast<std::uint16_t>(kw ? ksel : rng());
    m.key_base_i = kw ? kreg.base : rng() & kAddrMask;
    m.key_len_i = kw ? kreg.len : rng() & ((std::uint64_t{1} << 40) - 1);
    m.key_ctrl_i = kw ? kctrl : rng();
    m.att_we_i = aw;
    m.att_index_i = static_cast<std::uint32_t>(aw ? aidx : rng());
    m.att_ppn_i = aw ? appn : rng() & kPpnMask;
  }

  void cycle() {
    drive();
    h.eval();
    INFO("cycle " << cyc);
    // ATT reads of this cycle see the ATT before this cycle's write.
    for (auto it = pend.begin(); it != pend.end();) {
      if (it->due == cyc) {
        Exp& e = *it->e;
        e.paddr |= ref.att[e.idx] << 12;
        e.need_att = false;
        if (last_att_write[e.idx] == cyc) ++att_race_new;  // written in the cycle before: seen
        if (aw && aidx == e.idx) ++att_race_old;             // written now: not seen
        it = pend.erase(it);
      } else {
        ++it;
      }
    }
    // Lookups: the reference round-robin over the clients that request and have room.
    int idx = -1;
    for (unsigned k = 0; k < p.clients; ++k) {
      const unsigned c = (prio + k) % p.clients;
      if (cs[c].showing && cs[c].accepted - cs[c].taken < p.depth()) {
        idx = static_cast<int>(c);
        break;
      }
    }
    for (unsigned c = 0; c < p.clients; ++c)
      REQUIRE(get_bits(m.req_ready_o, c, 1) == (static_cast<int>(c) == idx));
    // Responses: valid exactly from AttLat + 3 cycles after acceptance, in order, equal.
    for (unsigned c = 0; c < p.clients; ++c) {
      Client& x = cs[c];
      const bool due = !x.exp.empty() && x.exp.front().acc_cycle + p.latency() <= cyc;
      REQUIRE(get_bits(m.rsp_valid_o, c, 1) == due);
      if (!due) continue;
      const Exp& e = x.exp.front();
      REQUIRE_FALSE(e.need_att);
      INFO("client " << c << " accepted in cycle " << e.acc_cycle);
      REQUIRE(nf::to_string(static_cast<St>(get_bits(m.rsp_status_o, c * 8, 8))) == std::string(nf::to_string(e.st)));
      REQUIRE(get_bits(m.rsp_status_o, c * 8, 8) == static_cast<unsigned>(e.st));
      REQUIRE(get_bits(m.rsp_paddr_o, c * 48, 48) == e.paddr);
      if (get_bits(m.rsp_ready_i, c, 1)) {
        const std::uint64_t lat = cyc - e.acc_cycle;
        lat_min = std::min(lat_min, lat);
        lat_max = std::max(lat_max, lat);
        x.exp.pop_front();
        ++x.taken;
      }
    }
    if (idx >= 0) {
      Client& x = cs[static_cast<unsigned>(idx)];
      bool ir = false;
      Exp e = ref.lookup(x.req, ir);
      e.acc_cycle = cyc;
      ++by_status[static_cast<unsigned>(e.st) & 15];
      idx_range += ir;
      if (!x.req.phys && x.req.key < p.num_keys) {
        if (last_key_write[x.req.key] == cyc) ++key_race_new;  // written in the cycle before: seen
        if (kw && ksel == x.req.key) ++key_race_old;            // written now: not seen
      }
      x.exp.push_back(e);
      if (e.need_att) pend.push_back({&x.exp.back(), cyc + 2});
      x.showing = false;
      ++x.accepted;
      prio = (static_cast<unsigned>(idx) + 1) % p.clients;
    }
    // Configuration writes take effect at the edge.
    if (kw && ksel < p.num_keys) {
      ref.tbl[ksel] = kreg;
      last_key_write[ksel] = cyc + 1;
    }
    if (aw && aidx < p.att_n()) {
      ref.att[aidx] = appn;
      last_att_write[aidx] = cyc + 1;
    }
    kw = aw = false;
    hpcnet::tb::tick(h);
    ++cyc;
  }

  // Every ATT entry written with a random page number, about 70% of the keys registered (the
  // rest written invalid or never), with writes to out-of-range keys and indexes among them.
  void setup() {
    const bool g = gen;
    gen = false;
    const std::uint64_t n = std::max<std::uint64_t>(p.att_n(), p.num_keys);
    for (std::uint64_t i = 0; i < n; ++i) {
      if (i < p.att_n()) set_att_write(i);
      if (i % 37 == 5) set_att_write(rand_att_idx());
      if (i < p.num_keys && pct(85)) set_key_write(i);
      if (i % 41 == 7) set_key_write(rand_key_sel());
      cycle();
    }
    gen = g;
  }

  void rates(unsigned min_ready) {
    static const unsigned valid_r[] = {5, 30, 70, 100};
    static const unsigned ready_r[] = {0, 10, 50, 100, 100};
    for (auto& x : cs) {
      x.valid_pct = valid_r[rnd(4)];
      x.ready_pct = std::max(min_ready, ready_r[rnd(5)]);
    }
  }

  void run(unsigned cycles) {
    for (unsigned c = 0; c < cycles; ++c) {
      if (c % 600 == 0) rates(0);
      rand_config();
      cycle();
    }
  }

  // No new requests, every response taken: everything accepted comes back.
  void drain() {
    const bool g = gen;
    gen = false;
    for (auto& x : cs) x.ready_pct = 100;
    for (unsigned c = 0; c < 4 * p.depth() * p.clients + 100; ++c) cycle();
    for (auto& x : cs) {
      REQUIRE_FALSE(x.showing);
      REQUIRE(x.exp.empty());
      REQUIRE(x.accepted == x.taken);
    }
    REQUIRE(pend.empty());
    gen = g;
  }

  std::uint64_t accepted() const {
    std::uint64_t a = 0;
    for (const auto& x : cs) a += x.accepted;
    return a;
  }
};

}  // namespace hpcnet::tb::nic_att
