// hash_tb.cpp: the cycle loop of the ssm_hash harness (clients, DMA host memory, overflow chunks)
// and the quiescent checks (entry counters, overflow node image and chains in host memory).
#include "hash_tb.hpp"

namespace ssmu {

void HashTb::step() {
  for (unsigned c = 0; c < kClients; ++c) drive_client(c);
  drive_dma();
  h_->ovf_add_valid_i = add_pending_;
  if (add_pending_) {
    h_->ovf_add_base_i = chunks.back().first;
    h_->ovf_add_nodes_i = chunks.back().second;
  }
  h_.eval();

  // Exhaustion: only with no node left; the harness may add a chunk after a while.
  if (h_->ovf_exhausted_o) {
    INFO("cycle " << cycle);
    REQUIRE(h_->ovf_bump_left_o == 0);
    REQUIRE(h_->ovf_free_count_o == 0);
    ++exhausted_for_;
    if (auto_chunk && !add_pending_ && exhausted_for_ == 1) chunk_wait_ = rnd(0, 20);
    if (auto_chunk && !add_pending_ && exhausted_for_ > chunk_wait_)
      add_chunk(next_chunk_base(), rnd(1, auto_chunk_nodes));
  } else {
    exhausted_for_ = 0;
  }
  bool added = h_->ovf_add_valid_i;

  for (unsigned c = 0; c < kClients; ++c) sample_client(c);
  sample_dma();
  tick();
  if (added) add_pending_ = false;
}

void HashTb::drive_client(unsigned c) {
  Client& k = cl[c];
  if (k.st == Client::Idle && !k.jobs.empty()) {
    if (k.wait > 0) {
      --k.wait;
    } else {
      k.cur = std::move(k.jobs.front());
      k.jobs.pop_front();
      k.rec = Done{};
      k.rec.addr = k.cur.addr;
      k.st = Client::Req;
    }
  }
  if (k.st == Client::Delay) {
    if (k.wait > 0) --k.wait;
    else k.st = Client::Cm;
  }
  std::uint8_t bit = std::uint8_t(1u << c);
  auto set = [&](auto& sig, bool on) { sig = std::uint8_t(on ? (sig | bit) : (sig & ~bit)); };
  set(h_->lk_valid_i, k.st == Client::Req);
  set(h_->cm_valid_i, k.st == Client::Cm);
  set(h_->cm_write_i, k.st == Client::Cm && k.cm.write);
  put_bits(h_->lk_addr_i, c * 48, 48, k.st == Client::Req ? k.cur.addr : rng() & kMask48);
  put_entry(h_->cm_entry_i, c * kEntryW, k.st == Client::Cm ? k.cm.e : Entry{rng(), false, true, 1});
}

void HashTb::sample_client(unsigned c) {
  Client& k = cl[c];
  bool lk_ready = (h_->lk_ready_o >> c) & 1, rsp = (h_->lk_rsp_valid_o >> c) & 1;
  bool cm_ready = (h_->cm_ready_o >> c) & 1, upd = (h_->upd_valid_o >> c) & 1;
  INFO("client " << c << " cycle " << cycle << " addr 0x" << std::hex << k.cur.addr << std::dec);
  if (k.st != Client::Req) REQUIRE_FALSE(lk_ready);
  if (k.st != Client::Wait) REQUIRE_FALSE(rsp);
  if (k.st != Client::Cm) REQUIRE_FALSE(cm_ready);
  if (!(k.st == Client::Cm && cm_ready)) REQUIRE_FALSE(upd);

  if (k.st == Client::Req && lk_ready) {
    for (unsigned o = 0; o < kClients; ++o)  // coherence: never two holders of one set
      if (o != c && held_[o]) REQUIRE(set_of(cl[o].cur.addr) != set_of(k.cur.addr));
    held_[c] = true;
    k.rec.grant = cycle;
    k.st = Client::Wait;
  } else if (k.st == Client::Wait && rsp) {
    k.rec.answer = cycle;
    k.rec.hit = (h_->lk_hit_o >> c) & 1;
    k.rec.seen = get_entry(h_->lk_entry_o, c * kEntryW);
    auto it = ref.find(k.cur.addr);
    REQUIRE(k.rec.hit == (it != ref.end()));
    if (k.rec.hit) REQUIRE(k.rec.seen == it->second);
    else REQUIRE(is_reset(k.rec.seen));
    k.cm = k.cur.decide(k.rec.hit, k.rec.seen);
    k.wait = k.cm.delay;
    k.st = Client::Delay;
  } else if (k.st == Client::Cm && cm_ready) {
    bool expect_upd = k.cm.write && (k.rec.hit || !is_reset(k.cm.e));
    REQUIRE(upd == expect_upd);
    if (upd) {
      REQUIRE(get_bits(h_->upd_addr_o, c * 48, 48) == k.cur.addr);
      ++updates;
    }
    apply_commit(c);
    held_[c] = false;
    k.st = Client::Idle;
    k.wait = max_idle ? rnd(0, max_idle) : 0;
  }
}

// The reference, in commit order: placement follows the RTL rule (a free way, else overflow).
void HashTb::apply_commit(unsigned c) {
  Client& k = cl[c];
  k.rec.commit = cycle;
  k.rec.write = k.cm.write;
  k.rec.committed = k.cm.e;
  k.done.push_back(k.rec);
  if (!k.cm.write) return;
  std::uint64_t a = k.cur.addr;
  if (is_reset(k.cm.e)) {
    ref.erase(a);
    onchip.erase(a);
    ovf.erase(a);
  } else {
    if (!ref.count(a)) {
      unsigned used = 0;
      for (auto x : onchip) used += set_of(x) == set_of(a);
      (used < kWays ? onchip : ovf).insert(a);
    }
    ref[a] = k.cm.e;
  }
}

void HashTb::drive_dma() {
  h_->dma_req_ready_i = pct(dma_ready_pct);
  bool v = !rd_q_.empty() && rd_q_.front().due <= cycle;
  h_->dma_rsp_valid_i = v;
  for (unsigned i = 0; i < 32; ++i)
    put_bits(h_->dma_rsp_rdata_i, 8 * i, 8, v ? rd_q_.front().data[i] : rng() & 0xff);
}

void HashTb::sample_dma() {
  if (h_->dma_rsp_valid_i) rd_q_.pop_front();
  if (!(h_->dma_req_valid_o && h_->dma_req_ready_i)) return;
  std::uint64_t a = h_->dma_req_addr_o;
  unsigned len = h_->dma_req_len_o;
  bool wr = h_->dma_req_write_o;
  INFO("DMA " << (wr ? "write" : "read") << " 0x" << std::hex << a << std::dec << " len " << len
              << " cycle " << cycle);
  REQUIRE(len >= 1);
  REQUIRE(len <= 32);
  REQUIRE((a % 32) + len <= 32);
  bool in_chunk = false;  // the engine touches only nodes handed over
  for (auto& [base, n] : chunks) in_chunk |= a >= base && a + len <= base + 32ull * n;
  REQUIRE(in_chunk);
  dma_log.push_back({wr, a, len, cycle});
  if (wr) {
    for (unsigned i = 0; i < len; ++i)
      mem[a + i] = std::uint8_t(get_bits(h_->dma_req_wdata_o, 8 * i, 8));
  } else {
    Rd r{};
    for (unsigned i = 0; i < len; ++i) {
      auto it = mem.find(a + i);
      INFO("read of never-written host memory at 0x" << std::hex << a + i);
      REQUIRE(it != mem.end());
      r.data[i] = it->second;
    }
    std::uint64_t due = cycle + rnd(lat_min, lat_max);
    if (!rd_q_.empty() && due <= rd_q_.back().due) due = rd_q_.back().due + 1;  // in order
    r.due = due;
    rd_q_.push_back(r);
  }
}

// At quiescence: counters, and every node handed over is either a valid node of a live
// overflow entry (on a chain of its own set) or on the free list.
void HashTb::check_quiet() {
  REQUIRE(quiet());
  run(2);  // counters are registered
  REQUIRE(h_->onchip_entries_o == onchip.size());
  REQUIRE(h_->ovf_entries_o == ovf.size());
  std::map<std::uint64_t, std::uint64_t> valid_next, free_next;  // node -> NEXT
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    unsigned used = chunks[i].second - (i + 1 == chunks.size() ? h_->ovf_bump_left_o : 0);
    for (unsigned n = 0; n < used; ++n) {
      std::uint64_t node = chunks[i].first + 32ull * n;
      std::uint64_t tag = peek64(node), next = peek64(node + 24);
      if (!(tag & 1)) {
        free_next[node] = next;
        continue;
      }
      std::uint64_t a = tag & ~1ull;
      INFO("node 0x" << std::hex << node << " tag 0x" << tag);
      REQUIRE(ovf.count(a));
      const auto img = hpcnet::ssm_regs::OvfNode::unpack({tag, peek64(node + 8), peek64(node + 16), next});
      const Entry e{img.value, img.l, img.p, img.counter};
      std::uint64_t w2 = peek64(node + 16);
      REQUIRE((w2 & ~0xff03ull) == 0);  // reserved bits
      REQUIRE(e == ref.at(a));
      valid_next[node] = next;
    }
  }
  REQUIRE(valid_next.size() == ovf.size());
  REQUIRE(free_next.size() == h_->ovf_free_count_o);
  // Chains: NEXT stays among valid nodes of one set; one head per set; every node reached once.
  auto tag_set = [&](std::uint64_t node) { return set_of(peek64(node) & ~1ull); };
  std::map<std::uint64_t, unsigned> incoming;
  for (auto& [n, nx] : valid_next) {
    if (nx == 0) continue;
    REQUIRE(valid_next.count(nx));
    REQUIRE(tag_set(nx) == tag_set(n));
    ++incoming[nx];
  }
  std::set<unsigned> head_sets;
  std::size_t reached = 0;
  for (auto& [n, nx] : valid_next) {
    REQUIRE(incoming[n] <= 1);
    if (incoming[n]) continue;
    REQUIRE(head_sets.insert(tag_set(n)).second);
    for (std::uint64_t x = n; x; x = valid_next.at(x)) REQUIRE(++reached <= valid_next.size());
  }
  REQUIRE(reached == valid_next.size());
  // Free list: one chain through NEXT over exactly the free nodes.
  std::size_t heads = 0, freached = 0;
  std::map<std::uint64_t, unsigned> fin;
  for (auto& [n, nx] : free_next) {
    if (nx) {
      REQUIRE(free_next.count(nx));
      ++fin[nx];
    }
  }
  for (auto& [n, nx] : free_next) {
    if (fin[n]) continue;
    ++heads;
    for (std::uint64_t x = n; x; x = free_next.at(x)) REQUIRE(++freached <= free_next.size());
  }
  REQUIRE(heads == (free_next.empty() ? 0u : 1u));
  REQUIRE(freached == free_next.size());
}

}  // namespace ssmu
