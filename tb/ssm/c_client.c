/* c_client.c: libssm used from C (the library is C-callable): a producer and a consumer
 * written against hpcnet/ssm.h only, driven by test_ssm_c_api.cpp on simulated threads. */
#include "hpcnet/ssm.h"

/* Puts n values base, base+1, ... into the mailbox, each under the lock counter. */
int c_produce(uint64_t mailbox, uint64_t lock, uint64_t base, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    if (ssm_lock(lock) != SSM_OK) return -1;
    ssm_put(mailbox, base + i);
    ssm_unlock(lock);
  }
  return ssm_quiet();
}

/* Gets n values from the mailbox and returns their sum (4-byte gets when small != 0). */
uint64_t c_consume(uint64_t mailbox, unsigned n, int small) {
  uint64_t sum = 0;
  for (unsigned i = 0; i < n; ++i) sum += ssm_get(mailbox, small ? 4u : 8u);
  return sum;
}
