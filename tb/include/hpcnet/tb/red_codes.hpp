// red_codes.hpp: the reduction codes red_type and red_op of rtl/ssm/ssm_regs.toml (the generated
// hpcnet/ssm_regs.hpp) as plain unsigned numbers, for the harnesses that drive them into model
// ports, loop over them and use them as case labels (ssm_alu, ssm_burst, gsn_tree).
#pragma once
#include "hpcnet/ssm_regs.hpp"

namespace hpcnet::tb::red {

inline constexpr unsigned kInt64 = static_cast<unsigned>(ssm_regs::RedType::INT64);
inline constexpr unsigned kUint64 = static_cast<unsigned>(ssm_regs::RedType::UINT64);
inline constexpr unsigned kDouble = static_cast<unsigned>(ssm_regs::RedType::DOUBLE);
inline constexpr unsigned kInt32 = static_cast<unsigned>(ssm_regs::RedType::INT32);  // ssm_alu: 2 lanes
inline constexpr unsigned kSum = static_cast<unsigned>(ssm_regs::RedOp::SUM);
inline constexpr unsigned kMax = static_cast<unsigned>(ssm_regs::RedOp::MAX);
inline constexpr unsigned kMin = static_cast<unsigned>(ssm_regs::RedOp::MIN);

}  // namespace hpcnet::tb::red
