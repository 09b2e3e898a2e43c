// coll_tb.cpp: one cycle of the ssm_coll harness (drive every input, check that the outputs held
// by back-pressure did not change, then apply the edge's beats to the reference in the unit's
// order) and the reference's steps (coll_tb.hpp).
#include "coll_tb.hpp"

#include <sstream>

#include "hpcnet/tb/alu_ref.hpp"
#include "hpcnet/tb/cycle.hpp"

namespace ssmu {

namespace {
namespace r = hpcnet::ssm_regs;
using hpcnet::gsn_formats::Kind;
constexpr std::uint64_t kMask48 = (1ull << 48) - 1;

}  // namespace

std::uint64_t pack_args(const Args& a) {
  std::uint64_t w[1] = {0};
  r::CMD_ARGS_GROUP.write(w, a.group);
  r::CMD_ARGS_TYPE.write(w, a.type);
  r::CMD_ARGS_ROP.write(w, a.rop);
  r::CMD_ARGS_IO.write(w, a.io);
  r::CMD_ARGS_LENGTH.write(w, a.len);
  return w[0];
}
Args unpack_args(std::uint64_t args) {
  const std::uint64_t w[1] = {args};
  return {unsigned(r::CMD_ARGS_GROUP.read(w)), unsigned(r::CMD_ARGS_TYPE.read(w)), unsigned(r::CMD_ARGS_ROP.read(w)),
          r::CMD_ARGS_IO.read(w) != 0, std::uint32_t(r::CMD_ARGS_LENGTH.read(w))};
}

std::ostream& operator<<(std::ostream& os, const Handoff& h) {
  return os << "{win=" << h.win << " ret=" << h.ret << " src=0x" << std::hex << h.src << " dest=0x" << h.dest
            << std::dec << " len=" << h.len << " type=" << h.type << " op=" << h.op << " group=" << h.group << "}";
}

unsigned check_code(const Arrival& a, const Cpt& cpt) {
  const Args g = unpack_args(a.op.args);
  const std::uint32_t slots = cpt[a.win / kCollThreads];
  if (slots == 0) return st(State::ERR_NO_CPT);
  if (a.op.ret >= slots) return st(State::ERR_RET_OFFSET);
  if (g.group == 0 || g.group > kCollWin) return st(State::ERR_GROUP);
  if (a.op.opcode == kBurst) {
    if (g.type > 3 || g.rop > 2) return st(State::ERR_TYPE);
    if (g.io) return st(State::ERR_IO);
    const unsigned eb = g.type == 3 ? 4 : 8;  // int32 elements: 4 bytes
    if (g.len == 0 || g.len % eb || a.op.addr % eb || (a.op.value & kMask48) % eb) return st(State::ERR_LENGTH);
    return st(State::OK);
  }
  if (a.op.addr % 8) return st(State::ERR_ALIGN);
  if (a.op.opcode == kReduce && (g.type > 2 || g.rop > 2)) return st(State::ERR_TYPE);
  return st(State::OK);
}

CollTb::CollTb(std::uint64_t seed, CollCfg cfg) : rng_(seed), cfg_(cfg) {
  in_.idle_pct = cfg.in_idle_pct;
  dn_.idle_pct = cfg.dn_idle_pct;
  ret_sink_.ready_pct = cfg.ret_ready_pct;
  bu_sink_.ready_pct = cfg.bu_ready_pct;
  lk_sink_.ready_pct = cfg.lk_ready_pct;
  cm_sink_.ready_pct = cfg.cm_ready_pct;
  up_sink_.ready_pct = cfg.up_ready_pct;
  for (unsigned p = 0; p < kCollPe; ++p) put_bits(h_.dut().cpt_slots_i, 32 * p, 32, cfg.cpt[p]);
  hpcnet::tb::sync_reset(h_);
}

void CollTb::set_ready(unsigned pct) {
  for (auto* s : {&ret_sink_, &bu_sink_, &lk_sink_, &cm_sink_, &up_sink_}) s->ready_pct = pct;
}

void CollTb::issue(unsigned win, const Op& op) {
  REQUIRE(win < kCollWin);
  REQUIRE(!busy[win]);
  busy[win] = Arrival{win, op};
  in_.push(*busy[win]);
}

bool CollTb::quiet() const {
  for (const auto& b : busy)
    if (b) return false;
  return ctx.empty() && !pending_ && in_.empty() && dn_.empty() && held_.empty() && !handoff_ && !look_;
}

void CollTb::run_until_quiet(std::uint64_t limit) {
  while (!quiet()) {
    cycle();
    INFO(describe());
    REQUIRE(cycles() - progress_at < limit);
  }
}

std::string CollTb::describe() const {
  std::ostringstream os;
  for (const Ctx& c : ctx)
    os << "context 0x" << std::hex << c.addr << std::dec << " state " << int(c.st) << (c.red ? " reduce" : " barrier")
       << " group " << c.group << " count " << c.count << " members 0x" << std::hex << c.members << std::dec
       << (c.io ? " io" : "") << (c.poison ? " poisoned" : "") << " since " << c.since << "\n";
  for (unsigned w = 0; w < kCollWin; ++w)
    if (busy[w]) os << "window " << w << " busy: " << busy[w]->op << (answer_[w] ? " (answer due)" : "") << "\n";
  os << (pending_ ? "an arrival being decided\n" : "") << (in_.empty() ? "" : "an arrival offered\n")
     << (look_ ? "a lookup in flight\n" : "") << (handoff_ ? "a burst hand-off due\n" : "") << dn_.size()
     << " down messages queued\n";
  return os.str();
}

void CollTb::release_gsn() {
  cfg_.gsn_hold = false;
  for (const GsnMsg& m : held_) dn_.push(m, cycles() + 1);
  held_.clear();
}

void CollTb::cycle() {
  Vssm_coll& d = h_.dut();
  const std::uint64_t e = h_.cycles();  // the edge that ends this cycle
  in_.step(rng_);
  dn_.step(rng_, e);
  for (auto* s : {&ret_sink_, &bu_sink_, &lk_sink_, &cm_sink_, &up_sink_}) s->step(rng_);
  d.in_valid_i = in_.valid();
  if (!in_.empty()) {
    put_op(d.in_op_i, in_.data().op);
    d.in_win_i = static_cast<CData>(in_.data().win);
  }
  d.ret_ready_i = ret_sink_.ready();
  d.bu_ready_i = bu_sink_.ready();
  d.lk_ready_i = lk_sink_.ready();
  d.cm_ready_i = cm_sink_.ready();
  d.gsn_up_ready_i = up_sink_.ready();
  d.gsn_dn_valid_i = dn_.valid();
  if (!dn_.empty()) hpcnet::tb::put_format(d.gsn_dn_msg_i, 0, dn_.data());
  const bool rsp = look_ && !look_->answered && look_->rsp_at == e;
  d.lk_rsp_valid_i = rsp;
  d.lk_hit_i = rsp ? look_->hit : rng_.pct(50);
  Entry noise;
  noise.value = rng_();
  noise.l = rng_.pct(50);
  put_entry(d.lk_entry_i, 0, rsp ? look_->entry : noise);  // ignored outside the answer
  h_.eval();

  INFO("cycle " << e);
  const Ret ret = hpcnet::tb::get_ret(d.ret_o);
  const Handoff bu{d.bu_win_o, d.bu_ret_offset_o, d.bu_src_o, d.bu_dest_o, d.bu_len_o,
                   d.bu_type_o, d.bu_op_o, d.bu_group_o};
  const GsnMsg up = hpcnet::tb::get_format<GsnMsg>(d.gsn_up_msg_o, 0);
  const Entry cm = get_entry(d.cm_entry_o, 0);
  auto hold = [](auto& check, bool valid, bool ready, const auto& v, const char* port) {
    INFO(port << (valid ? " shows " : " shows nothing, not even ") << v << " where it held " << check.held());
    REQUIRE(check.check(valid, ready, v));
  };
  hold(ret_hold_, d.ret_valid_o, ret_sink_.ready(), ret, "ret");
  hold(bu_hold_, d.bu_valid_o, bu_sink_.ready(), bu, "bu");
  hold(up_hold_, d.gsn_up_valid_o, up_sink_.ready(), up, "gsn_up");
  hold(cm_hold_, d.cm_valid_o, cm_sink_.ready(), cm, "cm");
  hold(lk_hold_, d.lk_valid_o, lk_sink_.ready(), d.lk_addr_o, "lk");
  REQUIRE(bool(d.done_o) == (d.ret_valid_o && ret_sink_.ready()));
  if (d.cm_valid_o) REQUIRE(d.cm_write_o);

  // The edge, in the unit's order: the arrival taken on the last edge is decided (on the state
  // before this edge), then this edge's beats.
  if (pending_) {
    pending_ = false;
    decide(arrived_, e);
  }
  if (rsp) look_->answered = true;
  const bool moved = (d.ret_valid_o && ret_sink_.ready()) || (d.bu_valid_o && bu_sink_.ready()) ||
                     (d.lk_valid_o && lk_sink_.ready()) || (d.cm_valid_o && cm_sink_.ready()) ||
                     (d.gsn_up_valid_o && up_sink_.ready()) || (dn_.valid() && d.gsn_dn_ready_o) ||
                     (in_.valid() && d.in_ready_o);
  if (moved) progress_at = e;
  if (d.ret_valid_o && ret_sink_.ready()) on_ret(ret, d.done_win_o, e);
  if (d.bu_valid_o && bu_sink_.ready()) {
    INFO("burst hand-off of window " << bu.win);
    REQUIRE(handoff_);
    REQUIRE(handoff_->second < e);
    REQUIRE(bu == handoff_->first);
    bursts.push_back(bu);
    busy[bu.win].reset();  // ssm_burst answers it from here
    handoff_.reset();
  }
  if (d.lk_valid_o && lk_sink_.ready()) on_lk(d.lk_addr_o, e);
  if (d.cm_valid_o && cm_sink_.ready()) on_cm(cm, e);
  if (d.gsn_up_valid_o && up_sink_.ready()) on_up(up, e);
  if (dn_.valid() && d.gsn_dn_ready_o) {
    const GsnMsg m = dn_.data();
    dn_.fire(true);
    on_dn(m, e);
  }
  if (in_.valid() && d.in_ready_o) {
    arrived_ = in_.data();
    in_.fire(true);
    pending_ = true;
  }
  hpcnet::tb::tick(h_);
}

// ---------------------------------------------------------------- reference
void CollTb::answer(unsigned win, const Ret& x, std::uint64_t e) {
  REQUIRE(!answer_[win]);
  answer_[win] = x;
  answer_since_[win] = e;
}

void CollTb::decide(const Arrival& a, std::uint64_t e) {
  INFO("arrival of window " << a.win << ": " << a.op);
  const unsigned code = check_code(a, cfg_.cpt), pe = a.win / kCollThreads, th = a.win % kCollThreads;
  const Ret refused{pe, th, a.op.opcode, a.op.ret, a.op.addr, 0, code};
  if (code != st(State::OK)) return answer(a.win, refused, e);
  const Args g = unpack_args(a.op.args);
  if (a.op.opcode == kBurst) {
    REQUIRE(!handoff_);
    handoff_.emplace(Handoff{a.win, a.op.ret, a.op.addr, a.op.value & kMask48, g.len, g.type & 3, g.rop, g.group}, e);
    return;
  }
  const bool red = a.op.opcode == kReduce;
  wval_[a.win] = a.op.value;
  wret_[a.win] = a.op.ret;
  for (Ctx& c : ctx) {
    if (c.st != Cs::Gather || c.addr != a.op.addr) continue;
    // joins: a disagreement with the context poisons it; IO is sticky
    if (c.red != red || c.group != g.group || c.io != g.io || (red && (c.type != g.type || c.rop != g.rop)))
      c.poison = true;
    c.io = c.io || g.io;
    c.members |= 1u << a.win;
    c.since = e;
    if (++c.count == c.group) complete(c, e);
    return;
  }
  if (ctx.size() == kCollSlots) return answer(a.win, {pe, th, a.op.opcode, a.op.ret, a.op.addr, 0, st(State::ERR_NO_CONTEXT)}, e);
  Ctx& c = ctx.emplace_back();
  c.addr = a.op.addr;
  c.red = red;
  c.io = g.io;
  c.group = g.group;
  c.type = g.type & 3;
  c.rop = g.rop;
  c.count = 1;
  c.members = 1u << a.win;
  c.since = e;
  if (c.group == 1) complete(c, e);
}

void CollTb::complete(Ctx& c, std::uint64_t e) {
  c.since = e;
  if (c.red && !c.poison) {  // the fold: members in ascending window order (docs/ssm.md 11.3)
    bool first = true;
    for (unsigned w = 0; w < kCollWin; ++w) {
      if (!((c.members >> w) & 1)) continue;
      c.acc = first ? wval_[w] : hpcnet::tb::alu_ref(c.type, c.rop, c.acc, wval_[w]);
      first = false;
    }
    c.st = c.io ? Cs::Up : Cs::Store;
  } else if (c.io) {
    c.st = Cs::Up;
  } else {
    release(c, st(c.poison ? State::ERR_MISMATCH : State::OK), e);
  }
}

void CollTb::release(Ctx& c, unsigned code, std::uint64_t e) {
  c.st = Cs::Release;
  c.code = code;
  c.since = e;
  const bool value = c.red && code == st(State::OK);
  for (unsigned w = 0; w < kCollWin; ++w)
    if ((c.members >> w) & 1)
      answer(w, {w / kCollThreads, w % kCollThreads, c.red ? kReduce : kBarrier, wret_[w], c.addr, value ? c.acc : 0, code}, e);
}

CollTb::Ctx* CollTb::find(std::uint64_t addr, Cs s, std::uint64_t e) {
  for (Ctx& c : ctx)
    if (c.st == s && c.addr == addr) {
      REQUIRE(c.since < e);  // due only from an earlier edge
      return &c;
    }
  FAIL("no context for 0x" << std::hex << addr << std::dec << " in state " << int(s));
  return nullptr;
}

void CollTb::on_ret(const Ret& x, unsigned done_win, std::uint64_t e) {
  INFO("answer " << x);
  REQUIRE(x.pe < kCollPe);
  REQUIRE(x.thread < kCollThreads);
  const unsigned w = x.pe * kCollThreads + x.thread;
  REQUIRE(done_win == w);
  REQUIRE(answer_[w]);
  INFO("expected " << *answer_[w]);
  REQUIRE(answer_since_[w] < e);
  REQUIRE(x == *answer_[w]);
  for (auto it = ctx.begin(); it != ctx.end(); ++it) {
    if (it->st != Cs::Release || !((it->members >> w) & 1)) continue;
    REQUIRE((it->members & ((1u << w) - 1)) == 0);  // members answered in window order
    it->members &= ~(1u << w);
    if (it->members == 0) ctx.erase(it);
    break;
  }
  answer_[w].reset();
  busy[w].reset();
  answers.push_back(x);
  ++by_state[x.state];
}

void CollTb::on_up(const GsnMsg& m, std::uint64_t e) {
  INFO("up message " << m);
  Ctx* c = find(m.addr, Cs::Up, e);
  GsnMsg x;
  x.addr = c->addr;
  x.kind = c->red ? Kind::REDUCE : Kind::BARRIER;
  x.type = static_cast<hpcnet::ssm_regs::RedType>(c->red ? c->type : 0);
  x.op = static_cast<hpcnet::ssm_regs::RedOp>(c->red ? c->rop : 0);
  x.err = c->poison;
  x.value = c->red && !c->poison ? c->acc : 0;
  REQUIRE(m == x);
  c->st = Cs::WaitDn;
  c->since = e;
  ups.push_back(m);
  GsnMsg dn = m;  // the network's answer: the global result, sometimes an error of its own
  if (dn.kind == Kind::REDUCE) dn.value = hpcnet::tb::random_operand(rng_, c->type);
  if (rng_.pct(cfg_.dn_bad_pct)) {
    if (rng_.pct(50)) dn.err = true;
    else dn.kind = dn.kind == Kind::REDUCE ? Kind::BARRIER : Kind::REDUCE;
  }
  if (cfg_.gsn_hold) held_.push_back(dn);
  else dn_.push(dn, e + rng_.rnd(1, cfg_.dn_latency_max));
}

void CollTb::on_dn(const GsnMsg& m, std::uint64_t e) {
  INFO("down message " << m);
  Ctx* c = find(m.addr, Cs::WaitDn, e);
  const bool other_kind = (m.kind == Kind::REDUCE) != c->red;
  const State code = c->poison ? State::ERR_MISMATCH : (m.err || other_kind) ? State::ERR_GSN : State::OK;
  c->acc = m.value;
  c->since = e;
  if (code == State::OK && c->red) c->st = Cs::Store;
  else release(*c, st(code), e);
}

void CollTb::on_lk(std::uint64_t addr, std::uint64_t e) {
  INFO("lookup of 0x" << std::hex << addr << std::dec);
  REQUIRE(!look_);
  find(addr, Cs::Store, e);
  Look l;
  l.addr = addr;
  l.rsp_at = e + rng_.rnd(1, cfg_.lk_delay_max);
  l.hit = rng_.pct(50);
  l.entry.value = rng_();
  l.entry.l = rng_.pct(50);
  l.entry.p = rng_.pct(50);
  l.entry.cnt = rng_.below(256);
  look_ = l;
}

void CollTb::on_cm(const Entry& en, std::uint64_t e) {
  INFO("commit " << en);
  REQUIRE(look_);
  REQUIRE(look_->answered);
  REQUIRE(look_->rsp_at < e);
  Ctx* c = find(look_->addr, Cs::Store, e);
  Entry x;  // {value = result, L kept, P = 1, counter = 1}
  x.value = c->acc;
  x.l = look_->hit && look_->entry.l;
  x.p = true;
  x.cnt = 1;
  REQUIRE(en == x);
  commits.push_back(en);
  look_.reset();
  release(*c, st(State::OK), e);
}

}  // namespace ssmu
