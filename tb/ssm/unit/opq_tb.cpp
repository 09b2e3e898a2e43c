// opq_tb.cpp: one cycle of the ssm_opq harness: drive the inputs, compare every output with the
// reference (full, parked, park count, dispatch choice and operation, hand-off answers), then
// apply the cycle to the reference in the RTL's order (wake-up, dispatch, park, done/take, push).
#include "opq_tb.hpp"

namespace ssmu {

Out OpqTb::cycle_with(const In& in) {
  Vssm_opq& m = h_.dut();
  INFO("cycle " << cycle);
  // drive
  m.push_valid_i = in.push;
  m.push_win_i = std::uint8_t(in.push_win);
  put_op(m.push_op_i, in.push_op);
  m.disp_ready_i = std::uint8_t(in.disp_ready);
  m.coll_ready_i = in.coll_ready;
  m.ext_done_i = std::uint8_t(in.ext_done);
  m.ext_win_i = 0;
  for (unsigned x = 0; x < kExt; ++x) m.ext_win_i = std::uint16_t(m.ext_win_i | (in.ext_win[x] << (5 * x)));
  m.park_i = m.done_i = m.ho_valid_i = m.ho_take_i = m.upd_valid_i = 0;
  m.win_i = 0;
  for (unsigned c = 0; c < kCores; ++c) {
    const In::Core& k = in.core[c];
    m.park_i |= std::uint8_t(k.park << c);
    m.done_i |= std::uint8_t(k.done << c);
    m.ho_valid_i |= std::uint8_t(k.ho << c);
    m.ho_take_i |= std::uint8_t(k.take << c);
    m.upd_valid_i |= std::uint8_t(k.upd << c);
    m.win_i = std::uint16_t(m.win_i | (k.win << (5 * c)));
    put_bits(m.ho_addr_i, 48 * c, 48, k.ho_addr);
    put_bits(m.upd_addr_i, 48 * c, 48, k.upd_addr);
  }
  h_.eval();

  // status outputs
  for (unsigned w = 0; w < kWin; ++w) {
    INFO("window " << w);
    REQUIRE(bool((m.full_o >> w) & 1) == (q[w].size() == kDepth));
    REQUIRE(bool((m.parked_o >> w) & 1) == (ws[w] == Parked));
  }
  REQUIRE(m.park_events_o == std::uint32_t(parks));

  // dispatch: round-robin from rr over eligible windows; a collective to the collective unit,
  // anything else to the lowest-numbered ready core
  Out out;
  int sel = -1;
  for (unsigned i = 0; i < kWin && sel < 0; ++i)
    if (eligible((rr + i) % kWin, in)) sel = int((rr + i) % kWin);
  int core = -1;
  for (unsigned c = 0; c < kCores && core < 0; ++c)
    if ((in.disp_ready >> c) & 1) core = int(c);
  if (sel >= 0) {
    const bool coll = is_coll(q[sel].front().opcode);
    REQUIRE(bool(m.coll_valid_o) == coll);
    REQUIRE(unsigned(m.disp_valid_o) == (coll ? 0u : (1u << core)));
    REQUIRE(unsigned(m.disp_win_o) == unsigned(sel));
    out.disp_op = get_op(m.disp_op_o);
    REQUIRE(out.disp_op == q[sel].front());  // program order: the window's oldest operation
    out.disp_core = coll ? -1 : core;
    out.disp_coll = coll;
    out.disp_win = unsigned(sel);
  } else {
    REQUIRE(m.disp_valid_o == 0);
    REQUIRE(m.coll_valid_o == 0);
  }

  // hand-off answers
  for (unsigned c = 0; c < kCores; ++c) {
    out.ho_found[c] = (m.ho_found_o >> c) & 1;
    out.ho_win[c] = (m.ho_win_o >> (5 * c)) & 31;
    if (!in.core[c].ho) continue;
    INFO("hand-off query of core " << c << " on 0x" << std::hex << in.core[c].ho_addr);
    int exp = oldest_lock(in.core[c].ho_addr);
    REQUIRE(out.ho_found[c] == (exp >= 0));
    if (exp >= 0) {
      REQUIRE(out.ho_win[c] == unsigned(exp));  // the oldest parked lock on the address
      REQUIRE(((m.ho_ret_offset_o >> (12 * c)) & 0xfff) == q[exp].front().ret);
    }
    if (in.core[c].take) REQUIRE(exp >= 0);
  }

  // reference update, in the RTL's order (a full FIFO takes no push even when popped)
  bool push_ok = in.push && q[in.push_win].size() < kDepth;
  std::array<int, kCores> taken{-1, -1};
  for (unsigned c = 0; c < kCores; ++c)
    if (in.core[c].ho && in.core[c].take) taken[c] = oldest_lock(in.core[c].ho_addr);
  for (unsigned w = 0; w < kWin; ++w)
    for (unsigned c = 0; c < kCores; ++c)
      if (in.core[c].upd && ws[w] == Parked && q[w].front().opcode != kLock &&
          q[w].front().addr == in.core[c].upd_addr)
        ws[w] = Idle;
  if (sel >= 0) {
    ws[sel] = Busy;
    rr = (unsigned(sel) + 1) % kWin;
    ++dispatches;
  }
  for (unsigned x = 0; x < kExt; ++x) {
    if (!((in.ext_done >> x) & 1)) continue;
    REQUIRE(ws[in.ext_win[x]] == Busy);
    REQUIRE(is_coll(q[in.ext_win[x]].front().opcode));
    ws[in.ext_win[x]] = Idle;
    q[in.ext_win[x]].pop_front();
  }
  for (unsigned c = 0; c < kCores; ++c) {
    const In::Core& k = in.core[c];
    if (k.park) {
      REQUIRE(ws[k.win] == Busy);
      ws[k.win] = Parked;
      park_seq[k.win] = parks++;  // global park order (core 0 first within a cycle)
    }
    if (k.done) {
      REQUIRE(ws[k.win] == Busy);
      ws[k.win] = Idle;
      q[k.win].pop_front();
    }
    if (taken[c] >= 0) {
      ws[taken[c]] = Idle;
      q[taken[c]].pop_front();
    }
  }
  if (push_ok) q[in.push_win].push_back(in.push_op);
  tick();
  return out;
}

}  // namespace ssmu
