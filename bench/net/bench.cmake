# bench/net (read by bench/CMakeLists.txt): `hpcnet net` and `net-run`. Their tests are in
# bench/CMakeLists.txt and bench/net/tests.cmake.
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/net_bench.cpp ${CMAKE_CURRENT_LIST_DIR}/net_command.cpp
               ${CMAKE_CURRENT_LIST_DIR}/net_research.cpp ${CMAKE_CURRENT_LIST_DIR}/net_run_table.cpp
               ${CMAKE_CURRENT_LIST_DIR}/net_config.cpp ${CMAKE_CURRENT_LIST_DIR}/net_output.cpp
               ${CMAKE_CURRENT_LIST_DIR}/net_speed.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_net)
