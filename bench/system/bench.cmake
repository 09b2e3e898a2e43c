# bench/system (read by bench/CMakeLists.txt when the gsn block is built): `hpcnet cluster`, SSM
# nodes on the GSN tree and the router mesh.
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/cluster_bench.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_gsn_system)
