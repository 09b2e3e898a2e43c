# hpcnet_unit_test(<target> PREFIX <ctest prefix> SOURCES <files...> [LIBS <libs...>]
#                  [INCLUDES <dirs...>] [DEFINES <defs...>])
# One Catch2 test program: warnings on (C++ sources), the shared test helpers (tb/include) on the
# include path, Catch2's main linked, every TEST_CASE registered with CTest as <prefix><name> (the
# cases tagged [long] with the CTest label `long`: `make test-long` runs them, `make test` not).
# The one way a test program is added (tb/*/CMakeLists.txt); Verilated models are added with
# hpcnet_model() (rtl/models.cmake).
function(hpcnet_unit_test target)
  cmake_parse_arguments(T "" "PREFIX" "SOURCES;LIBS;INCLUDES;DEFINES" ${ARGN})
  if(NOT T_SOURCES)
    message(FATAL_ERROR "hpcnet_unit_test(${target}): no SOURCES")
  endif()
  add_executable(${target} ${T_SOURCES})
  # its C++ files compiled as one translation unit: the headers they share (Catch2, the harness, the
  # models' classes) parsed and their inline code generated once (docs/testing.md#build-and-test-time):
  # the helpers of a program's files need names of their own
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
  target_link_libraries(${target} PRIVATE ${T_LIBS} Catch2::Catch2WithMain)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tb/include ${T_INCLUDES})
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${HPCNET_WARNINGS}>
                                           $<$<COMPILE_LANGUAGE:C>:-std=c11 -Wall -Wextra -Wpedantic>)
  if(T_DEFINES)
    target_compile_definitions(${target} PRIVATE ${T_DEFINES})
  endif()
  # two tiers (docs/testing.md): test cases tagged [long] get the CTest label `long` and run under
  # `make test-long` only; the others under `make test`. Hidden cases ([.], [.tag]) are run by hand
  # only (Catch2 lists them under a spec that only excludes, hence ~[.]).
  catch_discover_tests(${target} TEST_PREFIX "${T_PREFIX}" TEST_SPEC "~[long]~[.]")
  catch_discover_tests(${target} TEST_PREFIX "${T_PREFIX}" TEST_SPEC "[long]" PROPERTIES LABELS long)
endfunction()
