// bench/nic/nic_rig.cpp: the two-node system of `hpcnet nic` with its endpoints and buffers, the
// probe that timestamps the breakdown's stages, and the checks every scenario shares.
#include <algorithm>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "nic/nic_bench.hpp"

namespace hpcnet::bench::nicb {

const std::vector<LatPath>& lat_paths() {
  // The paper (seed 004, section 3): minimum latency 2.5 us with DMA-submitted descriptors, 1.95
  // us with immediate RDMA, 1.57 us with PIO-submitted descriptors. It does not say how the
  // immediate descriptors were submitted: imm-dma submits them by DMA, for comparison.
  static const std::vector<LatPath> p = {
      {"dma", "RDMA write, DMA descriptors", false, RDMA_SUBMIT_DMA, 2.5},
      {"pio", "RDMA write, PIO-WC descriptors", false, RDMA_SUBMIT_PIO_WC, 1.57},
      {"imm", "immediate write, PIO-WC", true, RDMA_SUBMIT_PIO_WC, 1.95},
      {"imm-dma", "immediate write, DMA descriptors", true, RDMA_SUBMIT_DMA, 1.95},
  };
  return p;
}

const LatPath& lat_path(const std::string& name) {
  for (const LatPath& p : lat_paths())
    if (p.name == name) return p;
  throw std::invalid_argument("unknown latency path '" + name + "'");
}

int submit_mode(const std::string& s) {
  if (s == "pio-wc") return RDMA_SUBMIT_PIO_WC;
  if (s == "pio") return RDMA_SUBMIT_PIO;
  if (s == "dma") return RDMA_SUBMIT_DMA;
  throw std::invalid_argument("unknown submission mode '" + s + "'");
}

Bottleneck bottleneck(const NicBenchOptions& o) {
  const sim::NicPairConfig c = pair_config(o);
  const sim::PcieConfig& q = c.pcie;
  const double raw = q.raw_bytes_per_cycle;  // bytes/cycle each way
  const double to_gbps = c.clock_mhz / 1000.0;
  constexpr double kFifoBytes = 8192, kReqBytes = 1024;  // nic_top FifoBytes, nic_rdeng ReqBytes
  // a read TLP holds its tag from its start upstream until its last completion has crossed
  const unsigned cpl = q.completion_bytes();
  const double tag_cycles = double(q.read_latency) + double(q.mrrs / cpl) * double(cpl + q.tlp_overhead) / raw;
  // a 1 KiB request's frames are outstanding from the request until they leave the FIFO
  const double req_cycles = 1.0 + double(q.read_latency) + kReqBytes / cpl * double(cpl + q.tlp_overhead) / raw;
  Bottleneck b;
  b.pcie_write_gbps = raw * q.write_efficiency() * to_gbps;
  b.pcie_read_gbps = raw * q.read_efficiency() * to_gbps;
  b.read_tags_gbps = double(q.max_read_tags) * q.mrrs / tag_cycles * to_gbps;
  b.fifo_gbps = kFifoBytes / req_cycles * to_gbps;
  b.link_gbps = 32.0 * 128.0 / 160.0 * to_gbps;  // 32-byte flits, 128 payload bytes of 160
  b.gbps = std::min({b.pcie_write_gbps, b.pcie_read_gbps, b.read_tags_gbps, b.fifo_gbps, b.link_gbps});
  const std::pair<double, std::string> terms[] = {
      {b.pcie_write_gbps, fmt::format("PCIe writes at the writing node (MPS {}: {}/{} of {:.1f} GB/s)", q.mps, q.mps,
                                      q.mps + q.tlp_overhead, raw * to_gbps)},
      {b.pcie_read_gbps, fmt::format("PCIe read completions at the read node ({} B completions: {}/{} of {:.1f} GB/s)", cpl,
                                     cpl, cpl + q.tlp_overhead, raw * to_gbps)},
      {b.read_tags_gbps, fmt::format("PCIe read tags ({} reads of {} B in flight per {:.0f}-cycle round trip)", q.max_read_tags,
                                     q.mrrs, tag_cycles)},
      {b.fifo_gbps, fmt::format("the read engine's 8 KiB FIFO (per {:.0f}-cycle round trip of a 1 KiB request)", req_cycles)},
      {b.link_gbps, "the link (128 of 160 bytes at 32 B/cycle)"},
  };
  const char* names[] = {"PCIe writes", "PCIe read completions", "PCIe read tags", "read engine FIFO", "link"};
  for (size_t i = 0; i < std::size(terms); ++i) {
    if (terms[i].first <= b.gbps + 1e-9) b.what += (b.what.empty() ? "" : " and ") + terms[i].second;
    b.terms += fmt::format("{}{} {:.3f}", i ? ", " : "", names[i], terms[i].first);
  }
  b.terms += " GB/s";
  return b;
}

sim::NicPairConfig pair_config(const NicBenchOptions& o, uint64_t watchdog) {
  sim::NicPairConfig c;
  c.pcie.mps = o.mps;
  c.pcie.mrrs = o.mrrs;
  c.link_delay = o.link_delay;
  c.watchdog_cycles = watchdog;
  o.faults.config(c);
  if (o.link_retx != kDefaultLinkRetx) {
    const auto* m = sim::find_model(sim::nic_models(), {{"LinkRetx", long(o.link_retx)}}, {{"LinkRetx", long(kDefaultLinkRetx)}});
    if (!m)
      throw std::invalid_argument(fmt::format("no nic_top model with a {}-flit link retransmit buffer is built ({}){}",
                                              o.link_retx, sim::model_names(sim::nic_models()), sim::bench_models_hint()));
    c.nic_make = m->make;
  }
  return c;
}

uint64_t now() {
  Platform* p = this_platform();
  if (!p) throw std::logic_error("nic bench: now() outside a simulated thread");
  return p->now_cycles();
}

std::vector<uint8_t> random_bytes(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<uint8_t> v(n);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = rng();
    for (unsigned k = 0; k < 8; ++k) v[i + k] = uint8_t(x >> (8 * k));
  }
  for (; i < n; ++i) v[i] = uint8_t(rng());
  return v;
}

void check_rc(int rc, const std::string& what) {
  if (rc != 0) throw CheckFailed(fmt::format("{}: returned {}", what, rc));
}

void check_bytes(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want, const std::string& what) {
  if (got.size() != want.size()) throw std::logic_error("check_bytes: sizes differ");
  const auto m = std::mismatch(got.begin(), got.end(), want.begin());
  if (m.first == got.end()) return;
  const size_t at = size_t(m.first - got.begin());
  size_t wrong = 0;
  for (size_t i = at; i < got.size(); ++i) wrong += got[i] != want[i];
  throw CheckFailed(fmt::format("{}: byte {} is {:#04x}, expected {:#04x} ({} of {} bytes wrong)", what, at, got[at],
                                want[at], wrong, got.size()));
}

std::string size_text(uint64_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

// ---- Rig

FaultTally& fault_tally() {
  static FaultTally t;
  return t;
}

Rig::Rig(const NicBenchOptions& o, const std::string& label, bool probe, uint64_t watchdog) : faults_(o.faults) {
  name_next_run(label);
  pair_ = std::make_unique<sim::NicPair>(pair_config(o, watchdog));
  if (probe) {
    auto p = std::make_unique<sim::NicProbe>(*pair_);
    probe_ = p.get();
    pair_->cluster().add_fabric(std::move(p));
  }
  for (unsigned n = 0; n < 2; ++n)
    pair_->spawn(n, 0, 0, [this, n] { check_rc(rdma_open(&ep_[n]), fmt::format("rdma_open on node {}", n)); });
  pair_->run();
}

Rig::~Rig() {  // the endpoints go with their nodes
  FaultTally& t = fault_tally();
  ++t.runs;
  for (unsigned i = 0; i < 2; ++i)
    for (const sim::FaultEvent& e : pair_->link().wire(i).log()) ++(e.ctl ? t.ctl : t.flits);
}

void Rig::on(unsigned node, std::function<void()> fn) {
  pair_->spawn(node, 0, 0, std::move(fn));
  pair_->run();
}

Buf Rig::make(unsigned node, rdma_ep* e, size_t bytes, int access, const std::vector<uint8_t>& data, size_t guard) {
  Buf b;
  b.bytes = bytes;
  b.va = rdma_alloc(e, bytes + guard, 0);
  std::vector<uint8_t> v(bytes + guard, kGuard);
  std::copy(data.begin(), data.begin() + std::min(data.size(), bytes), v.begin());
  rdma_mem_write(e, b.va, v.data(), v.size());  // outside a thread: immediate, no simulated time
  on(node, [&] { check_rc(rdma_reg_mr(e, b.va, bytes, access, &b.key), fmt::format("rdma_reg_mr of {} bytes", bytes)); });
  return b;
}

std::vector<uint8_t> Rig::peek(rdma_ep* e, uint64_t va, size_t n) const {
  std::vector<uint8_t> v(n);
  rdma_mem_read(e, va, v.data(), n);
  return v;
}

}  // namespace hpcnet::bench::nicb
