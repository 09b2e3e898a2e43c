// bar_platform.cpp: hpcnet::Platform over mapped PCI BARs and UIO interrupts (compile-only check).
#include "bar_platform.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <system_error>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace hpcnet {
namespace {
BarPlatform* g_node = nullptr;
}  // namespace

class BarPlatform::BarDevice final : public Platform::Device {
 public:
  BarDevice(BarPlatform& node, const BarDeviceConfig& c) : node_(node), cfg_(c) {
    const int fd = ::open(c.bar_path.c_str(), O_RDWR | O_SYNC);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "open " + c.bar_path);
    void* p = ::mmap(nullptr, c.bar_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap " + c.bar_path);
    regs_ = static_cast<volatile uint64_t*>(p);
    wc_ = regs_;
    if (!c.wc_path.empty()) {  // the kernel maps resourceN_wc write-combining
      const int wfd = ::open(c.wc_path.c_str(), O_RDWR);
      if (wfd < 0) throw std::system_error(errno, std::generic_category(), "open " + c.wc_path);
      void* w = ::mmap(nullptr, c.bar_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, wfd, 0);
      ::close(wfd);
      if (w == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "mmap " + c.wc_path);
      wc_ = static_cast<volatile uint64_t*>(w);
    }
  }
  ~BarDevice() override {
    stop_ = true;
    if (irq_thread_.joinable()) irq_thread_.join();
    if (wc_ != regs_) ::munmap(const_cast<uint64_t*>(wc_), cfg_.bar_bytes);
    ::munmap(const_cast<uint64_t*>(regs_), cfg_.bar_bytes);
  }
  DeviceId id() const override { return cfg_.id; }
  void mmio_write64(uint64_t offset, uint64_t value) override { regs_[offset / 8] = value; }
  uint64_t mmio_read64(uint64_t offset) override { return regs_[offset / 8]; }
  void mmio_write_wc(uint64_t offset, const uint64_t* words, size_t n) override {
    // Stores into the WC mapping (the CPU combines each 64-byte line in its WC buffer), then a
    // store fence, which drains the WC buffers before any later store or MMIO access.
    volatile uint64_t* dst = wc_ + offset / 8;
    for (size_t i = 0; i < n; ++i) dst[i] = words[i];
    store_fence();
  }
  void set_irq_handler(std::function<void()> handler) override {
    handler_ = std::move(handler);
    if (cfg_.uio_path.empty() || irq_thread_.joinable()) return;
    irq_thread_ = std::thread([this] {  // UIO: a read returns the interrupt count when one fires
      const int fd = ::open(cfg_.uio_path.c_str(), O_RDWR);
      if (fd < 0) return;
      while (!stop_) {
        uint32_t enable = 1, count = 0;
        if (::write(fd, &enable, sizeof enable) != sizeof enable) break;  // unmask
        if (::read(fd, &count, sizeof count) != sizeof count) break;
        if (handler_) handler_();
      }
      ::close(fd);
    });
  }
  Platform& platform() override { return node_; }

 private:
  BarPlatform& node_;
  BarDeviceConfig cfg_;
  static void store_fence() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_sfence();
#else
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
  }

  volatile uint64_t* regs_ = nullptr;
  volatile uint64_t* wc_ = nullptr;  // regs_ when there is no WC mapping
  std::function<void()> handler_;
  std::thread irq_thread_;
  std::atomic<bool> stop_{false};
};

BarPlatform::BarPlatform(BarPlatformConfig cfg) : cfg_(std::move(cfg)) {
  for (const auto& d : cfg_.devices) devices_.push_back(std::make_unique<BarDevice>(*this, d));
  // One node per process: handle-free library calls (libssm) act on this platform.
  g_node = this;
  platform_locator() = [] { return static_cast<Platform*>(g_node); };
}

BarPlatform::~BarPlatform() {
  if (g_node == this) platform_locator() = nullptr;
}

Platform::Device& BarPlatform::open(DeviceId id) {
  for (auto& d : devices_)
    if (d->id() == id) return *d;
  throw std::runtime_error("BarPlatform::open: no device with id " + std::to_string(id));
}

bool BarPlatform::has_device(DeviceId id) const {
  for (auto& d : devices_)
    if (d->id() == id) return true;
  return false;
}

DmaRegion BarPlatform::dma_alloc(size_t bytes, size_t align) {
  if (align < 64) align = 64;
  const uint64_t start = (cfg_.dma_phys + next_ + align - 1) / align * align;
  if (start + bytes > cfg_.dma_phys + cfg_.dma_bytes) return {};
  next_ = start + bytes - cfg_.dma_phys;
  std::memset(virt(start, bytes), 0, bytes);
  used_[start] = bytes;
  return {start, bytes};
}

void BarPlatform::dma_free(const DmaRegion& r) { used_.erase(r.phys); }  // bump allocator: not reused

uint8_t* BarPlatform::virt(uint64_t phys, size_t n) const {
  if (phys < cfg_.dma_phys || phys + n > cfg_.dma_phys + cfg_.dma_bytes)
    throw std::out_of_range("BarPlatform: physical address outside the DMA region");
  return static_cast<uint8_t*>(cfg_.dma_virt) + (phys - cfg_.dma_phys);
}

uint64_t BarPlatform::mem_read64(uint64_t phys) {
  uint64_t v;
  std::memcpy(&v, virt(phys, 8), 8);
  return v;
}
void BarPlatform::mem_write64(uint64_t phys, uint64_t value) { std::memcpy(virt(phys, 8), &value, 8); }
void BarPlatform::mem_read(uint64_t phys, void* dst, size_t n) { std::memcpy(dst, virt(phys, n), n); }
void BarPlatform::mem_write(uint64_t phys, const void* src, size_t n) { std::memcpy(virt(phys, n), src, n); }
void BarPlatform::fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

CpuId BarPlatform::current_cpu() const {
  const int cpu = ::sched_getcpu();
  return CpuId{cpu < 0 ? 0u : static_cast<unsigned>(cpu), 0};
}

uint64_t BarPlatform::now_cycles() const {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch()).count();
  return static_cast<uint64_t>(double(ns) * cfg_.clock_mhz / 1000.0);
}

void BarPlatform::relax() { std::this_thread::yield(); }

void BarPlatform::compute(uint64_t cycles) {
  const uint64_t end = now_cycles() + cycles;
  while (now_cycles() < end) relax();
}


}  // namespace hpcnet
