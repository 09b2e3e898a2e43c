# bench/machine (read by bench/CMakeLists.txt when the machine's blocks are built): `hpcnet machine`
# on the whole machine (sim/machine, docs/machine.md), and its tests (tests.cmake).
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/machine_command.cpp
               ${CMAKE_CURRENT_LIST_DIR}/machine_pingpong.cpp ${CMAKE_CURRENT_LIST_DIR}/machine_programs.cpp
               ${CMAKE_CURRENT_LIST_DIR}/machine_stream.cpp)
target_link_libraries(hpcnet_bench PUBLIC hpcnet_machine hpcnet_stencil)
include(${CMAKE_CURRENT_LIST_DIR}/tests.cmake)
