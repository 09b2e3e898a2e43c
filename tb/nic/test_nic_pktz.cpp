// test_nic_pktz: the read engine's packetizer (rtl/nic/nic_pktz.sv, model Vnic_pktz: a 4-bit FIFO
// count) alone, the test playing its neighbours:
//   - the front end: jobs (random source offset, length, destination, template, VP) offered in
//     order with random idle cycles, each when the front end would take it (after the previous
//     job's status); the statuses in order with random delay and idle cycles: OK, OK with a later
//     page's failure (AUX only), or a failed first translation (st_fail_i: no frame);
//   - the data FIFO: the jobs' source frames (bytes outside the job random) arriving at random,
//     a job's only once the front end has started it (after a failed job, once its status has
//     shown), up to the FIFO's size (6..15 frames); fr_count_i counts a frame from the cycle after
//     it arrived, fr_valid_i shows it one to three cycles after it arrived (nic_rdfifo: three);
//   - the packet and result sinks: random back-pressure.
// Checked every cycle against the reference of nic_pkt_ref.hpp and the module's header:
//   - every flit exactly (heads bit for bit with the LAST packet's AUX the job's status, payload
//     bytes, zeros outside the job), pkt_last_o on the fifth; packet and result outputs held
//     until taken;
//   - a head leaves only when every frame its packet needs has been counted (fr_count_i) in an
//     earlier cycle, and a LAST head only after the job's status was shown;
//   - frames are taken only for the job under way; jb_ready_o exactly when no job is under way
//     or its status is taken; a status is taken with its job's last flit (at most two flits of
//     the job not yet out), a failed job's once every earlier flit is out;
//   - results in job order (OK for a job that sent packets, the failure for a failed one, its
//     MSG_ID and VP), each shown only after the job's last flit (a failed job: every earlier
//     flit) was taken.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <ostream>
#include <vector>

#include "Vnic_pktz.h"
#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/cycle.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/seed.hpp"
#include "hpcnet/tb/stream.hpp"
#include "nic_pkt_ref.hpp"
#include "sim/core/harness.hpp"

namespace {

using hpcnet::tb::put_bits;
namespace pzf = hpcnet::nic_formats;

struct PzJob {
  unsigned src_off = 0, vp = 0;
  std::uint32_t len = 1;
  std::uint64_t dst = 0, salt = 0;
  pzf::PktHead tmpl;
  bool fail = false;  // st_fail_i: the first translation failed (no frame, no packet)
  unsigned code = 0;  // st_code_i
  std::uint64_t start = 0, st_at = 0;  // the front end starts it; its status is out
  unsigned npkts() const { return fail ? 0 : nic_tb::pkt_ref_count(dst, len); }
  unsigned nframes() const { return fail ? 0 : (src_off + len + 31) / 32; }
  std::uint8_t byte(std::uint32_t t) const {
    std::uint64_t x = (salt + t) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return static_cast<std::uint8_t>(x >> 56);
  }
};

// 32-bit word i (0..7) of 32 bytes, little-endian.
std::uint32_t pz_word(const std::array<std::uint8_t, 32>& b, unsigned i) {
  return std::uint32_t{b[4 * i]} | std::uint32_t{b[4 * i + 1]} << 8 | std::uint32_t{b[4 * i + 2]} << 16 |
         std::uint32_t{b[4 * i + 3]} << 24;
}

struct PzFlit {
  std::array<std::uint32_t, 8> w{};
  bool last = false;
  bool operator==(const PzFlit&) const = default;
};
struct PzRes {
  unsigned status = 0, msg_id = 0, vp = 0;
  bool operator==(const PzRes&) const = default;
};
// (for Catch's messages)
std::ostream& operator<<(std::ostream& os, const PzFlit& f) {
  os << std::hex;
  for (unsigned i = 8; i-- > 0;) os << (i < 7 ? "_" : "") << f.w[i];
  return os << (f.last ? " last" : "") << std::dec;
}
std::ostream& operator<<(std::ostream& os, const PzRes& r) {
  return os << "{status " << r.status << ", MSG_ID " << r.msg_id << ", VP " << r.vp << "}";
}
struct PzFrame {
  std::array<std::uint8_t, 32> b{};
  unsigned job = 0;
  std::uint64_t counted = 0, shown = 0;  // first cycles in fr_count_i, on fr_valid_i
};

struct PzKnobs {
  unsigned jb_idle = 20, st_idle = 20, pkt_ready = 70, res_ready = 70, arrive = 60, st_delay = 60;
  unsigned cap = 10;  // frames the FIFO holds (<= 15: a 4-bit count)
  std::uint64_t first_job_at = 0;  // no job offered before this cycle (the FIFO fills meanwhile)
  bool random_rates = true;
};

class PktzTb {
 public:
  std::vector<PzJob> jobs;
  PzKnobs k;
  // statistics
  std::uint64_t flits = 0, first_flit = 0, last_flit = 0, heads_waited_frames = 0, last_heads_waited_status = 0;

  PktzTb(std::uint64_t seed, PzKnobs knobs) : k(knobs), rng_(seed) {
    m_.jb_valid_i = 0;
    m_.st_valid_i = 0;
    m_.fr_valid_i = 0;
    m_.fr_count_i = 0;
    m_.pkt_ready_i = 0;
    m_.res_ready_i = 0;
    jb_src_.idle_pct = k.jb_idle;
    st_src_.idle_pct = k.st_idle;
    pkt_sink_.ready_pct = k.pkt_ready;
    res_sink_.ready_pct = k.res_ready;
    hpcnet::tb::sync_reset(h_);
  }
  hpcnet::tb::Rng& rng() { return rng_; }

  // A random job appended (the front end's schedule: it starts a job when the previous one's status
  // is out, and puts the status out after a random delay).
  void add_job(std::uint32_t len, unsigned src_off, unsigned dst_off, unsigned fail_pct, unsigned late_pct) {
    PzJob j;
    j.src_off = src_off;
    j.len = len;
    j.vp = rng_.below(32);
    j.dst = (std::uint64_t{rng_.below(1u << 16)} << 48) | (((rng_() & ((1ull << 40) - 1)) << 7) + dst_off);
    j.salt = rng_();
    j.tmpl = nic_tb::random_pkt_tmpl(rng_);
    j.fail = rng_.pct(fail_pct);
    j.code = j.fail || rng_.pct(late_pct) ? rng_.rnd(1, 255) : 0;
    j.start = jobs.empty() ? 0 : jobs.back().st_at + rng_.below(3);
    j.st_at = j.start + (k.st_delay ? rng_.below(k.st_delay + 1) : 0);
    const unsigned n = static_cast<unsigned>(jobs.size());
    jb_src_.push(n, std::max(j.start, k.first_job_at));
    st_src_.push(n, j.st_at);
    first_frame_.push_back(static_cast<unsigned>(frames_.size()));
    for (unsigned f = 0; f < j.nframes(); ++f) {
      PzFrame fr;
      fr.job = n;
      for (unsigned i = 0; i < 32; ++i) {
        const std::int64_t t = std::int64_t{32} * f + i - j.src_off;
        fr.b[i] = (t >= 0 && t < j.len) ? j.byte(static_cast<std::uint32_t>(t)) : static_cast<std::uint8_t>(rng_());
      }
      frames_.push_back(fr);
    }
    jobs.push_back(j);
    acc_.push_back(0);
    last_flit_at_.push_back(0);
    st_shown_at_.push_back(0);
  }

  bool done() const { return res_next_ == jobs.size(); }

  void cycle() {
    const std::uint64_t now = h_.cycles();
    if (k.random_rates && now % 1000 == 0) {
      static const unsigned idle[] = {0, 10, 50}, rdy[] = {20, 70, 100, 100}, arr[] = {20, 60, 100};
      jb_src_.idle_pct = idle[rng_.below(3)];
      st_src_.idle_pct = idle[rng_.below(3)];
      pkt_sink_.ready_pct = rdy[rng_.below(4)];
      res_sink_.ready_pct = rdy[rng_.below(4)];
      k.arrive = arr[rng_.below(3)];
    }
    // ---- inputs
    jb_src_.step(rng_, now);
    st_src_.step(rng_, now);
    pkt_sink_.step(rng_);
    res_sink_.step(rng_);
    m_.jb_valid_i = jb_src_.valid();
    if (jb_src_.valid()) {
      const PzJob& j = jobs[jb_src_.data()];
      m_.jb_src_off_i = static_cast<CData>(j.src_off);
      m_.jb_len_i = j.len;
      m_.jb_dst_i = j.dst;
      m_.jb_vp_i = static_cast<CData>(j.vp);
      const auto w = j.tmpl.pack();
      for (unsigned i = 0; i < 4; ++i) put_bits(m_.jb_head_i, 64 * i, 64, w[i]);
    } else {
      m_.jb_src_off_i = static_cast<CData>(rng_.below(32));
      m_.jb_len_i = static_cast<IData>(rng_());
      m_.jb_dst_i = rng_();
      for (unsigned i = 0; i < 4; ++i) put_bits(m_.jb_head_i, 64 * i, 64, rng_());
    }
    m_.st_valid_i = st_src_.valid();
    if (st_src_.valid()) {
      const PzJob& j = jobs[st_src_.data()];
      m_.st_fail_i = j.fail;
      m_.st_code_i = static_cast<CData>(j.code);
      if (!st_shown_at_[st_src_.data()]) st_shown_at_[st_src_.data()] = now;
    } else {
      m_.st_fail_i = rng_.pct(50);
      m_.st_code_i = static_cast<CData>(rng_());
    }
    const bool fv = fifo_ != next_frame_ && frames_[fifo_].shown <= now;
    m_.fr_valid_i = fv;
    for (unsigned i = 0; i < 8; ++i)
      m_.fr_data_i[i] = fv ? pz_word(frames_[fifo_].b, i) : static_cast<std::uint32_t>(rng_());
    unsigned counted = 0;
    for (unsigned f = fifo_; f < next_frame_ && frames_[f].counted <= now; ++f) ++counted;
    m_.fr_count_i = static_cast<CData>(counted);
    m_.pkt_ready_i = pkt_sink_.ready();
    m_.res_ready_i = res_sink_.ready();
    h_.eval();
    INFO("cycle " << now);
    check(now);
    // ---- the FIFO: a frame arrives (counted from the next cycle, shown then or up to two cycles
    // later, as nic_rdfifo shows it)
    if (next_frame_ < frames_.size() && next_frame_ - fifo_ < k.cap && frame_may_come(frames_[next_frame_].job, now) &&
        rng_.pct(k.arrive)) {
      PzFrame& f = frames_[next_frame_++];
      f.counted = now + 1;
      f.shown = std::max(now + 1 + rng_.below(3), next_frame_ >= 2 ? frames_[next_frame_ - 2].shown : 0);
    }
    hpcnet::tb::tick(h_);
  }

  void run(std::uint64_t max_cycles) {
    while (!done()) {
      REQUIRE(h_.cycles() < max_cycles);
      cycle();
    }
    for (unsigned c = 0; c < 30; ++c) {
      cycle();
      REQUIRE(!m_.pkt_valid_o);
      REQUIRE(!m_.res_valid_o);
    }
    REQUIRE(fifo_ == frames_.size());
    skip_done();
    REQUIRE(cur_ == jobs.size());
  }

 private:
  unsigned busy_job() const { return st_taken_; }  // the job under way (when given_ > st_taken_)
  // Job j's frames come once the front end has started it; after a failed job's status has shown
  // (the front end puts a status out before it starts the next job's reads, and the status queue
  // shows it once its job is the packetizer's: a failed job is known before any frame comes).
  bool frame_may_come(unsigned j, std::uint64_t now) const {
    if (now < jobs[j].start) return false;
    return j == 0 || !jobs[j - 1].fail || (st_shown_at_[j - 1] != 0 && st_shown_at_[j - 1] < now);
  }

  PzFlit expected_flit(unsigned j, unsigned n) const {  // flit n of job j
    const PzJob& x = jobs[j];
    const unsigned p = n / 5, f = n % 5;
    PzFlit e;
    e.last = f == 4;
    if (f == 0) {
      const auto w = nic_tb::pkt_ref_head(x.tmpl, x.dst, x.len, p, x.code).pack();
      for (unsigned i = 0; i < 8; ++i) e.w[i] = static_cast<std::uint32_t>(w[i / 2] >> (32 * (i % 2)));
    } else {
      const auto b = nic_tb::pkt_ref_payload(x.dst, x.len, p, f - 1, [&](std::uint32_t t) { return x.byte(t); });
      for (unsigned i = 0; i < 8; ++i) e.w[i] = pz_word(b, i);
    }
    return e;
  }
  // Advances cur_ past jobs with no flit left (failed ones, finished ones).
  void skip_done() {
    while (cur_ < jobs.size() && acc_[cur_] == 5 * jobs[cur_].npkts()) ++cur_;
  }
  // Every flit of the jobs before j accepted before this cycle.
  bool earlier_out(unsigned j) const {
    for (unsigned i = 0; i < j; ++i)
      if (acc_[i] != 5 * jobs[i].npkts()) return false;
    return true;
  }

  void check(std::uint64_t now) {
    const bool busy = given_ > st_taken_;
    // ---- job and status handshakes
    REQUIRE(bool(m_.jb_ready_o) == (!busy || bool(m_.st_ready_o)));
    if (m_.st_ready_o) {
      REQUIRE(busy);
      REQUIRE(m_.st_valid_i);
      const unsigned j = busy_job();
      REQUIRE(st_src_.data() == j);
      const PzJob& x = jobs[j];
      if (x.fail) {
        REQUIRE(earlier_out(j));
      } else {  // with its last flit: that one formed now, at most one more waiting to leave
        const unsigned total = 5 * x.npkts(), out = acc_[j] + (m_.pkt_valid_o && m_.pkt_ready_i ? 1 : 0);
        INFO("job " << j << ": " << out << " of " << total << " flits out");
        REQUIRE(out + 2 >= total);
        REQUIRE(out < total);
      }
    }
    // ---- frames: only the job under way's
    if (m_.fr_valid_i && m_.fr_ready_o) {
      REQUIRE(busy);
      REQUIRE(frames_[fifo_].job == busy_job());
    }
    // ---- packets
    PzFlit got;
    for (unsigned i = 0; i < 8; ++i) got.w[i] = m_.pkt_data_o[i];
    got.last = m_.pkt_last_o;
    REQUIRE(pkt_hold_.check(m_.pkt_valid_o, m_.pkt_ready_i, got));
    if (m_.pkt_valid_o) {
      skip_done();
      REQUIRE(cur_ < jobs.size());
      const unsigned j = cur_, n = acc_[j];
      const PzJob& x = jobs[j];
      INFO("job " << j << " (src offset " << x.src_off << ", length " << x.len << ", dst offset " << (x.dst & 127)
                  << ") packet " << n / 5 << " flit " << n % 5);
      REQUIRE(got == expected_flit(j, n));
      if (n % 5 == 0 && !pkt_shown_) {  // a head, shown for the first time
        const unsigned p = n / 5;
        const std::uint64_t d0 = x.dst & nic_tb::kPktAddrMask;
        const std::uint64_t end = std::min<std::uint64_t>(d0 + x.len, (d0 & ~127ull) + 128ull * (p + 1));  // its last byte + 1
        const unsigned need = first_frame_[j] + static_cast<unsigned>((x.src_off + (end - d0) - 1) / 32);
        REQUIRE(need < next_frame_);
        REQUIRE(frames_[need].counted < now);
        heads_waited_frames += frames_[need].counted + 1 == now;
        if (p + 1 == x.npkts()) {
          REQUIRE(st_shown_at_[j] != 0);
          REQUIRE(st_shown_at_[j] < now);
          last_heads_waited_status += st_shown_at_[j] + 1 == now;
        }
      }
      if (m_.pkt_ready_i) {
        if (!flits) first_flit = now;
        last_flit = now;
        ++flits;
        if (++acc_[j] == 5 * x.npkts()) last_flit_at_[j] = now;
      }
    }
    pkt_shown_ = m_.pkt_valid_o && !m_.pkt_ready_i;
    // ---- results
    const PzRes res{m_.res_status_o, m_.res_msg_id_o, m_.res_vp_o};
    REQUIRE(res_hold_.check(m_.res_valid_o, m_.res_ready_i, res));
    if (m_.res_valid_o) {
      REQUIRE(res_next_ < given_);
      const PzJob& x = jobs[res_next_];
      INFO("result of job " << res_next_);
      REQUIRE(res == (PzRes{x.fail ? x.code : 0u, x.tmpl.msg_id, x.vp}));
      if (x.fail) REQUIRE(earlier_out(res_next_));
      else REQUIRE((acc_[res_next_] == 5 * x.npkts() && last_flit_at_[res_next_] < now));
      if (m_.res_ready_i) ++res_next_;
    }
    // ---- the handshakes' effects on the sources
    if (jb_src_.fire(m_.jb_ready_o)) ++given_;
    if (st_src_.fire(m_.st_ready_o)) ++st_taken_;
    if (m_.fr_valid_i && m_.fr_ready_o) ++fifo_;
  }

  hpcnet::sim::Harness<Vnic_pktz> h_{312.5, hpcnet::sim::trace_from_env()};  // RTL assertions throw
  Vnic_pktz& m_ = h_.dut();
  hpcnet::tb::Rng rng_;
  hpcnet::tb::StreamSource<unsigned> jb_src_, st_src_;
  hpcnet::tb::StreamSink pkt_sink_, res_sink_;
  hpcnet::tb::HoldCheck<PzFlit> pkt_hold_;
  hpcnet::tb::HoldCheck<PzRes> res_hold_;
  std::vector<PzFrame> frames_;           // every job's frames in order
  std::vector<unsigned> first_frame_;     // per job, its first frame's index
  unsigned fifo_ = 0, next_frame_ = 0;    // frames [fifo_, next_frame_) in the FIFO
  std::vector<unsigned> acc_;             // per job, flits accepted
  std::vector<std::uint64_t> last_flit_at_, st_shown_at_;
  unsigned given_ = 0, st_taken_ = 0, cur_ = 0, res_next_ = 0;
  bool pkt_shown_ = false;                // a flit shown last cycle and not taken
};

// Lengths: a byte to a frame, a few packets, up to 5,000 bytes.
std::uint32_t pz_len(hpcnet::tb::Rng& r) {
  const unsigned c = r.below(10);
  return c < 3 ? r.rnd(1, 40) : c < 6 ? r.rnd(1, 300) : c < 9 ? r.rnd(1, 1500) : r.rnd(1, 5000);
}

}  // namespace

TEST_CASE("nic_pktz: random jobs and statuses with idle cycles and back-pressure against the reference",
          "[nic_pktz]") {
  const std::uint64_t seed = hpcnet::tb::seed("nic_pktz random");
  for (unsigned cap : {6u, 15u}) {
    INFO("FIFO of " << cap << " frames");
    PzKnobs kn;
    kn.cap = cap;
    PktzTb tb(seed + cap, kn);
    for (unsigned n = 0; n < 1500; ++n) tb.add_job(pz_len(tb.rng()), tb.rng().below(32), tb.rng().below(128), 12, 30);
    tb.run(6000000);
    unsigned fails = 0, lates = 0;
    for (const auto& j : tb.jobs) {
      fails += j.fail;
      lates += !j.fail && j.code;
    }
    std::printf("nic_pktz random, FIFO of %u frames: %llu flits, %u failed jobs, %u with a later page's failure; "
                "heads shown the cycle after their last frame was counted %llu, LAST heads the cycle after the "
                "status showed %llu\n",
                cap, static_cast<unsigned long long>(tb.flits), fails, lates,
                static_cast<unsigned long long>(tb.heads_waited_frames),
                static_cast<unsigned long long>(tb.last_heads_waited_status));
    REQUIRE(fails > 100);
    REQUIRE(lates > 200);
    REQUIRE(tb.heads_waited_frames > 300);
    REQUIRE(tb.last_heads_waited_status > 20);
  }
}

// Every source offset x destination offset in the 128-byte block for lengths at the cuts: 1, 2,
// 31..33, 127..129, 255..257 bytes.
TEST_CASE("nic_pktz: every source offset and destination block offset at the frame and packet cuts",
          "[nic_pktz]") {
  PzKnobs kn;
  kn.st_delay = 4;
  PktzTb tb(hpcnet::tb::seed("nic_pktz offsets"), kn);
  for (std::uint32_t len : {1u, 2u, 31u, 32u, 33u, 127u, 128u, 129u, 255u, 256u, 257u})
    for (unsigned a = 0; a < 32; ++a)
      for (unsigned d = 0; d < 128; d += 3) tb.add_job(len, a, d, 0, 20);
  tb.run(5000000);
}

// Everything ready and the FIFO full (from before the first job): one flit a cycle from the first
// flit to the last, across packets and across jobs of two packets or more (a job's first head is
// not its LAST one and needs no result entry); a job of one packet leaves one idle cycle before
// its head (its LAST head waits until the previous job's last flit, which held the result entry,
// has left).
TEST_CASE("nic_pktz: one flit per cycle across packets and jobs with everything ready", "[nic_pktz]") {
  const std::uint64_t seed = hpcnet::tb::seed("nic_pktz full rate");
  for (bool single : {false, true}) {
    INFO((single ? "jobs of one packet" : "jobs of two packets or more"));
    PzKnobs kn;
    kn.random_rates = false;
    kn.jb_idle = kn.st_idle = 0;
    kn.pkt_ready = kn.res_ready = 100;
    kn.arrive = 100;
    kn.st_delay = 0;
    kn.cap = 15;
    kn.first_job_at = 40;
    PktzTb tb(seed, kn);
    constexpr unsigned kJobs = 200;
    for (unsigned n = 0; n < kJobs; ++n) {
      const unsigned d = tb.rng().below(128);
      const std::uint32_t len = single ? tb.rng().rnd(1, 128 - d) : tb.rng().rnd(129, 3000);
      tb.add_job(len, tb.rng().below(32), d, 0, 0);
    }
    tb.run(1000000);
    INFO(tb.flits << " flits from cycle " << tb.first_flit << " to " << tb.last_flit);
    REQUIRE(tb.last_flit - tb.first_flit + 1 == tb.flits + (single ? kJobs - 1 : 0));
  }
}
