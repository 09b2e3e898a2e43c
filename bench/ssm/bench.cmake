# bench/ssm (read by bench/CMakeLists.txt): the SSM's commands (demo, bench-ssm, bench-barrier,
# bench-transfer, lu, bench-burst) against the software baselines and SPLASH-2 LU. Their tests are
# in bench/CMakeLists.txt with the CLI conventions they show.
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/commands.cpp ${CMAKE_CURRENT_LIST_DIR}/ssm_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/ssm_demo.cpp ${CMAKE_CURRENT_LIST_DIR}/ssm_coll_bench.cpp
               ${CMAKE_CURRENT_LIST_DIR}/ssm_burst_bench.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_baseline hpcnet_lu)
