// burst_tb.cpp: see burst_tb.hpp.
#include "burst_tb.hpp"

#include <cstring>
#include <stdexcept>

#include "hpcnet/tb/bits.hpp"

namespace bursttb {

namespace {

std::uint64_t load(const std::vector<std::uint8_t>& v, std::size_t off, unsigned n) {
  std::uint64_t x = 0;
  std::memcpy(&x, v.data() + off, n);
  return x;
}
void store(std::vector<std::uint8_t>& v, std::size_t off, unsigned n, std::uint64_t x) {
  std::memcpy(v.data() + off, &x, n);
}

using hpcnet::tb::get_bits;

std::string hex(std::uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

}  // namespace

std::vector<std::uint8_t> reference(const Group& g, bool arrival_order) {
  std::vector<std::size_t> order(g.m.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (!arrival_order)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return g.m[a].win < g.m[b].win; });
  const unsigned eb = elem_bytes(g.type);
  std::vector<std::uint8_t> r(g.len);
  for (std::size_t off = 0; off < g.len; off += eb) {
    std::uint64_t acc = load(g.src_img[order[0]], off, eb);
    for (std::size_t k = 1; k < order.size(); ++k) acc = combine(g.type, g.op, acc, load(g.src_img[order[k]], off, eb));
    store(r, off, eb, acc);
  }
  return r;
}

BurstTb::BurstTb(TbConfig cfg)
    : h_(200.0, hpcnet::sim::trace_from_env()), mem_(cfg.mem), cfg_(cfg), rng_(cfg.seed) {
  auto& d = m();
  d.in_valid_i = 0;
  d.ret_ready_i = 0;
  d.dma_req_ready_i = 0;
  d.dma_rsp_valid_i = 0;
  hpcnet::tb::sync_reset(h_);
  reset_cycles_ = h_.cycles();
}

void BurstTb::post(Group& g) {
  g.src_img.clear();
  for (const Member& mb : g.m) {
    std::vector<std::uint8_t> img(g.len);
    mem_.read(mb.src, img.data(), g.len);
    g.src_img.push_back(std::move(img));
  }
  if (!g.poisoned) g.result = reference(g);
  for (std::size_t i = 0; i < g.m.size(); ++i) arrivals_.push_back({&g, i});
  open_.push_back(&g);
}

bool BurstTb::idle() const { return arrivals_.empty() && open_.empty(); }

void BurstTb::cycle() {
  auto& d = m();
  const std::uint64_t t = now();

  mem_.drive(port_, t);
  d.dma_req_ready_i = port_.req_ready;
  d.dma_rsp_valid_i = port_.rsp_valid;
  for (unsigned w = 0; w < 8; ++w) {
    std::uint32_t v = 0;
    for (unsigned b = 0; b < 4; ++b) v |= std::uint32_t(port_.rsp_rdata[4 * w + b]) << (8 * b);
    d.dma_rsp_rdata_i[w] = v;
  }

  // Arrivals: once offered, an arrival is held until taken.
  d.in_valid_i = !arrivals_.empty() && (held_ || rng_.u01() >= cfg_.arrival_gap);
  if (d.in_valid_i) {
    const Pending& p = arrivals_.front();
    const Member& mb = p.g->m[p.idx];
    d.in_win_i = static_cast<std::uint8_t>(mb.win);
    d.in_ret_offset_i = static_cast<std::uint16_t>(mb.ret);
    d.in_src_i = mb.src;
    d.in_dest_i = mb.dest;
    d.in_len_i = mb.len;
    d.in_type_i = static_cast<std::uint8_t>(mb.type);
    d.in_op_i = static_cast<std::uint8_t>(mb.op);
    d.in_group_i = static_cast<std::uint8_t>(mb.group);
  }
  d.ret_ready_i = rng_.u01() >= cfg_.ret_stall;
  h_.eval();

  // DMA requests.
  port_.req_valid = d.dma_req_valid_o;
  port_.rsp_ready = true;
  if (port_.req_valid) {
    port_.req_write = d.dma_req_write_o;
    port_.req_addr = d.dma_req_addr_o;
    port_.req_len = d.dma_req_len_o;
    port_.req_tag = 2;
    for (unsigned w = 0; w < 8; ++w)
      for (unsigned b = 0; b < 4; ++b) port_.req_wdata[4 * w + b] = std::uint8_t(d.dma_req_wdata_o[w] >> (8 * b));
    if (port_.req_ready) dma_.push_back({t, port_.req_write, port_.req_addr, port_.req_len});
  }
  mem_.sample(port_, t);

  held_ = d.in_valid_i && !d.in_ready_o;
  if (d.in_valid_i && d.in_ready_o) {
    Pending p = arrivals_.front();
    arrivals_.pop_front();
    if (p.idx + 1 == p.g->m.size()) p.g->last_arrival = t;
  }
  if (d.ret_valid_o && d.ret_ready_i) {
    const Completion c{hpcnet::tb::get_ret(d.ret_o), t};
    if (open_.empty()) {
      stray_.push_back(c);
      FAIL("completion with no group outstanding (pe " << c.pe << " thread " << c.thread << ")");
    } else {
      Group* g = open_.front();
      g->done.push_back(c);
      if (g->done.size() == g->m.size()) open_.pop_front();
    }
  }
  hpcnet::tb::tick(h_);
}

void BurstTb::run(std::uint64_t max_cycles) {
  const std::uint64_t end = now() + max_cycles;
  while (!idle()) {
    if (now() >= end) throw std::runtime_error("BurstTb::run: timeout (a participant never got its completion)");
    cycle();
  }
  // Posted writes become visible `latency` cycles after acceptance (in a system the completion's
  // slot write queues behind them in the same in-order memory): let them land.
  while (!mem_.dma_idle()) cycle();
}

std::vector<std::string> BurstTb::check_group(const Group& g, std::uint64_t guard) {
  std::vector<std::string> bad;
  auto note = [&](std::string s) {
    if (bad.size() < 20) bad.push_back(std::move(s));
  };
  // Memory contents: dests hold the result (or are unchanged when poisoned); guard bytes and
  // (unless in place) sources are unchanged. Region images were taken by make_group in
  // g.src_img (sources only), so the guards are checked against the pattern stored there.
  for (std::size_t i = 0; i < g.m.size(); ++i) {
    const Member& mb = g.m[i];
    std::vector<std::uint8_t> now_dest(g.len);
    mem_.read(mb.dest, now_dest.data(), g.len);
    const bool in_place = mb.src == mb.dest;
    if (!g.poisoned) {
      if (now_dest != g.result) {
        std::size_t k = 0;
        while (k < g.len && now_dest[k] == g.result[k]) ++k;
        note("member win " + std::to_string(mb.win) + ": dest differs from the reference at byte " + std::to_string(k) +
             " (got " + std::to_string(now_dest[k]) + ", want " + std::to_string(g.result[k]) + ")");
      }
    } else if (in_place && now_dest != g.src_img[i]) {
      note("poisoned group: in-place buffer of win " + std::to_string(mb.win) + " changed");
    }
    if (!in_place) {
      std::vector<std::uint8_t> now_src(g.len);
      mem_.read(mb.src, now_src.data(), g.len);
      if (now_src != g.src_img[i]) note("member win " + std::to_string(mb.win) + ": source changed");
    }
  }
  // DMA: attribute requests to the group's buffers by address.
  auto in_range = [&](const DmaRec& r, bool dest) {
    for (const Member& mb : g.m) {
      const std::uint64_t b = dest ? mb.dest : mb.src;
      if (r.addr >= b && r.addr + r.len <= b + g.len) return true;
    }
    return false;
  };
  auto touches = [&](const DmaRec& r, bool dest) {
    for (const Member& mb : g.m) {
      const std::uint64_t b = (dest ? mb.dest : mb.src);
      if (r.addr < b + g.len + guard && r.addr + r.len + guard > b) return true;
    }
    return false;
  };
  std::uint64_t rd = 0, wr = 0, last_write = 0;
  for (const DmaRec& r : dma_) {
    if (!r.write && touches(r, false)) {
      if (!in_range(r, false)) note("read outside the sources: " + hex(r.addr) + "+" + std::to_string(r.len));
      rd += r.len;
    }
    if (r.write && touches(r, true)) {
      if (!in_range(r, true)) note("write outside the dests: " + hex(r.addr) + "+" + std::to_string(r.len));
      wr += r.len;
      last_write = std::max(last_write, r.cycle);
    }
  }
  const std::uint64_t want = g.poisoned ? 0 : std::uint64_t(g.len) * g.m.size();
  if (rd != want) note("read " + std::to_string(rd) + " bytes, want " + std::to_string(want));
  if (wr != want) note("wrote " + std::to_string(wr) + " bytes, want " + std::to_string(want));
  // Completions: exactly one per participant, in the right format, after the data.
  if (g.done.size() != g.m.size())
    note("completions: " + std::to_string(g.done.size()) + ", want " + std::to_string(g.m.size()));
  std::multiset<std::pair<unsigned, unsigned>> want_ret, got_ret;
  std::map<unsigned, std::uint64_t> src_of;
  for (const Member& mb : g.m) {
    want_ret.insert({mb.win, mb.ret});
    src_of.emplace(mb.win, mb.src);  // the first arrival's src for a repeated window
  }
  for (const Completion& c : g.done) {
    const unsigned win = c.pe * kThreads + c.thread;
    got_ret.insert({win, c.ret});
    if (c.opcode != kOpcodeBurst) note("completion opcode " + std::to_string(c.opcode));
    if (c.value != 0) note("completion value " + hex(c.value));
    const unsigned st = g.poisoned ? kStateMismatch : kStateOk;
    if (c.state != st) note("completion state " + hex(c.state) + ", want " + hex(st));
    if (src_of.count(win) && c.addr != src_of[win]) note("completion addr " + hex(c.addr) + " for win " + std::to_string(win));
    if (!g.poisoned && wr && c.cycle <= last_write) note("completion before the last data write was accepted");
  }
  if (got_ret != want_ret) note("completions do not match the participants (window, ret_offset)");
  return bad;
}

// ---------------------------------------------------------------- random groups
Group make_group(hpcnet::sim::HostMemory& mem, hpcnet::tb::Rng& rng, const GroupSpec& spec) {
  Group g;
  g.type = spec.type;
  g.op = spec.op;
  g.size = spec.members;
  g.len = spec.len;
  const unsigned eb = elem_bytes(spec.type);
  std::vector<unsigned> wins = spec.wins;
  if (wins.empty()) {
    std::vector<unsigned> all(kWin);
    for (unsigned i = 0; i < kWin; ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    wins.assign(all.begin(), all.begin() + spec.members);
  }
  std::uniform_int_distribution<unsigned> mis(0, 32 / eb - 1);
  std::uniform_int_distribution<int> exp(-30, 30);
  std::uniform_real_distribution<double> mant(-1.0, 1.0);
  auto region = [&](std::uint64_t& at) {
    const std::uint64_t guard = 64;
    hpcnet::DmaRegion r = mem.alloc(spec.len + 2 * guard + 64, 64);
    at = r.phys + guard + (spec.aligned ? 0 : mis(rng) * eb);
    for (std::uint64_t a = r.phys; a < r.phys + spec.len + 2 * guard + 64; a += 8) mem.write64(a, rng());
  };
  for (unsigned i = 0; i < spec.members; ++i) {
    Member mb;
    mb.win = wins[i];
    mb.ret = unsigned(rng() % 4096);
    region(mb.src);
    if (spec.in_place) mb.dest = mb.src;
    else region(mb.dest);
    mb.group = spec.members;
    mb.type = spec.type;
    mb.op = spec.op;
    mb.len = spec.len;
    if (spec.type == kDouble) {
      for (std::uint32_t off = 0; off < spec.len; off += 8) {
        double v = std::ldexp(mant(rng), exp(rng));
        std::uint64_t b = bits(v);
        if (spec.special && rng() % 8 == 0) {
          static const std::uint64_t sp[] = {0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000001ull,
                                             0xfff4000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull,
                                             0x0000000000000001ull, 0x800fffffffffffffull, 0x7fefffffffffffffull,
                                             0x0010000000000000ull};
          b = sp[rng() % (sizeof sp / sizeof sp[0])];
        }
        mem.write64(mb.src + off, b);
      }
    }
    g.m.push_back(mb);
  }
  return g;
}

Util measure(unsigned members, std::uint32_t len, unsigned type, bool aligned, std::uint64_t sd) {
  TbConfig cfg;
  cfg.seed = sd;
  BurstTb tb(cfg);
  hpcnet::tb::Rng rng(sd);
  GroupSpec s;
  s.type = type;
  s.op = kSum;
  s.members = members;
  s.len = len;
  s.aligned = aligned;
  Group g = make_group(tb.mem(), rng, s);
  tb.post(g);
  tb.run();
  REQUIRE(tb.check_group(g).empty());
  Util u;
  const std::uint64_t end = g.done.back().cycle;
  u.cycles = end - g.last_arrival;
  for (const DmaRec& r : tb.dma()) {
    u.bytes += r.len;
    if (!r.write && u.latency_first_read == 0) u.latency_first_read = r.cycle - g.last_arrival;
  }
  u.util = double(u.bytes) / double(u.cycles) / tb.mem().config().bytes_per_cycle;
  return u;
}

}  // namespace bursttb
