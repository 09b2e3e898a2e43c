// net_barrier.cpp: NetBarrier (net_barrier.hpp).
#include "sim/net/barrier/net_barrier.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

const char* method_name(BarrierMethod m) { return m == BarrierMethod::multiphase ? "multiphase" : "all-to-all"; }

unsigned BarrierStats::count(BarrierKind kind) const {
  return static_cast<unsigned>(std::count_if(barriers.begin(), barriers.end(), [&](const BarrierRecord& r) { return r.kind == kind; }));
}

double BarrierStats::mean_time(BarrierKind kind) const {
  double sum = 0;
  unsigned n = 0;
  for (const BarrierRecord& r : barriers)
    if (r.kind == kind) {
      sum += static_cast<double>(r.time());
      ++n;
    }
  return n ? sum / n : 0;
}

uint64_t BarrierStats::max_time(BarrierKind kind) const {
  uint64_t m = 0;
  for (const BarrierRecord& r : barriers)
    if (r.kind == kind) m = std::max(m, r.time());
  return m;
}

namespace {
uint64_t key(uint32_t src, uint32_t seq) { return uint64_t{src} << 32 | seq; }

// The neighbour of node i through output port p (2d: +, 2d + 1: - in dimension d), or -1.
int neighbour(const MeshShape& s, unsigned i, unsigned p) {
  const unsigned d = p / 2;
  const int kd = static_cast<int>(s.k[d]);
  if (kd == 1) return -1;
  auto c = s.coords(i);
  c[d] += p % 2 == 0 ? 1 : -1;
  if (c[d] < 0 || c[d] >= kd) {
    if (!s.torus) return -1;
    c[d] = (c[d] + kd) % kd;
  }
  return static_cast<int>(s.id(c));
}
}  // namespace

NetBarrier::NetBarrier(NetSimBase& net, const NetRunConfig& rc, BarrierPlan plan)
    : net_(net),
      plan_(std::move(plan)),
      n_(net.spec().shape.nodes()),
      k_(net.spec().shape.diameter()),
      nn_(2 * net.spec().shape.dims),
      node_(n_),
      check_(n_),
      rng_(plan_.seed) {
  const MeshShape& s = net.spec().shape;
  if (plan_.method == BarrierMethod::multiphase && !net.spec().barrier)
    throw std::invalid_argument(fmt::format("{}: the multiphase barrier needs a network with phase units (built: {})",
                                            net.spec().label(), barrier_net_list()));
  if (plan_.leave_prob <= 0 || plan_.leave_prob > 1)
    throw std::invalid_argument(fmt::format("leave probability {} not in (0, 1]", plan_.leave_prob));
  port_en_.assign(n_, 0);
  nbr_.assign(size_t{n_} * nn_, 0);
  for (unsigned i = 0; i < n_; ++i)
    for (unsigned p = 0; p < nn_; ++p)
      if (const int j = neighbour(s, i, p); j >= 0) {
        port_en_[i] |= 1u << p;
        nbr_[size_t{i} * nn_ + p] = static_cast<unsigned>(j);
      }
  net_.engine().record_deliveries(true);
  net_.start(rc);
  if (plan_.method == BarrierMethod::multiphase) {
    net_.set_barrier_k(k_);
  } else {
    a2a_ = std::make_unique<AllToAllBarrier>(n_, [this](unsigned src, unsigned dst) { return key(src, net_.engine().enqueue(src, dst)); });
  }
  for (Node& nd : node_) nd.next_call = plan_.start;
  if (plan_.calls == BarrierPlan::Calls::random)
    for (Node& nd : node_) nd.next_call = plan_.start + (plan_.gap ? rng_() % (2 * plan_.gap + 1) : 0);
}

BarrierRecord& NetBarrier::record(unsigned b) {
  if (rec_.size() <= b) rec_.resize(b + 1);
  return rec_[b];
}

void NetBarrier::call(unsigned n, BarrierKind kind) {
  Node& nd = node_.at(n);
  if (nd.called) throw std::logic_error(fmt::format("node {} calls a barrier while in one", n));
  const uint64_t c = now();
  nd.called = true;
  nd.entered = false;
  nd.kind = kind;
  nd.call = c;
  nd.point = net_.engine().src_created(n);
  BarrierRecord& r = record(nd.done);
  r.kind = kind;
  r.last_call = std::max(r.last_call, c);
  if (a2a_) {
    check_.enter(n, c, kind);
    a2a_->call(n, kind);
  }
}

void NetBarrier::schedule() {
  if (plan_.calls == BarrierPlan::Calls::manual) return;
  const uint64_t c = now();
  if (plan_.calls == BarrierPlan::Calls::together) {  // every node left the last barrier: all call now
    const Node& first = node_[0];
    if (first.done >= plan_.kinds.size() || c < first.next_call) return;
    for (const Node& o : node_)
      if (o.called || o.done != first.done) return;
    const BarrierKind kind = plan_.kinds[first.done];
    for (unsigned i = 0; i < n_; ++i) {
      if (plan_.before_call) plan_.before_call(i);
      call(i, kind);
    }
    return;
  }
  for (unsigned i = 0; i < n_; ++i) {
    Node& nd = node_[i];
    if (!nd.called && nd.done < plan_.kinds.size() && c >= nd.next_call) {
      if (plan_.before_call) plan_.before_call(i);
      call(i, plan_.kinds[nd.done]);
    }
  }
}

void NetBarrier::left(unsigned n) {
  Node& nd = node_[n];
  const uint64_t c = now();
  check_.leave(n, c);
  BarrierRecord& r = record(nd.done);
  r.last_leave = std::max(r.last_leave, c);
  const uint64_t from = a2a_ ? nd.call : nd.enter;
  r.min_enter_leave = std::min(r.min_enter_leave, c - from);
  r.max_enter_leave = std::max(r.max_enter_leave, c - from);
  ++r.left;
  nd.called = nd.entered = false;
  ++nd.done;
  if (plan_.calls == BarrierPlan::Calls::random)
    nd.next_call = c + 1 + (plan_.gap ? rng_() % (2 * plan_.gap + 1) : 0);
  if (r.left == n_ && plan_.calls == BarrierPlan::Calls::together) {
    for (Node& o : node_) o.next_call = c + 1 + plan_.gap;
  }
}

// The multiphase ports: enter and leave requests, and the handshakes of the coming edge (the
// units' outputs are registers: their state after the last edge).
void NetBarrier::ports_before_edge() {
  std::uniform_real_distribution<double> u01(0, 1);
  const NetEngine& e = net_.engine();
  const uint64_t c = now();
  for (unsigned i = 0; i < n_; ++i) {
    Node& nd = node_[i];
    const bool ev = nd.called && !nd.entered && e.src_taken(i) >= nd.point;
    const bool lr = plan_.leave_prob >= 1 || u01(rng_) < plan_.leave_prob;
    net_.drive_barrier(i, ev, nd.kind == BarrierKind::full, lr);
    const NetSimBase::BarrierOut o = net_.barrier_out(i);
    if (ev && o.enter_ready) {
      nd.entered = true;
      nd.enter = c;
      check_.enter(i, c, nd.kind);
    }
    if (lr && o.leave_valid && nd.entered) {
      const unsigned tot = nd.kind == BarrierKind::full ? 2 * k_ : k_;
      if (o.phase != tot)
        throw BarrierError(fmt::format("{}: cycle {}: node {} told to leave after {} phases of {}", net_.spec().label(), c, i, o.phase, tot));
      nd.phases += o.phase;
      msgs_ += uint64_t{o.phase} * static_cast<unsigned>(__builtin_popcount(port_en_[i]));
      left(i);
    }
  }
}

void NetBarrier::alltoall_leaves() {
  std::uniform_real_distribution<double> u01(0, 1);
  for (unsigned i = 0; i < n_; ++i)
    if (a2a_->in_barrier(i) && a2a_->may_leave(i) && (plan_.leave_prob >= 1 || u01(rng_) < plan_.leave_prob)) {
      a2a_->leave(i);
      left(i);
    }
}

void NetBarrier::deliveries() {
  const auto& log = net_.engine().deliveries();
  const unsigned flits = net_.spec().pkt_flits;
  for (; seen_ < log.size(); ++seen_) {
    const Delivery& d = log[seen_];
    if (a2a_ && a2a_->delivered(key(d.tag.src, d.tag.seq), d.tag.dst)) {
      ++msgs_;
      flit_hops_ += uint64_t{d.hops} * flits;
      continue;
    }
    const uint64_t sent = a2a_ ? d.tag.created : d.injected;
    check_.arrived(check_.sent(d.tag.src, d.tag.dst, sent), d.delivered);
    ++data_;
  }
}

// Lemma 1: the phases of two neighbours' units never differ by more than one (phases counted over
// the whole run: those of the barriers left plus the current barrier's).
void NetBarrier::check_lemma1() {
  std::vector<uint64_t> g(n_);
  for (unsigned i = 0; i < n_; ++i) {
    const NetSimBase::BarrierOut o = net_.barrier_out(i);
    g[i] = node_[i].phases + (o.busy ? o.phase : 0);
  }
  for (unsigned i = 0; i < n_; ++i)
    for (unsigned p = 0; p < nn_; ++p) {
      if (!(port_en_[i] >> p & 1)) continue;
      const unsigned j = nbr_[size_t{i} * nn_ + p];
      if ((g[i] > g[j] ? g[i] - g[j] : g[j] - g[i]) > 1)
        throw BarrierError(fmt::format("{}: cycle {}: Lemma 1 broken: node {} at phase {}, its neighbour {} at {}", net_.spec().label(),
                                       now(), i, g[i], j, g[j]));
    }
}

void NetBarrier::step() {
  schedule();
  if (a2a_) {
    alltoall_leaves();
  } else {
    ports_before_edge();
  }
  net_.advance();
  deliveries();
  if (!a2a_ && plan_.lemma1) check_lemma1();
}

bool NetBarrier::all_done() const {
  for (const Node& nd : node_)
    if (nd.done < plan_.kinds.size()) return false;
  return true;
}

void NetBarrier::step_checked() {
  if (now() >= plan_.max_cycles) {
    unsigned lag = 0;
    for (unsigned i = 0; i < n_; ++i)
      if (node_[i].done < node_[lag].done) lag = i;
    std::string units;  // multiphase: every unit's phase, and which nodes are in a barrier
    for (unsigned i = 0; i < n_; ++i) {
      const Node& nd = node_[i];
      units += fmt::format("{}node {}: left {} barriers{}", i ? "; " : "", i, nd.done,
                           !nd.called    ? ""
                           : !nd.entered ? ", called, not entered (its earlier packets not all injected)"
                                         : "");
      if (!a2a_ && nd.entered) {
        const NetSimBase::BarrierOut o = net_.barrier_out(i);
        units += fmt::format(", in its unit: phase {}{}", o.phase, o.leave_valid ? ", may leave" : "");
      }
    }
    throw Timeout(fmt::format("{}: {} barriers: node {} has left {} of {} barriers by cycle {}\n{}", net_.spec().label(),
                              method_name(plan_.method), lag, node_[lag].done, plan_.kinds.size(), now(), units));
  }
  step();
}

BarrierStats NetBarrier::run() { return run_until(UINT64_MAX); }

BarrierStats NetBarrier::run_until(uint64_t cycle) {
  if (plan_.calls == BarrierPlan::Calls::manual) throw std::logic_error("NetBarrier::run: manual calls: step() and finish()");
  while (!all_done() && now() < cycle) step_checked();
  size_t called = 0;  // the barriers some node has called: every node completes them
  for (const Node& nd : node_) called = std::max<size_t>(called, nd.done + (nd.called ? 1 : 0));
  plan_.kinds.resize(std::min(plan_.kinds.size(), called));
  while (!all_done()) step_checked();
  return finish();
}

BarrierStats NetBarrier::finish() {
  for (unsigned i = 0; i < n_; ++i)
    if (node_[i].called) throw std::logic_error(fmt::format("NetBarrier::finish: node {} is still in a barrier", i));
  NetEngine& e = net_.engine();
  e.set_generation(false);
  while (e.outstanding()) {
    net_.advance();
    deliveries();
  }
  e.checker().check_drained(e.now());
  BarrierStats s;
  s.nodes = n_;
  s.k = k_;
  s.cycles = now();
  s.data_packets = data_;
  s.msgs = msgs_;
  s.flit_hops = a2a_ ? flit_hops_ : msgs_;
  for (const BarrierRecord& r : rec_)
    if (r.left == n_) s.barriers.push_back(r);
  s.violations = check_.report();
  return s;
}

}  // namespace hpcnet::sim
