# regs.cmake: register maps and formats. Each block's TOML (rtl/<dir>/<stem>.toml) is the single
# source of its SV package (or of generated regions in hand-written SV files), C++ header and
# Markdown tables (scripts/regs/gen_regs.py; schema in docs/regs.md). The build regenerates them
# into ${CMAKE_BINARY_DIR}/gen (target `regs`, part of ALL); the CTest test `regs_drift` fails,
# with a diff, when the checked-in copies differ from the TOMLs (fix: `make regs`).
# The TOMLs are found in the blocks' folders, rtl/<block>/<stem>_regs.toml and <stem>_formats.toml
# (as `make regs` and scripts/wave/gen_gtkw.py find them): a new block's TOML needs no line here.
file(GLOB HPCNET_REGS_TOMLS RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/rtl/*/*_regs.toml ${CMAKE_SOURCE_DIR}/rtl/*/*_formats.toml)

set(HPCNET_REGS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gen_regs.py)
# gen_regs.py and its parts: the model (regs_model.py) and one module per kind of output
set(HPCNET_REGS_SCRIPTS ${HPCNET_REGS_SCRIPT} ${CMAKE_CURRENT_LIST_DIR}/regs_model.py
    ${CMAKE_CURRENT_LIST_DIR}/regs_sv.py ${CMAKE_CURRENT_LIST_DIR}/regs_cxx.py ${CMAKE_CURRENT_LIST_DIR}/regs_md.py)
set(HPCNET_REGS_GEN ${CMAKE_BINARY_DIR}/gen)
list(TRANSFORM HPCNET_REGS_TOMLS PREPEND ${CMAKE_SOURCE_DIR}/ OUTPUT_VARIABLE _regs_sources)
# The generated files (the generator lists them; a region's host file counts as an input too).
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${HPCNET_REGS_SCRIPT} --list ${_regs_sources}
  OUTPUT_VARIABLE _regs_rel OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _regs_rc)
if(NOT _regs_rc EQUAL 0)
  message(FATAL_ERROR "gen_regs.py --list failed (see above)")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_regs_sources} ${HPCNET_REGS_SCRIPTS})
list(TRANSFORM _regs_rel PREPEND ${HPCNET_REGS_GEN}/ OUTPUT_VARIABLE _regs_outputs)
set(_regs_hosts ${_regs_rel})  # SystemVerilog files with generated regions are read, too
list(FILTER _regs_hosts INCLUDE REGEX "\\.sv$")
list(TRANSFORM _regs_hosts PREPEND ${CMAKE_SOURCE_DIR}/)
add_custom_command(
  OUTPUT ${_regs_outputs}
  COMMAND ${Python3_EXECUTABLE} ${HPCNET_REGS_SCRIPT} --out ${HPCNET_REGS_GEN} ${_regs_sources}
  # The generator leaves unchanged files alone; touch so the outputs are newer than the inputs.
  COMMAND ${CMAKE_COMMAND} -E touch ${_regs_outputs}
  DEPENDS ${_regs_sources} ${_regs_hosts} ${HPCNET_REGS_SCRIPTS}
  COMMENT "Generating register and format files"
  VERBATIM)
add_custom_target(regs ALL DEPENDS ${_regs_outputs})

add_test(NAME regs_drift
  COMMAND ${Python3_EXECUTABLE} ${HPCNET_REGS_SCRIPT} --check ${CMAKE_SOURCE_DIR} ${_regs_sources})
