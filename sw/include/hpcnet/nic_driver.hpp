// hpcnet/nic_driver.hpp: host driver of the NIC (docs/nic.md section 9). Written only against
// hpcnet::Platform: it opens the node's NIC (kDeviceId), gives out virtual ports (VPs) with their
// rings, registers memory (pins the pages of a process's buffer and writes their physical
// addresses into the ATT in virtual order, a key per region, with its rights and owner VP),
// handles the interrupt and reads the error registers.
//
// Process memory: the simulated host has physical memory only, so the driver models a process's
// virtual address space (AddressSpace): a buffer is a run of virtual pages, each backed by its own
// physical page (scattered, as a real allocator's would be), with a page table the CPU side and
// the registration read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hpcnet/nic_formats.hpp"
#include "hpcnet/platform.hpp"

namespace hpcnet::nic {

namespace f = nic_formats;

// The NIC's device id on its node: the magic number its ID register reads.
inline constexpr DeviceId kDeviceId = static_cast<DeviceId>(f::ID_MAGIC_RESET);
inline constexpr uint64_t kPage = 4096;

// A process's virtual memory (see the file comment).
class AddressSpace {
 public:
  explicit AddressSpace(Platform& p, uint64_t base = 0x7000'0000'0000ull) : p_(p), next_(base) {}
  ~AddressSpace();
  AddressSpace(const AddressSpace&) = delete;
  AddressSpace& operator=(const AddressSpace&) = delete;

  // `bytes` of zeroed memory at a fresh virtual address (page aligned plus `offset`, < 4096:
  // lets a test place a buffer at any byte offset of its first page).
  uint64_t alloc(uint64_t bytes, unsigned offset = 0);
  void free(uint64_t vaddr);
  uint64_t phys(uint64_t vaddr) const;  // throws std::out_of_range for an unmapped address
  bool mapped(uint64_t vaddr, uint64_t bytes) const;
  // CPU access (split at pages).
  void read(uint64_t vaddr, void* dst, uint64_t n) const;
  void write(uint64_t vaddr, const void* src, uint64_t n);
  Platform& platform() { return p_; }

 private:
  Platform& p_;
  uint64_t next_;
  std::map<uint64_t, DmaRegion> pages_;            // virtual page -> its physical page
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> bufs_;  // vaddr -> (first page, pages)
};

struct VpConfig {
  unsigned cq_log2 = 8;    // CQ entries (0: none)
  unsigned mpq_log2 = 6;   // MPQ entries (0: none)
  unsigned hdq_log2 = 10;  // host DQ words (0: none: PIO submission only)
  bool phys_ok = false;    // kernel-level user: physical addressing allowed
};

// One VP as its owner sees it: its register page and rings.
struct Vp {
  unsigned index = 0;
  VpConfig cfg;
  DmaRegion cq, mpq, hdq;
  uint64_t page() const { return uint64_t(index) * f::VP_STRIDE; }
};

struct Region {
  uint16_t key = 0;
  unsigned vp = 0;
  uint64_t vaddr = 0, bytes = 0;
  uint32_t att_base = 0, pages = 0;
  bool read = false, write = false;
};

struct NicInfo {
  unsigned num_vp = 0, dq_words = 0, num_keys = 0, att_log2 = 0, route_log2 = 0, version = 0;
};

class Driver {
 public:
  explicit Driver(Platform& node);  // opens the node's NIC; throws when it has none
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  void init(unsigned node_id);  // checks ID, reads CONFIG, sets NODE_ID, installs the irq handler
  // The route table (source routing on a router network, docs/machine.md): routes[n] is the router
  // head's route field (rtr_formats route, signed hops per dimension) of packets for node n,
  // written from entry 0 on at start-up. std::invalid_argument when there are more destinations
  // than the table has entries (2^info().route_log2). Nodes without an entry keep route 0.
  void set_routes(const std::vector<uint32_t>& routes);
  const NicInfo& info() const { return info_; }
  unsigned node_id() const { return node_id_; }
  Platform& platform() { return p_; }
  Platform::Device& device() { return dev_; }

  // VPs: the lowest free one (or `want`); std::runtime_error when none is free.
  Vp& open_vp(const VpConfig& cfg = {}, int want = -1);
  void close_vp(Vp& vp);
  // Memory registration: pins the pages of [vaddr, vaddr + bytes) of `as` for VP `vp` with the
  // rights given; returns the region (its key). std::runtime_error when the buffer is not mapped,
  // no key or ATT entries are left.
  Region reg_mr(AddressSpace& as, unsigned vp, uint64_t vaddr, uint64_t bytes, bool read, bool write);
  // Returns once the NIC will not touch the region again (KEY_STATUS fence): a transfer that was
  // using it stops there and completes with BAD_KEY, unless it finished first.
  void dereg_mr(const Region& r);
  uint64_t dereg_polls() const { return dereg_polls_; }  // KEY_STATUS reads that found BUSY (all calls)

  // Registers.
  uint64_t read_reg(uint64_t offset) { return dev_.mmio_read64(offset); }
  void write_reg(uint64_t offset, uint64_t value) { dev_.mmio_write64(offset, value); }
  uint64_t vp_reg(unsigned vp, uint32_t reg) { return read_reg(uint64_t(vp) * f::VP_STRIDE + reg); }
  void set_vp_reg(unsigned vp, uint32_t reg, uint64_t v) { write_reg(uint64_t(vp) * f::VP_STRIDE + reg, v); }
  f::VpErr vp_error(unsigned vp) { return f::VpErr::unpack({vp_reg(vp, f::VP_ERR_OFFSET)}); }
  void clear_vp_error(unsigned vp) { set_vp_reg(vp, f::VP_ERR_OFFSET, 1); }

  // Interrupts: the handler records each VP's causes and clears them; waiters poll the counts.
  void handle_irq();
  uint64_t irq_count() const { return irqs_; }
  uint64_t vp_irqs(unsigned vp, unsigned cause) const { return vp_irqs_.at(vp * 3 + cause); }

 private:
  void lock();
  void unlock() { busy_ = false; }
  uint32_t att_alloc(uint32_t pages);
  void att_free(uint32_t base, uint32_t pages);

  Platform& p_;
  Platform::Device& dev_;
  NicInfo info_;
  unsigned node_id_ = 0;
  std::vector<std::unique_ptr<Vp>> vps_;
  std::vector<bool> keys_;                    // in use
  std::map<uint32_t, uint32_t> att_free_;     // free ATT runs: base -> pages
  std::map<uint64_t, unsigned> pinned_;       // physical page -> pin count
  std::vector<uint64_t> vp_irqs_;             // per VP and cause
  uint64_t irqs_ = 0;
  uint64_t dereg_polls_ = 0;
  bool busy_ = false;                         // the privileged register sequence in progress
};

}  // namespace hpcnet::nic
