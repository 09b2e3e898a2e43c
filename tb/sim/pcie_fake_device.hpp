// pcie_fake_device.hpp: a C++ device on the PCIe host model (sim/host/pcie.hpp) for the sim unit
// tests: it issues scripted DMA reads and write transactions on its PcieDmaPort (writes cut into
// frame beats), with random idle cycles before each request and beat and random back-pressure on
// the read responses, logs every handshake, and records its MMIO writes with their cycles.
//
// With a shadow (a copy of a host-memory region) it keeps its own traffic race-free, as a real
// DMA master would: a write transaction does not start while it overlaps a read that is offered
// or outstanding, and a read is not offered while it overlaps a write transaction in progress.
// A read's expected bytes are then the shadow at its acceptance, and the shadow takes a write's
// bytes when its last beat is accepted (the order PcieDma promises).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "sim/host/pcie.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim::test {

class PcieFake final : public Device {
 public:
  static constexpr DeviceId kId = 0xFA4E'0002;
  static constexpr unsigned kFrame = PcieDmaPort::kFrameBytes;

  struct ReadOp {
    uint64_t addr = 0;
    unsigned len = 0;
    unsigned tag = 0;
    uint64_t not_before = 0;  // cycle
  };
  struct WriteOp {
    uint64_t addr = 0;
    std::vector<uint8_t> data;
    uint64_t not_before = 0;
    bool raw = false;         // one beat exactly as given (addr, raw_len, last): for error tests
    unsigned raw_len = 0;
  };
  struct ReadAccept {
    uint64_t cycle;
    ReadOp op;
    std::vector<uint8_t> expect;  // the shadow's bytes at acceptance (empty without a shadow)
  };
  struct Frame {
    uint64_t cycle;
    unsigned tag;
    std::array<uint8_t, kFrame> data;
    bool last;
  };
  struct Mmio {
    uint64_t cycle;
    uint32_t addr;
    uint64_t data;
  };

  explicit PcieFake(uint64_t seed = 1) : Device(kId, "pcie-fake"), rng_(seed) {}

  PcieAttachment pcie;  // its PCIe link (config set before it joins a node), declared to the node
  std::vector<std::unique_ptr<HostLink>> make_host_links(HostMemory& mem) override { return pcie.host_links(mem); }

  // knobs
  double p_idle = 0;       // chance that a new request or beat waits one more cycle
  double p_stall = 0;      // chance that rd_rsp_ready is low in a cycle
  bool rsp_ready = true;   // false: responses are never taken
  uint64_t mmio_value = 0; // what a register read returns (the cycle after it was taken)
  std::vector<uint8_t>* shadow = nullptr;  // host bytes from shadow_base (race-free mode)
  uint64_t shadow_base = 0;
  // scripts and logs
  std::deque<ReadOp> reads;
  std::deque<WriteOp> writes;
  std::vector<ReadAccept> read_accepts;
  std::vector<Frame> frames;
  std::vector<uint64_t> write_done;  // cycle of each transaction's last beat
  uint64_t first_write_beat = UINT64_MAX;
  std::vector<Mmio> mmio_log;
  uint64_t cycle = 0;
  bool in_reset = false;

  void set_reset(bool asserted) override { in_reset = asserted; }

  void eval() override {
    HostPorts& h = host_;
    PcieDmaPort& p = pcie.port;
    h.mmio.req_ready = !in_reset;
    h.mmio.rsp_valid = mmio_rsp_;
    h.mmio.rsp_rdata = mmio_value;
    // write channel: continue the transaction, or start the next one
    p.wr_valid = false;
    if (!in_reset && !writes.empty()) {
      const WriteOp& w = writes.front();
      const bool start_ok = wr_txn_ || !overlaps_reads(w.addr, w.raw ? w.raw_len : w.data.size());
      p.wr_valid = wr_hold_ || (cycle >= w.not_before && go_wr_ && start_ok);
      if (p.wr_valid) {
        if (w.raw) {
          p.wr_addr = w.addr;
          p.wr_len = w.raw_len;
          p.wr_last = true;
        } else {
          const uint64_t a = w.addr + wr_off_;
          p.wr_addr = a;
          p.wr_len = unsigned(std::min<uint64_t>(kFrame - a % kFrame, w.data.size() - wr_off_));
          p.wr_last = wr_off_ + p.wr_len == w.data.size();
        }
        p.wr_data.fill(0xEE);  // lanes outside the beat: garbage the host must ignore
        const uint64_t lane = p.wr_addr % kFrame;
        for (unsigned i = 0; i < p.wr_len && lane + i < kFrame && !w.raw; ++i) p.wr_data[lane + i] = w.data[wr_off_ + i];
      }
    }
    // read channel
    p.rd_req_valid = false;
    if (!in_reset && !reads.empty()) {
      const ReadOp& r = reads.front();
      const bool clash = shadow && !writes.empty() && (wr_txn_ || p.wr_valid) &&
                         overlap(r.addr, r.len, writes.front().addr, writes.front().data.size());
      p.rd_req_valid = rd_hold_ || (cycle >= r.not_before && go_rd_ && !clash);
      if (p.rd_req_valid) {
        p.rd_req_addr = r.addr;
        p.rd_req_len = r.len;
        p.rd_req_tag = r.tag;
      }
    }
    p.rd_rsp_ready = rsp_ready && !stall_;
    seen_ = h;
    seen_pcie_ = p;
  }

  void edge() override {
    const HostPorts& h = seen_;
    const PcieDmaPort& p = seen_pcie_;
    if (h.mmio.req_valid && h.mmio.req_ready && h.mmio.req_write)
      mmio_log.push_back({cycle, h.mmio.req_addr, h.mmio.req_wdata});
    mmio_rsp_ = h.mmio.req_valid && h.mmio.req_ready && !h.mmio.req_write;
    if (p.rd_rsp_valid && p.rd_rsp_ready) {
      frames.push_back({cycle, p.rd_rsp_tag, p.rd_rsp_data, p.rd_rsp_last});
      if (p.rd_rsp_last && !outstanding_.empty()) outstanding_.pop_front();
    }
    if (p.wr_valid) {
      wr_hold_ = !p.wr_ready;
      wr_txn_ = true;
      if (p.wr_ready) {
        first_write_beat = std::min(first_write_beat, cycle);
        WriteOp& w = writes.front();
        wr_off_ += p.wr_len;
        if (p.wr_last) {
          if (shadow) std::copy(w.data.begin(), w.data.end(), shadow->begin() + std::ptrdiff_t(w.addr - shadow_base));
          write_done.push_back(cycle);
          writes.pop_front();
          wr_txn_ = false;
          wr_off_ = 0;
        }
      }
    }
    if (p.rd_req_valid) {
      rd_hold_ = !p.rd_req_ready;
      if (p.rd_req_ready) {
        ReadAccept a{cycle, reads.front(), {}};
        if (shadow) {
          const auto from = shadow->begin() + std::ptrdiff_t(a.op.addr - shadow_base);
          a.expect.assign(from, from + a.op.len);
        }
        outstanding_.push_back({a.op.addr, a.op.len});
        read_accepts.push_back(std::move(a));
        reads.pop_front();
      }
    }
    std::uniform_real_distribution<double> u(0.0, 1.0);
    go_wr_ = u(rng_) >= p_idle;
    go_rd_ = u(rng_) >= p_idle;
    stall_ = u(rng_) < p_stall;
    ++cycle;
  }

  bool done() const { return reads.empty() && writes.empty() && outstanding_.empty(); }

 private:
  static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) { return a < b + blen && b < a + alen; }
  bool overlaps_reads(uint64_t addr, uint64_t len) const {
    if (!shadow) return false;
    if (rd_hold_ && overlap(addr, len, reads.front().addr, reads.front().len)) return true;
    for (const auto& [a, l] : outstanding_)
      if (overlap(addr, len, a, l)) return true;
    return false;
  }

  std::mt19937_64 rng_;
  HostPorts seen_;
  PcieDmaPort seen_pcie_;
  bool go_wr_ = true, go_rd_ = true, stall_ = false;
  bool wr_txn_ = false, wr_hold_ = false, rd_hold_ = false;
  bool mmio_rsp_ = false;
  uint64_t wr_off_ = 0;
  std::deque<std::pair<uint64_t, uint64_t>> outstanding_;  // accepted reads, last frame not yet taken
};

}  // namespace hpcnet::sim::test
