// librdma.cpp: the RDMA user library (hpcnet/rdma.h, docs/nic.md section 10) over the NIC driver.
// An endpoint is one VP with its process memory; descriptors are built from the generated formats
// (hpcnet/nic_formats.hpp) and submitted by PIO (write-combined or uncached) or through the host
// DQ and a doorbell.
#include "hpcnet/rdma.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "hpcnet/nic_driver.hpp"

struct rdma_ep {
  hpcnet::nic::Driver* drv = nullptr;
  hpcnet::nic::Vp* vp = nullptr;
  std::unique_ptr<hpcnet::nic::AddressSpace> as;
  std::map<uint16_t, hpcnet::nic::Region> regions;
  int submit = RDMA_SUBMIT_PIO_WC;
  uint64_t dq_free = 0;     // the DQ's free words as last read, minus words written since
  unsigned pio_pos = 0;     // next word of the DQ window
  uint64_t hdq_tail = 0;    // host DQ words written (free-running)
  uint64_t hdq_head = 0;    // the fetcher's count as last read (HDQ_HEAD)
  uint64_t cq_head = 0, mpq_head = 0;
  bool fence = false;       // the next descriptor blocks
  bool dma_posted = false;  // host-DQ words posted since the fetcher was last seen caught up
  std::vector<uint64_t> held;  // descriptors posted with RDMA_F_MORE, not yet submitted
  int held_mode = 0;           // their submission mode
};

namespace hpcnet::nic {
namespace {

const char kNodeKey = 0;  // its address is the library's node_local key

// The endpoints open on each driver: rdma_close takes its own out; rdma_detach (the node going
// away, as a process's exit) frees those its program never closed.
std::mutex g_eps_mutex;
std::map<Driver*, std::set<rdma_ep*>> g_open_eps;

Driver& node_driver() {
  Platform* p = this_platform();
  if (!p) throw std::logic_error("librdma: called outside a simulated thread or node (no platform)");
  auto* d = static_cast<Driver*>(p->node_local(&kNodeKey));
  if (!d) throw std::logic_error("librdma: no NIC driver attached on this node (rdma_attach)");
  return *d;
}

uint64_t va(rdma_addr a) {
  f::Vaddr v;
  v.addr = a.addr;
  v.key = a.key;
  return v.pack()[0];
}

void put_bytes(std::vector<uint64_t>& w, const void* data, unsigned len) {
  const size_t at = w.size();
  w.resize(at + (len + 7) / 8, 0);
  if (len) std::memcpy(&w[at], data, len);
}

void put_event(std::vector<uint64_t>& w, const rdma_event* e) {
  w.push_back(va(e->at));
  put_bytes(w, e->data, 16);
}

// Word 0 of a descriptor, from the options.
f::DescCtrl ctrl(rdma_ep* ep, f::DescType t, unsigned node, unsigned vp, const rdma_opts* o) {
  f::DescCtrl c;
  c.type = t;
  c.dst_node = node;
  c.dst_vp = vp;
  if (o) {
    c.tag = o->tag;
    c.cq_ok = o->flags & RDMA_F_CQ;
    c.block = o->flags & RDMA_F_BLOCK;
    c.intr = o->flags & RDMA_F_INTR;
    c.lev = o->local_event != nullptr;
    c.rev = o->remote_event != nullptr;
    c.phys = o->flags & RDMA_F_PHYS;
  }
  c.block = c.block || ep->fence;
  return c;
}

// Appends n words to the VP's DQ by the submission mode `mode` (words[0..n) as they are).
int submit(rdma_ep* ep, const uint64_t* words, unsigned n, int mode) {
  Driver& d = *ep->drv;
  const unsigned v = ep->vp->index;
  if (mode == RDMA_SUBMIT_DMA) {
    if (!ep->vp->hdq) return RDMA_EINVAL;
    const uint64_t size = 1ull << ep->vp->cfg.hdq_log2;
    // room: the fetcher's count as last read; the register (an uncached read, a PCIe round
    // trip) is read again only when the ring looks full. One word stays free: a full ring and an
    // empty one read the same.
    while (((ep->hdq_tail - ep->hdq_head) & (size - 1)) + n >= size) {
      ep->hdq_head = d.vp_reg(v, f::VP_HDQ_HEAD_OFFSET);
      if (((ep->hdq_tail - ep->hdq_head) & (size - 1)) + n >= size) d.platform().relax();
    }
    // the descriptor's words in one store sequence (two where the ring wraps)
    const uint64_t at = ep->hdq_tail & (size - 1);
    const uint64_t first = std::min<uint64_t>(n, size - at);
    d.platform().mem_write(ep->vp->hdq.phys + 8 * at, words, 8 * first);
    if (first < n) d.platform().mem_write(ep->vp->hdq.phys, words + first, 8 * (n - first));
    ep->hdq_tail += n;
    ep->dma_posted = true;
    d.platform().fence();
    d.set_vp_reg(v, f::VP_HDQ_TAIL_OFFSET, ep->hdq_tail & 0xFFFF'FFFF);
    return 0;
  }
  // PIO after DMA on one VP: the DQ takes words in arrival order, so the fetcher must have taken
  // every word of the host DQ before a PIO word may follow (docs/nic.md, Descriptors)
  if (ep->dma_posted) {
    const uint64_t mask = (1ull << ep->vp->cfg.hdq_log2) - 1;
    while (d.vp_reg(v, f::VP_HDQ_HEAD_OFFSET) != (ep->hdq_tail & mask)) d.platform().relax();
    ep->dma_posted = false;
    ep->dq_free = 0;  // the fetched words took DQ room too: read DQ_FREE again
  }
  while (ep->dq_free < n) {
    ep->dq_free = d.vp_reg(v, f::VP_DQ_FREE_OFFSET);
    if (ep->dq_free < n) d.platform().relax();
  }
  ep->dq_free -= n;
  constexpr unsigned kWindow = f::VP_DQ_FREE_OFFSET / 8;  // words of the DQ window
  if (mode == RDMA_SUBMIT_PIO_WC) {
    ep->pio_pos = (ep->pio_pos + 7) & ~7u;  // each call starts a 64-byte line
    if (ep->pio_pos + n > kWindow) ep->pio_pos = 0;
    d.device().mmio_write_wc(ep->vp->page() + 8ull * ep->pio_pos, words, n);
    ep->pio_pos = (ep->pio_pos + n) % kWindow;  // a call that ends the window: the next starts at 0
  } else {
    for (unsigned i = 0; i < n; ++i) {
      d.device().mmio_write64(ep->vp->page() + 8ull * ep->pio_pos, words[i]);
      ep->pio_pos = (ep->pio_pos + 1) % kWindow;
    }
  }
  return 0;
}

int mode_of(rdma_ep* ep, const rdma_opts* o) { return (o && o->submit >= 0) ? o->submit : ep->submit; }

// Submits the descriptors held by RDMA_F_MORE in one go.
int flush_held(rdma_ep* ep) {
  if (ep->held.empty()) return 0;
  const int rc = submit(ep, ep->held.data(), unsigned(ep->held.size()), ep->held_mode);
  ep->held.clear();
  return rc;
}

// Submits a descriptor (words[0] is its control word, NWORDS filled in here), or holds it
// (RDMA_F_MORE) to go with the next ones: those held go first when it does not fit with them.
int post(rdma_ep* ep, f::DescCtrl c, std::vector<uint64_t> words, const rdma_opts* o) {
  const unsigned n = unsigned(words.size()) + 1;
  c.nwords = n;
  words.insert(words.begin(), c.pack()[0]);
  ep->fence = false;
  const int mode = mode_of(ep, o);
  if (mode == RDMA_SUBMIT_DMA && !ep->vp->hdq) return RDMA_EINVAL;
  if (!ep->held.empty() && (ep->held_mode != mode || ep->held.size() + n > RDMA_MORE_WORDS))
    if (const int rc = flush_held(ep)) return rc;
  const bool more = o && (o->flags & RDMA_F_MORE);
  if (ep->held.empty() && (!more || n > RDMA_MORE_WORDS)) return submit(ep, words.data(), n, mode);
  ep->held.insert(ep->held.end(), words.begin(), words.end());
  ep->held_mode = mode;
  return more ? 0 : flush_held(ep);
}

int rdma_rw(rdma_ep* ep, f::DescType t, unsigned node, unsigned vp, rdma_addr remote, rdma_addr local, uint32_t len,
            const rdma_opts* o) {
  f::DescCtrl c = ctrl(ep, t, node, vp, o);
  std::vector<uint64_t> w{len, va(local), va(remote)};
  if (c.lev) put_event(w, o->local_event);
  if (c.rev) put_event(w, o->remote_event);
  return post(ep, c, std::move(w), o);
}

}  // namespace

void rdma_attach(Driver* driver) { driver->platform().set_node_local(&kNodeKey, driver); }
void rdma_detach(Driver* driver) {
  if (driver->platform().node_local(&kNodeKey) == driver) driver->platform().set_node_local(&kNodeKey, nullptr);
  std::set<rdma_ep*> left;
  {
    const std::lock_guard<std::mutex> lock(g_eps_mutex);
    const auto it = g_open_eps.find(driver);
    if (it == g_open_eps.end()) return;
    left.swap(it->second);
    g_open_eps.erase(it);
  }
  for (rdma_ep* ep : left) delete ep;  // host memory only: the node's hardware goes with it
}

}  // namespace hpcnet::nic

using namespace hpcnet::nic;

extern "C" {

int rdma_open(rdma_ep** out) { return rdma_open_attr(out, nullptr); }

int rdma_open_attr(rdma_ep** out, const rdma_ep_attr* attr) {
  auto ep = std::make_unique<rdma_ep>();
  ep->drv = &node_driver();
  VpConfig cfg;
  if (attr) {
    cfg.cq_log2 = attr->cq_log2;
    cfg.mpq_log2 = attr->mpq_log2;
    cfg.hdq_log2 = attr->hdq_log2;
    cfg.phys_ok = attr->phys_ok != 0;
  }
  try {
    ep->vp = &ep->drv->open_vp(cfg);
  } catch (const std::invalid_argument&) {
    return RDMA_EINVAL;
  } catch (const std::runtime_error&) {
    return -static_cast<int>(f::Status::BAD_VP);
  }
  ep->as = std::make_unique<AddressSpace>(ep->drv->platform());
  const unsigned v = ep->vp->index;
  ep->cq_head = ep->drv->vp_reg(v, f::VP_CQ_HEAD_OFFSET);
  ep->mpq_head = ep->drv->vp_reg(v, f::VP_MPQ_HEAD_OFFSET);
  ep->hdq_tail = ep->drv->vp_reg(v, f::VP_HDQ_HEAD_OFFSET);  // the fetcher's count of this VP goes on
  ep->hdq_head = ep->hdq_tail;
  {
    const std::lock_guard<std::mutex> lock(g_eps_mutex);
    g_open_eps[ep->drv].insert(ep.get());
  }
  *out = ep.release();
  return 0;
}

void rdma_close(rdma_ep* ep) {
  if (!ep) return;
  rdma_quiet(ep);
  for (auto& [k, r] : ep->regions) ep->drv->dereg_mr(r);
  ep->drv->close_vp(*ep->vp);
  {
    const std::lock_guard<std::mutex> lock(g_eps_mutex);
    g_open_eps[ep->drv].erase(ep);
  }
  delete ep;
}

unsigned rdma_node(const rdma_ep* ep) { return ep->drv->node_id(); }
unsigned rdma_vp(const rdma_ep* ep) { return ep->vp->index; }
void rdma_set_submit(rdma_ep* ep, int mode) {
  flush_held(ep);
  ep->submit = mode;
}

uint64_t rdma_alloc(rdma_ep* ep, size_t bytes, unsigned offset) { return ep->as->alloc(bytes, offset); }
void rdma_free(rdma_ep* ep, uint64_t vaddr) { ep->as->free(vaddr); }
void rdma_mem_read(rdma_ep* ep, uint64_t vaddr, void* dst, size_t n) { ep->as->read(vaddr, dst, n); }
void rdma_mem_write(rdma_ep* ep, uint64_t vaddr, const void* src, size_t n) { ep->as->write(vaddr, src, n); }
uint64_t rdma_phys(rdma_ep* ep, uint64_t vaddr) { return ep->as->phys(vaddr); }

int rdma_reg_mr(rdma_ep* ep, uint64_t vaddr, size_t bytes, int access, uint16_t* key) {
  try {
    Region r = ep->drv->reg_mr(*ep->as, ep->vp->index, vaddr, bytes, access & RDMA_ACCESS_READ,
                               access & RDMA_ACCESS_WRITE);
    ep->regions[r.key] = r;
    *key = r.key;
    return 0;
  } catch (const std::runtime_error&) {
    return RDMA_EINVAL;
  }
}

int rdma_dereg_mr(rdma_ep* ep, uint16_t key) {
  auto it = ep->regions.find(key);
  if (it == ep->regions.end()) return RDMA_EINVAL;
  flush_held(ep);  // the posts before it go before it
  ep->drv->dereg_mr(it->second);
  ep->regions.erase(it);
  return 0;
}

int rdma_write(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, rdma_addr local, uint32_t len,
               const rdma_opts* opts) {
  return rdma_rw(ep, f::DescType::RDMA_WRITE, node, vp, remote, local, len, opts);
}

int rdma_read(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, rdma_addr local, uint32_t len,
              const rdma_opts* opts) {
  return rdma_rw(ep, f::DescType::RDMA_READ, node, vp, remote, local, len, opts);
}

int rdma_write_imm(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, const void* data, unsigned len,
                   const rdma_opts* opts) {
  if (len > 128) return RDMA_EINVAL;
  f::DescCtrl c = ctrl(ep, f::DescType::IMM_WRITE, node, vp, opts);
  c.short_len = len;
  std::vector<uint64_t> w{va(remote)};
  if (c.lev) put_event(w, opts->local_event);
  if (c.rev) put_event(w, opts->remote_event);
  put_bytes(w, data, len);
  return post(ep, c, std::move(w), opts);
}

int rdma_mp_send(rdma_ep* ep, unsigned node, unsigned vp, const void* data, unsigned len, const rdma_opts* opts) {
  if (len > 120) return RDMA_EINVAL;
  f::DescCtrl c = ctrl(ep, f::DescType::MP_SEND, node, vp, opts);
  c.short_len = len;
  std::vector<uint64_t> w;
  if (c.lev) put_event(w, opts->local_event);
  put_bytes(w, data, len);
  if (len == 0) w.push_back(0);  // a descriptor has at least 2 words: an empty payload takes one
  return post(ep, c, std::move(w), opts);
}

int rdma_mp_recv(rdma_ep* ep, void* buf, rdma_mp_info* info, int block) {
  Driver& d = *ep->drv;
  const Vp& vp = *ep->vp;
  if (!vp.mpq) return RDMA_EINVAL;
  const uint64_t size = 1ull << vp.cfg.mpq_log2;
  const uint64_t at = vp.mpq.phys + 128 * (ep->mpq_head & (size - 1));
  const bool phase = ((ep->mpq_head >> vp.cfg.mpq_log2) & 1) == 0;
  f::MpHead h;
  for (;;) {
    h = f::MpHead::unpack({d.platform().mem_read64(at)});
    if (h.phase == phase) break;
    if (!block) return 0;
    d.platform().relax();
  }
  d.platform().mem_read(at + 8, buf, std::min<unsigned>(h.len, 120));
  if (info) *info = rdma_mp_info{h.src_node, h.src_vp, uint16_t(h.tag), h.len};
  ++ep->mpq_head;
  d.set_vp_reg(vp.index, f::VP_MPQ_HEAD_OFFSET, ep->mpq_head & 0xFFFF'FFFF);
  return int(h.len);
}

int rdma_poll_cq(rdma_ep* ep, rdma_cqe* out, int max) {
  flush_held(ep);  // (a held post's completion would never come)
  Driver& d = *ep->drv;
  const Vp& vp = *ep->vp;
  if (!vp.cq) return 0;
  const uint64_t size = 1ull << vp.cfg.cq_log2;
  int n = 0;
  while (n < max) {
    const uint64_t at = vp.cq.phys + 16 * (ep->cq_head & (size - 1));
    const bool phase = ((ep->cq_head >> vp.cfg.cq_log2) & 1) == 0;
    const f::Cqe e = f::Cqe::unpack({d.platform().mem_read64(at), d.platform().mem_read64(at + 8)});
    if (e.phase != phase) break;
    const int st = static_cast<int>(e.status);
    out[n++] = rdma_cqe{uint16_t(e.tag), st ? -st : 0, unsigned(e.type), e.vp, e.dst_node, e.len, e.info};
    ++ep->cq_head;
  }
  if (n) d.set_vp_reg(vp.index, f::VP_CQ_HEAD_OFFSET, ep->cq_head & 0xFFFF'FFFF);
  return n;
}

void rdma_wait_event(rdma_ep* ep, uint64_t vaddr, void* out) {
  std::array<uint8_t, 16> b{};
  const std::array<uint8_t, 16> zero{};
  flush_held(ep);
  for (;;) {
    ep->as->read(vaddr, b.data(), 16);
    if (b != zero) break;
    ep->drv->platform().relax();
  }
  if (out) std::memcpy(out, b.data(), 16);
  ep->as->write(vaddr, zero.data(), 16);
}

void rdma_fence(rdma_ep* ep) {
  flush_held(ep);
  ep->fence = true;
}

int rdma_post_raw(rdma_ep* ep, const uint64_t* words, unsigned n) {
  if (n == 0) return RDMA_EINVAL;
  if (const int rc = flush_held(ep)) return rc;
  return submit(ep, words, n, ep->submit);
}

int rdma_flush(rdma_ep* ep) { return flush_held(ep); }

int rdma_quiet(rdma_ep* ep) {
  if (const int rc = flush_held(ep)) return rc;
  Driver& d = *ep->drv;
  const unsigned v = ep->vp->index;
  for (;;) {
    const f::VpStatus s = f::VpStatus::unpack({d.vp_reg(v, f::VP_STATUS_OFFSET)});
    // the DQ drained and nothing outstanding: every posted descriptor has completed
    if (s.outstanding == 0 && s.dq_words == 0 &&
        (!ep->vp->hdq || (d.vp_reg(v, f::VP_HDQ_HEAD_OFFSET) == (ep->hdq_tail & ((1ull << ep->vp->cfg.hdq_log2) - 1)))))
      break;
    d.platform().relax();
  }
  const f::VpErr e = d.vp_error(v);
  if (e.count == 0) return 0;
  d.clear_vp_error(v);
  return -static_cast<int>(e.code);
}

}  // extern "C"
