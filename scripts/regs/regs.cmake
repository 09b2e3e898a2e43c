# regs.cmake: register maps. Each block's <blk>_regs.toml is the single source of its SV package,
# C++ header and Markdown table (scripts/regs/gen_regs.py). The build regenerates them into
# ${CMAKE_BINARY_DIR}/gen (target `regs`, part of ALL); the CTest test `regs_drift` fails, with a
# diff, when the checked-in copies differ from the TOML (fix: `make regs`).
# A new block adds one line to HPCNET_REGS_TOMLS.
set(HPCNET_REGS_TOMLS
  rtl/ssm/ssm_regs.toml
)

set(HPCNET_REGS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gen_regs.py)
set(HPCNET_REGS_GEN ${CMAKE_BINARY_DIR}/gen)
set(_regs_outputs "")
set(_regs_sources "")
foreach(_toml IN LISTS HPCNET_REGS_TOMLS)
  get_filename_component(_blk ${_toml} NAME_WE)
  string(REGEX REPLACE "_regs$" "" _blk ${_blk})
  set(_outs
    ${HPCNET_REGS_GEN}/rtl/${_blk}/${_blk}_regs_pkg.sv
    ${HPCNET_REGS_GEN}/sw/include/hpcnet/${_blk}_regs.hpp
    ${HPCNET_REGS_GEN}/docs/${_blk}_regs.md)
  add_custom_command(
    OUTPUT ${_outs}
    COMMAND ${Python3_EXECUTABLE} ${HPCNET_REGS_SCRIPT} --out ${HPCNET_REGS_GEN}
            ${CMAKE_SOURCE_DIR}/${_toml}
    # The generator leaves unchanged files alone; touch so the outputs are newer than the inputs.
    COMMAND ${CMAKE_COMMAND} -E touch ${_outs}
    DEPENDS ${CMAKE_SOURCE_DIR}/${_toml} ${HPCNET_REGS_SCRIPT}
    COMMENT "Generating register files for ${_blk}"
    VERBATIM)
  list(APPEND _regs_outputs ${_outs})
  list(APPEND _regs_sources ${CMAKE_SOURCE_DIR}/${_toml})
endforeach()
add_custom_target(regs ALL DEPENDS ${_regs_outputs})

add_test(NAME regs_drift
  COMMAND ${Python3_EXECUTABLE} ${HPCNET_REGS_SCRIPT} --check ${CMAKE_SOURCE_DIR} ${_regs_sources})
