// test_ssm_regs: the generated hpcnet/ssm_regs.hpp compiles cleanly and its Field helpers,
// offsets and codes agree with rtl/ssm/ssm_regs.toml.
#include <catch2/catch.hpp>

#include <cstring>

#include "hpcnet/ssm_regs.hpp"

using namespace hpcnet::ssm_regs;

static_assert(ID_MAGIC.mask() == 0xffffffffull);
static_assert(SLOT_VALUE.mask() == ~0ull);  // full-width field
static_assert(SLOT_STATE.word == 1 && SLOT_STATE.lsb == 0);
static_assert(OVF_NODE_COUNTER.word == 2 && OVF_NODE_COUNTER.lsb == 8);

TEST_CASE("ssm_regs: fields pack and unpack a command word", "[regs]") {
  const std::uint64_t w = CMD_WORD_ADDR.put(0x1234'5678'9ab8) |
                          CMD_WORD_OPCODE.put(static_cast<std::uint64_t>(Opcode::TRYLOCK)) |
                          CMD_WORD_RET_OFFSET.put(0xfff);
  REQUIRE(CMD_WORD_ADDR.get(w) == 0x1234'5678'9ab8);
  REQUIRE(CMD_WORD_OPCODE.get(w) == 5);
  REQUIRE(CMD_WORD_RET_OFFSET.get(w) == 0xfff);
  REQUIRE(CMD_WORD_OPCODE.put(0x1f) == (0xfull << 48));  // truncated to the field
}

TEST_CASE("ssm_regs: offsets arrays and codes", "[regs]") {
  REQUIRE(ID_OFFSET == 0x0);
  REQUIRE(ID_MAGIC_RESET == 0x53534d31);
  REQUIRE(CPT_OFFSET + 2 * CPT_STRIDE + CPT_SLOTS_OFFSET == 0x128);
  REQUIRE(CMD_OFFSET + 19 * CMD_STRIDE + CMD_DOORBELL_OFFSET == 0x1270);
  REQUIRE(static_cast<unsigned>(State::ERR_ALIGN) == 0x82);
  REQUIRE(std::strcmp(to_string(State::ERR_QUEUE_FULL), "ERR_QUEUE_FULL") == 0);
  REQUIRE(std::strcmp(to_string(Opcode::PUT), "PUT") == 0);
  REQUIRE(std::strcmp(to_string(static_cast<State>(0x7f)), "?") == 0);
}
