// libssm: the C-callable user library over the SSM driver (hpcnet/ssm.h).
#include "hpcnet/ssm.h"

#include <cstring>
#include <stdexcept>
#include <map>
#include <memory>
#include <vector>

#include "hpcnet/ssm_driver.hpp"

namespace hpcnet::ssm {
namespace {

namespace R = ssm_regs;

// The C names of hpcnet/ssm.h are the generated codes (rtl/ssm/ssm_regs.toml): SSM_OK/SSM_BUSY
// are libssm's return codes, the element types and reductions are red_type and red_op.
static_assert(SSM_INT64 == static_cast<int>(R::RedType::INT64) && SSM_UINT64 == static_cast<int>(R::RedType::UINT64) &&
              SSM_DOUBLE == static_cast<int>(R::RedType::DOUBLE) && SSM_INT32 == static_cast<int>(R::RedType::INT32));
static_assert(SSM_SUM == static_cast<int>(R::RedOp::SUM) && SSM_MAX == static_cast<int>(R::RedOp::MAX) &&
              SSM_MIN == static_cast<int>(R::RedOp::MIN));

// libssm's state on one node: the node's driver and each window's last error. Kept in the node's
// Platform (node_local), so every call acts on the engine of the node its thread runs on.
struct NodeState {
  Driver* driver = nullptr;
  std::vector<int> last_error;  // per window
};
const char kNodeKey = 0;  // its address is libssm's node_local key
std::map<Driver*, std::unique_ptr<NodeState>> g_attached;  // ownership of the states

NodeState& node() {
  Platform* p = this_platform();
  if (!p) throw std::logic_error("libssm: called outside a simulated thread or node (no platform)");
  auto* st = static_cast<NodeState*>(p->node_local(&kNodeKey));
  if (!st) throw std::logic_error("libssm: no driver attached on this node (ssm_attach)");
  return *st;
}

Driver& drv() { return *node().driver; }

unsigned win() {
  const CpuId c = drv().platform().current_cpu();
  return c.pe * drv().info().num_threads + c.thread;
}

int code_of(R::State s) {
  if (s == R::State::OK) return SSM_OK;
  if (s == R::State::BUSY) return SSM_BUSY;
  return -static_cast<int>(s);
}

int record(R::State s) {
  const int rc = code_of(s);
  if (rc < 0) {
    const unsigned w = win();
    node().last_error.at(w) = rc;
  }
  return rc;
}

uint64_t args(unsigned readers, unsigned size) {
  return R::CMD_ARGS_READERS.put(readers) | R::CMD_ARGS_SIZE.put(size);
}

uint64_t coll_args(unsigned group, unsigned type, unsigned rop, int io, uint64_t length) {
  return R::CMD_ARGS_GROUP.put(group) | R::CMD_ARGS_TYPE.put(type) | R::CMD_ARGS_ROP.put(rop) |
         R::CMD_ARGS_IO.put(io ? 1 : 0) | R::CMD_ARGS_LENGTH.put(length);
}

// A collective call. ERR_NO_CONTEXT means every context of the engine is in use by other
// collectives: nothing was done, so wait a little and try again.
Completion coll_call(R::Opcode op, uint64_t addr, uint64_t value, uint64_t a) {
  for (;;) {
    Completion c = drv().call(op, addr, value, a);
    if (c.state != R::State::ERR_NO_CONTEXT) return c;
    for (int i = 0; i < 16; ++i) drv().platform().relax();
  }
}

}  // namespace

void ssm_attach(Driver* driver) {
  if (!driver) {
    while (!g_attached.empty()) ssm_detach(g_attached.begin()->first);
    return;
  }
  auto st = std::make_unique<NodeState>();
  st->driver = driver;
  st->last_error.assign(driver->info().num_pe * driver->info().num_threads, 0);
  driver->platform().set_node_local(&kNodeKey, st.get());
  g_attached[driver] = std::move(st);
}

void ssm_detach(Driver* driver) {
  const auto it = g_attached.find(driver);
  if (it == g_attached.end()) return;
  if (driver->platform().node_local(&kNodeKey) == it->second.get()) driver->platform().set_node_local(&kNodeKey, nullptr);
  g_attached.erase(it);
}

}  // namespace hpcnet::ssm

using hpcnet::ssm::args;
using hpcnet::ssm::coll_args;
using hpcnet::ssm::coll_call;
using hpcnet::ssm::drv;
using hpcnet::ssm::record;
namespace R = hpcnet::ssm_regs;

extern "C" {

int ssm_put(uint64_t addr, uint64_t value) { return ssm_put_n(addr, value, 1); }

int ssm_put_n(uint64_t addr, uint64_t value, unsigned readers) {
  if (readers > 255) return record(R::State::ERR_READERS);  // the counter is 8 bits
  drv().issue(R::Opcode::PUT, addr, value, args(readers, 8));
  return SSM_OK;
}

uint64_t ssm_get(uint64_t addr, unsigned size) {
  if (size > 15) {  // the size field is 4 bits: refuse rather than truncate
    record(R::State::ERR_SIZE);
    return 0;
  }
  auto c = drv().call(R::Opcode::GET, addr, 0, args(1, size));
  record(c.state);
  return c.ok() ? c.value : 0;
}

int ssm_lock(uint64_t addr) { return record(drv().call(R::Opcode::LOCK, addr, 0, args(1, 8)).state); }

int ssm_trylock(uint64_t addr) {
  return record(drv().call(R::Opcode::TRYLOCK, addr, 0, args(1, 8)).state);
}

int ssm_unlock(uint64_t addr) {
  drv().issue(R::Opcode::UNLOCK, addr, 0, args(1, 8));
  return SSM_OK;
}

int ssm_barrier(uint64_t addr, unsigned size, int io) {
  if (size > 255) return record(R::State::ERR_GROUP);  // the GROUP field is 8 bits
  return record(coll_call(R::Opcode::BARRIER, addr, 0, coll_args(size, 0, 0, io, 0)).state);
}

int ssm_reduce(uint64_t addr, void* value, int type, int op, unsigned size, int io) {
  if (size > 255) return record(R::State::ERR_GROUP);
  if (type < 0 || type > 7 || op < 0 || op > 3) return record(R::State::ERR_TYPE);  // field widths
  uint64_t v = 0;
  std::memcpy(&v, value, sizeof v);
  auto c = coll_call(R::Opcode::REDUCE, addr, v, coll_args(size, unsigned(type), unsigned(op), io, 0));
  if (c.ok()) std::memcpy(value, &c.value, sizeof c.value);
  return record(c.state);
}

int ssm_burst_reduce(uint64_t src, uint64_t dest, uint64_t length, int type, int op, unsigned size, int io) {
  if (size > 255) return record(R::State::ERR_GROUP);
  if (type < 0 || type > 7 || op < 0 || op > 3) return record(R::State::ERR_TYPE);
  if (length > 0xFFFF'FFFFull) return record(R::State::ERR_LENGTH);  // LENGTH is 32 bits
  return record(coll_call(R::Opcode::BURST, src, dest, coll_args(size, unsigned(type), unsigned(op), io, length)).state);
}

int ssm_quiet(void) { return record(drv().drain()); }

int ssm_last_error(void) {
  const unsigned w = hpcnet::ssm::win();
  int& e = hpcnet::ssm::node().last_error.at(w);
  const int rc = e;
  e = 0;
  return rc;
}

}  // extern "C"
