/* c_client.c: the RDMA library used from C (hpcnet/rdma.h is C-callable): an endpoint that
 * registers a buffer and answers, and one that writes into it, reads it back and sends a
 * mini-packet, written against hpcnet/rdma.h only; driven by test_nic_c_api.cpp. */
#include <string.h>

#include "hpcnet/rdma.h"

/* Node 1: an endpoint with a registered buffer of n bytes; returns its key, vaddr and VP. */
int c_target(rdma_ep** ep, uint64_t* vaddr, uint16_t* key, unsigned* vp, size_t n) {
  int rc = rdma_open(ep);
  if (rc) return rc;
  *vaddr = rdma_alloc(*ep, n, 3);
  *vp = rdma_vp(*ep);
  return rdma_reg_mr(*ep, *vaddr, n, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE, key);
}

/* Node 0: writes n bytes of pattern into the target, reads them back, checks, sends "done". */
int c_initiator(unsigned node, unsigned vp, uint64_t remote, uint16_t rkey, size_t n) {
  rdma_ep* ep;
  uint64_t src, back;
  uint16_t skey, bkey;
  unsigned char want[256], got[256];
  rdma_addr r = {rkey, remote};
  int rc = rdma_open(&ep);
  if (rc || n > sizeof(want)) return rc ? rc : RDMA_EINVAL;
  src = rdma_alloc(ep, n, 0);
  back = rdma_alloc(ep, n, 0);
  for (size_t i = 0; i < n; ++i) want[i] = (unsigned char)(i * 3 + 1);
  rdma_mem_write(ep, src, want, n);
  if ((rc = rdma_reg_mr(ep, src, n, RDMA_ACCESS_READ, &skey)) != 0) return rc;
  if ((rc = rdma_reg_mr(ep, back, n, RDMA_ACCESS_WRITE, &bkey)) != 0) return rc;
  {
    rdma_addr s = {skey, src}, b = {bkey, back};
    if ((rc = rdma_write(ep, node, vp, r, s, (uint32_t)n, NULL)) != 0) return rc;
    rdma_fence(ep);
    if ((rc = rdma_read(ep, node, vp, r, b, (uint32_t)n, NULL)) != 0) return rc;
  }
  if ((rc = rdma_quiet(ep)) != 0) return rc;
  rdma_mem_read(ep, back, got, n);
  if (memcmp(got, want, n) != 0) return -2000;
  if ((rc = rdma_mp_send(ep, node, vp, "done", 4, NULL)) != 0) return rc;
  rc = rdma_quiet(ep);
  rdma_close(ep);
  return rc;
}

/* Node 1: waits for the mini-packet; returns its length (4 for "done") or a negative error. */
int c_wait_done(rdma_ep* ep) {
  char buf[120];
  rdma_mp_info info;
  int n = rdma_mp_recv(ep, buf, &info, 1);
  return (n == 4 && memcmp(buf, "done", 4) == 0) ? n : -3000;
}
