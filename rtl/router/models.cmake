# Bubble-flow router (rtl/router) and mesh networks (rtl/net) driven from C++. Every model costs
# CI time: C++ compile (one unity translation unit per model, rtl/models.cmake), CPU seconds
# measured on the 2-core CI machines: route/allocator models 3, single routers 7-13, 2x2 and 4x4
# meshes 10-14, 3x3x3 18-22, 8x8 20-23, 16x16 15 (ports traced only), 4x4x4 28, split meshes
# (_t2: 4x4 11, 8x8 13, 16x16 23); about 380 s for this list, plus Verilator at configure time.
# List only what a test or the `hpcnet net` benchmark uses; a model only the benchmarks use is
# BENCH (rtl/models.cmake): the tests run those shapes on networks joined from blocks. The buffer depth is a run-time input
# (buf_pkts_i, up to the BufPkts a model is built with), so one model serves every depth up to
# its BufPkts.
hpcnet_sources(RTR_RTL ${HPCNET_RTL}/router/sources.f)
hpcnet_sources(NET_RTL ${HPCNET_RTL}/net/sources.f)

# Unit-level models (tb/router): the route computation (2-D ADBR and DOR, 3-D ADBR; credits of
# 3 bits), the allocator of a 2-D router, and single routers (K0 = K1 = K2 = 1, boundary ports
# external; 64-bit flits; BufPkts is the largest depth the tests run).
foreach(v "2d_adbr;2;0;0" "2d_dor;2;1;0" "3d_adbr;3;0;0" "2d_torus;2;1;1" "3d_torus;3;1;1")
  list(GET v 0 n)
  list(GET v 1 d)
  list(GET v 2 m)
  list(GET v 3 t)
  hpcnet_model(PREFIX Vrtr_route_${n} TOP rtr_route SOURCES ${RTR_RTL}
               ARGS -GDims=${d} -GMode=${m} -GCredW=3 -GTorus=${t})
endforeach()
hpcnet_model(PREFIX Vrtr_alloc TOP rtr_alloc SOURCES ${RTR_RTL} ARGS -GNI=5)
# The multiphase barrier's phase unit (tb/router/test_rtr_phase.cpp: many units wired by a C++
# network model), 2-D and 3-D, 16 packet slots reported per router.
hpcnet_model(PREFIX Vrtr_phase TOP rtr_phase SOURCES ${RTR_RTL} ARGS -GDims=2 -GSlots=16 -GKW=8)
hpcnet_model(PREFIX Vrtr_phase_3d TOP rtr_phase SOURCES ${RTR_RTL} ARGS -GDims=3 -GSlots=16 -GKW=8)
foreach(v "2d_adbr;2;0;3" "2d_dorvct;2;1;2" "2d_dorwh;2;2;3" "3d_adbr;3;0;3")
  list(GET v 0 n)
  list(GET v 1 d)
  list(GET v 2 m)
  list(GET v 3 b)
  hpcnet_model(PREFIX Vrtr_router_${n} TOP rtr_router SOURCES ${RTR_RTL}
               ARGS -GDims=${d} -GMode=${m} -GBufPkts=${b} -GFlitW=64)
endforeach()

# Mesh networks: Vnet_mesh_<K0>x<K1>[x<K2>]_<adbr|dorvct|dorwh>, built with BufPkts = buf (the
# largest run-time depth; NetSim's table reads it from the -G arguments, sim/net/CMakeLists.txt); tori:
# Vnet_torus_<K0>x<K1>[x<K2>]_dorvct (net_mesh with Torus = 1, rtr_torus_model).
# --unroll-count 8: the loops over the routers stay loops (one copy of the router's code; only
# the small loops over ports and slots are unrolled). --trace-max-array: arrays up to that size
# are traced element by element (per-router state of meshes up to 64 routers; none for 16x16,
# whose trace code would double its compile time).
function(rtr_mesh_model name k0 k1 k2 mode buf)
  rtr_net_model(mesh_${name} ${k0} ${k1} ${k2} ${mode} ${buf} 0 ${ARGN})
endfunction()
function(rtr_torus_model name k0 k1 k2 buf)
  rtr_net_model(torus_${name} ${k0} ${k1} ${k2} 1 ${buf} 1 ${ARGN})
endfunction()
# rtr_net_model(<name> K0 K1 K2 mode buf torus [BENCH] [more -G arguments]): Vnet_<name>, a net_mesh.
function(rtr_net_model name k0 k1 k2 mode buf torus)
  cmake_parse_arguments(R "BENCH" "" "" ${ARGN})
  set(role "")
  if(R_BENCH)
    set(role BENCH)
  endif()
  if(k2 GREATER 1)
    set(dims 3)
  else()
    set(dims 2)
  endif()
  math(EXPR nodes "${k0} * ${k1} * ${k2}")
  if(nodes GREATER 64)
    set(tma 64)
  else()
    set(tma 256)
  endif()
  hpcnet_model(PREFIX Vnet_${name} TOP net_mesh
               SOURCES ${NET_RTL}
               ARGS --unroll-count 8 --trace-max-array ${tma} -GDims=${dims} -GK0=${k0} -GK1=${k1}
                    -GK2=${k2} -GMode=${mode} -GBufPkts=${buf} -GTorus=${torus} ${R_UNPARSED_ARGUMENTS}
               ${role})
endfunction()
# A mesh split for threads (docs/net_sim.md): Vnet_mesh_<K0>x<K1>_<mode>[_b<BufPkts>]_t<T> is T
# blocks of K0 x K1/T routers (rtr_router with its boundary ports external, Ext), stacked along Y
# and joined by NetJoined (sim/net/model/net_joined.hpp), which evaluates them in parallel. 2-D
# only; T divides K1.
function(rtr_split_model name k0 k1 mode buf threads)  # [BENCH]
  math(EXPR kb "${k1} / ${threads}")
  math(EXPR whole "${kb} * ${threads}")
  if(NOT whole EQUAL k1)
    message(FATAL_ERROR "rtr_split_model ${name}: ${threads} threads do not divide K1 = ${k1}")
  endif()
  hpcnet_model(PREFIX Vnet_mesh_${name}_t${threads} TOP rtr_router SOURCES ${RTR_RTL}
               ARGS --unroll-count 8 --trace-max-array 256 -GDims=2 -GK0=${k0} -GK1=${kb} -GK2=1
                    -GMode=${mode} -GBufPkts=${buf} -GExt=1\'b1
               META Threads=${threads} ${ARGN})
endfunction()
# Network tests (tb/net): net_mesh in 2-D and 3-D in every mode, 4x4 and 3x3x3 (all-to-all at
# depth 2, 3 for 3-D ADBR; BufPkts 3 so that a depth below the build maximum is exercised too).
# Other shapes (2x2, the saturated 8x8 and 4x4x4) run on networks joined from blocks in the tests
# of `make test`; their whole models below are benchmark models.
foreach(mv "adbr;0" "dorvct;1" "dorwh;2")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  rtr_mesh_model(4x4_${mn} 4 4 1 ${m} 3)
  rtr_mesh_model(3x3x3_${mn} 3 3 3 ${m} 3)
endforeach()
rtr_mesh_model(4x4x4_adbr 4 4 4 0 3 BENCH)
# 2x2 in every mode: the whole mesh the long tier's `joined: blocks used in part (2x2 in a 4x4
# block)` compares against (the test tier runs 2x2 joined)
foreach(mv "adbr;0" "dorvct;1" "dorwh;2")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  rtr_mesh_model(2x2_${mn} 2 2 1 ${m} 3 BENCH)
endforeach()
# Benchmark (`hpcnet net`, bench/net_bench.cpp): 8x8 in every mode, the buffer sweep (2, 3, 4, 6
# packets) in ADBR and DOR-VCT, the simulation speed of 8x8 and 16x16 ADBR at depth 2.
rtr_mesh_model(8x8_adbr 8 8 1 0 6 BENCH)
# 8x8 ADBR built for 2-packet buffers only (the saturated tests and the speed figures at the
# default depth): the same router, with loops over 2 slots instead of 6, about 8% faster at load
# 0.1 and 25% faster at saturation. make_net(shape, mode, depth) picks the smallest model that
# runs the depth.
rtr_mesh_model(8x8_adbr_b2 8 8 1 0 2 BENCH)
rtr_mesh_model(8x8_dorvct 8 8 1 1 6 BENCH)
rtr_mesh_model(8x8_dorwh 8 8 1 2 2 BENCH)
rtr_mesh_model(16x16_adbr 16 16 1 0 2 BENCH)
# the same 8x8 and 16x16 split for 2 threads (the speed scenario); 4x4 in every mode split for 2
# (tb/net: cycle for cycle the same as the whole mesh)
rtr_split_model(8x8_adbr_b2 8 8 0 2 2 BENCH)
rtr_split_model(16x16_adbr 16 16 0 2 2 BENCH)
foreach(mv "adbr;0" "dorvct;1" "dorwh;2")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  rtr_split_model(4x4_${mn} 4 4 ${m} 3 2)
endforeach()
# Tori (DOR-VCT with the bubble rule, docs/router.md#torus): all-to-all on 4x4 (even radix: the
# half-way ties) and 3x3x3 (odd), BufPkts 3, and 2x4 (radix 2: two channels each way between a
# pair), BufPkts 2; saturated traffic on 8x8 (BufPkts 6: also the
# benchmark's buffer sweep) and 4x4x4 at the bubble rule's minimum, 2.
rtr_torus_model(4x4_dorvct 4 4 1 3)
rtr_torus_model(2x4_dorvct 2 4 1 2)
rtr_torus_model(3x3x3_dorvct 3 3 3 3)
rtr_torus_model(8x8_dorvct 8 8 1 6 BENCH)
rtr_torus_model(4x4x4_dorvct 4 4 4 2 BENCH)
# The 8x8 torus without the bubble rule (Bubble = 0): it deadlocks under saturated uniform traffic;
# tb/net shows that the watchdog catches it (the rule is needed, and the stress test can fail). Not
# a Vnet_ model: NetSim's table of networks (sim/net/CMakeLists.txt) never offers it.
hpcnet_model(PREFIX Vrtr_torus_8x8_nobubble TOP net_mesh SOURCES ${NET_RTL}
             ARGS --unroll-count 8 -GDims=2 -GK0=8 -GK1=8 -GK2=1 -GMode=1 -GBufPkts=2 -GTorus=1 -GBubble=0)
# The multiphase barrier inside the network (net_mesh with Barrier = 1: a phase unit per router,
# the barrier sideband on the links; docs/barrier.md): Vnet_bar_<K0>x<K1>[x<K2>]_<mode>, in NetSim's
# table with spec.barrier set (find_barrier_net, make_barrier_net; find_net never picks them).
# 4x4 in every mode and the 4x4 torus, 4x4x4, the 3x3x3 torus (tb/net/test_net_barrier_int.cpp,
# BufPkts 3); the
# sizes of the barrier benchmark (`hpcnet net-barrier`): 2x2, 8x8, 16x16 (ports traced only) and
# 8x8x8 ADBR at the DBFC minimum.
function(rtr_bar_model name k0 k1 k2 mode buf torus)
  rtr_net_model(bar_${name} ${k0} ${k1} ${k2} ${mode} ${buf} ${torus} ${ARGN} -GBarrier=1)
endfunction()
foreach(mv "adbr;0;0" "dorvct;1;0" "dorwh;2;0" "torus_dorvct;1;1")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  list(GET mv 2 t)
  rtr_bar_model(4x4_${mn} 4 4 1 ${m} 3 ${t})
endforeach()
rtr_bar_model(4x4x4_adbr 4 4 4 0 3 0)
rtr_bar_model(3x3x3_torus_dorvct 3 3 3 1 3 1)
rtr_bar_model(2x2_adbr 2 2 1 0 2 0 BENCH)
rtr_bar_model(8x8_adbr 8 8 1 0 2 0 BENCH)
rtr_bar_model(16x16_adbr 16 16 1 0 2 0 BENCH)
rtr_bar_model(8x8x8_adbr 8 8 8 0 3 0 BENCH)
# Blocks for meshes and tori of any size (NetJoined, sim/net/model/net_joined.hpp, docs/net_sim.md):
# Vnet_blk_<B0>x<B1>[x<B2>]_<mode>[_torus] is one rtr_router block with every boundary port
# external (Ext = 1); NetJoined tiles a mesh of any size with copies of it (the last block of a
# row used in part: minimal routes never leave the mesh, so the routers beyond its edge stay
# idle) and joins their boundary ports in C++. A torus block is one router (Torus = 1 with
# radix 1: no link inside the block; the bubble rule needs only the input port of a packet), so
# the wraparound links are joined like the others. BufPkts 4: run-time depths up to 4. C++ compile
# of the six: 26 CPU s together (a 4x4 mesh: 4.2 s on the same machine).
# Not in hpcnet_model_table's "^Vnet_(mesh|torus)_" table: the blocks have their own.
function(rtr_block_model name dims k0 k1 k2 mode torus)
  hpcnet_model(PREFIX Vnet_blk_${name} TOP rtr_router SOURCES ${RTR_RTL}
               ARGS --unroll-count 8 --trace-max-array 256 -GDims=${dims} -GK0=${k0} -GK1=${k1}
                    -GK2=${k2} -GMode=${mode} -GBufPkts=4 -GTorus=${torus} -GExt=1\'b1)
endfunction()
foreach(mv "adbr;0" "dorvct;1" "dorwh;2")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  rtr_block_model(4x4_${mn} 2 4 4 1 ${m} 0)
endforeach()
rtr_block_model(2x2x2_adbr 3 2 2 2 0 0)
rtr_block_model(1x1_dorvct_torus 2 1 1 1 1 1)
rtr_block_model(1x1x1_dorvct_torus 3 1 1 1 1 1)
