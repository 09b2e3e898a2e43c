# One static library holds every C++-driven Verilated model (one copy of the Verilator runtime).
# Each block lists its models in rtl/<block>/models.cmake with hpcnet_model().
add_library(hpcnet_models STATIC)
set_target_properties(hpcnet_models PROPERTIES POSITION_INDEPENDENT_CODE ON)
# No debug info for the generated model code: it is megabytes of C++ per model and -g makes its
# compile about a third slower; the models are debugged in waveforms, not in gdb.
target_compile_options(hpcnet_models PRIVATE -g0)
# A model whose generated C++ is below HPCNET_UNITY_MAX bytes is compiled as one translation unit
# (a CMake unity group): Verilator splits a model into about ten .cpp files that each parse the
# Verilator headers again, which made up most of the compile time of the small models (CPU time
# measured: a route model 16.5 s -> 2.6 s, a 2x2 mesh 36 s -> 13 s, an 8x8 mesh 47 s -> 23 s, the
# 3 MB 4x4x4 mesh 56 s -> 28 s, the 6 MB 16-node GSN tree 71 s -> 63 s). Larger models stay
# split: GCC's time grows faster than linearly with the size of a translation unit (the 26 MB
# 64-node GSN tree takes 300 s split, 523 s as one unit). The runtime (verilated.cpp, ...) is
# compiled once, outside the groups.
set(HPCNET_UNITY_MAX 8000000)
set_target_properties(hpcnet_models PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)

# hpcnet_model(PREFIX <Vname> TOP <module> SOURCES <files...> [ARGS <extra verilator args...>])
function(hpcnet_model)
  cmake_parse_arguments(M "" "PREFIX;TOP" "SOURCES;ARGS" ${ARGN})
  verilate(hpcnet_models
    PREFIX ${M_PREFIX}
    TOP_MODULE ${M_TOP}
    SOURCES ${M_SOURCES}
    TRACE_FST
    VERILATOR_ARGS ${HPCNET_VERILATOR_ARGS} ${M_ARGS})
  get_target_property(_srcs hpcnet_models SOURCES)
  list(FILTER _srcs INCLUDE REGEX "/${M_PREFIX}\\.dir/[^/]*\\.cpp$")
  set(_bytes 0)
  foreach(_f IN LISTS _srcs)
    if(EXISTS ${_f})
      file(SIZE ${_f} _n)
      math(EXPR _bytes "${_bytes} + ${_n}")
    endif()
  endforeach()
  if(_bytes LESS HPCNET_UNITY_MAX)
    set_source_files_properties(${_srcs} PROPERTIES UNITY_GROUP ${M_PREFIX})
  endif()
endfunction()

set(HPCNET_RTL ${CMAKE_CURRENT_LIST_DIR})

# hpcnet_sources(<var> <list>): the files of a source list (rtl/<block>/sources.f; the format is in
# docs/common.md#source-lists) as absolute paths, in order, `-f` includes expanded in place, a file
# reached twice kept at its first place. Editing a list re-runs the configuration.
function(hpcnet_sources out list)
  set(_files "")
  _hpcnet_sources_read("${list}" _files)
  list(REMOVE_DUPLICATES _files)
  set(${out} ${_files} PARENT_SCOPE)
endfunction()
function(_hpcnet_sources_read list acc)
  get_filename_component(_root "${HPCNET_RTL}/.." ABSOLUTE)
  if(NOT IS_ABSOLUTE "${list}")
    set(list "${_root}/${list}")
  endif()
  if(NOT EXISTS "${list}")
    message(FATAL_ERROR "hpcnet_sources: no source list ${list}")
  endif()
  set_property(DIRECTORY "${CMAKE_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${list}")
  set(_got ${${acc}})
  file(STRINGS "${list}" _lines)
  foreach(_l IN LISTS _lines)
    string(REGEX REPLACE "//.*$" "" _l "${_l}")
    string(STRIP "${_l}" _l)
    if(_l STREQUAL "")
      continue()
    elseif(_l MATCHES "^-f[ \t]+(.+)$")
      _hpcnet_sources_read("${CMAKE_MATCH_1}" _got)
    elseif(_l MATCHES "[ \t]")
      message(FATAL_ERROR "hpcnet_sources: ${list}: one file a line, not '${_l}'")
    else()
      if(NOT EXISTS "${_root}/${_l}")
        message(FATAL_ERROR "hpcnet_sources: ${list}: no file ${_l}")
      endif()
      list(APPEND _got "${_root}/${_l}")
    endif()
  endforeach()
  set(${acc} ${_got} PARENT_SCOPE)
endfunction()
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
include(${HPCNET_RTL}/alu/models.cmake)
include(${HPCNET_RTL}/ssm/models.cmake)
hpcnet_include_block(gsn)
hpcnet_include_block(router)
