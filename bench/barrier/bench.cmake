# bench/barrier (read by bench/CMakeLists.txt): `hpcnet net-barrier`, the multiphase barrier against
# all-to-all and, with the gsn block, the SSM's tree (barrier_tree_absent.cpp without it).
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/barrier_command.cpp ${CMAKE_CURRENT_LIST_DIR}/barrier_bench.cpp)
if(_bench_gsn_on)
  target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/barrier_tree.cpp)
  target_link_libraries(hpcnet_bench PUBLIC hpcnet_gsn_system)
else()
  target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/barrier_tree_absent.cpp)
endif()
if(_bench_router_on)
  include(${CMAKE_CURRENT_LIST_DIR}/tests.cmake)
endif()
