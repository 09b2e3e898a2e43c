// bench_models.hpp: the test cases that need a benchmark-only model (rtl/models.cmake, BENCH: the
// whole 8x8 and larger meshes, the large barrier meshes, the 64-node tree) carry the tag [long]
// and start with HPCNET_REQUIRE_BENCH_MODELS(): `make test-long` builds those models
// (HPCNET_BENCH_MODELS=ON); run in a tree without them, the case fails saying so instead of
// failing on a missing model.
#pragma once

#include <catch2/catch.hpp>

#include "sim/core/model_table.hpp"

#define HPCNET_REQUIRE_BENCH_MODELS()                                                        \
  do {                                                                                       \
    if (!hpcnet::sim::bench_models_built())                                                  \
      FAIL("this case compares against the benchmark-only models, not built in this tree: " \
           "`make test-long` builds them (cmake -DHPCNET_BENCH_MODELS=ON)");                   \
  } while (0)
