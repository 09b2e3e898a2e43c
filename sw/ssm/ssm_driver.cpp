// SSM host driver: see hpcnet/ssm_driver.hpp.
#include "hpcnet/ssm_driver.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::ssm {

namespace R = ssm_regs;
using R::State;

constexpr uint64_t kSlotBytes = 16;
constexpr uint64_t kNodeBytes = 32;

unsigned hash_set(uint64_t addr, unsigned sets) {
  unsigned bits = 0;
  while ((1u << bits) < sets) ++bits;
  if (bits == 0) return 0;
  const uint64_t tag = (addr >> 3) & ((1ull << 45) - 1);
  uint64_t set = 0;
  for (unsigned i = 0; i < 45; i += bits) set ^= (tag >> i) & ((1ull << bits) - 1);
  return static_cast<unsigned>(set);
}

std::string ErrorRecord::describe() const {
  return fmt::format("{} (opcode {}, PE {}, thread {}, ret_offset {}, addr {:#x})", R::to_string(code),
                     opcode, pe, thread, ret_offset, addr);
}

Driver::Driver(Platform& node, DriverConfig cfg) : p_(node), dev_(node.open(kDeviceId)), cfg_(cfg) {}

void Driver::init() {
  const uint64_t id = dev_.mmio_read64(R::ID_OFFSET);
  if (R::ID_MAGIC.get(id) != R::ID_MAGIC_RESET)
    throw std::runtime_error(fmt::format("ssm: no engine at the register window (ID reads {:#x})", id));
  const uint64_t c = dev_.mmio_read64(R::CONFIG_OFFSET);
  info_.version = static_cast<unsigned>(R::ID_VERSION.get(id));
  info_.num_pe = static_cast<unsigned>(R::CONFIG_NUM_PE.get(c));
  info_.num_threads = static_cast<unsigned>(R::CONFIG_NUM_THREADS.get(c));
  info_.num_cores = static_cast<unsigned>(R::CONFIG_NUM_CORES.get(c));
  info_.opq_depth = static_cast<unsigned>(R::CONFIG_OPQ_DEPTH.get(c));
  info_.hash_sets = static_cast<unsigned>(R::CONFIG_HASH_SETS.get(c));
  info_.hash_ways = static_cast<unsigned>(R::CONFIG_HASH_WAYS.get(c));
  if (info_.num_pe == 0 || info_.num_threads == 0 || info_.opq_depth == 0 || info_.opq_depth > 64)
    throw std::runtime_error(fmt::format("ssm: CONFIG {:#x} describes an engine this driver cannot run", c));

  // Control page tables: exception slots, then one ring of opq_depth slots per thread.
  slots_per_pe_ = info_.num_threads * (1 + info_.opq_depth);
  threads_.assign(info_.num_pe * info_.num_threads, ThreadState{});
  for (unsigned pe = 0; pe < info_.num_pe; ++pe) {
    DmaRegion r = p_.dma_alloc(slots_per_pe_ * kSlotBytes, 64);
    for (unsigned s = 0; s < slots_per_pe_; ++s)  // free slots: not PENDING
      p_.mem_write64(r.phys + s * kSlotBytes + 8, static_cast<uint64_t>(State::OK));
    cpt_.push_back(r);
    p_.fence();
    dev_.mmio_write64(R::CPT_OFFSET + pe * R::CPT_STRIDE + R::CPT_BASE_OFFSET, r.phys);
    dev_.mmio_write64(R::CPT_OFFSET + pe * R::CPT_STRIDE + R::CPT_SLOTS_OFFSET, slots_per_pe_);
  }

  // The overflow area: the engine allocates 32-byte nodes from it.
  DmaRegion ovf = p_.dma_alloc(cfg_.overflow_bytes, kNodeBytes);
  overflow_.push_back(ovf);
  dev_.mmio_write64(R::OVF_ADD_BASE_OFFSET, ovf.phys);
  dev_.mmio_write64(R::OVF_ADD_NODES_OFFSET, ovf.bytes / kNodeBytes);

  if (cfg_.enable_irq) {
    dev_.set_irq_handler([this] { handle_irq(); });
    dev_.mmio_write64(R::IRQ_ENABLE_OFFSET, R::IRQ_ENABLE_ERROR.put(1) | R::IRQ_ENABLE_OVF_EXHAUSTED.put(1));
  }
  (void)dev_.mmio_read64(R::ID_OFFSET);  // the configuration has reached the engine
}

void Driver::handle_irq() {
  ++irqs_;
  const uint64_t status = dev_.mmio_read64(R::IRQ_STATUS_OFFSET);
  uint64_t clear = 0;
  if (R::IRQ_STATUS_OVF_EXHAUSTED.get(status)) {
    // The engine waits for a node: give it a new chunk, then acknowledge.
    DmaRegion r = p_.dma_alloc(cfg_.overflow_grow_bytes, kNodeBytes);
    overflow_.push_back(r);
    dev_.mmio_write64(R::OVF_ADD_BASE_OFFSET, r.phys);
    dev_.mmio_write64(R::OVF_ADD_NODES_OFFSET, r.bytes / kNodeBytes);
    ++extensions_;
    clear |= R::IRQ_STATUS_OVF_EXHAUSTED.put(1);
  }
  if (R::IRQ_STATUS_ERROR.get(status)) {
    const uint64_t info = dev_.mmio_read64(R::ERR_INFO_OFFSET);
    if (R::ERR_INFO_VALID.get(info)) {
      ErrorRecord e;
      e.code = static_cast<State>(R::ERR_INFO_CODE.get(info));
      e.pe = static_cast<unsigned>(R::ERR_INFO_PE.get(info));
      e.thread = static_cast<unsigned>(R::ERR_INFO_THREAD.get(info));
      e.opcode = static_cast<unsigned>(R::ERR_INFO_OPCODE.get(info));
      e.ret_offset = static_cast<unsigned>(R::ERR_INFO_RET_OFFSET.get(info));
      e.addr = dev_.mmio_read64(R::ERR_ADDR_OFFSET);
      errors_.push_back(e);
    }
    clear |= R::IRQ_STATUS_ERROR.put(1);
  }
  if (clear) dev_.mmio_write64(R::IRQ_STATUS_OFFSET, clear);
  (void)dev_.mmio_read64(R::IRQ_STATUS_OFFSET);  // the acknowledge has landed before we return
}

unsigned Driver::window() const {
  const CpuId cpu = p_.current_cpu();
  if (cpu.pe >= info_.num_pe || cpu.thread >= info_.num_threads)
    throw std::logic_error(fmt::format("ssm: caller PE {} thread {} has no command window", cpu.pe, cpu.thread));
  return cpu.pe * info_.num_threads + cpu.thread;
}

Driver::ThreadState& Driver::self() { return threads_.at(window()); }

uint64_t Driver::slot_phys(unsigned pe, unsigned slot) const { return cpt_.at(pe).phys + slot * kSlotBytes; }

uint64_t Driver::window_reg(unsigned win, uint32_t reg) const { return R::CMD_OFFSET + win * R::CMD_STRIDE + reg; }

unsigned Driver::exception_slot() const { return p_.current_cpu().thread; }

void Driver::note_state(ThreadState& ts, State s) {
  if ((static_cast<unsigned>(s) & 0x80) && ts.first_error == State::OK) ts.first_error = s;
}

Completion Driver::read_slot(unsigned slot) {
  const unsigned pe = p_.current_cpu().pe;
  Completion c;
  const uint64_t st = p_.mem_read64(slot_phys(pe, slot) + 8);
  c.state = static_cast<State>(R::SLOT_STATE.get(st));
  if (c.state != State::PENDING) c.value = p_.mem_read64(slot_phys(pe, slot));
  return c;
}

void Driver::mark_pending(unsigned slot) {
  p_.mem_write64(slot_phys(p_.current_cpu().pe, slot) + 8, static_cast<uint64_t>(State::PENDING));
  p_.fence();
}

Completion Driver::wait(unsigned slot) {
  Completion c = read_slot(slot);
  while (c.state == State::PENDING) {
    p_.relax();
    c = read_slot(slot);
  }
  return c;
}

unsigned Driver::issue(R::Opcode op, uint64_t addr, uint64_t value, uint64_t args) {
  const unsigned win = window();
  ThreadState& ts = threads_[win];
  const unsigned t = p_.current_cpu().thread;
  const unsigned slot = info_.num_threads + t * info_.opq_depth + ts.next;
  const uint64_t bit = 1ull << ts.next;
  ts.next = (ts.next + 1) % info_.opq_depth;
  // The slot is free once the engine answered the operation that used it last.
  const State last = wait(slot).state;
  if (!(ts.consumed & bit)) note_state(ts, last);
  ts.consumed &= ~bit;
  mark_pending(slot);
  if (op == R::Opcode::PUT || op == R::Opcode::REDUCE || op == R::Opcode::BURST) dev_.mmio_write64(window_reg(win, R::CMD_VALUE_OFFSET), value);
  if (args != ts.args) {
    dev_.mmio_write64(window_reg(win, R::CMD_ARGS_OFFSET), args);
    ts.args = args;
  }
  dev_.mmio_write64(window_reg(win, R::CMD_DOORBELL_OFFSET),
                  R::CMD_WORD_ADDR.put(addr) | R::CMD_WORD_OPCODE.put(static_cast<uint64_t>(op)) |
                      R::CMD_WORD_RET_OFFSET.put(slot));
  return slot;
}

void Driver::issue_raw(unsigned opcode, uint64_t addr, uint64_t value, uint64_t args, unsigned ret_offset) {
  const unsigned win = window();
  ThreadState& ts = threads_[win];
  dev_.mmio_write64(window_reg(win, R::CMD_VALUE_OFFSET), value);
  dev_.mmio_write64(window_reg(win, R::CMD_ARGS_OFFSET), args);
  ts.args = args;
  dev_.mmio_write64(window_reg(win, R::CMD_DOORBELL_OFFSET),
                  R::CMD_WORD_ADDR.put(addr) | R::CMD_WORD_OPCODE.put(opcode) | R::CMD_WORD_RET_OFFSET.put(ret_offset));
}

Completion Driver::call(R::Opcode op, uint64_t addr, uint64_t value, uint64_t args) {
  const unsigned slot = issue(op, addr, value, args);
  const Completion c = wait(slot);
  ThreadState& ts = self();
  ts.consumed |= 1ull << (slot - info_.num_threads - p_.current_cpu().thread * info_.opq_depth);
  return c;
}

State Driver::drain() {
  ThreadState& ts = self();
  const unsigned t = p_.current_cpu().thread;
  for (unsigned k = 0; k < info_.opq_depth; ++k) {
    const State s = wait(info_.num_threads + t * info_.opq_depth + k).state;
    if (!(ts.consumed & (1ull << k))) note_state(ts, s);
    ts.consumed |= 1ull << k;  // reported now; not again
  }
  const State e = ts.first_error;
  ts.first_error = State::OK;
  return e;
}

}  // namespace hpcnet::ssm
