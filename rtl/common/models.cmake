# Common cells driven from C++ (tb/common): the default test variants plus edge cases.
hpcnet_sources(CMN_RTL ${HPCNET_RTL}/common/sources.f)
hpcnet_model(PREFIX Vcmn_fifo TOP cmn_fifo SOURCES ${CMN_RTL} ARGS -GWidth=16 -GDepth=5)
hpcnet_model(PREFIX Vcmn_fifo_d1 TOP cmn_fifo SOURCES ${CMN_RTL} ARGS -GWidth=8 -GDepth=1)
hpcnet_model(PREFIX Vcmn_rr_arb TOP cmn_rr_arb SOURCES ${CMN_RTL} ARGS -GN=5)
hpcnet_model(PREFIX Vcmn_rr_arb_n1 TOP cmn_rr_arb SOURCES ${CMN_RTL} ARGS -GN=1)
