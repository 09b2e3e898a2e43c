// test_gsn_random: random traffic through every gsn_tree variant (gsn_tb.hpp run_random): barriers
// and reduces of every type and op on several addresses at once, leaves in random order with
// random delays, random down-path back-pressure, one bad contribution in some rounds. Checked: one
// down message per operation at every leaf, identical everywhere, equal to the reference folded in
// the documented tree order, err exactly when a contribution was bad, no result before every leaf
// contributed, nothing extra. HPCNET_SEED=<n> repeats a run.
#include "gsn_models.hpp"

using namespace gsnt;

namespace {

template <class V>
void random_suite(const char* name) {
  constexpr unsigned N = Cfg<V>::nodes, R = Cfg<V>::radix, S = Cfg<V>::slots;
  const std::uint64_t base = hpcnet::tb::seed(name);
  std::vector<RandomCfg> cfgs;
  RandomCfg c;
  c.streams = S;
  c.rounds = N >= 32 ? 25 : 50;
  cfgs.push_back(c);  // mixed delays, moderate back-pressure
  c.max_delay = 0;
  c.ready_pct = 100;
  c.err_pct = 0;
  cfgs.push_back(c);  // back to back, no back-pressure
  c.ready_pct = 15;
  c.max_delay = 2;
  c.err_pct = 10;
  cfgs.push_back(c);  // heavy down-path back-pressure
  c.streams = 1;
  c.ready_pct = 60;
  c.max_delay = 20;
  cfgs.push_back(c);  // one address, slow leaves
  if (N <= R) {       // single-level tree: more addresses than slots, one global order
    c.streams = S + 3;
    c.ordered = true;
    c.max_delay = 3;
    cfgs.push_back(c);
  }
  // every check of a run is in run_random (gsn_tb.hpp); here, that the suite drove the error path
  // too: the configurations with bad contributions (5% and 10% of at least 150 rounds) have some
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < cfgs.size(); ++i) {
    std::uint64_t s = base + i;
    INFO("config " << i << " seed " << s << " (HPCNET_SEED=" << base << ")");
    RandomStats st = run_random<V>(s, cfgs[i]);
    bad += st.errs;
    std::printf("%s config %zu: %llu ops (%llu with a bad contribution), %llu cycles, %llu up stalls\n",
                name, i, static_cast<unsigned long long>(st.ops), static_cast<unsigned long long>(st.errs),
                static_cast<unsigned long long>(st.cycles), static_cast<unsigned long long>(st.up_stalls));
  }
  CHECK(bad > 0);
}

}  // namespace

#define GSN_RANDOM_TEST(V, tags) \
  TEST_CASE("gsn: random " #V, "[gsn][random]" tags) { random_suite<V>(#V); }

GSN_RANDOM_TEST(Vgsn_tree_2, "")
GSN_RANDOM_TEST(Vgsn_tree_4, "")
GSN_RANDOM_TEST(Vgsn_tree_16, "")
#if HPCNET_BENCH_MODELS  // a benchmark model (rtl/gsn/models.cmake): make test-long
GSN_RANDOM_TEST(Vgsn_tree_64, "[long]")
#endif
GSN_RANDOM_TEST(Vgsn_tree_r4_n1, "")
GSN_RANDOM_TEST(Vgsn_tree_r4_n5, "")
GSN_RANDOM_TEST(Vgsn_tree_r2_n8_s1, "")
GSN_RANDOM_TEST(Vgsn_tree_r3_n7, "")
