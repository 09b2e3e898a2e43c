// test_formats_sv: the generated SystemVerilog structs and the generated C++ structs read the same
// fields out of the same bits. Random raw words go into tb_formats (tb/regs/tb_formats.sv: the
// fields through ssm_pkg::entry_t, ssm_regs_pkg::cmd_args_t and ovf_node_t, gsn_pkg::msg_t,
// rtr_pkg::head_t; its assertions compare the structs with the position localparams) and into
// the C++ unpack(); every field must agree. The regions' codes are compared with the C++ enums.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <random>

#include "Vtb_formats.h"
#include "hpcnet/gsn_formats.hpp"
#include "hpcnet/rtr_formats.hpp"
#include "hpcnet/ssm_regs.hpp"
#include "hpcnet/tb/bits.hpp"
#include "verilated.h"

namespace {

// Random raw words of format F, driven into the wide (32-bit word) port w.
template <class F, class W>
typename F::Words random_into(std::mt19937_64& rng, W& w) {
  typename F::Words x{};
  for (unsigned b = 0; b < F::kBits; b += 64) {
    const unsigned n = F::kBits - b < 64 ? F::kBits - b : 64;
    x[b / 64] = rng() & hpcnet::formats::low_mask(n);
    hpcnet::tb::put_bits(w, b, n, x[b / 64]);
  }
  return x;
}

template <class E>
unsigned u(E e) {
  return static_cast<unsigned>(e);
}

}  // namespace

TEST_CASE("formats: the SystemVerilog structs and the C++ structs agree on every field", "[formats][sv]") {
  namespace ssm = hpcnet::ssm_regs;
  namespace gsn = hpcnet::gsn_formats;
  namespace rtr = hpcnet::rtr_formats;
  auto ctx = std::make_unique<VerilatedContext>();
  auto m = std::make_unique<Vtb_formats>(ctx.get());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const auto e = ssm::Entry::unpack(random_into<ssm::Entry>(rng, m->entry_i));
    const auto n = ssm::OvfNode::unpack(random_into<ssm::OvfNode>(rng, m->node_i));
    const auto g = gsn::Msg::unpack(random_into<gsn::Msg>(rng, m->msg_i));
    const ssm::CmdArgs::Words aw{rng()};
    const auto a = ssm::CmdArgs::unpack(aw);
    m->args_i = aw[0];
    const rtr::Head::Words hw{rng() & 0xffff'ffffull};
    const auto h = rtr::Head::unpack(hw);
    m->head_i = static_cast<std::uint32_t>(hw[0]);
    m->eval();
    INFO("iteration " << i);
    CHECK(m->entry_value_o == e.value);
    CHECK(m->entry_l_o == e.l);
    CHECK(m->entry_p_o == e.p);
    CHECK(m->entry_cnt_o == e.cnt);
    CHECK(m->args_readers_o == a.readers);
    CHECK(m->args_size_o == a.size);
    CHECK(m->args_group_o == a.group);
    CHECK(m->args_type_o == u(a.type));
    CHECK(m->args_rop_o == u(a.rop));
    CHECK(m->args_io_o == a.io);
    CHECK(m->args_length_o == a.length);
    CHECK(m->node_tag_o == n.tag);
    CHECK(m->node_value_o == n.value);
    CHECK(m->node_l_o == n.l);
    CHECK(m->node_p_o == n.p);
    CHECK(m->node_counter_o == n.counter);
    CHECK(m->node_next_o == n.next);
    CHECK(m->msg_value_o == g.value);
    CHECK(m->msg_addr_o == g.addr);
    CHECK(m->msg_type_o == u(g.type));
    CHECK(m->msg_op_o == u(g.op));
    CHECK(m->msg_kind_o == u(g.kind));
    CHECK(m->msg_err_o == g.err);
    CHECK(m->msg_zero_o == g.zero);
    for (unsigned d = 0; d < rtr::ROUTE_HOPS_COUNT; ++d)
      CHECK(std::int8_t(m->head_hops_o >> (8 * d)) == h.route.hops[d]);
    CHECK(m->head_hop_count_o == h.hop_count);
  }
  // {gsn_pkg: red_type DOUBLE, INT32, red_op MIN, kind REDUCE, 2'b00,
  //  ssm_regs_pkg: red_type INT32, opcode BURST, state ERR_MISMATCH}
  const unsigned codes = u(ssm::RedType::DOUBLE) << 22 | u(ssm::RedType::INT32) << 20 | u(ssm::RedOp::MIN) << 18 |
                         u(gsn::Kind::REDUCE) << 17 | u(ssm::RedType::INT32) << 12 | u(ssm::Opcode::BURST) << 8 |
                         u(ssm::State::ERR_MISMATCH);
  CHECK(m->codes_o == codes);
  m->final();
}
