// Deregistration under traffic (docs/nic.md "Deregistration"): once rdma_dereg_mr has returned,
// the NIC never touches the region again. For each place a region is used (a write's
// destination and source, a read's destination and source, an immediate write's destination, a
// remote and a local event), the region is deregistered at several moments of a transfer (before
// its first packet, in its middle, near its end, at its event, after it); right when
// rdma_dereg_mr returns, the application frees the buffer, allocates a new one on the same
// physical pages and fills it with a pattern no transfer carries. Then:
//   - the new buffer still holds the pattern at the end (no DMA write after the return), and no
//     destination holds a byte of it (no DMA read after the return);
//   - every posted transfer completes exactly once, either OK (it finished before the fence: all
//     its bytes arrived) or with BAD_KEY and the INFO of the part that lost its region;
//   - every byte outside the live registered regions keeps its guard;
//   - deregistration with nothing in flight finds the fence over at its first KEY_STATUS read.
#include <catch2/catch.hpp>

#include <set>

#include "hpcnet/tb/seed.hpp"
#include "nic_pair_tb.hpp"

namespace {

using namespace nic_tb;

// Two hosts: the default PCIe (a 64 KB transfer takes about 3,200 cycles, the fence about 550:
// it meets the transfer at full speed) and a slow one (2 bytes a cycle: a 4 KB page takes some
// 2,200 cycles to write, so a receiver holds a page's translation long after the fence began).
struct DrHost {
  const char* name;
  double bytes_per_cycle;
  uint32_t len;
  std::vector<uint64_t> moments;  // cycles after the post: before, early, middle, end, answer, after
};
const DrHost kDrHosts[] = {
    {"a fast host", 25.6, 64 * 1024, {0, 400, 1200, 2200, 2500, 2800, 9000}},
    {"a slow host", 2.0, 16 * 1024, {0, 1500, 3000, 5000, 7000, 8500, 20000}},
};

enum class DrWhat { WriteDst, WriteSrc, ReadDst, ReadSrc, ImmDst, RemoteEvent, LocalEvent };

struct DrCase {
  DrWhat what;
  const char* name;
  unsigned owner;  // the node that deregisters (owns the region)
};

const DrCase kDrCases[] = {
    {DrWhat::WriteDst, "a write's destination", 1},
    {DrWhat::WriteSrc, "a write's source", 0},
    {DrWhat::ReadDst, "a read's destination", 0},
    {DrWhat::ReadSrc, "a read's source", 1},
    {DrWhat::ImmDst, "immediate writes' destination", 1},
    {DrWhat::RemoteEvent, "a write's remote event", 1},
    {DrWhat::LocalEvent, "a write's local event", 0},
};

// The physical pages of [va - offset, va - offset + pages * 4096) of an endpoint's memory.
std::set<uint64_t> dr_pages(rdma_ep* ep, uint64_t va, size_t bytes) {
  std::set<uint64_t> s;
  for (uint64_t pg = va & ~uint64_t(4095); pg < va + bytes; pg += 4096) s.insert(rdma_phys(ep, pg) & ~uint64_t(4095));
  return s;
}

// A byte no transfer of `data` carries and no guard or zero fill shows.
std::vector<uint8_t> dr_pattern(const std::vector<uint8_t>& data) {
  std::vector<uint8_t> p(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    uint8_t v = uint8_t(data[i] ^ 0xFF);
    while (v == data[i] || v == 0 || v == kGuard) v = uint8_t(v + 0x35);
    p[i] = v;
  }
  return p;
}

}  // namespace

TEST_CASE("nic: no DMA touches a region after rdma_dereg_mr returns", "[nic][dereg]") {
  std::mt19937_64 rng(hpcnet::tb::seed("nic dereg fence"));
  const int bad_key = int(f::Status::BAD_KEY), bad_key_remote = -(kRemote | bad_key);
  for (const DrHost& host : kDrHosts)
  for (const DrCase& c : kDrCases) {
    for (uint64_t delay : host.moments) {
      DYNAMIC_SECTION(c.name << " on " << host.name << ", deregistered " << delay << " cycles after the post") {
        const uint32_t kDrLen = host.len;
        hpcnet::sim::NicPairConfig cfg = Pair::bounded();
        cfg.pcie.raw_bytes_per_cycle = host.bytes_per_cycle;
        Pair p(cfg);
        const bool read = c.what == DrWhat::ReadDst || c.what == DrWhat::ReadSrc;
        rdma_ep* own = c.owner == 0 ? p.a : p.b;
        const auto data = random_bytes(rng, kDrLen);
        // src lives on the node whose engine reads it; dst (with a guard page span) on the other
        const unsigned sn = read ? 1 : 0;
        rdma_ep* s_ep = read ? p.b : p.a;
        rdma_ep* d_ep = read ? p.a : p.b;
        const unsigned off = 96;
        Buf src, dst, rev, lev;
        p.on(sn, [&] { src = reg_buf(s_ep, kDrLen, off, RDMA_ACCESS_READ); });
        p.on(1 - sn, [&] { dst = reg_buf(d_ep, kDrLen, off, RDMA_ACCESS_WRITE); });
        p.on(1, [&] { rev = reg_buf(p.b, 64, 32, RDMA_ACCESS_WRITE); });
        p.on(0, [&] { lev = reg_buf(p.a, 64, 32, RDMA_ACCESS_WRITE); });
        rdma_mem_write(s_ep, src.va, data.data(), kDrLen);
        // guards over every byte of the destination's, the events' pages outside their regions
        const size_t span = (kDrLen / 4096 + 1) * 4096;
        const std::vector<uint8_t> guard(span, kGuard);
        rdma_mem_write(d_ep, dst.va - off, guard.data(), span);
        rdma_mem_write(p.b, rev.va - 32, guard.data(), 4096);
        rdma_mem_write(p.a, lev.va - 32, guard.data(), 4096);
        Buf* victim = c.what == DrWhat::WriteDst || c.what == DrWhat::ReadDst || c.what == DrWhat::ImmDst ? &dst
                      : c.what == DrWhat::WriteSrc || c.what == DrWhat::ReadSrc                          ? &src
                      : c.what == DrWhat::RemoteEvent                                                     ? &rev
                                                                                                          : &lev;
        const unsigned v_off = victim == &rev || victim == &lev ? 32 : off;
        const size_t v_span = victim == &rev || victim == &lev ? 4096 : span;
        const auto pattern = dr_pattern(victim == &rev || victim == &lev ? random_bytes(rng, v_span)
                                                                        : [&] {
                                                                            std::vector<uint8_t> d(v_span, 0);
                                                                            std::copy(data.begin(), data.end(), d.begin() + v_off);
                                                                            return d;
                                                                          }());
        rdma_event rev_ev{}, lev_ev{};
        rev_ev.at = {rev.key, rev.va};
        lev_ev.at = {lev.key, lev.va};
        std::memset(rev_ev.data, 0x5C, 16);
        std::memset(lev_ev.data, 0x6D, 16);

        std::vector<rdma_cqe> got;
        size_t posts = 0;
        bool posted = false, dereg_done = false;
        uint64_t new_va = 0, t_post = 0, t_ret = 0;
        std::set<uint64_t> old_pages, new_pages;
        spawn_at(p.pair, 0, 0, [&] {
          rdma_opts o = opts(1, RDMA_F_CQ);
          if (c.what == DrWhat::RemoteEvent) o.remote_event = &rev_ev;
          if (c.what == DrWhat::LocalEvent) o.local_event = &lev_ev;
          t_post = p.pair.cycles();
          if (c.what == DrWhat::ImmDst) {
            // 64 immediate writes of 128 bytes into the first 8 KB, then one write of the rest
            for (unsigned i = 0; i < 64; ++i) {
              o.tag = uint16_t(100 + i);
              REQUIRE(rdma_write_imm(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + 128 * i}, data.data() + 128 * i, 128, &o) == 0);
              ++posts;
              posted = true;
            }
            o.tag = 1;
            REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va + 8192}, {src.key, src.va + 8192}, kDrLen - 8192, &o) == 0);
          } else if (read) {
            REQUIRE(rdma_read(p.a, 1, rdma_vp(p.b), {src.key, src.va}, {dst.key, dst.va}, kDrLen, &o) == 0);
          } else {
            REQUIRE(rdma_write(p.a, 1, rdma_vp(p.b), {dst.key, dst.va}, {src.key, src.va}, kDrLen, &o) == 0);
          }
          ++posts;
          posted = true;
          got = poll_n(p.a, posts);
          rdma_quiet(p.a);
          rdma_cqe extra[4];
          CHECK(rdma_poll_cq(p.a, extra, 4) == 0);  // nothing completes twice
        });
        spawn_at(p.pair, c.owner, 1, [&] {
          wait_until([&] { return posted; });
          const uint64_t t0 = p.pair.cycles();
          wait_until([&] { return p.pair.cycles() >= t0 + delay; });
          old_pages = dr_pages(own, victim->va, victim->bytes);
          REQUIRE(rdma_dereg_mr(own, victim->key) == 0);
          t_ret = p.pair.cycles();
          // the application reuses the memory at once: same physical pages (first fit)
          rdma_free(own, victim->va);
          new_va = rdma_alloc(own, victim->bytes, v_off);
          rdma_mem_write(own, new_va - v_off, pattern.data(), v_span);  // stored now, then the CPU's time
          new_pages = dr_pages(own, new_va, victim->bytes);
          dereg_done = true;
        });
        p.pair.run();
        REQUIRE(dereg_done);
        INFO("posted at cycle " << t_post << ", deregistration returned at " << t_ret);
        // the check below covers the deregistered pages
        REQUIRE(std::includes(new_pages.begin(), new_pages.end(), old_pages.begin(), old_pages.end()));
        CHECK(diff(peek(own, new_va - v_off, v_span), pattern) == "same");

        // every transfer completed once: OK (all its bytes there) or BAD_KEY with the failing part
        REQUIRE(got.size() == posts);
        const bool src_lost = c.what == DrWhat::WriteSrc || c.what == DrWhat::ReadSrc;
        for (const rdma_cqe& e : got) {
          INFO("tag " << e.tag << " status " << e.status << " info " << e.info);
          if (e.status == 0) continue;
          if (c.what == DrWhat::LocalEvent) {
            CHECK(e.status == -bad_key);
            CHECK(e.info == 3);
          } else if (c.what == DrWhat::RemoteEvent) {
            CHECK(e.status == bad_key_remote);
            CHECK(e.info == 3);
          } else if (c.what == DrWhat::ReadDst) {
            CHECK(e.status == -bad_key);
            CHECK(e.info == 1);
          } else {
            CHECK(e.status == (src_lost && !read && e.info == 1 ? -bad_key : bad_key_remote));
          }
        }
        // the destination holds, per byte, the data, the zeros of a failed source page, or its
        // guard: never a byte of the pattern (read after the return)
        if (victim != &dst) {
          const auto d = peek(d_ep, dst.va - off, span);
          size_t bad = 0;
          for (size_t i = 0; i < span; ++i) {
            const bool in = i >= off && i < off + kDrLen;
            const uint8_t want = in ? data[i - off] : kGuard;
            if (d[i] != want && !(in && (d[i] == 0 || d[i] == kGuard))) ++bad;
          }
          CHECK(bad == 0);
          // an event's failure leaves the data written; a source's failure leaves it partial
          // (a local event lost before dispatch fails the descriptor: nothing sent)
          const std::vector<uint8_t> body(d.begin() + off, d.begin() + off + kDrLen);
          if (got.back().status == 0 || c.what == DrWhat::RemoteEvent)
            CHECK(diff(body, data) == "same");
          else if (c.what == DrWhat::LocalEvent)
            CHECK((diff(body, data) == "same" || diff(body, std::vector<uint8_t>(kDrLen, kGuard)) == "same"));
        }
        // the event pages no transfer of this case uses keep their guards
        if (c.what != DrWhat::RemoteEvent) {
          const auto r = peek(p.b, rev.va - 32, 4096);
          CHECK(std::all_of(r.begin(), r.end(), [](uint8_t b) { return b == kGuard; }));
        }
        if (c.what != DrWhat::LocalEvent) {
          const auto l = peek(p.a, lev.va - 32, 4096);
          CHECK(std::all_of(l.begin(), l.end(), [](uint8_t b) { return b == kGuard; }));
        }
      }
    }
  }
}

TEST_CASE("nic: deregistration with nothing in flight finds the fence over at once", "[nic][dereg]") {
  Pair p;
  uint64_t cycles = 0;
  p.on(0, [&] {
    Buf b = reg_buf(p.a, 3 * 4096, 100, RDMA_ACCESS_READ | RDMA_ACCESS_WRITE);
    const uint64_t t0 = p.pair.cycles();
    REQUIRE(rdma_dereg_mr(p.a, b.key) == 0);
    cycles = p.pair.cycles() - t0;
  });
  INFO("rdma_dereg_mr took " << cycles << " cycles");
  CHECK(p.driver(0).dereg_polls() == 0);  // the first KEY_STATUS read found BUSY 0
  CHECK(cycles < 400);                    // two register writes and one read on the PIO bus
}
