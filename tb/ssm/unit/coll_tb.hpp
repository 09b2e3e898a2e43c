// coll_tb.hpp: harness of the collective unit alone (rtl/ssm/ssm_coll.sv, model Vssm_coll: 3 PEs x
// 2 threads = 6 windows, 2 contexts) with a reference of what it must do (docs/ssm.md section 11).
// The test plays the scheduler (issue(): one collective per window in flight, offered on in_*
// with random idle cycles), the return writer, ssm_burst, the hash table (lk_*: a lookup answered
// after a random delay with a random entry; cm_*: the commit) and the global sync network (each up
// message answered by a down message after a random latency, optionally with err or the other
// kind). Every sink has its own random back-pressure.
//
// The reference is driven by what crosses the ports. An arrival is decided in the cycle after the
// handshake, as the unit does: the first failing check (check_code) is answered at once; a valid
// burst is handed on; a barrier or reduce joins the gathering context of its address or opens one
// (none free: ERR_NO_CONTEXT), poisoning it when it disagrees with the opener. A complete context
// folds its members in window order (alu_ref), then goes up (io), is stored (reduce) and is
// released: every member answered once, in window order, with the value and state the documents
// give. Each port's beat is checked against the context it belongs to, and never before the
// reference made it due (a beat on an edge follows only from what happened on earlier edges);
// every output held by back-pressure must stay unchanged (HoldCheck).
//
// The reference tells contexts apart by address, so the scheduler keeps the contract of
// docs/ssm.md 11.5: at most one round of an address between its completion and its release.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "Vssm_coll.h"
#include "hpcnet/tb/gsn_msg.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/ssm_ret.hpp"
#include "hpcnet/tb/stream.hpp"
#include "sim/core/harness.hpp"
#include "unit_util.hpp"

namespace ssmu {

constexpr unsigned kCollPe = 3, kCollThreads = 2, kCollWin = kCollPe * kCollThreads, kCollSlots = 2;
using GsnMsg = hpcnet::gsn_formats::Msg;
using hpcnet::ssm_regs::State;
constexpr unsigned st(State s) { return static_cast<unsigned>(s); }

// The fields of ARGS the unit reads (cmd_args; type is 3 bits there, so that bad types can be sent).
struct Args {
  unsigned group = 1, type = 0, rop = 0;
  bool io = false;
  std::uint32_t len = 0;
};
std::uint64_t pack_args(const Args& a);
Args unpack_args(std::uint64_t args);

// A collective as the scheduler hands it over.
struct Arrival {
  unsigned win = 0;
  Op op;
};

using Ret = hpcnet::tb::SsmRet;  // ssm_pkg::ret_t

// The burst hand-off (bu_*).
struct Handoff {
  unsigned win = 0, ret = 0;
  std::uint64_t src = 0, dest = 0;
  std::uint32_t len = 0;
  unsigned type = 0, op = 0, group = 0;
  bool operator==(const Handoff&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Handoff& h);

using Cpt = std::array<std::uint32_t, kCollPe>;  // control page table slots per PE
// The answer of the checks (docs/ssm.md 11.1, in order): OK or the first error.
unsigned check_code(const Arrival& a, const Cpt& cpt);

struct CollCfg {
  Cpt cpt = {64, 64, 64};
  unsigned in_idle_pct = 0;  // idle cycles before each arrival
  unsigned ret_ready_pct = 100, bu_ready_pct = 100, lk_ready_pct = 100, cm_ready_pct = 100;
  unsigned up_ready_pct = 100, dn_idle_pct = 0;
  unsigned lk_delay_max = 3;    // lookup answered 1..lk_delay_max cycles after its handshake
  unsigned dn_latency_max = 6;  // down message 1..dn_latency_max cycles after the up message
  unsigned dn_bad_pct = 0;      // down messages with err set or the other kind
  bool gsn_hold = false;        // the network answers nothing until release_gsn()
};

class CollTb {
 public:
  enum class Cs { Gather, Up, WaitDn, Store, Release };
  struct Ctx {
    std::uint64_t addr = 0;
    bool red = false, io = false, poison = false;
    unsigned group = 0, type = 0, rop = 0, count = 0, members = 0, code = 0;  // members: window bits
    Cs st = Cs::Gather;
    std::uint64_t acc = 0, since = 0;  // since: the edge of the last change
  };
  // reference
  std::vector<Ctx> ctx;                                 // open contexts, at most kCollSlots
  std::array<std::optional<Arrival>, kCollWin> busy{};  // each window's collective in flight
  // what crossed the ports
  std::vector<Ret> answers;
  std::vector<Handoff> bursts;
  std::vector<GsnMsg> ups;
  std::vector<Entry> commits;
  std::map<unsigned, unsigned> by_state;  // answers per state code
  std::uint64_t progress_at = 0;          // the last edge anything crossed a port

  CollTb(std::uint64_t seed, CollCfg cfg);
  Vssm_coll& m() { return h_.dut(); }
  std::uint64_t cycles() const { return h_.cycles(); }
  const CollCfg& cfg() const { return cfg_; }
  hpcnet::tb::Rng& rng() { return rng_; }

  void issue(unsigned win, const Op& op);  // the window must be free
  bool offering() const { return !in_.empty() || pending_; }  // an arrival not yet decided
  void cycle();
  bool quiet() const;  // nothing in flight anywhere
  // Cycles until quiet(); fails after `limit` cycles without a port moving.
  void run_until_quiet(std::uint64_t limit = 2000);
  void release_gsn();  // the held up messages answered now
  std::string describe() const;  // the reference's contexts and windows, for a failure report
  void set_ready(unsigned pct);  // every sink's ready chance

 private:
  hpcnet::sim::Harness<Vssm_coll> h_{200.0, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  hpcnet::tb::Rng rng_;
  CollCfg cfg_;
  hpcnet::tb::StreamSource<Arrival> in_;
  bool pending_ = false;  // an arrival taken on the last edge, decided on this one
  Arrival arrived_;
  hpcnet::tb::StreamSink ret_sink_, bu_sink_, lk_sink_, cm_sink_, up_sink_;
  hpcnet::tb::StreamSource<GsnMsg> dn_;
  std::vector<GsnMsg> held_;  // up messages the network holds (gsn_hold)
  // expected beats, each with the edge it became due
  std::array<std::optional<Ret>, kCollWin> answer_{};
  std::array<std::uint64_t, kCollWin> answer_since_{};
  std::optional<std::pair<Handoff, std::uint64_t>> handoff_;
  std::uint64_t wval_[kCollWin] = {};
  unsigned wret_[kCollWin] = {};
  // the lookup in flight: its context's address, the answer's edge, the entry to commit
  struct Look {
    std::uint64_t addr = 0, rsp_at = 0;
    bool hit = false, answered = false;
    Entry entry;
  };
  std::optional<Look> look_;
  hpcnet::tb::HoldCheck<Ret> ret_hold_;
  hpcnet::tb::HoldCheck<Handoff> bu_hold_;
  hpcnet::tb::HoldCheck<GsnMsg> up_hold_;
  hpcnet::tb::HoldCheck<Entry> cm_hold_;
  hpcnet::tb::HoldCheck<std::uint64_t> lk_hold_;

  void decide(const Arrival& a, std::uint64_t e);
  void complete(Ctx& c, std::uint64_t e);  // the count reached GROUP
  void release(Ctx& c, unsigned code, std::uint64_t e);
  void answer(unsigned win, const Ret& r, std::uint64_t e);
  Ctx* find(std::uint64_t addr, Cs st, std::uint64_t e);
  void on_ret(const Ret& r, unsigned done_win, std::uint64_t e);
  void on_up(const GsnMsg& m, std::uint64_t e);
  void on_dn(const GsnMsg& m, std::uint64_t e);
  void on_lk(std::uint64_t addr, std::uint64_t e);
  void on_cm(const Entry& en, std::uint64_t e);
};

}  // namespace ssmu
