# bench/gsn (read by bench/CMakeLists.txt when the gsn block is built): `hpcnet bench-gsn`.
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gsn_bench.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_gsn_system)
# the node counts of the trees only the benchmark models have (BENCH in rtl/gsn/models.cmake),
# so that asking for one in a tree without them says `make bench` builds it (gsn/gsn_sizes.hpp)
file(STRINGS ${PROJECT_SOURCE_DIR}/rtl/gsn/models.cmake _gsn_bench_lines REGEX "PREFIX Vgsn_tree_[0-9]+ .*BENCH")
set(_gsn_bench_nodes "")
foreach(_l IN LISTS _gsn_bench_lines)
  string(REGEX REPLACE ".*PREFIX Vgsn_tree_([0-9]+) .*" "\\1" _n "${_l}")
  list(APPEND _gsn_bench_nodes ${_n})
endforeach()
list(JOIN _gsn_bench_nodes "," _gsn_bench_nodes)
target_compile_definitions(hpcnet_bench PRIVATE "HPCNET_GSN_BENCH_NODES=\"${_gsn_bench_nodes}\"")
