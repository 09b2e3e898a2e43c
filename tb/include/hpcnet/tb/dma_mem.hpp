// dma_mem.hpp: the host end of a DMA port with the NIC's conventions (docs/nic.md section 2) for
// module tests: a sparse byte memory, a read responder and a write sink, with random
// back-pressure and idle cycles from the run's seeded Rng.
//   SparseMem  bytes by address; a byte never written reads as background(addr) (0 unless set).
//   Reads      a request is taken with probability req_ready_pct% each cycle. It is answered, in
//              the order taken, with the 32-byte frames holding its bytes, each aligned to a
//              32-byte address (byte i of a frame is the byte at frame address + i; bytes outside
//              the request are 0), `last` on its last frame and its tag on every frame, with the
//              memory as it was when the request was taken. Its first frame is shown no earlier
//              than lat + [0, lat_jit] cycles after the request was taken (with probability
//              long_pct%: long_lat cycles), every frame after random idle cycles (rsp_idle_pct%
//              each cycle, a StreamSource); a frame shown stays until taken. A request of 0 or
//              more than 4096 bytes, or one that crosses 4 KB, is refused (error()).
//   Writes     a beat is taken with probability wr_ready_pct% each cycle; its bytes are written
//              at once: byte i of the beat's frame-aligned data goes to (addr & ~31) + i for the
//              len bytes from addr. The rules are checked (len 1..32 inside the beat's frame; the
//              beats of a transaction, up to the one with last, contiguous and inside one 4 KB
//              page); a beat that breaks one is recorded (error()) and not written.
// Per cycle: step(now) before driving the model's inputs (it draws this cycle's ready and idle
// choices), then, with the model evaluated (its outputs as before the clock edge), the handshakes:
// take_read(...) for a request taken, read_fire(ready) for the shown frame, write(...) for a
// beat taken. drive(m) and sample(m, now) do both for a Verilated model with the NIC's port names
// (rd_req_*, rd_rsp_*; wr_* and rd_rsp_tag_i where the model has them); drive() shows random data
// and last while no frame is shown.
#pragma once
#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "hpcnet/tb/bits.hpp"
#include "hpcnet/tb/rng.hpp"
#include "hpcnet/tb/stream.hpp"

namespace hpcnet::tb {

class SparseMem {
 public:
  std::function<std::uint8_t(std::uint64_t)> background;  // unwritten bytes (none: 0)

  std::uint8_t byte(std::uint64_t a) const {
    auto it = pages_.find(a >> 12);
    if (it != pages_.end()) return (*it->second)[a & 4095];
    return background ? background(a) : 0;
  }
  void set(std::uint64_t a, std::uint8_t v) { page(a)[a & 4095] = v; }
  // Little-endian 64-bit words (any alignment).
  std::uint64_t read64(std::uint64_t a) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::uint64_t{byte(a + i)} << (8 * i);
    return v;
  }
  void write64(std::uint64_t a, std::uint64_t v) {
    for (unsigned i = 0; i < 8; ++i) set(a + i, static_cast<std::uint8_t>(v >> (8 * i)));
  }

 private:
  using Page = std::array<std::uint8_t, 4096>;
  Page& page(std::uint64_t a) {
    auto& p = pages_[a >> 12];
    if (!p) {  // first touch: the background bytes
      p = std::make_unique<Page>();
      for (unsigned i = 0; i < 4096; ++i) (*p)[i] = background ? background((a & ~4095ull) + i) : 0;
    }
    return *p;
  }
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
};

struct DmaFrame {
  std::array<std::uint8_t, 32> data{};
  std::uint64_t addr = 0;  // the frame's (32-byte aligned) address
  std::uint64_t tag = 0;
  bool last = false;
  std::uint64_t word(unsigned k) const {  // 64-bit word k (0..3), little-endian
    std::uint64_t v = 0;
    for (unsigned i = 0; i < 8; ++i) v |= std::uint64_t{data[8 * k + i]} << (8 * i);
    return v;
  }
};

class DmaMem {
 public:
  SparseMem mem;
  // reads
  unsigned req_ready_pct = 100, rsp_idle_pct = 0;
  unsigned lat = 1, lat_jit = 0, long_pct = 0, long_lat = 0;
  // writes
  unsigned wr_ready_pct = 100;

  explicit DmaMem(Rng& rng) : rng_(rng) {}

  void step(std::uint64_t now) {
    req_ready_ = rng_.pct(req_ready_pct);
    wr_ready_ = rng_.pct(wr_ready_pct);
    rsp_.idle_pct = rsp_idle_pct;
    rsp_.step(rng_, now);
  }

  // ---- reads
  bool rd_req_ready() const { return req_ready_; }
  bool rd_rsp_valid() const { return rsp_.valid(); }
  const DmaFrame& rd_rsp() const { return rsp_.data(); }  // rd_rsp_valid()
  // A request taken in cycle `now`: its frames queued. False (nothing queued) if it breaks the rules.
  bool take_read(std::uint64_t addr, unsigned len, std::uint64_t tag, std::uint64_t now) {
    if (len == 0 || len > 4096 || (addr & 4095) + len > 4096)
      return fail("read of " + std::to_string(len) + " bytes at " + hex(addr));
    const std::uint64_t at = now + (long_pct && rng_.pct(long_pct) ? long_lat : lat + (lat_jit ? rng_.rnd(0, lat_jit) : 0));
    for (std::uint64_t fa = addr & ~31ull; fa < addr + len; fa += 32) {
      DmaFrame f;
      f.addr = fa;
      f.tag = tag;
      f.last = fa + 32 >= addr + len;
      for (unsigned i = 0; i < 32; ++i)
        if (fa + i >= addr && fa + i < addr + len) f.data[i] = mem.byte(fa + i);
      rsp_.push(f, at);
    }
    ++reads_;
    return true;
  }
  bool read_fire(bool ready) { return rsp_.fire(ready); }  // true: the shown frame was taken
  bool reads_idle() const { return rsp_.empty(); }         // every frame of every request taken
  std::uint64_t reads() const { return reads_; }

  // ---- writes
  bool wr_ready() const { return wr_ready_; }
  // A beat taken: false (not written) if it breaks the rules.
  template <class Data>
  bool write(std::uint64_t addr, unsigned len, const Data& frame_bits, bool last) {
    const unsigned lane = addr & 31;
    if (len == 0 || lane + len > 32) return fail("write beat of " + std::to_string(len) + " bytes at " + hex(addr));
    if (wr_open_ && addr != wr_next_) return fail("write beat at " + hex(addr) + ", the transaction's next byte " + hex(wr_next_));
    const std::uint64_t page = wr_open_ ? wr_page_ : addr >> 12;
    if ((addr + len - 1) >> 12 != page) return fail("write transaction across 4 KB at " + hex(addr));
    for (unsigned i = 0; i < len; ++i) mem.set(addr + i, static_cast<std::uint8_t>(get_bits(frame_bits, 8 * (lane + i), 8)));
    wr_open_ = !last;
    wr_next_ = addr + len;
    wr_page_ = page;
    ++beats_;
    if (last) ++writes_;
    return true;
  }
  bool write_open() const { return wr_open_; }  // a transaction has begun and not ended
  std::uint64_t write_beats() const { return beats_; }
  std::uint64_t writes() const { return writes_; }

  const std::string& error() const { return error_; }  // the first rule broken ("" if none)

  // ---- a Verilated model's ports
  template <class M>
  void drive(M& m) {
    m.rd_req_ready_i = rd_req_ready();
    m.rd_rsp_valid_i = rd_rsp_valid();
    const bool v = rd_rsp_valid();
    for (unsigned k = 0; k < 4; ++k) put_bits(m.rd_rsp_data_i, 64 * k, 64, v ? rd_rsp().word(k) : rng_());
    m.rd_rsp_last_i = v ? rd_rsp().last : rng_.pct(50);
    if constexpr (requires { m.rd_rsp_tag_i; })  // (0 while no frame: random bits could pass the port's width)
      m.rd_rsp_tag_i = static_cast<std::remove_reference_t<decltype(m.rd_rsp_tag_i)>>(v ? rd_rsp().tag : 0);
    if constexpr (requires { m.wr_ready_i; }) m.wr_ready_i = wr_ready();
  }
  // The handshakes of this cycle (the model evaluated); false if a request or beat broke a rule.
  template <class M>
  bool sample(M& m, std::uint64_t now) {
    bool ok = true;
    if (m.rd_req_valid_o && m.rd_req_ready_i) {
      std::uint64_t tag = 0;
      if constexpr (requires { m.rd_req_tag_o; }) tag = m.rd_req_tag_o;
      ok &= take_read(m.rd_req_addr_o, m.rd_req_len_o, tag, now);
    }
    if (m.rd_rsp_valid_i) read_fire(m.rd_rsp_ready_o);
    if constexpr (requires { m.wr_valid_o; })
      if (m.wr_valid_o && m.wr_ready_i) ok &= write(m.wr_addr_o, m.wr_len_o, m.wr_data_o, m.wr_last_o);
    return ok;
  }

 private:
  static std::string hex(std::uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
  }
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what;
    return false;
  }

  Rng& rng_;
  StreamSource<DmaFrame> rsp_;
  bool req_ready_ = false, wr_ready_ = false;
  bool wr_open_ = false;
  std::uint64_t wr_next_ = 0, wr_page_ = 0;
  std::uint64_t reads_ = 0, beats_ = 0, writes_ = 0;
  std::string error_;
};

}  // namespace hpcnet::tb
