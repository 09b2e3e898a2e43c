// net_engine.cpp: see net_engine.hpp.
#include "sim/net/traffic/net_engine.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

namespace {
constexpr size_t kHistBuckets = 1u << 15;
}

NetEngine::NetEngine(const NetSpec& spec)
    : spec_(spec),
      nodes_(spec.shape.nodes()),
      words_(spec.flit_words()),
      flits_(spec.pkt_flits),
      checker_(spec.shape, spec.pkt_flits, spec.flit_words(), mode_keeps_flow_order(spec.mode)),
      coords_(spec.shape),
      traffic_(spec.shape, PatternConfig{}) {
  if (spec.flit_bits % 32 != 0) throw std::invalid_argument("net engine: flit width must be a multiple of 32 bits");
  src_.resize(nodes_);
  rng_.resize(nodes_);
  next_gen_.assign(nodes_, UINT64_MAX);
  stage_.assign(static_cast<size_t>(nodes_) * words_, 0);
  ej_ready_.assign((nodes_ + 63) / 64, 0);
  pairs_.assign(static_cast<size_t>(nodes_) * nodes_, 0);
  src_del_.assign(nodes_, 0);
  src_any_.assign(nodes_, 0);
  set_shards(1);
  configure(NetRunConfig{});
}

void NetEngine::set_shards(unsigned k) {
  if (k == 0 || nodes_ % k != 0)
    throw std::invalid_argument(fmt::format("net engine: {} shards do not divide {} nodes", k, nodes_));
  shard_n_ = nodes_ / k;
  shard_.assign(k, Shard{});
  for (unsigned i = 0; i < k; ++i) {
    Shard& sh = shard_[i];
    sh.lo = i * shard_n_;
    sh.valid.assign(chunks() + 2 * kGuard / 8, 0);
    sh.flags.assign(shard_n_ + 2 * kGuard, 0);
    sh.changed.reserve(shard_n_);
    sh.pend.reserve(shard_n_);
    sh.pend_words.assign(static_cast<size_t>(shard_n_) * words_, 0);
  }
  for (unsigned n = 0; n < nodes_; ++n) present(n);  // the presented flits, into the new shards
}

void NetEngine::configure(const NetRunConfig& rc) {
  const TrafficConfig& tc = rc.traffic;
  if (!(tc.load >= 0.0 && tc.load <= static_cast<double>(flits_)))
    throw std::invalid_argument(fmt::format("offered load {} outside 0..{} flits/node/cycle", tc.load, flits_));
  if (!(rc.ej_ready_prob > 0.0 && rc.ej_ready_prob <= 1.0))
    throw std::invalid_argument(fmt::format("ejection ready probability {} outside (0, 1]", rc.ej_ready_prob));
  traffic_ = Traffic(spec_.shape, tc.pattern);
  load_ = tc.load;
  const double p = load_ / flits_;
  log1mp_ = p < 1.0 ? std::log1p(-p) : 0.0;
  max_queue_ = tc.max_queue;
  ej_prob_ = rc.ej_ready_prob;
  watchdog_ = rc.watchdog;
  max_age_ = rc.max_packet_age;
  gen_on_ = load_ > 0 || trace_;
  now_ = 0;
  progress_ = last_progress_ = last_change_ = 0;
  last_move_ = 0;
  has_moves_ = false;
  win_begin_ = rc.warmup;
  win_end_ = rc.warmup + rc.measure;
  checker_.reset();
  uint64_t st = tc.seed;
  for (unsigned n = 0; n < nodes_; ++n) {
    src_[n].q.clear();
    src_[n].seq = src_[n].flit = 0;
    rng_[n].reseed(splitmix64(st));
    next_gen_[n] = gen_on_ && !traffic_.silent(n) ? gap(rng_[n]) - 1 : UINT64_MAX;
  }
  if (trace_) configure_trace();
  log_.clear();
  ej_rng_.reseed(splitmix64(st));
  std::fill(ej_ready_.begin(), ej_ready_.end(), 0);
  for (unsigned n = 0; n < nodes_; ++n) ej_ready_[n >> 6] |= 1ull << (n & 63);
  for (unsigned i = 0; i < shards(); ++i) {
    clear_changed(i);
    Shard& sh = shard_[i];
    std::fill(sh.valid.begin(), sh.valid.end(), 0);
    sh.pend.clear();
    sh.progress = sh.created = sh.throttled = sh.tagged = sh.injected = sh.flits = 0;
    sh.win_created_flits = sh.win_injected_flits = sh.win_ejected_flits = 0;
    sh.max_queue = 0;
  }
  std::fill(pairs_.begin(), pairs_.end(), 0u);
  std::fill(src_del_.begin(), src_del_.end(), 0u);
  std::fill(src_any_.begin(), src_any_.end(), 0u);
  stats_ = NetStats{};
  stats_.label = trace_ ? fmt::format("{}, trace {}", spec_.label(), trace_->name)
                        : fmt::format("{}, {} at load {}", spec_.label(), pattern_name(tc.pattern.pattern), tc.load);
  stats_.nodes = nodes_;
  stats_.warmup = rc.warmup;
  stats_.measure = rc.measure;
  stats_.lat_hist.assign(kHistBuckets, 0);
  stats_.hop_count.assign(spec_.shape.diameter() + 1, 0);
  stats_.hop_lat.assign(spec_.shape.diameter() + 1, 0.0);
  stats_.hop_lat_min.assign(spec_.shape.diameter() + 1, UINT64_MAX);
}

uint64_t NetEngine::gap(Rng& rng) const {
  // Cycles to the next success of a Bernoulli(p) trial per cycle: geometric on 1, 2, ...
  if (log1mp_ == 0.0) return 1;
  const double u = 1.0 - rng.uniform();  // (0, 1]
  const double g = std::floor(std::log(u) / log1mp_);
  return g >= 1e15 ? UINT64_MAX / 2 : 1 + static_cast<uint64_t>(g);
}

void NetEngine::create(unsigned n, uint32_t dst, bool scripted) {
  Src& s = src_[n];
  Shard& sh = shard_of(n);
  src_any_[n] = 1;
  if (!scripted && max_queue_ && s.q.size() >= max_queue_) {
    ++sh.throttled;
    return;
  }
  s.q.push({now_, dst});
  ++sh.created;
  sh.max_queue = std::max(sh.max_queue, s.q.size());
  if (now_ >= win_begin_ && now_ < win_end_) {
    ++sh.tagged;
    sh.win_created_flits += flits_;
  }
  if (s.q.size() == 1) present(n);
}

uint32_t NetEngine::enqueue(unsigned src, unsigned dst) {
  if (src >= nodes_ || dst >= nodes_)
    throw std::invalid_argument(fmt::format("enqueue: node {} -> {} outside 0..{}", src, dst, nodes_ - 1));
  create(src, dst, true);
  settle();  // the counts, so that outstanding() includes the packet now
  return static_cast<uint32_t>(src_created(src) - 1);
}

void NetEngine::present(unsigned n) {
  Src& s = src_[n];
  Shard& sh = shard_of(n);
  const unsigned l = n - sh.lo;
  uint64_t& v = sh.bits()[l >> 6];
  const uint64_t bit = 1ull << (l & 63);
  if (s.q.empty()) {
    v &= ~bit;
  } else {
    const QEntry& e = s.q.front();
    encode_flit(&stage_[static_cast<size_t>(n) * words_], words_, s.flit == 0 ? coords_.route(n, e.dst) : 0u,
                PacketTag{n, e.dst, s.seq, e.created}, s.flit);
    v |= bit;
  }
  mark(n);
}

void NetEngine::configure_trace() {
  const PacketTrace& t = *trace_;
  if (t.pkt_flits != flits_)
    throw std::invalid_argument(fmt::format("packet trace {}: read for packets of {} flits, the network's have {}", t.name,
                                            t.pkt_flits, flits_));
  tr_begin_.assign(nodes_ + 1, 0);
  for (const TraceRecord& r : t.records) {
    if (r.src >= nodes_ || r.dst >= nodes_)
      throw std::invalid_argument(fmt::format("packet trace {}:{}: node outside the network", t.name, r.line));
    ++tr_begin_[r.src + 1];
  }
  for (unsigned n = 0; n < nodes_; ++n) tr_begin_[n + 1] += tr_begin_[n];
  tr_pos_.assign(tr_begin_.begin(), tr_begin_.end() - 1);
  tr_rec_.assign(t.records.size(), 0);
  for (uint32_t i = 0; i < t.records.size(); ++i) tr_rec_[tr_pos_[t.records[i].src]++] = i;
  tr_pos_.assign(tr_begin_.begin(), tr_begin_.end() - 1);
  for (unsigned n = 0; n < nodes_; ++n)
    next_gen_[n] = tr_pos_[n] < tr_begin_[n + 1] ? t.records[tr_rec_[tr_pos_[n]]].time : UINT64_MAX;
  trace_left_ = t.records.size();
}

void NetEngine::generate_trace(unsigned lo) {
  const PacketTrace& t = *trace_;
  for (unsigned n = lo; n < lo + shard_n_; ++n) {
    while (next_gen_[n] == now_) {
      const TraceRecord& r = t.records[tr_rec_[tr_pos_[n]]];
      for (uint32_t k = 0; k < r.packets; ++k) create(n, r.dst);
      ++tr_pos_[n];
      next_gen_[n] = tr_pos_[n] < tr_begin_[n + 1] ? t.records[tr_rec_[tr_pos_[n]]].time : UINT64_MAX;
      __atomic_fetch_sub(&trace_left_, 1, __ATOMIC_RELAXED);  // shards run on several threads
    }
  }
}

void NetEngine::generate(unsigned s) {
  if (!gen_on_) return;
  const unsigned lo = shard_[s].lo;
  if (trace_) {
    generate_trace(lo);
    return;
  }
  for (unsigned n = lo; n < lo + shard_n_; ++n) {
    if (next_gen_[n] != now_) continue;
    create(n, traffic_.dest(n, rng_[n]));
    next_gen_[n] += gap(rng_[n]);
  }
}

uint64_t NetEngine::next_creation() const {
  if (!gen_on_) return UINT64_MAX;
  uint64_t t = UINT64_MAX;
  for (unsigned n = 0; n < nodes_; ++n) t = std::min(t, next_gen_[n]);
  return std::max(t, now_);
}

void NetEngine::skip_to(uint64_t t) {
  if (t <= now_ || outstanding() != 0 || t > next_creation())
    throw std::logic_error(fmt::format("net engine: cannot skip from cycle {} to {} ({} packets outstanding, next due at {})", now_, t,
                                       outstanding(), next_creation()));
  stats_.skipped += t - now_;
  now_ = t;
  last_change_ = t;  // the watchdog counts from here (nothing was outstanding)
  last_progress_ = progress_;
  stats_.cycles = now_;
}

void NetEngine::set_external(bool on) {
  if (on && shards() != 1) throw std::logic_error("NetEngine: external ports run on one shard");
  external_ = on;
  gen_on_ = !on && (load_ > 0 || trace_);
  port_flits_ = 0;
  for (unsigned n = 0; n < nodes_; ++n) {
    set_ej_ready(n, !on);
    drive_port(n, false, nullptr);
  }
}

void NetEngine::drive_port(unsigned n, bool valid, const uint32_t* flit) {
  Shard& sh = shard_of(n);
  const unsigned l = n - sh.lo;
  uint64_t& v = sh.bits()[l >> 6];
  const uint64_t bit = 1ull << (l & 63);
  if (valid) std::copy_n(flit, words_, &stage_[static_cast<size_t>(n) * words_]);
  if (valid || (v & bit)) mark(n);
  v = valid ? v | bit : v & ~bit;
}

void NetEngine::begin_serial() {
  if (external_) return;
  if (ej_prob_ < 1.0) {
    std::fill(ej_ready_.begin(), ej_ready_.end(), 0);
    for (unsigned n = 0; n < nodes_; ++n)
      if (ej_rng_.uniform() < ej_prob_) ej_ready_[n >> 6] |= 1ull << (n & 63);
  }
}

void NetEngine::accepted(unsigned n) {
  if (external_) {
    ++shard_of(n).progress;
    ++port_flits_;
    return;
  }
  Src& s = src_[n];
  Shard& sh = shard_of(n);
  const QEntry& e = s.q.front();
  if (s.flit == 0) {
    checker_.injected(PacketTag{n, e.dst, s.seq, e.created}, now_);
    ++sh.injected;
  }
  ++sh.progress;
  if (now_ >= win_begin_ && now_ < win_end_) ++sh.win_injected_flits;
  if (++s.flit == flits_) {
    s.flit = 0;
    ++s.seq;
    s.q.pop();
  }
  present(n);
}

void NetEngine::ejected(unsigned n, const uint32_t* w) {
  Shard& sh = shard_of(n);
  if (external_) {
    ++sh.progress;
    ++port_flits_;
    return;
  }
  ++sh.progress;
  ++sh.flits;
  if (now_ >= win_begin_ && now_ < win_end_) ++sh.win_ejected_flits;
  NetChecker::Pending p;
  if (checker_.check_flit(n, w, now_, p)) {
    uint32_t* copy = &sh.pend_words[static_cast<size_t>(n - sh.lo) * words_];
    std::copy_n(w, words_, copy);
    p.w = copy;
    sh.pend.push_back(p);
  }
}

void NetEngine::settle() {
  for (Shard& sh : shard_) {
    for (const NetChecker::Pending& p : sh.pend)
      if (const Delivery* d = checker_.settle(p, now_)) delivered(*d);
    sh.pend.clear();
    progress_ += sh.progress;
    stats_.created += sh.created;
    stats_.throttled += sh.throttled;
    stats_.tagged += sh.tagged;
    stats_.injected += sh.injected;
    stats_.win_created_flits += sh.win_created_flits;
    stats_.win_injected_flits += sh.win_injected_flits;
    stats_.win_ejected_flits += sh.win_ejected_flits;
    stats_.max_queue_seen = std::max(stats_.max_queue_seen, sh.max_queue);
    checker_.add_flits(sh.flits);
    sh.progress = sh.created = sh.throttled = sh.tagged = sh.injected = sh.flits = 0;
    sh.win_created_flits = sh.win_injected_flits = sh.win_ejected_flits = 0;
  }
}

void NetEngine::delivered(const Delivery& d) {
  ++stats_.delivered;
  ++src_del_[d.tag.src];
  stats_.max_age = std::max(stats_.max_age, now_ - d.tag.created);
  if (log_on_) log_.push_back(d);
  ++pairs_[static_cast<size_t>(d.tag.src) * nodes_ + d.tag.dst];
  if (d.tag.created >= win_begin_ && d.tag.created < win_end_) {
    const uint64_t lat = now_ - d.tag.created;
    ++stats_.tagged_delivered;
    stats_.lat_sum += static_cast<double>(lat);
    stats_.net_lat_sum += static_cast<double>(now_ - d.injected);
    stats_.hops_sum += d.hops;
    stats_.lat_max = std::max(stats_.lat_max, lat);
    ++stats_.lat_hist[std::min<uint64_t>(lat, kHistBuckets - 1)];
    ++stats_.hop_count[d.hops];
    stats_.hop_lat[d.hops] += static_cast<double>(lat);
    stats_.hop_lat_min[d.hops] = std::min(stats_.hop_lat_min[d.hops], lat);
  }
}

void NetEngine::end_cycle() {
  settle();
  ++now_;
  if (progress_ != last_progress_ || outstanding() == 0) {
    last_progress_ = progress_;
    last_change_ = now_;
  } else if (watchdog_ && now_ - last_change_ >= watchdog_) {
    // moved() in cycle c sets last_move_ = c; progress in cycle c sets last_change_ = c + 1
    const std::string inside =
        !has_moves_ ? std::string("deadlock?")
        : last_move_ < last_change_
            ? std::string("no flit moved inside the network either: deadlock")
            : fmt::format("flits still move inside the network, the last {} cycles ago: livelock or starvation",
                          now_ - 1 - last_move_);
    stall(fmt::format("no flit injected or ejected for {} cycles with {} packets outstanding ({})", now_ - last_change_,
                      outstanding(), inside));
  }
  if ((now_ & 1023) == 0) sample_ages();
  if (max_age_ && (now_ & 4095) == 0 && checker_.in_flight()) {
    const uint64_t oldest = checker_.oldest_injection();
    if (now_ - oldest > max_age_)
      stall(fmt::format("a packet has been in the network for {} cycles (limit {}): starvation or livelock",
                        now_ - oldest, max_age_));
  }
  stats_.cycles = now_;
  throw_if_interrupted(now_);
}

void NetEngine::sample_ages() {
  uint64_t oldest = checker_.oldest_creation();
  for (unsigned n = 0; n < nodes_; ++n)
    if (!src_[n].q.empty()) oldest = std::min(oldest, src_[n].q.front().created);
  if (oldest != UINT64_MAX) stats_.max_age = std::max(stats_.max_age, now_ - oldest);
  uint64_t least = UINT64_MAX;
  unsigned who = 0;
  for (unsigned n = 0; n < nodes_; ++n)
    if (src_any_[n] && src_del_[n] < least) {
      least = src_del_[n];
      who = n;
    }
  stats_.min_src_delivered = least == UINT64_MAX ? 0 : least;
  stats_.min_src = who;
}

void NetEngine::stall(const std::string& why) const {
  throw Stall(fmt::format("net watchdog: {}: cycle {}: {}\n{}", spec_.label(), now_, why, dump()));
}

std::string NetEngine::dump() const {
  std::string out = fmt::format("{}: cycle {}, created {}, injected {}, delivered {}, outstanding {}\n", spec_.label(),
                                now_, stats_.created, checker_.injected_packets(), checker_.delivered_packets(), outstanding());
  std::string q;
  unsigned busy = 0;
  for (unsigned n = 0; n < nodes_; ++n) {
    const Src& s = src_[n];
    if (s.q.empty()) continue;
    ++busy;
    const QEntry& e = s.q.front();
    q += fmt::format("  node {:4}: {:6} queued, head -> node {} (seq {}, age {} cycles, flit {} of {} presented{})\n", n,
                     s.q.size(), e.dst, s.seq, now_ - e.created, s.flit, flits_, presenting(n) ? "" : ", NOT valid");
  }
  out += fmt::format("source queues not empty: {} of {} nodes\n", busy, nodes_) + q;
  out += checker_.dump(now_);
  if (state_dump_) out += state_dump_();
  return out;
}

}  // namespace hpcnet::sim
