// hpcnet/ssm_driver.hpp: host driver of the synchronization engine (SSM).
// Written only against hpcnet::Platform: it opens the node's SSM (kDeviceId). init() discovers the engine (ID, CONFIG), gives every
// PE a control page table, hands the engine its first overflow chunk and installs the
// interrupt handler (extends the overflow area when the engine runs out; records errors).
//
// Control page table of a PE (docs/ssm.md): slots of 16 bytes {value, state, tag}.
//   slot t                      (t < threads): exception slot of thread t
//   threads + t*depth + k       (k < depth)  : ring of thread t, one slot per operation in flight
// A thread never has more operations in the engine than its FIFO holds (depth): a ring slot is
// reused only after the engine has answered the previous operation in it, so the command
// windows never overflow and the MMIO bus never stalls on a busy thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hpcnet/platform.hpp"
#include "hpcnet/ssm_regs.hpp"

namespace hpcnet::ssm {

// The SSM's device id on its node: the magic number its ID register reads.
inline constexpr DeviceId kDeviceId = static_cast<DeviceId>(ssm_regs::ID_MAGIC_RESET);

struct DriverConfig {
  uint64_t overflow_bytes = 64 * 1024;        // first overflow chunk (the paper reserves 256 MB)
  uint64_t overflow_grow_bytes = 64 * 1024;   // chunk added by the interrupt handler
  bool enable_irq = true;
};

struct EngineInfo {
  unsigned num_pe = 0, num_threads = 0, num_cores = 0, opq_depth = 0, hash_sets = 0, hash_ways = 0;
  unsigned version = 0;
};

// One error the engine reported in ERR_INFO/ERR_ADDR (collected by the interrupt handler).
// ERR_INFO holds the first error since the last acknowledge, so errors that arrive while the
// handler runs are counted (error_count()) but not all logged.
struct ErrorRecord {
  ssm_regs::State code{};
  unsigned pe = 0, thread = 0, opcode = 0, ret_offset = 0;
  uint64_t addr = 0;
  std::string describe() const;
};

struct Completion {
  uint64_t value = 0;
  ssm_regs::State state = ssm_regs::State::PENDING;
  bool ok() const { return state == ssm_regs::State::OK; }
};

// The set an address maps to (must match ssm_hash_port's set_of): addr[47:3] XOR-folded.
unsigned hash_set(uint64_t addr, unsigned sets);

class Driver {
 public:
  // Opens the node's SSM; throws std::runtime_error when the node has none.
  explicit Driver(Platform& node, DriverConfig cfg = {});
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  void init();  // throws std::runtime_error when no engine answers
  const EngineInfo& info() const { return info_; }
  Platform& platform() { return p_; }        // the node
  Platform::Device& device() { return dev_; }  // the engine's register window and interrupt

  // Issue one operation from the calling thread; returns its slot (for wait()). Blocks only
  // while all the thread's ring slots are in flight. `args` is a cmd_args word.
  unsigned issue(ssm_regs::Opcode op, uint64_t addr, uint64_t value, uint64_t args);
  // Raw issue with an explicit ret_offset and opcode number (tests of malformed commands).
  void issue_raw(unsigned opcode, uint64_t addr, uint64_t value, uint64_t args, unsigned ret_offset);
  // Issue and wait for the answer (blocking calls). The answer is consumed: drain() and the
  // slot's reuse will not report its state again.
  Completion call(ssm_regs::Opcode op, uint64_t addr, uint64_t value, uint64_t args);
  Completion wait(unsigned slot);          // poll the slot until the engine answers
  Completion read_slot(unsigned slot);     // one look, no wait
  void mark_pending(unsigned slot);        // software's PENDING before a raw issue
  unsigned exception_slot() const;         // the calling thread's exception slot
  // Wait until every operation the calling thread issued has been answered; returns the first
  // error state among them since the last drain (OK when none).
  ssm_regs::State drain();

  // Registers.
  uint64_t read_reg(uint32_t offset) { return dev_.mmio_read64(offset); }
  std::vector<ErrorRecord> errors() const { return errors_; }
  uint64_t error_count() { return read_reg(ssm_regs::ERR_COUNT_OFFSET); }  // all errors, logged or not
  uint64_t overflow_extensions() const { return extensions_; }
  uint64_t irq_count() const { return irqs_; }

  void handle_irq();  // the interrupt handler (public so a platform without irqs can poll it)

 private:
  struct ThreadState {
    unsigned next = 0;           // next ring position
    uint64_t args = ~0ull;       // ARGS last written to the window (~0: unknown)
    uint64_t consumed = 0;       // ring slots whose answer a blocking call already returned
    ssm_regs::State first_error = ssm_regs::State::OK;
  };
  ThreadState& self();
  unsigned window() const;
  uint64_t slot_phys(unsigned pe, unsigned slot) const;
  void note_state(ThreadState& ts, ssm_regs::State s);
  uint64_t window_reg(unsigned win, uint32_t reg) const;

  Platform& p_;
  Platform::Device& dev_;
  DriverConfig cfg_;
  EngineInfo info_;
  std::vector<DmaRegion> cpt_;           // per PE
  std::vector<ThreadState> threads_;     // per window
  std::vector<DmaRegion> overflow_;
  std::vector<ErrorRecord> errors_;
  uint64_t extensions_ = 0;
  uint64_t irqs_ = 0;
  unsigned slots_per_pe_ = 0;
};

}  // namespace hpcnet::ssm
