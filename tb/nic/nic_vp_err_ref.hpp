// nic_vp_err_ref.hpp: the reference of the VP error words behind their error queues (nic_vp_err,
// docs/nic.md section 6), shared by the module's own test (test_nic_vp_err.cpp) and the register
// block's (test_nic_regs.cpp): a FIFO of Depth reports per reporter (a report is in it from the
// next cycle; a full one takes none); at each edge without a clear the lowest-numbered non-empty
// queue's head is applied to its VP's word (the first error keeps CODE and TAG, COUNT + 1
// saturating at 0xFFFF); a clear zeroes the word and applies nothing.
#pragma once

#include <array>
#include <cstdint>
#include <deque>

#include "hpcnet/nic_formats.hpp"

namespace nic_tb {

struct VpErrRep {
  unsigned vp = 0, code = 0, tag = 0;
};

template <unsigned Vps, unsigned Ports, unsigned Depth>
struct VpErrRef {
  std::array<std::deque<VpErrRep>, Ports> q;
  std::array<std::uint64_t, Vps> word{};
  std::uint64_t applied = 0;  // reports applied to the words

  bool room(unsigned p) const { return q[p].size() < Depth; }
  int head_port() const {
    for (unsigned p = 0; p < Ports; ++p)
      if (!q[p].empty()) return static_cast<int>(p);
    return -1;
  }
  // The report the next edge applies (none with a clear).
  const VpErrRep* applying(bool clr) const {
    const int p = head_port();
    return clr || p < 0 ? nullptr : &q[static_cast<unsigned>(p)].front();
  }
  static std::uint64_t update(std::uint64_t w, const VpErrRep& r) {
    namespace nf = hpcnet::nic_formats;
    const std::uint64_t count = nf::VP_ERR_COUNT.get(w);
    if (count == 0)
      w = (w & ~(nf::VP_ERR_CODE.mask() | nf::VP_ERR_TAG.mask())) | nf::VP_ERR_CODE.put(r.code) | nf::VP_ERR_TAG.put(r.tag);
    if (count != 0xFFFF) w = (w & ~nf::VP_ERR_COUNT.mask()) | nf::VP_ERR_COUNT.put(count + 1);
    return w;
  }
  // The clock edge: a clear of clr_vp (a VP outside Vps: none), the reports made in this cycle.
  void step(bool clr, unsigned clr_vp, const std::array<bool, Ports>& rep, const std::array<VpErrRep, Ports>& r) {
    if (clr) {
      if (clr_vp < Vps) word[clr_vp] = 0;
    } else if (const int p = head_port(); p >= 0) {
      const VpErrRep& h = q[static_cast<unsigned>(p)].front();
      word[h.vp] = update(word[h.vp], h);
      q[static_cast<unsigned>(p)].pop_front();
      ++applied;
    }
    for (unsigned p = 0; p < Ports; ++p)
      if (rep[p]) q[p].push_back(r[p]);
  }
};

}  // namespace nic_tb
