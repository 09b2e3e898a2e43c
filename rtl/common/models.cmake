# Common cells driven from C++ (tb/common): the default test variants plus edge cases.
hpcnet_model(PREFIX Vcmn_fifo TOP cmn_fifo SOURCES ${HPCNET_RTL}/common/cmn_fifo.sv
             ARGS -GWidth=16 -GDepth=5)
hpcnet_model(PREFIX Vcmn_fifo_d1 TOP cmn_fifo SOURCES ${HPCNET_RTL}/common/cmn_fifo.sv
             ARGS -GWidth=8 -GDepth=1)
hpcnet_model(PREFIX Vcmn_rr_arb TOP cmn_rr_arb SOURCES ${HPCNET_RTL}/common/cmn_rr_arb.sv
             ARGS -GN=5)
hpcnet_model(PREFIX Vcmn_rr_arb_n1 TOP cmn_rr_arb SOURCES ${HPCNET_RTL}/common/cmn_rr_arb.sv
             ARGS -GN=1)
