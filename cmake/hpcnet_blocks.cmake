# Blocks in the build (docs/architecture.md#adding-a-device). A block (ssm, gsn, router, nic,
# link, ...) keeps its pieces in its own folder of each layer: rtl/<block>/ (sources.f,
# models.cmake, synth_tops.txt, wave/), sim/<block>/, sw/<block>/, tb/<block>/ (tests, wave.cmake)
# and bench/<block>/ (bench.cmake, its commands). Each layer's CMakeLists.txt names its block
# folders with one line each: hpcnet_include_block (rtl/models.cmake) or hpcnet_add_block.

# HPCNET_SKIP_BLOCKS (developers' partial build trees, e.g. -DHPCNET_SKIP_BLOCKS="router;gsn"):
# blocks whose models, libraries, tests and commands are left out. CI builds everything.
set(HPCNET_SKIP_BLOCKS "" CACHE STRING "blocks left out of this build tree")
function(hpcnet_block_enabled block out)
  if("${block}" IN_LIST HPCNET_SKIP_BLOCKS)
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# hpcnet_add_block(<dir> [NEEDS <block>...] [INCLUDE <file>]): the block folder <dir> of the
# current layer, added when every block it NEEDS is built (default: the block named like the
# folder): add_subdirectory(<dir>), or with INCLUDE the file <dir>/<file> read in the current
# folder's scope (bench/<block>/bench.cmake adds its sources to the one hpcnet_bench library and
# its tests beside the others; its variables stay its own). Added folders are recorded in the
# global property HPCNET_BLOCK_DIRS (tb/wave reads each tb/<dir>/wave.cmake).
function(hpcnet_add_block dir)
  cmake_parse_arguments(B "" "INCLUDE" "NEEDS" ${ARGN})
  if(NOT B_NEEDS)
    set(B_NEEDS ${dir})
  endif()
  foreach(_b IN LISTS B_NEEDS)
    # (a variable named `on` would read as the constant ON in if(): every block was built)
    hpcnet_block_enabled(${_b} _hpcnet_block_on)
    if(NOT _hpcnet_block_on)
      return()
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY HPCNET_BLOCK_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/${dir})
  if(B_INCLUDE)
    include(${CMAKE_CURRENT_SOURCE_DIR}/${dir}/${B_INCLUDE})
  else()
    add_subdirectory(${dir})
  endif()
endfunction()
