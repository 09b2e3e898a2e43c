# Global sync network models driven from C++ (tb/gsn). Vgsn_tree_<N>: the product configurations
# (Radix 4, Slots 4) for 2..64 nodes; the rest are small test configurations: Nodes not a power of
# Radix, other radices, one leaf, few slots, and a variant that turns the "child contributes twice"
# assertion off (GSN_ALLOW_DUP) so that the error path itself can be tested.
hpcnet_sources(GSN_RTL ${HPCNET_RTL}/gsn/sources.f)

foreach(n 2 4 16)
  hpcnet_model(PREFIX Vgsn_tree_${n} TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=${n} -GRadix=4 -GSlots=4)
endforeach()
# The 64-node tree (26 MB of C++, the largest model: a third of the test build's model time) is a
# benchmark model (bench-gsn, net-barrier, cluster --nodes 64); three levels of the tree are tested
# on Vgsn_tree_r2_n8_s1.
hpcnet_model(PREFIX Vgsn_tree_64 TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=64 -GRadix=4 -GSlots=4 BENCH)
# Test configurations: Vgsn_tree_r<Radix>_n<Nodes>[_s<Slots>]
hpcnet_model(PREFIX Vgsn_tree_r4_n1 TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=1 -GRadix=4 -GSlots=4)
hpcnet_model(PREFIX Vgsn_tree_r4_n5 TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=5 -GRadix=4 -GSlots=4)
hpcnet_model(PREFIX Vgsn_tree_r2_n8_s1 TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=8 -GRadix=2 -GSlots=1)
hpcnet_model(PREFIX Vgsn_tree_r3_n7 TOP gsn_tree SOURCES ${GSN_RTL} ARGS -GNodes=7 -GRadix=3 -GSlots=3)
hpcnet_model(PREFIX Vgsn_tree_r2_n4_dup TOP gsn_tree SOURCES ${GSN_RTL}
             ARGS -GNodes=4 -GRadix=2 -GSlots=2 +define+GSN_ALLOW_DUP)
# One tree node alone (tb/gsn/test_gsn_node.cpp): 3 children (not a power of two) and 2 slots, so
# that a third address waits for a slot; GSN_ALLOW_DUP so that a child contributing twice can be
# driven and its err checked.
hpcnet_model(PREFIX Vgsn_node TOP gsn_node SOURCES ${GSN_RTL} ARGS -GNumChild=3 -GSlots=2 +define+GSN_ALLOW_DUP)
