// nic_driver.cpp: the NIC driver (hpcnet/nic_driver.hpp, docs/nic.md section 9).
#include "hpcnet/nic_driver.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace hpcnet::nic {

// ---------------------------------------------------------------- AddressSpace

AddressSpace::~AddressSpace() {
  for (auto& [v, r] : pages_) p_.dma_free(r);
}

uint64_t AddressSpace::alloc(uint64_t bytes, unsigned offset) {
  if (offset >= kPage) throw std::invalid_argument("AddressSpace::alloc: offset must be below 4096");
  const uint64_t base = next_;
  const uint64_t pages = (offset + std::max<uint64_t>(bytes, 1) + kPage - 1) / kPage;
  for (uint64_t i = 0; i < pages; ++i) pages_[base + i * kPage] = p_.dma_alloc(kPage, kPage);
  bufs_[base + offset] = {base, pages};
  next_ = base + (pages + 1) * kPage;  // a guard page between buffers
  return base + offset;
}

void AddressSpace::free(uint64_t vaddr) {
  auto it = bufs_.find(vaddr);
  if (it == bufs_.end()) throw std::invalid_argument(fmt::format("AddressSpace::free: {:#x} was not allocated", vaddr));
  for (uint64_t i = 0; i < it->second.second; ++i) {
    auto pg = pages_.find(it->second.first + i * kPage);
    p_.dma_free(pg->second);
    pages_.erase(pg);
  }
  bufs_.erase(it);
}

uint64_t AddressSpace::phys(uint64_t vaddr) const {
  auto it = pages_.find(vaddr & ~(kPage - 1));
  if (it == pages_.end()) throw std::out_of_range(fmt::format("AddressSpace: {:#x} is not mapped", vaddr));
  return it->second.phys + (vaddr & (kPage - 1));
}

bool AddressSpace::mapped(uint64_t vaddr, uint64_t bytes) const {
  for (uint64_t pg = vaddr & ~(kPage - 1); pg < vaddr + bytes; pg += kPage)
    if (!pages_.count(pg)) return false;
  return true;
}

void AddressSpace::read(uint64_t vaddr, void* dst, uint64_t n) const {
  auto* d = static_cast<uint8_t*>(dst);
  while (n) {
    const uint64_t k = std::min(n, kPage - (vaddr & (kPage - 1)));
    p_.mem_read(phys(vaddr), d, k);
    vaddr += k, d += k, n -= k;
  }
}

void AddressSpace::write(uint64_t vaddr, const void* src, uint64_t n) {
  auto* s = static_cast<const uint8_t*>(src);
  while (n) {
    const uint64_t k = std::min(n, kPage - (vaddr & (kPage - 1)));
    p_.mem_write(phys(vaddr), s, k);
    vaddr += k, s += k, n -= k;
  }
}

// ---------------------------------------------------------------- Driver

Driver::Driver(Platform& node) : p_(node), dev_(node.open(kDeviceId)) {}

void Driver::init(unsigned node_id) {
  const uint64_t id = read_reg(f::ID_OFFSET);
  if (f::ID_MAGIC.get(id) != f::ID_MAGIC_RESET)
    throw std::runtime_error(fmt::format("nic: ID reads {:#x}, not the NIC's magic", id));
  const uint64_t c = read_reg(f::CONFIG_OFFSET);
  info_.num_vp = unsigned(f::CONFIG_NUM_VP.get(c));
  info_.dq_words = unsigned(f::CONFIG_DQ_WORDS.get(c));
  info_.num_keys = unsigned(f::CONFIG_NUM_KEYS.get(c));
  info_.att_log2 = unsigned(f::CONFIG_ATT_LOG2.get(c));
  info_.route_log2 = unsigned(f::CONFIG_ROUTE_LOG2.get(c));
  info_.version = unsigned(f::ID_VERSION.get(id));
  if (node_id >= (1u << f::NODE_ID_ID.width)) throw std::invalid_argument(fmt::format("nic: node id {} does not fit 14 bits", node_id));
  node_id_ = node_id;
  write_reg(f::NODE_ID_OFFSET, node_id);
  vps_.clear();
  vps_.resize(info_.num_vp);
  keys_.assign(info_.num_keys, false);
  keys_.at(0) = true;  // key 0 is never given out: a zeroed descriptor names no region
  att_free_.clear();
  att_free_[0] = uint32_t(1) << info_.att_log2;
  vp_irqs_.assign(size_t(info_.num_vp) * 3, 0);
  dev_.set_irq_handler([this] { handle_irq(); });
  write_reg(f::IRQ_ENABLE_OFFSET, 1);
}

void Driver::set_routes(const std::vector<uint32_t>& routes) {
  if (routes.size() > (size_t(1) << info_.route_log2))
    throw std::invalid_argument(fmt::format("nic: {} routes, the route table has {} entries", routes.size(),
                                            size_t(1) << info_.route_log2));
  write_reg(f::ROUTE_INDEX_OFFSET, 0);
  for (uint32_t r : routes) {
    if (r >> f::ROUTE_DATA_ROUTE.width) throw std::invalid_argument(fmt::format("nic: route {:#x} wider than 24 bits", r));
    write_reg(f::ROUTE_DATA_OFFSET, r);
  }
}

void Driver::lock() {
  while (busy_) p_.relax();
  busy_ = true;
}

Vp& Driver::open_vp(const VpConfig& cfg, int want) {
  unsigned v = 0;
  if (want >= 0) {
    v = unsigned(want);
    if (v >= vps_.size() || vps_[v]) throw std::runtime_error(fmt::format("nic: VP {} is not free", want));
  } else {
    while (v < vps_.size() && vps_[v]) ++v;
    if (v == vps_.size()) throw std::runtime_error("nic: every VP is in use");
  }
  if (cfg.cq_log2 > 20 || cfg.mpq_log2 > 16 || cfg.hdq_log2 > 20)
    throw std::invalid_argument("nic: ring sizes above 2^20 CQ entries, 2^16 MPQ entries, 2^20 DQ words");
  auto vp = std::make_unique<Vp>();
  vp->index = v;
  vp->cfg = cfg;
  if (cfg.cq_log2) vp->cq = p_.dma_alloc(16ull << cfg.cq_log2, std::max<size_t>(16ull << cfg.cq_log2, 64));
  if (cfg.mpq_log2) vp->mpq = p_.dma_alloc(128ull << cfg.mpq_log2, kPage);
  if (cfg.hdq_log2) vp->hdq = p_.dma_alloc(8ull << cfg.hdq_log2, kPage);
  const uint64_t e = f::VPC_OFFSET + uint64_t(v) * f::VPC_STRIDE;
  write_reg(e + f::VPC_CQ_BASE_OFFSET, vp->cq.phys);
  write_reg(e + f::VPC_MPQ_BASE_OFFSET, vp->mpq.phys);
  write_reg(e + f::VPC_HDQ_BASE_OFFSET, vp->hdq.phys);
  f::VpcSizes s;
  s.cq_log2 = cfg.cq_log2;
  s.mpq_log2 = cfg.mpq_log2;
  s.hdq_log2 = cfg.hdq_log2;
  write_reg(e + f::VPC_SIZES_OFFSET, s.pack()[0]);
  // software's consumer counts start where the NIC's producer counts are
  set_vp_reg(v, f::VP_CQ_HEAD_OFFSET, vp_reg(v, f::VP_CQ_TAIL_OFFSET));
  set_vp_reg(v, f::VP_MPQ_HEAD_OFFSET, vp_reg(v, f::VP_MPQ_TAIL_OFFSET));
  f::VpcCtrl c;
  c.enable = true;
  c.phys_ok = cfg.phys_ok;
  write_reg(e + f::VPC_CTRL_OFFSET, c.pack()[0]);
  vps_[v] = std::move(vp);
  return *vps_[v];
}

void Driver::close_vp(Vp& vp) {
  const unsigned v = vp.index;
  write_reg(f::VPC_OFFSET + uint64_t(v) * f::VPC_STRIDE + f::VPC_CTRL_OFFSET, 0);
  read_reg(f::ID_OFFSET);  // the disable has reached the NIC
  for (DmaRegion* r : {&vp.cq, &vp.mpq, &vp.hdq})
    if (*r) p_.dma_free(*r);
  vps_.at(v).reset();
}

uint32_t Driver::att_alloc(uint32_t pages) {
  for (auto it = att_free_.begin(); it != att_free_.end(); ++it) {
    if (it->second < pages) continue;
    const uint32_t base = it->first, left = it->second - pages;
    att_free_.erase(it);
    if (left) att_free_[base + pages] = left;
    return base;
  }
  throw std::runtime_error(fmt::format("nic: no run of {} free ATT entries", pages));
}

void Driver::att_free(uint32_t base, uint32_t pages) {
  auto [it, ok] = att_free_.emplace(base, pages);
  auto next = std::next(it);
  if (next != att_free_.end() && it->first + it->second == next->first) {
    it->second += next->second;
    att_free_.erase(next);
  }
  if (it != att_free_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      att_free_.erase(it);
    }
  }
}

Region Driver::reg_mr(AddressSpace& as, unsigned vp, uint64_t vaddr, uint64_t bytes, bool read, bool write) {
  if (bytes == 0 || !as.mapped(vaddr, bytes))
    throw std::runtime_error(fmt::format("nic: reg_mr [{:#x}, +{}) is not mapped memory", vaddr, bytes));
  if (vp >= vps_.size() || !vps_[vp]) throw std::runtime_error(fmt::format("nic: reg_mr for VP {}, which is not open", vp));
  lock();
  Region r;
  auto k = std::find(keys_.begin(), keys_.end(), false);
  if (k == keys_.end()) {
    unlock();
    throw std::runtime_error("nic: no free key");
  }
  r.key = uint16_t(k - keys_.begin());
  r.vp = vp;
  r.vaddr = vaddr;
  r.bytes = bytes;
  r.read = read;
  r.write = write;
  const uint64_t first = vaddr / kPage, last = (vaddr + bytes - 1) / kPage;
  r.pages = uint32_t(last - first + 1);
  try {
    r.att_base = att_alloc(r.pages);
  } catch (...) {
    unlock();
    throw;
  }
  *k = true;
  // pin the pages and write their physical page numbers in virtual order
  write_reg(f::ATT_INDEX_OFFSET, r.att_base);
  for (uint64_t pg = first; pg <= last; ++pg) {
    const uint64_t pa = as.phys(pg * kPage);
    ++pinned_[pa / kPage];
    write_reg(f::ATT_DATA_OFFSET, pa / kPage);
  }
  write_reg(f::KEY_SEL_OFFSET, r.key);
  write_reg(f::KEY_BASE_OFFSET, vaddr);
  write_reg(f::KEY_LEN_OFFSET, bytes);
  const uint64_t ctrl = f::KEY_CTRL_VALID.put(1) | f::KEY_CTRL_READ.put(read) | f::KEY_CTRL_WRITE.put(write) |
                        f::KEY_CTRL_OWNER_VP.put(vp) | f::KEY_CTRL_ATT_BASE.put(r.att_base);
  write_reg(f::KEY_CTRL_OFFSET, ctrl);
  read_reg(f::ID_OFFSET);  // the registration has reached the NIC before the key is used
  unlock();
  return r;
}

void Driver::dereg_mr(const Region& r) {
  lock();
  write_reg(f::KEY_SEL_OFFSET, r.key);
  write_reg(f::KEY_CTRL_OFFSET, 0);
  // The fence (KEY_STATUS, docs/nic.md "Deregistration"): the NIC withdraws the key's
  // translations from the units that hold them and waits for its reads with them; this read's
  // completion comes after every DMA write the NIC sent before it. Once BUSY is 0 the NIC never
  // touches the region again, and its pages and ATT entries may be reused.
  while (f::KEY_STATUS_BUSY.get(read_reg(f::KEY_STATUS_OFFSET))) ++dereg_polls_;
  att_free(r.att_base, r.pages);
  keys_.at(r.key) = false;
  unlock();
}

void Driver::handle_irq() {
  ++irqs_;
  const uint64_t vps = read_reg(f::IRQ_VP_OFFSET);
  for (unsigned v = 0; v < info_.num_vp; ++v) {
    if (!((vps >> v) & 1)) continue;
    const uint64_t cause = vp_reg(v, f::VP_IRQ_CAUSE_OFFSET);
    for (unsigned c = 0; c < 3; ++c)
      if ((cause >> c) & 1) ++vp_irqs_.at(v * 3 + c);
    set_vp_reg(v, f::VP_IRQ_CAUSE_OFFSET, cause);
  }
  const uint64_t st = read_reg(f::IRQ_STATUS_OFFSET);
  if (st) write_reg(f::IRQ_STATUS_OFFSET, st);
  read_reg(f::ID_OFFSET);  // the clears have reached the NIC before the handler returns
}

}  // namespace hpcnet::nic
