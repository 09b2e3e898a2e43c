// pcie.cpp: the PCIe host model's link directions, write TLPs, read TLPs and completions.
#include "sim/host/pcie.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/core/errors.hpp"

namespace hpcnet::sim {

namespace {
constexpr uint64_t kFrame = PcieDmaPort::kFrameBytes;
constexpr uint64_t kPage = 4096;

bool pow2(unsigned v) { return v && !(v & (v - 1)); }

// The first whole cycle at or after a link time (a TLP that crosses at 12.0 is usable in cycle 12).
uint64_t cycle_at(double t) { return static_cast<uint64_t>(std::ceil(t - 1e-9)); }
}  // namespace

void PcieConfig::validate() const {
  auto bad = [](const char* field, double v, const char* rule) {
    throw std::invalid_argument(fmt::format("PcieConfig.{} = {}: {}", field, v, rule));
  };
  if (!(raw_bytes_per_cycle > 0)) bad("raw_bytes_per_cycle", raw_bytes_per_cycle, "must be positive");
  if (!pow2(mrrs) || mrrs < 128 || mrrs > 4096) bad("mrrs", mrrs, "must be a power of two from 128 to 4096");
  if (!pow2(mps) || mps < 128 || mps > 4096) bad("mps", mps, "must be a power of two from 128 to 4096");
  if (rcb != 64 && rcb != 128) bad("rcb", rcb, "must be 64 or 128");
  if (rcb > mps) bad("rcb", rcb, "must not exceed mps");
  if (max_read_tags == 0) bad("max_read_tags", max_read_tags, "must be at least 1");
  if (write_buffer_tlps == 0) bad("write_buffer_tlps", write_buffer_tlps, "must be at least 1");
  if (read_queue == 0) bad("read_queue", read_queue, "must be at least 1");
  if (cpl_buffer_bytes < mrrs + kFrame) bad("cpl_buffer_bytes", cpl_buffer_bytes, "must hold one read TLP's frames (mrrs + 32)");
}

BusConfig pcie_pio_bus() {
  BusConfig b;
  b.write_latency = 125;
  b.read_latency = 125;
  b.rsp_latency = 125;
  b.spacing = 20;          // 16 bus cycles at 250 MHz per uncached 64-bit write
  b.wc_burst_cycles = 20;  // 16 bus cycles per write-combined 64-byte burst
  return b;
}

void PcieStats::add(const PcieStats& x) {
  if (x.reads_timed) {
    read_latency_min = reads_timed ? std::min(read_latency_min, x.read_latency_min) : x.read_latency_min;
    read_latency_max = std::max(read_latency_max, x.read_latency_max);
  }
  read_latency_sum += x.read_latency_sum;
  reads_timed += x.reads_timed;
  read_requests += x.read_requests;
  read_bytes += x.read_bytes;
  reads_done += x.reads_done;
  read_frames += x.read_frames;
  write_beats += x.write_beats;
  write_bytes += x.write_bytes;
  write_transactions += x.write_transactions;
  writes_applied += x.writes_applied;
  up_read_tlps += x.up_read_tlps;
  up_write_tlps += x.up_write_tlps;
  up_bytes += x.up_bytes;
  down_tlps += x.down_tlps;
  down_bytes += x.down_bytes;
  up_busy_cycles += x.up_busy_cycles;
  down_busy_cycles += x.down_busy_cycles;
  active_cycles += x.active_cycles;
  max_tags_in_use = std::max(max_tags_in_use, x.max_tags_in_use);
  max_cpl_buffer = std::max(max_cpl_buffer, x.max_cpl_buffer);
  rsp_stall_cycles += x.rsp_stall_cycles;
  wr_stall_cycles += x.wr_stall_cycles;
}

PcieDma::PcieDma(HostMemory& mem, PcieConfig cfg) : mem_(mem), cfg_(cfg) { cfg_.validate(); }

bool PcieDma::idle() const {
  return reqs_.empty() && posted_.empty() && up_flight_.empty() && !cur_open_ && !in_txn_;
}

// ---- drive: what has crossed, what leaves, what the device sees

void PcieDma::drive(PcieDmaPort& port, uint64_t now) {
  if (!idle()) ++stats_.active_cycles;
  arrivals(now);
  while (!tag_release_.empty() && tag_release_.front() <= double(now) + 1e-9) {
    tag_release_.pop_front();
    --tags_;
  }
  send_upstream(now);
  present(port, now);
  port.wr_ready = posted_.size() < cfg_.write_buffer_tlps;
  port.rd_req_ready = reqs_.size() - send_idx_ < cfg_.read_queue;
}

void PcieDma::arrivals(uint64_t now) {
  // Upstream TLPs that have crossed, in link order: writes applied, reads take their data.
  while (!up_flight_.empty() && up_flight_.front().arrive <= double(now) + 1e-9) {
    Flight& f = up_flight_.front();
    if (f.read) {
      ReadTlp& t = *f.read;
      t.data.assign(size_t(t.frames) * kFrame, 0);
      mem_.read(t.addr, t.data.data() + (t.addr - t.frame_base), t.len);
      t.data_read = true;
    } else {
      mem_.write(f.write.addr, f.write.data.data(), f.write.data.size());
      ++stats_.writes_applied;
    }
    up_flight_.pop_front();
  }
}

void PcieDma::send_upstream(uint64_t now) {
  // TLPs whose start falls in [now, now + 1), oldest first; a write may pass a read that waits for
  // a tag or completion-buffer room, a read never passes an older write.
  for (;;) {
    WriteTlp* w = posted_.empty() ? nullptr : &posted_.front();
    ReadTlp* r = nullptr;  // the next read TLP, when it has a tag and completion-buffer room
    if (send_idx_ < reqs_.size()) {
      ReadReq& q = reqs_[send_idx_];
      ReadTlp& t = q.tlps[q.sent];
      if (tags_ < cfg_.max_read_tags && cpl_reserved_ + uint64_t(t.frames) * kFrame <= cfg_.cpl_buffer_bytes) r = &t;
    }
    if (!w && !r) break;
    const bool take_write = w && (!r || w->seq < r->seq);
    const uint64_t ready = take_write ? w->ready : reqs_[send_idx_].accepted + 1;
    const double start = std::max({up_free_, double(ready), double(now)});
    if (start >= double(now + 1)) break;
    const uint64_t payload = take_write ? w->data.size() : 0;
    const uint64_t bytes = payload + cfg_.tlp_overhead;
    const double dur = double(bytes) / cfg_.raw_bytes_per_cycle;
    up_free_ = start + dur;
    stats_.up_bytes += bytes;
    stats_.up_busy_cycles += dur;
    Flight f;
    f.arrive = up_free_;
    if (take_write) {
      ++stats_.up_write_tlps;
      f.write = std::move(*w);
      posted_.pop_front();
    } else {
      ++stats_.up_read_tlps;
      ++tags_;
      stats_.max_tags_in_use = std::max(stats_.max_tags_in_use, tags_);
      cpl_reserved_ += uint64_t(r->frames) * kFrame;
      stats_.max_cpl_buffer = std::max(stats_.max_cpl_buffer, cpl_reserved_);
      schedule_completions(*r, start);
      f.read = r;
      ReadReq& q = reqs_[send_idx_];
      if (++q.sent == q.tlps.size()) ++send_idx_;
    }
    up_flight_.push_back(std::move(f));
  }
}

void PcieDma::schedule_completions(ReadTlp& t, double start) {
  // Completions of at most MPS bytes ending at RCB-aligned addresses (the last at the TLP's end),
  // back to back from read_latency after the request left, behind earlier completions.
  const uint64_t end = t.addr + t.len;
  uint64_t pos = t.addr;
  double at = std::max(down_free_, start + double(cfg_.read_latency));
  while (pos < end) {
    const uint64_t cend = std::min(end, (pos + cfg_.mps) / cfg_.rcb * cfg_.rcb);
    const uint64_t bytes = cend - pos + cfg_.tlp_overhead;
    const double dur = double(bytes) / cfg_.raw_bytes_per_cycle;
    at += dur;
    t.cpls.push_back(Cpl{cend, cycle_at(at)});
    ++stats_.down_tlps;
    stats_.down_bytes += bytes;
    stats_.down_busy_cycles += dur;
    pos = cend;
  }
  down_free_ = at;
  tag_release_.push_back(at);
}

void PcieDma::present(PcieDmaPort& port, uint64_t now) {
  port.rd_rsp_valid = false;
  port.rd_rsp_last = false;
  if (reqs_.empty()) return;
  ReadReq& q = reqs_.front();
  if (q.cur >= q.sent) return;  // its next TLP has not left yet
  ReadTlp& t = q.tlps[q.cur];
  const uint64_t frame_addr = t.frame_base + uint64_t(t.delivered) * kFrame;
  while (t.cpls[t.cpl].end <= frame_addr) ++t.cpl;
  if (!t.data_read || now < t.cpls[t.cpl].avail) return;
  port.rd_rsp_valid = true;
  port.rd_rsp_tag = q.tag;
  std::copy_n(t.data.begin() + std::ptrdiff_t(t.delivered) * std::ptrdiff_t(kFrame), kFrame, port.rd_rsp_data.begin());
  port.rd_rsp_last = q.cur + 1 == q.tlps.size() && t.delivered + 1 == t.frames;
  if (!q.presented) {
    q.presented = true;
    const uint64_t lat = now - q.accepted;
    stats_.read_latency_min = stats_.reads_timed ? std::min(stats_.read_latency_min, lat) : lat;
    stats_.read_latency_max = std::max(stats_.read_latency_max, lat);
    stats_.read_latency_sum += lat;
    ++stats_.reads_timed;
  }
}

// ---- sample: the handshakes of this cycle

void PcieDma::sample(const PcieDmaPort& port, uint64_t now) {
  check_held(port, now);
  if (port.rd_rsp_valid) {
    if (port.rd_rsp_ready) accept_frame(now);
    else ++stats_.rsp_stall_cycles;
  }
  if (port.wr_valid && !port.wr_ready) ++stats_.wr_stall_cycles;
  if (port.wr_valid && port.wr_ready) accept_write(port, now);  // before a read of the same cycle
  if (port.rd_req_valid && port.rd_req_ready) accept_read(port, now);
  held_rd_ = Held{port.rd_req_valid && !port.rd_req_ready, port.rd_req_addr, port.rd_req_len, port.rd_req_tag, false, {}};
  held_wr_ = Held{port.wr_valid && !port.wr_ready, port.wr_addr, port.wr_len, 0, port.wr_last, port.wr_data};
}

void PcieDma::check_held(const PcieDmaPort& port, uint64_t now) {
  if (held_rd_.valid && (!port.rd_req_valid || port.rd_req_addr != held_rd_.addr || port.rd_req_len != held_rd_.len ||
                         port.rd_req_tag != held_rd_.tag))
    throw ProtocolError(fmt::format("PCIe DMA at cycle {}: rd_req_valid dropped or rd_req_addr/len/tag changed before "
                                    "rd_req_ready (offered 0x{:x} len {} tag {})", now, held_rd_.addr, held_rd_.len,
                                    held_rd_.tag));
  if (held_wr_.valid && (!port.wr_valid || port.wr_addr != held_wr_.addr || port.wr_len != held_wr_.len ||
                         port.wr_last != held_wr_.last || port.wr_data != held_wr_.data))
    throw ProtocolError(fmt::format("PCIe DMA at cycle {}: wr_valid dropped or wr_addr/len/data/last changed before "
                                    "wr_ready (offered 0x{:x} len {})", now, held_wr_.addr, held_wr_.len));
}

void PcieDma::accept_frame(uint64_t now) {
  (void)now;
  ReadReq& q = reqs_.front();
  ReadTlp& t = q.tlps[q.cur];
  ++stats_.read_frames;
  if (++t.delivered < t.frames) return;
  cpl_reserved_ -= uint64_t(t.frames) * kFrame;
  t.data = {};
  if (++q.cur < q.tlps.size()) return;
  ++stats_.reads_done;
  reqs_.pop_front();
  --send_idx_;  // the finished request had every TLP sent
}

void PcieDma::accept_write(const PcieDmaPort& port, uint64_t now) {
  const uint64_t addr = port.wr_addr;
  const unsigned len = port.wr_len;
  const unsigned off = unsigned(addr % kFrame);
  if (len == 0 || off + len > kFrame)
    throw ProtocolError(fmt::format("PCIe DMA write at cycle {}: wr_len {} at wr_addr 0x{:x} {}", now, len, addr,
                                    len == 0 ? "is 0" : "leaves the beat's 32-byte frame"));
  if (in_txn_ && addr != txn_next_)
    throw ProtocolError(fmt::format("PCIe DMA write at cycle {}: wr_addr 0x{:x} does not continue the write "
                                    "transaction (expected 0x{:x})", now, addr, txn_next_));
  if (in_txn_ && addr % kPage == 0)
    throw ProtocolError(fmt::format("PCIe DMA write at cycle {}: the write transaction crosses a 4 KB boundary at "
                                    "wr_addr 0x{:x}", now, addr));
  if (!cur_open_) {
    cur_ = WriteTlp{};
    cur_.addr = addr;
    cur_.data.reserve(cfg_.mps);
    cur_open_ = true;
  }
  cur_.data.insert(cur_.data.end(), port.wr_data.begin() + off, port.wr_data.begin() + off + len);
  ++stats_.write_beats;
  stats_.write_bytes += len;
  in_txn_ = !port.wr_last;
  txn_next_ = addr + len;
  if (port.wr_last) ++stats_.write_transactions;
  if (port.wr_last || (addr + len) % cfg_.mps == 0) {  // the TLP is complete
    cur_.seq = seq_++;
    cur_.ready = now + 1;
    posted_.push_back(std::move(cur_));
    ++write_tlps_formed_;
    cur_open_ = false;
  }
}

void PcieDma::accept_read(const PcieDmaPort& port, uint64_t now) {
  const uint64_t addr = port.rd_req_addr;
  const unsigned len = port.rd_req_len;
  if (len == 0 || len > PcieDmaPort::kMaxReadBytes)
    throw ProtocolError(fmt::format("PCIe DMA read at cycle {}: rd_req_len {} is {} (1..4096)", now, len,
                                    len == 0 ? "0" : "too long"));
  if (addr % kPage + len > kPage)
    throw ProtocolError(fmt::format("PCIe DMA read at cycle {}: rd_req_addr 0x{:x} with rd_req_len {} crosses a 4 KB "
                                    "boundary", now, addr, len));
  ReadReq q;
  q.tag = port.rd_req_tag;
  q.accepted = now;
  const uint64_t end = addr + len;
  for (uint64_t pos = addr; pos < end;) {  // MRRS-aligned read TLPs
    ReadTlp t;
    t.addr = pos;
    const uint64_t tend = std::min(end, (pos / cfg_.mrrs + 1) * cfg_.mrrs);
    t.len = unsigned(tend - pos);
    t.seq = seq_++;
    t.frame_base = pos & ~(kFrame - 1);
    t.frames = unsigned((tend + kFrame - 1) / kFrame - pos / kFrame);
    q.tlps.push_back(std::move(t));
    pos = tend;
  }
  reqs_.push_back(std::move(q));
  ++stats_.read_requests;
  stats_.read_bytes += len;
}

std::string PcieDma::describe() const {
  return fmt::format("pcie: {} read request(s) in flight ({} not fully sent), {} of {} tags, {} B of completion buffer; "
                     "{} write TLP(s) queued{}; {} TLP(s) crossing upstream; up {}+{} TLPs {} B, down {} TLPs {} B",
                     reqs_.size(), reqs_.size() - send_idx_, tags_, cfg_.max_read_tags, cpl_reserved_, posted_.size(),
                     in_txn_ ? ", a write transaction open" : "", up_flight_.size(), stats_.up_read_tlps,
                     stats_.up_write_tlps, stats_.up_bytes, stats_.down_tlps, stats_.down_bytes);
}

namespace {
// The node's view of a PcieDma: it serves the attachment's port.
class PcieLink final : public HostLink {
 public:
  PcieLink(HostMemory& mem, const PcieConfig& cfg, PcieDmaPort& port) : dma_(mem, cfg), port_(port) {}
  PcieDma& dma() { return dma_; }
  void drive(uint64_t now) override { dma_.drive(port_, now); }
  void sample(uint64_t now) override { dma_.sample(port_, now); }
  void idle() override { port_ = PcieDmaPort{}; }
  uint64_t progress() const override { return dma_.stats().requests() + dma_.stats().read_frames; }
  std::string describe() const override { return dma_.describe(); }
  const CompletionOrder* completion_order() const override { return &dma_; }

 private:
  PcieDma dma_;
  PcieDmaPort& port_;
};
}  // namespace

std::vector<std::unique_ptr<HostLink>> PcieAttachment::host_links(HostMemory& mem) {
  if (dma_) throw std::logic_error("PcieAttachment: the device's PCIe link is made once (its node takes it once)");
  auto link = std::make_unique<PcieLink>(mem, config, port);
  dma_ = &link->dma();
  std::vector<std::unique_ptr<HostLink>> links;
  links.push_back(std::move(link));
  return links;
}

PcieDma& PcieAttachment::dma() const {
  if (!dma_) throw std::logic_error("PcieAttachment: no PCIe link yet (the device has not joined a node)");
  return *dma_;
}

}  // namespace hpcnet::sim
