# bench/nic (read by bench/CMakeLists.txt when the nic block is built): `hpcnet nic` and `nic-demo`
# on the two-node system (sim/nic), with the link fault options (bench/link/link_faults.cpp), and
# their tests (tests.cmake: quick runs, outputs, refused options; docs/nic_bench.md).
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/nic_command.cpp ${CMAKE_CURRENT_LIST_DIR}/nic_rig.cpp
               ${CMAKE_CURRENT_LIST_DIR}/nic_latency.cpp ${CMAKE_CURRENT_LIST_DIR}/nic_stream.cpp
               ${CMAKE_CURRENT_LIST_DIR}/nic_speed.cpp ${CMAKE_CURRENT_LIST_DIR}/nic_demo.cpp
               ${CMAKE_CURRENT_LIST_DIR}/nic_rate.cpp ${CMAKE_CURRENT_LIST_DIR}/../link/link_faults.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_nic_device)
include(${CMAKE_CURRENT_LIST_DIR}/tests.cmake)
