// fake_device.hpp: a C++ device for the sim unit tests (a stand-in for ssm_top, or a second
// device beside it). MMIO is a register file
// (writes recorded with their acceptance cycle, reads answered read_delay cycles later by a
// one-cycle rsp pulse); register kIrqReg drives the irq line; DMA requests come from a script.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/ssm/ssm_system.hpp"
#include "sim/system/device.hpp"

namespace hpcnet::sim::test {

class FakeDevice final : public Device {
 public:
  static constexpr DeviceId kDefaultId = 0xFA4E'0001;
  explicit FakeDevice(DeviceId id = kDefaultId, std::string name = "fake") : Device(id, std::move(name)) {}

  static constexpr uint32_t kIrqReg = 0x100;
  static constexpr uint64_t kNever = UINT64_MAX;

  struct Mmio {
    uint64_t cycle;
    bool write;
    uint32_t addr;
    uint64_t data;
  };
  struct DmaOp {
    bool write = false;
    uint64_t addr = 0;
    unsigned len = 8;
    unsigned tag = 0;
    std::array<uint8_t, 32> data{};
    uint64_t not_before = 0;  // cycle
  };
  struct DmaAccept {
    uint64_t cycle;
    DmaOp op;
  };
  struct DmaRsp {
    uint64_t cycle;
    unsigned tag;
    std::array<uint8_t, 32> data;
  };

  // knobs
  bool mmio_ready = true;
  uint64_t read_delay = 3;  // kNever: reads are never answered
  bool dma_rsp_ready = true;
  // state and logs
  std::map<uint32_t, uint64_t> regs;
  std::vector<Mmio> mmio_log;
  std::deque<DmaOp> dma_script;
  std::vector<DmaAccept> dma_accepts;
  std::vector<DmaRsp> dma_rsps;
  uint64_t cycle = 0;
  bool in_reset = false;

  void set_reset(bool asserted) override { in_reset = asserted; }

  void eval() override {
    HostPorts& p = host_;
    p.mmio.req_ready = mmio_ready && !in_reset;
    p.mmio.rsp_valid = read_pending_ && cycle == read_due_;
    p.mmio.rsp_rdata = p.mmio.rsp_valid ? regs[read_addr_] : 0;
    p.dma.req_valid = !in_reset && !dma_script.empty() && cycle >= dma_script.front().not_before;
    if (p.dma.req_valid) {
      const DmaOp& op = dma_script.front();
      p.dma.req_write = op.write;
      p.dma.req_addr = op.addr;
      p.dma.req_len = op.len;
      p.dma.req_tag = op.tag;
      p.dma.req_wdata = op.data;
    }
    p.dma.rsp_ready = dma_rsp_ready;
    p.irq = regs.count(kIrqReg) && regs[kIrqReg] != 0;
    seen_ = p;
  }

  void edge() override {
    const HostPorts& p = seen_;
    if (p.mmio.rsp_valid) read_pending_ = false;
    if (p.mmio.req_valid && p.mmio.req_ready) {
      mmio_log.push_back({cycle, p.mmio.req_write, p.mmio.req_addr, p.mmio.req_wdata});
      if (p.mmio.req_write) {
        regs[p.mmio.req_addr] = p.mmio.req_wdata;
      } else {
        read_pending_ = true;
        read_addr_ = p.mmio.req_addr;
        read_due_ = read_delay == kNever ? kNever : cycle + read_delay;
      }
    }
    if (p.dma.req_valid && p.dma.req_ready) {
      dma_accepts.push_back({cycle, dma_script.front()});
      dma_script.pop_front();
    }
    if (p.dma.rsp_valid && p.dma.rsp_ready) dma_rsps.push_back({cycle, p.dma.rsp_tag, p.dma.rsp_rdata});
    ++cycle;
  }

 private:
  HostPorts seen_;
  bool read_pending_ = false;
  uint32_t read_addr_ = 0;
  uint64_t read_due_ = 0;
};

// A system of one node whose device is a FakeDevice (dut: the device, owned by the system).
inline std::unique_ptr<SsmSystem> make_system(FakeDevice*& dut, SsmSystemConfig cfg = {}) {
  auto d = std::make_unique<FakeDevice>();
  dut = d.get();
  return std::make_unique<SsmSystem>(cfg, std::move(d));
}

}  // namespace hpcnet::sim::test
