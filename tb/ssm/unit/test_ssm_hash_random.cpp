// test_ssm_hash_random: both clients run random lookups/commits on few sets (so that sets
// conflict, spill, free and reuse overflow nodes), with random idle cycles, commit delays, DMA
// latency and back-pressure, and small overflow chunks added when the engine is exhausted.
// The harness checks each answer against the reference applied in commit order and that no two
// clients ever hold one set; at each quiet point the counters and the overflow image are checked.
#include "hash_tb.hpp"

using namespace ssmu;

namespace {

Decide random_decide(HashTb& tb) {
  return [&tb](bool hit, const Entry& seen) {
    Commit c;
    c.delay = tb.max_delay ? tb.rnd(0, tb.max_delay) : 0;
    unsigned r = tb.rnd(0, 99);
    if (r < 15) return c;  // release only
    c.write = true;
    if (hit && r < 50) return c;            // free (reset state)
    if (!hit && r < 22) return c;           // reset state on a miss: no-op
    if (hit && r < 60) { c.e = seen; return c; }
    c.e = Entry{tb.rng(), tb.pct(30), tb.pct(50), tb.rnd(0, 255)};
    if (is_reset(c.e)) c.e.cnt = 1;
    return c;
  };
}

void run_random(HashTb& tb, unsigned rounds, unsigned jobs) {
  // Four sets: 1 and 5 share bank 1, 6 is bank 2, 12 is bank 0; 7 addresses each.
  std::vector<std::uint64_t> pool;
  for (unsigned s : {1u, 5u, 6u, 12u})
    for (unsigned i = 0; i < 7; ++i) pool.push_back(addr_in_set(0x10000 + 0x2468ull * i * (s + 1), s));
  tb.add_chunk(tb.next_chunk_base(), 4);
  tb.auto_chunk = true;
  std::uint64_t max_ovf = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned c = 0; c < kClients; ++c)
      for (unsigned j = 0; j < jobs; ++j) tb.push(c, pool[tb.rnd(0, unsigned(pool.size() - 1))], random_decide(tb));
    tb.run_quiet(400000);
    tb.check_quiet();
    max_ovf = std::max<std::uint64_t>(max_ovf, tb.ovf.size());
  }
  // The run must have exercised the overflow area and node reuse.
  CHECK(max_ovf >= 3);
  CHECK(tb.chunks.size() >= 2);
  std::printf("cycles %llu, commits %zu+%zu, updates %llu, chunks %zu, max overflow entries %llu\n",
              (unsigned long long)tb.cycle, tb.cl[0].done.size(), tb.cl[1].done.size(),
              (unsigned long long)tb.updates, tb.chunks.size(), (unsigned long long)max_ovf);
}

}  // namespace

TEST_CASE("ssm_hash: random two clients with idle cycles and slow DMA", "[ssm_hash][random]") {
  HashTb tb(seed("ssm_hash random slow"));
  tb.max_idle = 4;
  tb.max_delay = 3;
  tb.lat_min = 1;
  tb.lat_max = 12;
  tb.dma_ready_pct = 60;
  run_random(tb, 200, 30);
}

TEST_CASE("ssm_hash: random two clients back-to-back", "[ssm_hash][random]") {
  HashTb tb(seed("ssm_hash random fast"));
  tb.lat_max = 2;
  run_random(tb, 200, 30);
}
