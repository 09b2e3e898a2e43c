# One static library holds every C++-driven Verilated model (one copy of the Verilator runtime).
# Each block lists its models in rtl/<block>/models.cmake with hpcnet_model().
add_library(hpcnet_models STATIC)
set_target_properties(hpcnet_models PROPERTIES POSITION_INDEPENDENT_CODE ON)
# No debug info for the generated model code: it is megabytes of C++ per model and -g makes its
# compile about a third slower; the models are debugged in waveforms, not in gdb.
target_compile_options(hpcnet_models PRIVATE -g0)

# hpcnet_model(PREFIX <Vname> TOP <module> SOURCES <files...> [ARGS <extra verilator args...>])
function(hpcnet_model)
  cmake_parse_arguments(M "" "PREFIX;TOP" "SOURCES;ARGS" ${ARGN})
  verilate(hpcnet_models
    PREFIX ${M_PREFIX}
    TOP_MODULE ${M_TOP}
    SOURCES ${M_SOURCES}
    TRACE_FST
    VERILATOR_ARGS ${HPCNET_VERILATOR_ARGS} ${M_ARGS})
endfunction()

set(HPCNET_RTL ${CMAKE_CURRENT_LIST_DIR})
# HPCNET_SKIP_BLOCKS (developers' partial build trees, e.g. -DHPCNET_SKIP_BLOCKS="router;gsn"):
# blocks whose models and tests are left out. CI builds everything.
set(HPCNET_SKIP_BLOCKS "" CACHE STRING "blocks left out of this build tree")
function(hpcnet_block_enabled block out)
  if("${block}" IN_LIST HPCNET_SKIP_BLOCKS)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()
macro(hpcnet_include_block block)
  hpcnet_block_enabled(${block} _hpcnet_on)
  if(_hpcnet_on)
    include(${HPCNET_RTL}/${block}/models.cmake)
  endif()
endmacro()
include(${HPCNET_RTL}/common/models.cmake)
include(${HPCNET_RTL}/ssm/models.cmake)
hpcnet_include_block(gsn)
hpcnet_include_block(router)
