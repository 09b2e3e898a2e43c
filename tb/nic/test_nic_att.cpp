// test_nic_att: nic_att (Verilated) against a C++ reference of the region table and the ATT.
// Set-up writes every ATT entry with a random page number and registers random regions (bases at
// any byte, the top of the 48-bit space included; 0 to 8 pages long; random owners and rights;
// ATT bases inside the ATT, running past its end, or far beyond it; garbage in KEY_CTRL's
// reserved bits; writes to keys >= NumKeys and ATT indexes >= 2^AttLog2, which must be ignored).
// Then every client looks up at once: inside a region, across page boundaries, straddling its
// ends, before its base, len 0, the whole region, on through the top of the 48-bit space, wrong
// owner, wrong right, unregistered keys, keys >= NumKeys, physical addresses with and without
// phys_ok. A request, once shown, holds until taken; the fields of clients not requesting are
// garbage; random idle cycles per client and random back-pressure on every response port (phases
// from always ready to never ready). Checked every cycle: req_ready_o is exactly the grant of a
// round-robin model over the clients that request and have room (a client has room while fewer
// than AttLat + 4 of its lookups are accepted and not yet taken); rsp_valid_o rises exactly
// AttLat + 3 cycles after acceptance (or later, behind earlier responses of the same client);
// every response equals the reference's, in order per client. Configuration writes during
// lookups follow the documented timing: a lookup accepted in cycle t sees key writes of cycles
// < t and ATT writes of cycles < t + 2 (the writes are aimed at the keys and ATT entries in
// flight, so that both sides of each boundary are hit). Reruns: HPCNET_SEED=<seed>;
// NIC_ATT_STATS=1 prints each run's status counts and boundary hits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "Vnic_att.h"
#include "Vnic_att_c1.h"
#include "Vnic_att_c3.h"
#include "nic_att_ref.hpp"
#include "nic_att_tb.hpp"
#include "hpcnet/tb/seed.hpp"

namespace {

using namespace hpcnet::tb::nic_att;

// Random lookups (and configuration writes when `config`) under random idle and back-pressure,
// three seeds; every status seen.
template <class M>
void random_lookups(Params p, const char* name, bool config, unsigned cycles) {
  const std::uint64_t base = hpcnet::tb::seed(name);
  for (std::uint64_t k = 0; k < 3; ++k) {
    INFO("seed " << base + k);
    AttTb<M> tb(p, base + k);
    tb.setup();
    if (config) {
      tb.key_pct = 10;
      tb.att_pct = 25;
    }
    tb.run(cycles);
    tb.drain();
    const auto& s = tb.by_status;
    if (std::getenv("NIC_ATT_STATS")) {
      std::printf("%s: accepted %llu, races %u %u %u %u, idx %u, st", name, (unsigned long long)tb.accepted(), tb.key_race_old, tb.key_race_new, tb.att_race_old, tb.att_race_new, tb.idx_range);
      for (unsigned i = 0; i < 10; ++i) std::printf(" %u", s[i]);
      std::printf("\n");
    }
    for (St st : {St::OK, St::BAD_KEY, St::NOT_OWNER, St::RANGE, St::PERM, St::PHYS_DENIED}) {
      INFO("status " << nf::to_string(st) << " seen " << s[static_cast<unsigned>(st)] << " times");
      REQUIRE(s[static_cast<unsigned>(st)] >= 20);
    }
    REQUIRE(tb.idx_range >= 5);
    REQUIRE(tb.accepted() > cycles / 16);
    if (config) {  // both sides of both write boundaries were hit
      INFO("key races " << tb.key_race_old << "/" << tb.key_race_new << ", ATT races " << tb.att_race_old << "/"
                        << tb.att_race_new);
      REQUIRE(tb.key_race_old > 0);
      REQUIRE(tb.key_race_new > 0);
      REQUIRE(tb.att_race_old > 0);
      REQUIRE(tb.att_race_new > 0);
    }
  }
}

// With no back-pressure: every client requesting all the time, then each client alone, gives one
// lookup a cycle, every response exactly AttLat + 3 cycles after acceptance.
template <class M>
void full_rate(Params p, const char* name) {
  AttTb<M> tb(p, hpcnet::tb::seed(name));
  tb.setup();
  auto measure = [&](std::vector<unsigned> active) {
    for (unsigned c = 0; c < p.clients; ++c) {
      tb.cs[c].valid_pct = std::find(active.begin(), active.end(), c) != active.end() ? 100 : 0;
      tb.cs[c].ready_pct = 100;
    }
    tb.lat_min = ~std::uint64_t{0};
    tb.lat_max = 0;
    for (unsigned c = 0; c < 50; ++c) tb.cycle();  // the requests are up
    const std::uint64_t a0 = tb.accepted();
    const unsigned n = 2000;
    for (unsigned c = 0; c < n; ++c) tb.cycle();
    INFO("clients " << active.size() << ": " << tb.accepted() - a0 << " lookups in " << n << " cycles");
    REQUIRE(tb.accepted() - a0 == n);
    REQUIRE(tb.lat_min == p.latency());
    REQUIRE(tb.lat_max == p.latency());
    tb.drain();
  };
  std::vector<unsigned> all;
  for (unsigned c = 0; c < p.clients; ++c) all.push_back(c);
  measure(all);
  for (unsigned c = 0; c < p.clients; ++c) measure({c});
}

}  // namespace

TEST_CASE("nic_att: random lookups on 4 clients equal the reference under idle and back-pressure", "[nic_att]") {
  random_lookups<Vnic_att>({4, 1024, 16, 24, 32}, "nic_att random", false, 20000);
}

TEST_CASE("nic_att: configuration writes during lookups are seen from the documented cycles", "[nic_att]") {
  random_lookups<Vnic_att>({4, 1024, 16, 24, 32}, "nic_att config", true, 20000);
}

TEST_CASE("nic_att: one lookup per cycle and latency AttLat plus 3 without back-pressure", "[nic_att]") {
  full_rate<Vnic_att>({4, 1024, 16, 24, 32}, "nic_att rate");
  full_rate<Vnic_att_c1>({1, 40, 6, 1, 8}, "nic_att rate c1");
  full_rate<Vnic_att_c3>({3, 100, 10, 7, 32}, "nic_att rate c3");
}

// Client 0 takes no response: it is accepted exactly AttLat + 4 times, then held off, while the
// other clients keep one lookup a cycle; once it takes them, every response arrives intact.
TEST_CASE("nic_att: a client that takes no response fills only its own buffer", "[nic_att]") {
  const Params p{4, 1024, 16, 24, 32};
  AttTb<Vnic_att> tb(p, hpcnet::tb::seed("nic_att stall"));
  tb.setup();
  for (auto& x : tb.cs) {
    x.valid_pct = 100;
    x.ready_pct = 100;
  }
  tb.cs[0].ready_pct = 0;
  for (unsigned c = 0; c < 200; ++c) tb.cycle();
  const std::uint64_t a0 = tb.accepted();
  for (unsigned c = 0; c < 1000; ++c) tb.cycle();
  REQUIRE(tb.cs[0].accepted == p.depth());
  REQUIRE(tb.cs[0].taken == 0);
  REQUIRE(tb.accepted() - a0 == 1000);
  tb.drain();  // its request held since the buffer filled is taken too
  REQUIRE(tb.cs[0].taken == p.depth() + 1);
}

// Reset clears VALID of every key (lookups give BAD_KEY) and leaves the ATT as it was: keys
// registered again translate through the old entries.
TEST_CASE("nic_att: reset clears every key and keeps the ATT", "[nic_att]") {
  const Params p{4, 1024, 16, 24, 32};
  AttTb<Vnic_att> tb(p, hpcnet::tb::seed("nic_att reset"));
  tb.setup();
  tb.run(3000);
  tb.drain();
  const std::uint64_t ok_before = tb.by_status[0];
  REQUIRE(ok_before > 100);
  tb.idle_inputs();
  hpcnet::tb::sync_reset(tb.h);
  tb.cyc += 2;
  tb.prio = 0;
  for (auto& r : tb.ref.tbl) r.valid = false;
  // The reference keeps the regions' bases and lengths (only VALID cleared), so the lookups still
  // aim inside them.
  tb.by_status = {};
  const std::uint64_t a0 = tb.accepted();
  tb.run(3000);
  tb.drain();
  const auto& s = tb.by_status;
  REQUIRE(s[0] + s[static_cast<unsigned>(St::BAD_KEY)] + s[static_cast<unsigned>(St::PHYS_DENIED)] ==
          tb.accepted() - a0);  // OK only from physical lookups; nothing gets past BAD_KEY
  REQUIRE(s[static_cast<unsigned>(St::BAD_KEY)] > 500);
  // Register keys again (no ATT write): OK lookups read the ATT written before the reset.
  tb.by_status = {};
  for (unsigned k = 0; k < p.num_keys; ++k) {
    tb.set_key_write(k);
    tb.cycle();
  }
  tb.run(3000);
  tb.drain();
  REQUIRE(tb.by_status[static_cast<unsigned>(St::OK)] > 100);
}

TEST_CASE("nic_att Clients=1: random lookups with ATT indexes out of range and AttLat 1", "[nic_att]") {
  random_lookups<Vnic_att_c1>({1, 40, 6, 1, 8}, "nic_att c1", false, 20000);
  random_lookups<Vnic_att_c1>({1, 40, 6, 1, 8}, "nic_att c1 config", true, 20000);
}

TEST_CASE("nic_att Clients=3: random lookups and configuration writes equal the reference", "[nic_att]") {
  random_lookups<Vnic_att_c3>({3, 100, 10, 7, 32}, "nic_att c3", false, 15000);
  random_lookups<Vnic_att_c3>({3, 100, 10, 7, 32}, "nic_att c3 config", true, 15000);
}
