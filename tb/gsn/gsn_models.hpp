// gsn_models.hpp: the Verilated gsn_tree variants (rtl/gsn/models.cmake) and their parameters.
#pragma once
#include "Vgsn_tree_16.h"
#include "Vgsn_tree_2.h"
#include "Vgsn_tree_4.h"
#if HPCNET_BENCH_MODELS  // a benchmark model (rtl/gsn/models.cmake): make test-long
#include "Vgsn_tree_64.h"
#endif
#include "Vgsn_tree_r2_n4_dup.h"
#include "Vgsn_tree_r2_n8_s1.h"
#include "Vgsn_tree_r3_n7.h"
#include "Vgsn_tree_r4_n1.h"
#include "Vgsn_tree_r4_n5.h"
#include "gsn_tb.hpp"

namespace gsnt {
GSN_CFG(Vgsn_tree_2, 2, 4, 4);
GSN_CFG(Vgsn_tree_4, 4, 4, 4);
GSN_CFG(Vgsn_tree_16, 16, 4, 4);
#if HPCNET_BENCH_MODELS
GSN_CFG(Vgsn_tree_64, 64, 4, 4);
#endif
GSN_CFG(Vgsn_tree_r4_n1, 1, 4, 4);
GSN_CFG(Vgsn_tree_r4_n5, 5, 4, 4);
GSN_CFG(Vgsn_tree_r2_n8_s1, 8, 2, 1);
GSN_CFG(Vgsn_tree_r3_n7, 7, 3, 3);
GSN_CFG(Vgsn_tree_r2_n4_dup, 4, 2, 2);
}  // namespace gsnt
