# Bubble-flow router (rtl/router) and mesh networks (rtl/net) driven from C++.
set(RTR_RTL
  ${HPCNET_RTL}/router/rtr_pkg.sv
  ${HPCNET_RTL}/router/rtr_route.sv
  ${HPCNET_RTL}/router/rtr_alloc.sv
  ${HPCNET_RTL}/router/rtr_router.sv)

# Unit-level models (tb/router): the route computation (2-D ADBR and DOR, 3-D ADBR; credits of
# 3 bits), the allocator of a 2-D router, and single routers (K0 = K1 = K2 = 1, boundary ports
# external; 64-bit flits): 2-D in each mode with 2-packet buffers, 2-D ADBR with 3 (DAMQ tests),
# 3-D ADBR with 3.
foreach(v "2d_adbr;2;0" "2d_dor;2;1" "3d_adbr;3;0")
  list(GET v 0 n)
  list(GET v 1 d)
  list(GET v 2 m)
  hpcnet_model(PREFIX Vrtr_route_${n} TOP rtr_route SOURCES ${RTR_RTL}
               ARGS -GDims=${d} -GMode=${m} -GCredW=3)
endforeach()
hpcnet_model(PREFIX Vrtr_alloc TOP rtr_alloc SOURCES ${RTR_RTL} ARGS -GNI=5)
foreach(v "2d_adbr;2;0;2" "2d_adbr_b3;2;0;3" "2d_dorvct;2;1;2" "2d_dorwh;2;2;2" "3d_adbr;3;0;3")
  list(GET v 0 n)
  list(GET v 1 d)
  list(GET v 2 m)
  list(GET v 3 b)
  hpcnet_model(PREFIX Vrtr_router_${n} TOP rtr_router SOURCES ${RTR_RTL}
               ARGS -GDims=${d} -GMode=${m} -GBufPkts=${b} -GFlitW=64)
endforeach()

# Mesh networks: Vnet_mesh_<K0>x<K1>[x<K2>]_<adbr|dorvct|dorwh>[_b<BufPkts>]; default BufPkts 2,
# except 3-D ADBR: 3, the DBFC minimum. --unroll-count 8: the loops over the routers stay loops
# (one copy of the router's code; only the small loops over ports and slots are unrolled).
# --trace-max-array 256: the link registers of up to 64 routers are traced.
function(rtr_mesh_model name k0 k1 k2 mode buf)
  if(k2 GREATER 1)
    set(dims 3)
  else()
    set(dims 2)
  endif()
  hpcnet_model(PREFIX Vnet_mesh_${name} TOP net_mesh
               SOURCES ${RTR_RTL} ${HPCNET_RTL}/net/net_mesh.sv
               ARGS --unroll-count 8 --trace-max-array 256 -GDims=${dims} -GK0=${k0} -GK1=${k1} -GK2=${k2}
                    -GMode=${mode} -GBufPkts=${buf})
endfunction()
foreach(mv "adbr;0" "dorvct;1" "dorwh;2")
  list(GET mv 0 mn)
  list(GET mv 1 m)
  rtr_mesh_model(2x2_${mn} 2 2 1 ${m} 2)
  rtr_mesh_model(4x4_${mn} 4 4 1 ${m} 2)
  rtr_mesh_model(8x8_${mn} 8 8 1 ${m} 2)
  if(m EQUAL 0)
    rtr_mesh_model(3x3x3_${mn} 3 3 3 ${m} 3)
  else()
    rtr_mesh_model(3x3x3_${mn} 3 3 3 ${m} 2)
  endif()
endforeach()
rtr_mesh_model(4x4x4_adbr 4 4 4 0 3)
rtr_mesh_model(16x16_adbr 16 16 1 0 2)
rtr_mesh_model(16x16_dorvct 16 16 1 1 2)
foreach(b 3 4 6)
  rtr_mesh_model(8x8_adbr_b${b} 8 8 1 0 ${b})
  rtr_mesh_model(8x8_dorvct_b${b} 8 8 1 1 ${b})
endforeach()
