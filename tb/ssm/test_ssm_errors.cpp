// Integration: malformed commands get an error state in the return slot (or the thread's
// exception slot) and in the error registers, and the engine keeps serving everyone else.
#include <catch2/catch.hpp>

#include "sim/ssm/ssm_node.hpp"

using hpcnet::sim::SsmNode;
namespace R = hpcnet::ssm_regs;
using R::State;

namespace {

struct BadCase {
  const char* name;
  unsigned opcode;
  uint64_t addr;
  uint64_t args;
  bool bad_ret_offset;
  State expect;
};

const BadCase kCases[] = {
    {"opcode 0", 0, 0x5000, 0x801, false, State::ERR_OPCODE},
    {"opcode 9", 9, 0x5000, 0x801, false, State::ERR_OPCODE},
    {"opcode 15", 15, 0x5000, 0x801, false, State::ERR_OPCODE},
    {"unaligned address", unsigned(R::Opcode::PUT), 0x5004, 0x801, false, State::ERR_ALIGN},
    {"unaligned get", unsigned(R::Opcode::GET), 0x5001, 0x801, false, State::ERR_ALIGN},
    {"get size 3", unsigned(R::Opcode::GET), 0x5000, 0x301, false, State::ERR_SIZE},
    {"get size 0", unsigned(R::Opcode::GET), 0x5000, 0x001, false, State::ERR_SIZE},
    {"put with 0 readers", unsigned(R::Opcode::PUT), 0x5000, 0x800, false, State::ERR_READERS},
    {"unlock of a free lock", unsigned(R::Opcode::UNLOCK), 0x5000, 0x801, false, State::ERR_NOT_LOCKED},
    {"ret_offset outside the table", unsigned(R::Opcode::GET), 0x5000, 0x801, true, State::ERR_RET_OFFSET},
};

}  // namespace

TEST_CASE("ssm: malformed commands complete with an error while others are served", "[ssm][errors]") {
  SsmNode n;
  auto& p = n.platform();
  for (const BadCase& bc : kCases) {
    DYNAMIC_SECTION(bc.name) {
      State got = State::PENDING;
      uint64_t healthy_ok = 0;
      // A healthy producer/consumer pair runs on other threads at the same time.
      n.sys.spawn(3, 0, [&] { for (uint64_t i = 0; i < 30; ++i) ssm_put(0x7000, i); CHECK(ssm_quiet() == SSM_OK); });
      n.sys.spawn(4, 2, [&] { for (uint64_t i = 0; i < 30; ++i) healthy_ok += ssm_get(0x7000, 8) == i; });
      n.sys.spawn(1, 3, [&] {
        const unsigned ring_slot = n.drv.info().num_threads;  // a slot this test owns
        const unsigned slots = n.drv.info().num_threads * (1 + n.drv.info().opq_depth);
        const unsigned slot = bc.bad_ret_offset ? n.drv.exception_slot() : ring_slot + 3 * n.drv.info().opq_depth;
        n.drv.mark_pending(slot);
        n.drv.issue_raw(bc.opcode, bc.addr, 5, bc.args, bc.bad_ret_offset ? slots + 100 : slot);
        got = n.drv.wait(slot).state;
      });
      n.sys.run();
      CHECK(got == bc.expect);
      CHECK(healthy_ok == 30);
      // The error registers (read by the driver's interrupt handler) name the command.
      n.sys.run_for(2000);
      REQUIRE_FALSE(n.drv.errors().empty());
      const auto e = n.drv.errors().back();
      INFO(e.describe());
      CHECK(e.code == bc.expect);
      CHECK(e.pe == 1);
      CHECK(e.thread == 3);
      CHECK(e.opcode == bc.opcode);
      CHECK(e.addr == bc.addr);
    }
  }
  (void)p;
}

TEST_CASE("ssm: a doorbell to a full thread queue is dropped with ERR_QUEUE_FULL", "[ssm][errors]") {
  SsmNode n;
  const unsigned depth = n.drv.info().opq_depth;
  State overflow_state = State::PENDING;
  std::vector<uint64_t> got;
  n.sys.spawn(0, 1, [&] {
    // depth gets on an empty address wait in the engine; one more does not fit.
    const unsigned base = n.drv.info().num_threads + 1 * depth;  // thread 1's ring
    for (unsigned k = 0; k < depth; ++k) {
      n.drv.mark_pending(base + k);
      n.drv.issue_raw(unsigned(R::Opcode::GET), 0x9000, 0, 0x801, base + k);
    }
    const unsigned xs = n.drv.exception_slot();
    n.drv.mark_pending(xs);
    n.drv.issue_raw(unsigned(R::Opcode::GET), 0x9000, 0, 0x801, xs);
    overflow_state = n.drv.wait(xs).state;
    for (unsigned k = 0; k < depth; ++k) got.push_back(n.drv.wait(base + k).value);
  });
  n.sys.spawn(2, 2, [&] {
    n.platform().compute(3000);
    for (uint64_t i = 0; i < 4; ++i) ssm_put(0x9000, 100 + i);
    CHECK(ssm_quiet() == SSM_OK);
  });
  n.sys.run();
  CHECK(overflow_state == State::ERR_QUEUE_FULL);
  REQUIRE(got.size() == depth);
  for (unsigned k = 0; k < depth; ++k) CHECK(got[k] == 100 + k);
}

TEST_CASE("ssm: libssm reports a blocking call's error once and a posted call's error at ssm_quiet", "[ssm][errors]") {
  SsmNode n;
  int get_err = 0, quiet_after_get = -1, put_rc = -1, quiet_after_put = 0, last = 0, readers_rc = 0;
  n.sys.spawn(0, 2, [&] {
    (void)ssm_get(0x6004, 8);          // unaligned: a blocking call returns the error itself
    get_err = ssm_last_error();
    quiet_after_get = ssm_quiet();     // ... and it is not reported again
    put_rc = ssm_put(0x6001, 1);       // posted: accepted now, fails in the engine
    quiet_after_put = ssm_quiet();
    last = ssm_last_error();
    readers_rc = ssm_put_n(0x6000, 1, 256);  // more readers than the 8-bit counter holds
  });
  n.sys.run();
  CHECK(get_err == -int(State::ERR_ALIGN));
  CHECK(quiet_after_get == SSM_OK);
  CHECK(put_rc == SSM_OK);
  CHECK(quiet_after_put == -int(State::ERR_ALIGN));
  CHECK(last == -int(State::ERR_ALIGN));
  CHECK(readers_rc == -int(State::ERR_READERS));
}

TEST_CASE("ssm: the engine is empty after reset and hash_set handles one set", "[ssm]") {
  SsmNode n;
  uint64_t entries = 1;
  n.sys.spawn(0, 0, [&] { entries = n.drv.read_reg(R::STAT_ENTRIES_OFFSET); });
  n.sys.run();
  CHECK(entries == 0);
  CHECK(hpcnet::ssm::hash_set(0x12345678, 1) == 0);
  CHECK(hpcnet::ssm::hash_set(0x8, 1024) == 1);
}
