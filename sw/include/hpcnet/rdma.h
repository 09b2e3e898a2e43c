/* hpcnet/rdma.h: the NIC's RDMA user library (docs/nic.md section 10). C-callable; the names and
 * semantics follow what a verbs or OpenSHMEM user expects: an endpoint owns one virtual port (VP)
 * of its node's NIC; memory is registered for it (a key per region, with rights); RDMA write and
 * read are byte-granular between registered regions of two nodes, with no connection set-up;
 * immediate writes carry 1..128 bytes in the descriptor (the buffer is reusable on return);
 * mini-packets (0..120 bytes) land in the destination VP's receive queue; completions are CQ
 * entries (always for an error, for success on request) and events (16 bytes written at an
 * address, locally and / or remotely, when the transfer is complete).
 *
 * fence: every transfer posted after it starts after every one posted before it has completed
 *        (OpenSHMEM shmem_fence: ordering of puts; the NIC's blocking flag).
 * quiet: returns when every transfer posted so far has completed: remote writes are visible at
 *        the target, reads have landed (shmem_quiet). Returns 0, or the negative status of the
 *        first error since the previous quiet.
 *
 * Return codes: 0 or a positive count; negative: -(status code) of the NIC (docs/nic_formats.md,
 * status; bit 7 of the code: found at the remote node) or RDMA_EINVAL for a bad argument the
 * library refuses before posting (a length out of range, an unknown key of this endpoint).
 * Each call acts on the node its thread runs on (hpcnet::this_platform()); attach the node's
 * driver first (rdma_attach, C++ side).
 */
#ifndef HPCNET_RDMA_H
#define HPCNET_RDMA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { RDMA_EINVAL = -1000 };
enum { RDMA_ACCESS_READ = 1, RDMA_ACCESS_WRITE = 2 };
/* how descriptors reach the NIC: PIO through the write-combining mapping (the default), PIO one
 * uncached word at a time, or written to the host DQ in memory and fetched by DMA on a doorbell */
enum { RDMA_SUBMIT_PIO_WC = 0, RDMA_SUBMIT_PIO = 1, RDMA_SUBMIT_DMA = 2 };
/* post flags. RDMA_F_PHYS: the addresses are physical (rdma_addr.key ignored): only on an
 * endpoint opened with phys_ok (kernel-level users), and the target VP must have it too.
 * RDMA_F_MORE: more posts follow at once: the library may hold the descriptor (with those held
 * before, up to RDMA_MORE_WORDS words, one submission mode) and submit it with the next ones in
 * one go, so that they share write-combined lines (or one doorbell); the next post without it,
 * rdma_flush, and every call that waits for or orders transfers (rdma_poll_cq, rdma_wait_event,
 * rdma_quiet, rdma_fence, rdma_post_raw, rdma_dereg_mr, rdma_set_submit, rdma_close) submit
 * what is held first */
enum { RDMA_F_CQ = 1, RDMA_F_BLOCK = 2, RDMA_F_INTR = 4, RDMA_F_PHYS = 8, RDMA_F_MORE = 16 };
enum { RDMA_MORE_WORDS = 24 };  /* three 64-byte lines */

typedef struct rdma_ep rdma_ep;
typedef struct { uint16_t key; uint64_t addr; } rdma_addr;            /* a registered byte */
typedef struct { rdma_addr at; uint8_t data[16]; } rdma_event;         /* at: 16-byte aligned */
typedef struct {
  uint16_t tag;                     /* returned in the CQ entry */
  unsigned flags;                   /* RDMA_F_* */
  const rdma_event* local_event;    /* written here when the transfer is complete (or NULL) */
  const rdma_event* remote_event;   /* written at the target (writes only; or NULL) */
  int submit;                       /* RDMA_SUBMIT_*, or -1: the endpoint's mode */
} rdma_opts;
typedef struct {
  uint16_t tag; int status; unsigned type, vp, dst_node; uint32_t len, info;
} rdma_cqe;
typedef struct { unsigned src_node, src_vp; uint16_t tag; unsigned len; } rdma_mp_info;

int  rdma_open(rdma_ep** ep);                  /* a free VP of this node; 0 or negative */
/* the same with the VP's ring sizes (log2 of the entries; 0: no ring) and rights chosen:
 * rdma_open is cq_log2 8, mpq_log2 6, hdq_log2 10, phys_ok 0 */
typedef struct { unsigned cq_log2, mpq_log2, hdq_log2; int phys_ok; } rdma_ep_attr;
int  rdma_open_attr(rdma_ep** ep, const rdma_ep_attr* attr);
void rdma_close(rdma_ep* ep);                  /* waits for its transfers, deregisters its regions,
                                                  frees its VP; an endpoint never closed is freed
                                                  when its node detaches (rdma_detach) */
unsigned rdma_node(const rdma_ep* ep);         /* this node's id */
unsigned rdma_vp(const rdma_ep* ep);           /* the endpoint's VP */
void rdma_set_submit(rdma_ep* ep, int mode);

/* the endpoint's process memory: a buffer at a fresh virtual address (`offset` bytes into its
 * first page), CPU loads and stores of it */
uint64_t rdma_alloc(rdma_ep* ep, size_t bytes, unsigned offset);
void rdma_free(rdma_ep* ep, uint64_t vaddr);
void rdma_mem_read(rdma_ep* ep, uint64_t vaddr, void* dst, size_t n);
void rdma_mem_write(rdma_ep* ep, uint64_t vaddr, const void* src, size_t n);
/* the physical address of a byte of the endpoint's memory (for RDMA_F_PHYS; pages are scattered:
 * a physical range ends at its page) */
uint64_t rdma_phys(rdma_ep* ep, uint64_t vaddr);

int rdma_reg_mr(rdma_ep* ep, uint64_t vaddr, size_t bytes, int access, uint16_t* key);
int rdma_dereg_mr(rdma_ep* ep, uint16_t key);

int rdma_write(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, rdma_addr local, uint32_t len,
               const rdma_opts* opts);
int rdma_read(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, rdma_addr local, uint32_t len,
              const rdma_opts* opts);
int rdma_write_imm(rdma_ep* ep, unsigned node, unsigned vp, rdma_addr remote, const void* data, unsigned len,
                   const rdma_opts* opts);
int rdma_mp_send(rdma_ep* ep, unsigned node, unsigned vp, const void* data, unsigned len, const rdma_opts* opts);
/* a received mini-packet into buf (up to 120 bytes); returns its length, or 0 when none is there
 * and block is 0 */
int rdma_mp_recv(rdma_ep* ep, void* buf, rdma_mp_info* info, int block);
int rdma_poll_cq(rdma_ep* ep, rdma_cqe* out, int max);            /* entries taken (0..max) */
/* waits until the 16 bytes at vaddr (the endpoint's memory) are not all zero, copies them to out
 * (may be NULL) and zeroes the slot for the next event */
void rdma_wait_event(rdma_ep* ep, uint64_t vaddr, void* out);
void rdma_fence(rdma_ep* ep);
int  rdma_quiet(rdma_ep* ep);

/* n 64-bit words appended to the endpoint's DQ as they are, through the endpoint's submission
 * mode, with no check: a descriptor of the NIC's format (docs/nic_formats.md desc_ctrl) or any
 * part of one (a descriptor may be written across calls: the NIC starts it when its last word is
 * there). For tests and tools that build descriptors themselves. 0, or RDMA_EINVAL (n = 0, or DMA
 * submission on an endpoint without a host DQ) */
int  rdma_post_raw(rdma_ep* ep, const uint64_t* words, unsigned n);
/* submits the descriptors held by RDMA_F_MORE (none: nothing); 0 or RDMA_EINVAL as a post */
int  rdma_flush(rdma_ep* ep);

#ifdef __cplusplus
}
namespace hpcnet::nic {
class Driver;
void rdma_attach(Driver* driver);  // the library's calls on the driver's node use it
void rdma_detach(Driver* driver);  // and frees the endpoints left open on that node
}  // namespace hpcnet::nic
#endif

#endif
