// libssm: the C-callable user library over the SSM driver (hpcnet/ssm.h).
#include "hpcnet/ssm.h"

#include <stdexcept>

#include "hpcnet/ssm_driver.hpp"

namespace hpcnet::ssm {
namespace {

namespace R = ssm_regs;

Driver* g_driver = nullptr;
std::vector<int> g_last_error;  // per command window

Driver& drv() {
  if (!g_driver) throw std::logic_error("libssm: no driver attached (ssm_attach)");
  return *g_driver;
}

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
  if (rc < 0) g_last_error.at(win()) = rc;
  return rc;
}

uint64_t args(unsigned readers, unsigned size) {
  return R::CMD_ARGS_READERS.put(readers) | R::CMD_ARGS_SIZE.put(size);
}

}  // namespace

void ssm_attach(Driver* driver) {
  g_driver = driver;
  g_last_error.assign(driver ? driver->info().num_pe * driver->info().num_threads : 0, 0);
}

}  // namespace hpcnet::ssm

using hpcnet::ssm::args;
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

int ssm_quiet(void) { return record(drv().drain()); }

int ssm_last_error(void) {
  int& e = hpcnet::ssm::g_last_error.at(hpcnet::ssm::win());
  const int rc = e;
  e = 0;
  return rc;
}

}  // extern "C"
