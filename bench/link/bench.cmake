# bench/link (read by bench/CMakeLists.txt when the nic and link blocks are built): `hpcnet link` on
# the two-node NIC system and the link layer's own models (Vlnk_*), and its tests and those of the
# fault options of `hpcnet nic` and `nic-demo` (tests.cmake, docs/link.md).
target_sources(hpcnet_bench PRIVATE ${CMAKE_CURRENT_LIST_DIR}/link_command.cpp ${CMAKE_CURRENT_LIST_DIR}/link_goodput.cpp
               ${CMAKE_CURRENT_LIST_DIR}/link_crossing.cpp ${CMAKE_CURRENT_LIST_DIR}/link_speed.cpp)
include(${CMAKE_CURRENT_LIST_DIR}/tests.cmake)
