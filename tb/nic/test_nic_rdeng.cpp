// test_nic_rdeng: nic_rdeng (Verilated) against a C++ reference, with C++ models of its
// neighbours:
//   - the ATT (nic_att): answers in order after a latency plus random extra delay, from a page
//     map of scattered physical pages (physical jobs: paddr = ADDR); it can fail a job's first
//     lookup (BAD_KEY, NOT_OWNER, RANGE, PERM; PHYS_DENIED for a physical job without PHYS_OK)
//     or a later page's (a region deregistered under the transfer); it stalls requests at random;
//   - host memory (hpcnet/tb/dma_mem.hpp): byte at physical address a = a fixed hash of a; read
//     requests answered in order after a latency plus random extra delay, as the 32-byte-aligned
//     frames holding the requested bytes (bytes outside the request zero), with random idle
//     cycles before frames and random data while no frame is shown;
//   - the job source (random idle cycles), the packet sink and the result sink (random
//     back-pressure; the rates change every 500 cycles).
// Checked against the reference, job by job:
//   - translation requests: exactly one per page, in order, with their exact fields (the first
//     with the job's whole length, later ones with the job's bytes in the page); each later page
//     is asked for no later than 2 cycles after the previous page's answer came back and the page
//     before that was fully requested (the two page slots), and never before that answer;
//   - read requests: the source range in order, each at the translated physical address, cut at
//     ReqBytes-aligned addresses (so at most ReqBytes and never across 4 KB), with a rolling tag;
//     none for a failed job, none from a failed page on;
//   - credit: frames requested but not yet returned never exceed the FIFO, a returned frame is
//     always accepted (rd_rsp_ready_o), and frames requested minus source frames whose bytes have
//     left in accepted flits never exceed the FIFO plus the 4 frames the datapath can hold;
//   - packets: every flit exactly (heads field by field and bit for bit, payload bytes, zeros
//     outside the job, zeros from a failed page on), pkt_last_o on the fifth flit;
//   - results: one per job in job order with status (a failed first translation's; OK for a job
//     that sent packets, whose last head's AUX carries a later page's failure), MSG_ID and vp,
//     shown only after the job's last flit has been accepted; no packet for a job whose first
//     translation failed;
//   - every DUT output holds its payload until accepted; RTL assertions are on.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "nic_rdeng_tb.hpp"

TEST_CASE("nic_rdeng: the paper's example - 34 bytes from source offset 31 to destination offset 0",
          "[nic_rdeng]") {
  RdengTb<Vnic_rdeng> tb(kDefault, Cfg{}, hpcnet::tb::seed("nic_rdeng paper example"));
  bool given = false;
  tb.source = [&](Job& j) {
    if (given) return false;
    given = true;
    tb.random_job(j, 31, 0, 34, false);
    j.src = (j.src & ~std::uint64_t{1023}) + 31;  // source offset 31, inside one 1 KB request
    j.dst &= ~std::uint64_t{127};                  // destination offset 0 in its 128-byte block
    return true;
  };
  tb.capture = true;
  tb.run(100000);
  REQUIRE(tb.n_jobs_done == 1);
  REQUIRE(tb.jobs.front().rd.size() == 1);  // one read of 34 bytes at source offset 31 ...
  REQUIRE(tb.fr_req == 3);                  // ... comes back as 3 source frames
  REQUIRE(tb.captured.size() == 5);         // one packet: the head, then
  const Job& j = tb.jobs.front();
  for (unsigned i = 0; i < 32; ++i) REQUIRE(tb.captured[1][i] == j.byte(i));  // 2 destination frames
  REQUIRE(tb.captured[2][0] == j.byte(32));
  REQUIRE(tb.captured[2][1] == j.byte(33));
  for (unsigned i = 2; i < 32; ++i) REQUIRE(tb.captured[2][i] == 0);
  REQUIRE(tb.captured[3] == Bytes32{});     // and two empty ones
  REQUIRE(tb.captured[4] == Bytes32{});
  REQUIRE(tb.n_bytes == 34);
}

// The exhaustive sweep: every source offset 0..31 x destination offset 0..31 x lengths 1..3 and
// 1..3 bytes either side of 32, 128, 1024 and 4096 (31 lengths, 31744 jobs), in two halves.
TEST_CASE("nic_rdeng: every source and destination offset with lengths 1 to 3 and around 32 and 128",
          "[nic_rdeng]") {
  sweep<Vnic_rdeng>(kDefault, around({32, 128}), 1, "nic_rdeng sweep 32 128");
}

TEST_CASE("nic_rdeng: every source and destination offset with lengths around 1024 and 4096",
          "[nic_rdeng]") {
  std::vector<std::uint32_t> lens = around({1024, 4096});
  lens.erase(lens.begin(), lens.begin() + 3);  // 1..3 are in the other half
  sweep<Vnic_rdeng>(kDefault, lens, 1, "nic_rdeng sweep 1024 4096");
}

TEST_CASE("nic_rdeng: random lengths up to 64 KB from scattered pages with idle and back-pressure",
          "[nic_rdeng]") {
  random_jobs<Vnic_rdeng>(kDefault, 300, 65536, 0, 0, "nic_rdeng random 64K");
}

TEST_CASE("nic_rdeng: a failing first translation ends the job with its status and no packet",
          "[nic_rdeng]") {
  random_jobs<Vnic_rdeng>(kDefault, 300, 8192, 35, 0, "nic_rdeng first translation fails");
}

TEST_CASE("nic_rdeng: a failing later page is not read - zeros from it on and its status",
          "[nic_rdeng]") {
  random_jobs<Vnic_rdeng>(kDefault, 200, 20000, 10, 60, "nic_rdeng later page fails");
}

TEST_CASE("nic_rdeng: small FIFO and requests - credit binding all the time", "[nic_rdeng]") {
  random_jobs<Vnic_rdeng_small>(kSmall, 300, 16384, 10, 10, "nic_rdeng small FIFO random");
  sweep<Vnic_rdeng_small>(kSmall, around({32, 128, 256}), 5, "nic_rdeng small FIFO sweep");
}

TEST_CASE("nic_rdeng: one flit per cycle at large sizes with a frame per cycle from memory",
          "[nic_rdeng]") {
  // Memory latency 250 cycles (the paper's 0.8 us at 312.5 MHz), ATT 24, no random delay, the
  // output always ready: after the first flit the output must not idle, across requests, pages
  // and jobs.
  Cfg cfg;
  cfg.att_lat = 24;
  cfg.att_jit = 0;
  cfg.mem_lat = 250;
  cfg.mem_jit = 0;
  cfg.mem_idle_pct = 0;
  cfg.random_rates = false;
  struct Case {
    unsigned a, d;
    std::uint32_t len;
    unsigned jobs;
  };
  const Case cases[] = {{0, 0, 65536, 4}, {5, 17, 65536, 4}, {31, 0, 65536 - 7, 4},
                        {0, 0, 4096, 16}, {3, 9, 1024, 32},  {0, 0, 128, 64}};
  for (const Case& c : cases) {
    RdengTb<Vnic_rdeng> tb(kDefault, cfg, 1);
    unsigned made = 0;
    tb.source = [&](Job& j) {
      if (made == c.jobs) return false;
      ++made;
      tb.random_job(j, c.a, c.d, c.len, false);
      j.dst = (j.dst & ~std::uint64_t{127}) + c.d;  // destination offset c.d in its 128-byte block
      return true;
    };
    tb.run(10000000);
    const double bpc = tb.bytes_per_cycle();
    const std::int64_t span = tb.last_flit - tb.first_flit + 1;
    std::printf("nic_rdeng throughput: %u jobs of %u bytes, src offset %u, dst offset %u: %.2f bytes/cycle "
                "(%llu flits in %lld cycles from the first flit; 25.6 is one flit a cycle)\n",
                c.jobs, c.len, c.a, c.d, bpc, static_cast<unsigned long long>(tb.n_flits),
                static_cast<long long>(span));
    if (c.len >= 4096) {
      INFO("jobs of " << c.len << " bytes");
      REQUIRE(static_cast<std::int64_t>(tb.n_flits) == span);  // no idle cycle on the output
    }
  }
}

// The fence (nic_inval's inv_active_i/inv_key_i, emulated: high while inv_hold_o is, then a random
// reads phase) at random moments, mostly with the key of the job the front end works on, now and
// then another key (nothing may change) or a physical job whose source carries the key's bits (not
// fenced). Jobs of random lengths, offsets and keys (a key often the previous job's) from
// scattered pages. The reference cuts the fenced job where the fence meets it (fence_check,
// fence_after in nic_rdeng_tb.hpp), and the usual checks then hold it to that: (a) no read
// request from the cycle after the fence, no translation request after the one under way;
// (b) inv_hold_o cycle for cycle: high in the fence's first cycle, then exactly while a lookup of
// the job is shown or unanswered; (c) every packet still out, zeros from the cut, the last head's
// AUX BAD_KEY (OK when the reads were all issued before the fence); a job whose first translation
// was out fails with BAD_KEY and no packet; (d) the bytes before the cut are the source's;
// (e) the jobs after it, and jobs of other keys, exactly as without a fence.
template <class M>
void rdeng_fence_random(Params p, unsigned n, std::uint32_t max_len, const char* name) {
  const std::uint64_t seed = hpcnet::tb::seed(name);
  RdengTb<M> tb(p, Cfg{}, seed);
  tb.fence.on = true;
  unsigned made = 0;
  std::uint64_t prev_key = 1;
  tb.source = [&](Job& j) {
    if (made == n) return false;
    ++made;
    const unsigned cls = tb.rnd(10);
    std::uint32_t len = cls < 3 ? 1 + tb.rnd(256) : cls < 7 ? 1 + tb.rnd(4096) : 1 + tb.rnd(max_len);
    tb.random_job(j, tb.rnd(32), tb.rnd(32), std::min(len, max_len));
    if (tb.pct(40)) j.src = (prev_key << 48) | (j.src & kAddrMask);  // the previous job's key
    prev_key = j.src >> 48;
    return true;
  };
  tb.run(100000000);
  const auto& f = tb.fence;
  std::printf("%s: %u jobs, %lld cycles, %u fences: %u met a first translation (and %u more failed by the ATT's "
              "BAD_KEY, %u lookups answered so), %u a job before its first "
              "read, %u one reading, %u its last read's cycle, %u a job with its reads all issued, %u another "
              "key, %u a physical job, %u a job already fenced; %u cycles held for a lookup, hold phase up to "
              "%lld cycles; %u jobs after a fenced one\n",
              name, n, static_cast<long long>(tb.cyc), f.n, f.n_xl0, f.n_xl0_att, f.n_att_bad, f.n_no_read, f.n_read, f.n_last_read, f.n_done,
              f.n_other, f.n_phys, f.n_again, f.n_lookup_held, static_cast<long long>(f.max_hold),
              f.n_after_fenced);
  REQUIRE(tb.n_jobs_done == n);
  REQUIRE(f.n_xl0 > 0);
  REQUIRE(f.n_read > 0);
  REQUIRE(f.n_done > 0);
  REQUIRE(f.n_other > 0);
  REQUIRE(f.n_phys > 0);
  REQUIRE(f.n_lookup_held > 0);
  REQUIRE(f.n_after_fenced > 0);
  REQUIRE(f.max_hold < 200);  // (b) bounded: the ATT's latency and jitter, not the job's length
}

TEST_CASE("nic_rdeng: the fence - reads stop then zeros and BAD_KEY and a first translation out fails the job",
          "[nic_rdeng]") {
  rdeng_fence_random<Vnic_rdeng>(kDefault, 400, 20000, "nic_rdeng fence");
}

TEST_CASE("nic_rdeng: the fence with a small FIFO and requests", "[nic_rdeng]") {
  rdeng_fence_random<Vnic_rdeng_small>(kSmall, 300, 12000, "nic_rdeng small FIFO fence");
}
