// sim/host/pcie.hpp: the PCIe host model a NIC sits on (SPEC section 6 "Host bus model
// defaults", paper 2.3-2.4; docs/sim.md "PCIe host model"): PcieDma serves one device's
// PcieDmaPort from a HostMemory's bytes, with the link's two directions, its packet overheads, its
// read latency and its outstanding-read limit; pcie_pio_bus() is the PIO timing of the same bus
// for the device's register window (HostBus). A device on PCIe holds a PcieAttachment (its port
// and link configuration) and declares the link to its node with it (host_link.hpp).
//
// Time is in device (NIC) cycles; the defaults are PCIe 2.0 x16 at the NIC clock of 312.5 MHz.
// Each direction of the link sends one TLP after another: a TLP of S bytes (payload + overhead)
// occupies its direction for S / raw_bytes_per_cycle cycles, fractions carried over (a stream of
// TLPs runs at exactly raw_bytes_per_cycle; an idle link saves nothing up).
//   upstream (device to host):   read-request TLPs (overhead only) and write TLPs (payload + overhead);
//   downstream (host to device): completions (payload + overhead).
// A TLP's bytes are usable at the far end when the whole TLP has crossed (its LCRC, at the end,
// is checked first: PCIe's data link layer does not forward a TLP before that).
//
// Writes (posted). Beats are accepted while fewer than write_buffer_tlps write TLPs wait for the
// link; a transaction is cut into TLPs at MPS-aligned addresses (and at its last beat); a TLP
// waits until it is complete, crosses upstream, and is applied to host memory (HostMemory::write)
// when it has crossed. Writes are applied in order.
// Reads. A request accepted in cycle a is cut into MRRS-aligned read TLPs, ready from cycle a + 1.
// A read TLP leaves when it has a tag (max_read_tags outstanding; the tag is free again when its
// last completion has crossed) and room in the completion buffer (cpl_buffer_bytes, reserved for
// its frames until the device has accepted them). Host memory is read when the TLP has crossed
// upstream. Its first completion starts downstream read_latency cycles after the TLP started
// upstream (or later, when the downstream link is busy); completions end at RCB-aligned addresses
// and carry at most MPS bytes each. A frame is presented (one per cycle at most) from the first
// cycle at which its completion has crossed, in address order per request, requests in
// acceptance order; bytes of a frame outside the request are 0.
// Ordering upstream: TLPs leave in the order they became ready (a read never passes an earlier
// write, so a read accepted after a write's last beat sees the write; in one cycle the write beat
// is taken before the read request); a write passes a read that waits for a tag or buffer room.
// Isolated read of n <= rcb bytes starting on a frame: accepted in cycle a, its first frame is
// presented in cycle a + 1 + read_latency + ceil((n + tlp_overhead) / raw_bytes_per_cycle)
// (a + 254 for 32 bytes at the defaults).
// Errors (ProtocolError naming the field): a read of 0 or more than 4096 bytes or crossing 4 KB,
// a write beat of 0 bytes or leaving its frame, a beat that does not continue its transaction, a
// transaction crossing 4 KB, a valid dropped or a payload changed before it was accepted.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "sim/host/host_bus.hpp"
#include "sim/host/host_link.hpp"
#include "sim/host/host_memory.hpp"

namespace hpcnet::sim {

// A device's PCIe DMA master (the NIC's: docs/nic.md section 2): a read channel (requests, then
// tagged responses of 32-byte frames) and a posted write channel, each valid/ready; served by
// PcieDma. The device owns it (PcieAttachment below), not HostPorts.
struct PcieDmaPort {
  static constexpr unsigned kFrameBytes = 32;     // a response or write beat: one aligned frame
  static constexpr unsigned kMaxReadBytes = 4096; // a read request: 1..4096 bytes inside one 4 KB page
  // read request: valid/addr/len/tag driven by the device, ready by the host
  bool rd_req_valid = false;
  uint64_t rd_req_addr = 0;   // byte address
  unsigned rd_req_len = 0;    // 1..4096, never crossing a 4 KB boundary
  unsigned rd_req_tag = 0;
  bool rd_req_ready = false;
  // read response: valid/tag/data/last driven by the host, ready by the device. The frames of
  // host memory holding the requested bytes, in address order; requests in acceptance order.
  bool rd_rsp_valid = false;
  unsigned rd_rsp_tag = 0;
  std::array<uint8_t, kFrameBytes> rd_rsp_data{};  // byte i is the byte at frame address + i;
                                                   // bytes outside the request are 0
  bool rd_rsp_last = false;   // the request's last frame
  bool rd_rsp_ready = false;
  // write beat (posted): valid/addr/len/data/last driven by the device, ready by the host
  bool wr_valid = false;
  uint64_t wr_addr = 0;       // the first byte this beat writes
  unsigned wr_len = 0;        // 1..32, inside the beat's 32-byte frame
  std::array<uint8_t, kFrameBytes> wr_data{};  // frame aligned: byte i goes to (wr_addr & ~31) + i
  bool wr_last = false;       // the last beat of a write transaction (contiguous, inside one 4 KB page)
  bool wr_ready = false;
};

struct PcieConfig {
  double raw_bytes_per_cycle = 25.6;  // each way: 5 GT/s x16 after 8b/10b = 8 GB/s, at 312.5 MHz
  uint64_t read_latency = 250;        // read TLP starts upstream -> its first completion starts downstream (0.8 us)
  unsigned mrrs = 256;                // max read request size (bytes of one read TLP; 128 selectable)
  unsigned mps = 256;                 // max payload size of a write TLP and of a completion (128 selectable)
  unsigned rcb = 64;                  // read completion boundary: completions end at RCB-aligned addresses
  unsigned tlp_overhead = 24;         // link bytes per TLP: STP 1 + sequence 2 + header 16 + LCRC 4 + END 1
  unsigned max_read_tags = 32;        // read TLPs outstanding (sent, last completion not yet crossed)
  unsigned write_buffer_tlps = 4;     // complete write TLPs waiting for the link before wr_ready drops
  unsigned read_queue = 4;            // accepted read requests with TLPs not yet sent before rd_req_ready drops
  unsigned cpl_buffer_bytes = 16384;  // completion buffer: frames of sent read TLPs not yet accepted

  void validate() const;  // throws std::invalid_argument naming the field

  // Streaming efficiencies (fraction of raw_bytes_per_cycle carrying payload) for aligned streams.
  unsigned completion_bytes() const { return std::min(mps, mrrs); }
  double write_efficiency() const { return double(mps) / double(mps + tlp_overhead); }
  double read_efficiency() const {
    return double(completion_bytes()) / double(completion_bytes() + tlp_overhead);
  }
};

// The PIO timing of the same bus for the device's register window (NodeConfig::device_bus), at
// the NIC clock: one uncached 64-bit write every 16 bus cycles at 250 MHz (64 ns = 20 cycles), a
// write-combined 64-byte burst every 16 bus cycles (20 cycles), posted-write and read latencies of
// half the DMA read round trip each way (125 cycles, an estimate: the paper gives no figure).
BusConfig pcie_pio_bus();

struct PcieStats {
  uint64_t read_requests = 0;    // device read requests accepted
  uint64_t read_bytes = 0;       // bytes they asked for
  uint64_t reads_done = 0;       // requests whose last frame was accepted
  uint64_t read_frames = 0;      // response frames accepted by the device
  uint64_t write_beats = 0;      // write beats accepted
  uint64_t write_bytes = 0;
  uint64_t write_transactions = 0;
  uint64_t writes_applied = 0;   // write TLPs applied to host memory
  uint64_t up_read_tlps = 0;     // upstream: read requests
  uint64_t up_write_tlps = 0;    //           writes
  uint64_t up_bytes = 0;         //           link bytes (payload + overhead)
  uint64_t down_tlps = 0;        // downstream: completions
  uint64_t down_bytes = 0;       //             link bytes
  double up_busy_cycles = 0;     // time each direction spent sending
  double down_busy_cycles = 0;
  uint64_t active_cycles = 0;    // cycles with anything accepted and not finished
  uint64_t read_latency_min = 0; // request accepted -> its first frame presented (cycles)
  uint64_t read_latency_max = 0;
  uint64_t read_latency_sum = 0;
  uint64_t reads_timed = 0;      // requests whose first frame was presented
  unsigned max_tags_in_use = 0;
  uint64_t max_cpl_buffer = 0;   // bytes reserved
  uint64_t rsp_stall_cycles = 0; // a frame presented without rd_rsp_ready
  uint64_t wr_stall_cycles = 0;  // wr_valid without wr_ready
  uint64_t requests() const { return read_requests + write_beats; }
  void add(const PcieStats& x);  // sums; latency min/max over both
  double read_latency_mean() const { return reads_timed ? double(read_latency_sum) / double(reads_timed) : 0.0; }
};

class PcieDma final : public CompletionOrder {
 public:
  explicit PcieDma(HostMemory& mem, PcieConfig cfg = {});
  PcieDma(const PcieDma&) = delete;
  PcieDma& operator=(const PcieDma&) = delete;
  const PcieConfig& config() const { return cfg_; }

  // Once per cycle: drive() before the device settles (memory writes and reads that are due,
  // TLPs onto the link, the response frame, rd_req_ready and wr_ready), sample() after (handshakes).
  void drive(PcieDmaPort& port, uint64_t now);
  void sample(const PcieDmaPort& port, uint64_t now);

  bool idle() const;
  // CompletionOrder: the write TLPs formed so far (a transaction's beats form a TLP at its last
  // beat or an MPS boundary), and whether they have all been applied to host memory.
  uint64_t write_mark() const override { return write_tlps_formed_; }
  bool writes_applied(uint64_t mark) const override { return stats_.writes_applied >= mark; }
  size_t reads_pending() const { return reqs_.size(); }  // accepted, last frame not yet accepted
  const PcieStats& stats() const { return stats_; }
  std::string describe() const;  // one line of state for a stall report

 private:
  struct WriteTlp {
    uint64_t addr = 0;
    std::vector<uint8_t> data;
    uint64_t seq = 0;
    uint64_t ready = 0;  // cycle from which it may leave
  };
  struct Cpl {
    uint64_t end = 0;    // covers the TLP's frames below this address
    uint64_t avail = 0;  // first cycle at which it has crossed
  };
  struct ReadTlp {
    uint64_t addr = 0;
    unsigned len = 0;
    uint64_t seq = 0;
    uint64_t frame_base = 0;  // addr & ~31
    unsigned frames = 0;
    std::vector<uint8_t> data;  // frames * 32 bytes, read when the TLP has crossed upstream
    bool data_read = false;
    std::vector<Cpl> cpls;
    size_t cpl = 0;             // completion of the next frame to present
    unsigned delivered = 0;     // frames accepted by the device
  };
  struct ReadReq {
    unsigned tag = 0;
    uint64_t accepted = 0;
    std::vector<ReadTlp> tlps;
    size_t sent = 0;            // TLPs sent upstream
    size_t cur = 0;             // TLP being delivered
    bool presented = false;     // first frame presented (latency recorded)
  };
  struct Flight {               // a TLP crossing upstream
    double arrive = 0;
    ReadTlp* read = nullptr;    // else a write
    WriteTlp write;
  };
  struct Held {                 // what a refused valid offered, to check it is held
    bool valid = false;
    uint64_t addr = 0;
    unsigned len = 0, tag = 0;
    bool last = false;
    std::array<uint8_t, PcieDmaPort::kFrameBytes> data{};
  };

  void arrivals(uint64_t now);
  void send_upstream(uint64_t now);
  void schedule_completions(ReadTlp& t, double start);
  void present(PcieDmaPort& port, uint64_t now);
  void accept_frame(uint64_t now);
  void accept_write(const PcieDmaPort& port, uint64_t now);
  void accept_read(const PcieDmaPort& port, uint64_t now);
  void check_held(const PcieDmaPort& port, uint64_t now);

  HostMemory& mem_;
  PcieConfig cfg_;
  double up_free_ = 0, down_free_ = 0;  // each direction's link is busy until then
  uint64_t seq_ = 0;
  // writes
  std::deque<WriteTlp> posted_;         // complete, waiting for the link
  uint64_t write_tlps_formed_ = 0;
  WriteTlp cur_;                        // being assembled
  bool cur_open_ = false;
  bool in_txn_ = false;
  uint64_t txn_next_ = 0;               // the address the next beat of the transaction must start at
  // reads
  std::deque<ReadReq> reqs_;            // acceptance order
  size_t send_idx_ = 0;                 // first request in reqs_ with unsent TLPs
  unsigned tags_ = 0;
  std::deque<double> tag_release_;      // last-completion crossing times of sent TLPs (monotonic)
  uint64_t cpl_reserved_ = 0;
  std::deque<Flight> up_flight_;
  Held held_rd_, held_wr_;
  PcieStats stats_;
};

// A device's PCIe link (the NIC's; tb/sim's PcieFake): its port, which the device drives, and
// the link's configuration, set before the device joins a node. The device's
// Device::make_host_links returns host_links(mem): the node then serves the port with a PcieDma
// over its host memory, which dma() returns from then on.
class PcieAttachment {
 public:
  PcieConfig config{};
  PcieDmaPort port{};

  std::vector<std::unique_ptr<HostLink>> host_links(HostMemory& mem);  // once; throws on a bad config
  bool attached() const { return dma_ != nullptr; }
  PcieDma& dma() const;  // std::logic_error before the node made the link

 private:
  PcieDma* dma_ = nullptr;
};

}  // namespace hpcnet::sim
