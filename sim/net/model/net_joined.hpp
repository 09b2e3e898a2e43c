// sim/net/model/net_joined.hpp: NetJoined<V>, a network of copies of one block model V
// (rtr_router with every boundary port external, Ext = 1) joined port to port in C++, on one
// thread or on T threads (docs/net_sim.md): the one way blocks are joined. Two kinds of model use it:
//   split meshes  Vnet_mesh_<K0>x<K1>_<mode>_t<T>: T blocks of K0 x K1/T routers stacked along Y,
//                 one per thread (the spec's threads; NetSpec::model_block);
//   any size      the Vnet_blk_* blocks tiling a mesh or torus of any size chosen at run time
//                 (the spec's block, joined_spec: Meshes of any size).
//
// Tiling: blocks of B0 x B1 (x B2) routers in a grid of ceil(K/B) blocks per dimension. Block
// (i, j, l) holds the routers at (i*B0 + x, j*B1 + y, l*B2 + z); a router beyond the network's
// edge (the last block of a row used in part) is left idle: no node is attached to it, and since
// routes are minimal no packet ever travels towards it (the network's edge routers send nothing
// on those internal links). A torus needs blocks that divide every radix (the 1x1 torus block: one
// router, whose wraparound links are joined like the others); the bubble rule needs only the port a
// packet arrived on (rtr_pkg::route_info), no coordinate, so a block of one router decides it as
// the whole torus does.
//
// Joining: a boundary output is the sender's decision of the cycle and the receiver registers it
// at the next edge (docs/router.md, Boundary ports), so per cycle: the handshakes of every block's
// injection and ejection ports go to the engine, every block takes its clock edge and settles,
// then every joined boundary output (valid, data) is copied to its neighbour's input and every
// credit pulse back to the sender; the neighbour registers them at the next edge. The result is
// the whole mesh's cycle for cycle (tb/net: same statistics and per-packet latencies).
// Boundary outputs without a neighbour (the network's edges) have out_en_i low.
//
// Threads (spec.threads = T > 1): the blocks in T groups of whole block rows along the highest
// dimension (Y in 2-D, Z in 3-D; K must divide into T groups of whole blocks), group t run on
// thread t of a LockstepPool with its own engine shard: a group's thread does all the work of its
// nodes (creates their packets, presents their flits, hands their handshakes to the engine,
// evaluates its blocks), so that their memory stays in the cache of its core. A group copies the
// links inside it itself, and the links to the neighbouring groups go through outboxes of two
// cycle parities (a group writes this cycle's, its neighbours read the last cycle's), so the
// inputs each block registers at an edge are the same as on one thread. The calling thread then
// settles the cycle (NetEngine::end_cycle: deliveries, statistics, watchdog).
// FST trace: block 0 only (routers 0..B0-1 of the first rows); trace a whole-mesh model to see
// every router.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/core/harness.hpp"
#include "sim/net/model/lockstep.hpp"
#include "sim/net/model/net_sim.hpp"
#include "sim/net/model/rtr_state.hpp"

namespace hpcnet::sim {

template <class V>
class NetJoined final : public NetSimBase {
 public:
  NetJoined(const NetSpec& spec, TraceWindow trace)
      : NetSimBase(checked(spec)), L_(spec), B_(spec.model_block()), nt_(spec.threads), pool_(spec.threads) {
    const MeshShape& s = spec.shape;
    nn_ = 2 * s.dims;
    br_ = B_[0] * B_[1] * B_[2];
    nc_ = (br_ + 63) / 64;
    if (const std::string err = joined_error(spec); !err.empty()) throw std::invalid_argument(err);
    for (unsigned d = 0; d < 3; ++d) nb_[d] = (s.k[d] + B_[d] - 1) / B_[d];
    const unsigned blocks = nb_[0] * nb_[1] * nb_[2];
    const size_t data_bits = static_cast<size_t>(br_) * spec.flit_bits;
    if (netport::bits_of<decltype(V::inj_data_i)>() < data_bits || netport::bits_of<decltype(V::ej_data_o)>() < data_bits ||
        netport::bits_of<decltype(V::inj_valid_i)>() < br_)
      throw std::logic_error("NetJoined: model " + spec.model + " has ports narrower than its spec " + spec.label());
    node_.assign(static_cast<size_t>(blocks) * br_, -1);
    where_.resize(s.nodes());
    used_.assign(static_cast<size_t>(blocks) * nc_, 0);
    vmask_.assign(static_cast<size_t>(blocks) * nc_, 0);
    for (unsigned b = 0; b < blocks; ++b) {
      h_.push_back(std::make_unique<Harness<V>>(312.5, b == 0 ? trace : TraceWindow::off()));  // traced: block 0
      for (unsigned l = 0; l < br_; ++l) {
        const auto c = global(b, l);
        if (c[0] >= s.k[0] || c[1] >= s.k[1] || c[2] >= s.k[2]) continue;
        const unsigned n = s.id({static_cast<int>(c[0]), static_cast<int>(c[1]), static_cast<int>(c[2])});
        node_[static_cast<size_t>(b) * br_ + l] = static_cast<int>(n);
        where_[n] = {&h_[b]->dut(), b, l};
        used_[static_cast<size_t>(b) * nc_ + l / 64] |= uint64_t{1} << (l % 64);
      }
    }
    connect();
    group_blocks();
    engine_.set_state_dump([this] { return dump_routers(engine_.spec(), nblocks(), br_, root_of(), node_of()); });
    reset_model();
    for (auto& h : h_) check_reset_credits(spec, L_, *h->dut().rootp, "NetJoined");
  }

  RouterWaits router_waits() override {
    RouterWaits w;
    for (auto& h : h_) fold_rtr_waits(engine_.spec(), *h->dut().rootp, br_, w.max_wait, w.hold_cycles);
    return w;
  }
  PortOut port_out(unsigned n) override {
    const auto [m, b, l] = where_.at(n);
    return {netport::field(m->inj_ready_o, l, 1) != 0, netport::field(m->ej_valid_o, l, 1) != 0,
            m->ej_data_o.data() + static_cast<size_t>(l) * engine_.words()};
  }
  unsigned nblocks() const { return static_cast<unsigned>(h_.size()); }
  uint64_t serial_steps() const override { return nt_ > 1 ? pool_.serial_steps() : 0; }

  void reset_model() override {
    const uint64_t* ready = engine_.ej_ready_bits();
    for (unsigned b = 0; b < nblocks(); ++b) {
      V& m = h_[b]->dut();
      netport::zero(m.inj_valid_i);
      netport::zero(m.in_valid_i);
      netport::zero(m.out_cred_i);
      netport::zero(m.out_en_i);
      std::fill_n(&vmask_[static_cast<size_t>(b) * nc_], nc_, 0);
      for (unsigned l = 0; l < br_; ++l) {
        const int n = node_[static_cast<size_t>(b) * br_ + l];
        netport::set_bit(m.ej_ready_i, l, n < 0 || ((ready[n >> 6] >> (n & 63)) & 1));
      }
      m.buf_pkts_i = static_cast<netport::bare_t<decltype(m.buf_pkts_i)>>(engine_.spec().buf_pkts);
      m.starve_t_i = static_cast<netport::bare_t<decltype(m.starve_t_i)>>(fair_.starve_t);
      m.wait_arb_i = fair_.wait_arb;
      m.hold_i = 0;
    }
    for (const Conn& c : conn_) netport::set_bit(h_[c.a]->dut().out_en_i, c.ap, true);
    for (auto& h : h_) {
      h->reset(4);
      h->settle();  // clock low: the next step starts with its edge
    }
    cycle_ = 0;
    hold_ = false;
    for (auto& g : grp_) g->starve = false;
    for (auto& g : grp_)
      for (auto& box : g->out) {
        std::fill(box.valid.begin(), box.valid.end(), 0);
        std::fill(box.cred.begin(), box.cred.end(), 0);
      }
  }

  void step() override {
    NetEngine& e = engine_;
    if (nt_ == 1) {
      e.begin_cycle();
      run_group(0, 0);
      e.moved(grp_[0]->moved);
      hold_ = grp_[0]->starve;
    } else {
      e.begin_serial();
      const unsigned par = static_cast<unsigned>(cycle_ & 1);
      pool_.run([this, par](unsigned t) { run_group(t, par); });
      ++cycle_;
      uint32_t moved = 0;
      bool starve = false;
      for (auto& g : grp_) {
        moved += g->moved;
        starve = starve || g->starve;
      }
      e.moved(moved);
      hold_ = starve;
    }
    e.end_cycle();
  }

 private:
  // Group t's share of a cycle (on thread t; one group: all of it). par: the outbox parity its
  // neighbours wrote in the last cycle (read now); this cycle's outboxes are the other one.
  void run_group(unsigned t, unsigned par) {
    NetEngine& e = engine_;
    Group& g = *grp_[t];
    const unsigned words = e.words();
    if (nt_ > 1) e.generate(t);
    for (uint32_t n : e.changed(t)) {
      const auto [mp, b, l] = where_[n];
      V& m = *mp;
      const bool v = e.presenting(n);
      if (v) std::copy_n(e.stage(n), words, m.inj_data_i.data() + static_cast<size_t>(l) * words);
      netport::set_bit(m.inj_valid_i, l, v);
      uint64_t& vm = vmask_[static_cast<size_t>(b) * nc_ + l / 64];
      vm = v ? vm | uint64_t{1} << (l % 64) : vm & ~(uint64_t{1} << (l % 64));
    }
    e.clear_changed(t);
    // the links from the neighbouring groups: their outputs after the last edge
    for (const Xin& x : g.in) {
      const Outbox& ob = *x.box[par];
      V& m = *x.m;
      const bool v = ob.valid[x.slot];
      netport::set_bit(m.in_valid_i, x.port, v);
      if (v) std::copy_n(&ob.data[static_cast<size_t>(x.slot) * words], words, m.in_data_i.data() + static_cast<size_t>(x.port) * words);
    }
    for (const Xin& x : g.cin) netport::set_bit(x.m->out_cred_i, x.port, x.box[par]->cred[x.slot]);
    const bool bp = e.ej_backpressure();
    const uint64_t* ready = e.ej_ready_bits();
    // the handshakes of this cycle (the outputs after the last edge)
    for (unsigned b : g.blocks) {
      V& m = h_[b]->dut();
      const int* nodes = &node_[static_cast<size_t>(b) * br_];
      const uint32_t* ej = m.ej_data_o.data();
      // per 64 routers of the block: lane l = 64c + bit
      for (unsigned c = 0; c < nc_; ++c) {
        const unsigned l0 = c * 64, l1 = std::min(br_, l0 + 64);
        uint64_t rmask = used_[static_cast<size_t>(b) * nc_ + c];
        if (bp) {
          rmask = 0;
          for (unsigned l = l0; l < l1; ++l)
            if (nodes[l] >= 0 && ((ready[nodes[l] >> 6] >> (nodes[l] & 63)) & 1)) rmask |= uint64_t{1} << (l - l0);
          for (unsigned l = l0; l < l1; ++l) netport::set_bit(m.ej_ready_i, l, nodes[l] < 0 || (rmask >> (l - l0) & 1));
        }
        for (uint64_t acc = vmask_[static_cast<size_t>(b) * nc_ + c] & netport::chunk64(m.inj_ready_o, c); acc; acc &= acc - 1)
          e.accepted(static_cast<unsigned>(nodes[l0 + static_cast<unsigned>(__builtin_ctzll(acc))]));
        for (uint64_t out = rmask & netport::chunk64(m.ej_valid_o, c); out; out &= out - 1) {
          const unsigned l = l0 + static_cast<unsigned>(__builtin_ctzll(out));
          e.ejected(static_cast<unsigned>(nodes[l]), ej + static_cast<size_t>(l) * words);
        }
      }
    }
    uint32_t moved = 0;
    bool starve = false;
    for (unsigned b : g.blocks) {
      h_[b]->dut().hold_i = hold_;  // every block's starving flag after the last edge, ORed
      h_[b]->edge();
      h_[b]->settle();
      moved += h_[b]->dut().moved_o;
      starve = starve || h_[b]->dut().starve_o;
    }
    g.moved = moved;
    g.starve = starve;
    // the links inside the group: each block's boundary decisions into its neighbours' inputs
    // (registered at their next edge), their credit pulses back
    for (const Conn& c : g.conn) {
      V& a = h_[c.a]->dut();
      V& b = h_[c.b]->dut();
      const bool v = netport::field(a.out_valid_o, c.ap, 1);
      netport::set_bit(b.in_valid_i, c.bp, v);
      if (v) std::copy_n(a.out_data_o.data() + static_cast<size_t>(c.ap) * words, words, b.in_data_i.data() + static_cast<size_t>(c.bp) * words);
      netport::set_bit(a.out_cred_i, c.ap, netport::field(b.in_cred_o, c.bp, 1));
    }
    // the links to the neighbouring groups: into this group's outbox of this cycle's parity
    Outbox& ob = g.out[par ^ (nt_ > 1 ? 1u : 0u)];
    for (size_t i = 0; i < g.xout.size(); ++i) {
      const Xout& x = g.xout[i];
      const V& m = *x.m;
      const bool v = netport::field(m.out_valid_o, x.port, 1);
      ob.valid[i] = v;
      if (v) std::copy_n(m.out_data_o.data() + static_cast<size_t>(x.port) * words, words, &ob.data[i * words]);
    }
    for (size_t i = 0; i < g.xcred.size(); ++i)
      ob.cred[i] = static_cast<uint8_t>(netport::field(g.xcred[i].m->in_cred_o, g.xcred[i].port, 1));
  }

  // A joined link: block a's boundary output (router-port index ap = router * NN + port) into
  // block b's boundary input bp (same port: input p takes what travels in direction p).
  struct Conn {
    uint32_t a, ap, b, bp;
  };

  // Router l of block b: its coordinates in the network (may lie beyond the edge).
  std::array<unsigned, 3> global(unsigned b, unsigned l) const {
    const auto& B = B_;
    const unsigned bi = b % nb_[0], bj = (b / nb_[0]) % nb_[1], bk = b / (nb_[0] * nb_[1]);
    return {bi * B[0] + l % B[0], bj * B[1] + (l / B[0]) % B[1], bk * B[2] + l / (B[0] * B[1])};
  }
  // The joined links: every boundary output of a block whose neighbour in that direction exists
  // (a mesh: inside the network's grid of blocks; a torus: round the ring, radix > 1).
  void connect() {
    const MeshShape& s = engine_.spec().shape;
    const auto& B = B_;
    for (unsigned b = 0; b < nblocks(); ++b) {
      const unsigned bc[3] = {b % nb_[0], (b / nb_[0]) % nb_[1], b / (nb_[0] * nb_[1])};
      for (unsigned l = 0; l < br_; ++l) {
        const unsigned lc[3] = {l % B[0], (l / B[0]) % B[1], l / (B[0] * B[1])};
        for (unsigned o = 0; o < nn_; ++o) {
          const unsigned d = o / 2;
          const bool plus = o % 2 == 0;
          if (lc[d] != (plus ? B[d] - 1 : 0) || s.k[d] < 2) continue;  // not a boundary output, or no links
          int nbc = static_cast<int>(bc[d]) + (plus ? 1 : -1);
          if (nbc < 0 || nbc >= static_cast<int>(nb_[d])) {
            if (!s.torus) continue;  // the mesh's edge
            nbc = (nbc + static_cast<int>(nb_[d])) % static_cast<int>(nb_[d]);
          }
          unsigned tc[3] = {bc[0], bc[1], bc[2]}, tl[3] = {lc[0], lc[1], lc[2]};
          tc[d] = static_cast<unsigned>(nbc);
          tl[d] = plus ? 0 : B[d] - 1;
          const unsigned tb = tc[0] + nb_[0] * (tc[1] + nb_[1] * tc[2]);
          const unsigned tr = tl[0] + B[0] * (tl[1] + B[1] * tl[2]);
          conn_.push_back({b, l * nn_ + o, tb, tr * nn_ + o});
        }
      }
    }
  }

  // A group's boundary outputs to the other groups after its edge: flits of xout[i] at slot i,
  // credit pulses of xcred[i] at slot i. Written by the group's thread, read by its neighbours'.
  struct alignas(64) Outbox {
    std::vector<uint8_t> valid, cred;
    std::vector<uint32_t> data;
  };
  // A boundary port of a block (its model m) that a link to another group uses.
  struct Xout {
    const V* m;
    unsigned port;
  };
  // An input of model m (a flit into its input `port`, or a credit into its output `port`) fed by
  // slot `slot` of the sending group's outbox of each cycle parity (box).
  struct Xin {
    V* m;
    unsigned port, slot;
    const Outbox* box[2];
  };
  struct alignas(64) Group {
    std::vector<unsigned> blocks;
    std::vector<Conn> conn;         // links inside the group
    std::vector<Xout> xout, xcred;  // its outputs to other groups: flits, credits
    std::vector<Xin> in, cin;       // its inputs from other groups: flits, credits
    Outbox out[2];                  // by cycle parity
    uint32_t moved = 0;
    bool starve = false;            // a block's starving flag after its edge
  };

  // The blocks in nt_ groups of whole block rows along the highest dimension; every link inside a
  // group, and the outbox slots of the links between groups.
  void group_blocks() {
    const NetSpec& sp = engine_.spec();
    const unsigned top = sp.shape.dims - 1, rows = nb_[top];  // joined_error: nt_ divides rows
    const unsigned per = rows / nt_, stride = top == 1 ? nb_[0] : nb_[0] * nb_[1];
    auto group_of = [&](unsigned b) { return b / stride / per; };
    for (unsigned t = 0; t < nt_; ++t) grp_.push_back(std::make_unique<Group>());
    for (unsigned b = 0; b < nblocks(); ++b) grp_[group_of(b)]->blocks.push_back(b);
    const unsigned words = engine_.words();
    for (const Conn& c : conn_) {
      const unsigned ga = group_of(c.a), gb = group_of(c.b);
      if (ga == gb) {
        grp_[ga]->conn.push_back(c);
        continue;
      }
      Group &A = *grp_[ga], &B = *grp_[gb];
      V* ma = &h_[c.a]->dut();
      V* mb = &h_[c.b]->dut();
      B.in.push_back({mb, c.bp, static_cast<unsigned>(A.xout.size()), {&A.out[0], &A.out[1]}});
      A.xout.push_back({ma, c.ap});
      A.cin.push_back({ma, c.ap, static_cast<unsigned>(B.xcred.size()), {&B.out[0], &B.out[1]}});
      B.xcred.push_back({mb, c.bp});
    }
    for (auto& g : grp_)
      for (auto& box : g->out) {
        box.valid.assign(g->xout.size(), 0);
        box.data.assign(g->xout.size() * words, 0);
        box.cred.assign(g->xcred.size(), 0);
      }
    if (nt_ > 1) engine_.set_shards(nt_);  // group t's nodes are shard t (contiguous: whole rows)
  }

  auto root_of() {
    return [this](unsigned b) -> const auto& { return *h_[b]->dut().rootp; };
  }
  auto node_of() const {
    return [this](unsigned b, unsigned r) { return node_[static_cast<size_t>(b) * br_ + r]; };
  }
  void sample_state(LinkProbe& probe, bool count) override {
    sample_routers(L_, nblocks(), br_, root_of(), node_of(), probe, count);
  }

  static const NetSpec& checked(const NetSpec& s) {
    if (!s.joined() && s.threads < 2) throw std::logic_error("NetJoined: the spec names neither a block size nor threads (a split mesh)");
    if (const std::string err = s.buf_error(); !err.empty()) throw std::invalid_argument(err);
    return s;
  }

  const RtrLayout L_;
  const std::array<unsigned, 3> B_;  // routers of a block per dimension
  unsigned nn_ = 4, br_ = 1;
  unsigned nc_ = 1;  // 64-router words of a block's lanes (used_, vmask_)
  std::array<unsigned, 3> nb_{1, 1, 1};
  std::vector<std::unique_ptr<Harness<V>>> h_;
  std::vector<int> node_;  // block b's router l: node id, or -1 beyond the network's edge
  struct Where {
    V* m;
    unsigned block, lane;
  };
  std::vector<Where> where_;     // node -> its block (and its model) and router in it
  std::vector<uint64_t> used_;   // per block, nc_ words: routers with a node
  std::vector<uint64_t> vmask_;  // per block, nc_ words: injection valid bits
  std::vector<Conn> conn_;
  const unsigned nt_;  // threads (groups)
  std::vector<std::unique_ptr<Group>> grp_;
  LockstepPool pool_;
  // steps since reset (outbox parity): written by the caller every step, on a line of its own
  alignas(64) uint64_t cycle_ = 0;
  bool hold_ = false;  // the blocks' starving flags after the last edge, ORed: every block's hold_i
};

}  // namespace hpcnet::sim
