/* hpcnet/ssm.h: libssm, the user library of the synchronization engine (paper seed 001).
 * C-callable; names and argument order as in the paper. Each call acts for the calling
 * simulated thread (Platform::current_cpu()) on the engine of the node it runs on
 * (hpcnet::this_platform()). Attach each node's driver first (ssm_attach, C++ side).
 *
 * Return codes: SSM_OK (0), SSM_BUSY (trylock found the lock held), or a negative error:
 * -(state code) of the engine, e.g. -0x82 for ERR_ALIGN. ssm_put/ssm_put_n/ssm_unlock are
 * posted (they return once the command is on its way); an error they cause is returned by
 * the next ssm_quiet() (which also sets ssm_last_error()) and appears in the driver's error
 * log. ssm_get returns 0 on an error; ssm_last_error() tells the code.
 */
#ifndef HPCNET_SSM_H
#define HPCNET_SSM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { SSM_OK = 0, SSM_BUSY = 1 };

/* Collective operations (docs/ssm.md, "Collectives"). Element types and reduction ops: the codes
 * red_type and red_op of rtl/ssm/ssm_regs.toml (docs/ssm_regs.md; libssm.cpp checks them). */
enum { SSM_INT64 = 0, SSM_UINT64 = 1, SSM_DOUBLE = 2, SSM_INT32 = 3 };
enum { SSM_SUM = 0, SSM_MAX = 1, SSM_MIN = 2 };

int      ssm_put(uint64_t addr, uint64_t value);
int      ssm_put_n(uint64_t addr, uint64_t value, unsigned readers);
uint64_t ssm_get(uint64_t addr, unsigned size);   /* size 4 or 8 bytes */
int      ssm_lock(uint64_t addr);
int      ssm_trylock(uint64_t addr);               /* SSM_OK acquired, SSM_BUSY held */
int      ssm_unlock(uint64_t addr);
/* Barrier of `size` local participants on `addr`; io=1 also across all nodes (global sync
 * network). Returns SSM_OK when every participant has arrived, or a negative error. */
int      ssm_barrier(uint64_t addr, unsigned size, int io);
/* All-reduce: *value (8 bytes of `type`: SSM_INT64, SSM_UINT64 or SSM_DOUBLE) is this
 * participant's contribution and is replaced by the result. The result also stays in the entry. */
int      ssm_reduce(uint64_t addr, void* value, int type, int op, unsigned size, int io);
/* Element-wise all-reduce of `size` buffers of `length` bytes (physical, DMA-able addresses);
 * types SSM_INT32, SSM_INT64, SSM_UINT64, SSM_DOUBLE; every participant's dest gets the result. */
int      ssm_burst_reduce(uint64_t src, uint64_t dest, uint64_t length, int type, int op, unsigned size, int io);
int      ssm_quiet(void);        /* wait for all of this thread's operations; first error or 0 */
int      ssm_last_error(void);   /* this thread's last error (negative code) or 0; clears it */

#ifdef __cplusplus
}
namespace hpcnet::ssm {
class Driver;
void ssm_attach(Driver* driver);  // libssm's calls on the driver's node use it (nullptr detaches all)
void ssm_detach(Driver* driver);  // forget one driver
}  // namespace hpcnet::ssm
#endif

#endif
