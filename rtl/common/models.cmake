# Common cells driven from C++ (tb/common): the default test variants plus edge cases.
hpcnet_sources(CMN_RTL ${HPCNET_RTL}/common/sources.f)
hpcnet_model(PREFIX Vcmn_fifo TOP cmn_fifo SOURCES ${CMN_RTL} ARGS -GWidth=16 -GDepth=5)
hpcnet_model(PREFIX Vcmn_fifo_d1 TOP cmn_fifo SOURCES ${CMN_RTL} ARGS -GWidth=8 -GDepth=1)
hpcnet_model(PREFIX Vcmn_rr_arb TOP cmn_rr_arb SOURCES ${CMN_RTL} ARGS -GN=5)
hpcnet_model(PREFIX Vcmn_rr_arb_n1 TOP cmn_rr_arb SOURCES ${CMN_RTL} ARGS -GN=1)
# cmn_dma_arb: 3 masters in both fairness modes (AdvanceOnStall 0 is ssm_top's), 5 masters (the
# index does not fill its bits), 1 master.
hpcnet_model(PREFIX Vcmn_dma_arb TOP cmn_dma_arb SOURCES ${CMN_RTL}
             ARGS -GN=3 -GReqW=40 -GMTagW=2 -GRspW=32 -GAdvanceOnStall=1\'b1)
hpcnet_model(PREFIX Vcmn_dma_arb_legacy TOP cmn_dma_arb SOURCES ${CMN_RTL}
             ARGS -GN=3 -GReqW=40 -GMTagW=2 -GRspW=32 -GAdvanceOnStall=1\'b0)
hpcnet_model(PREFIX Vcmn_dma_arb_n5 TOP cmn_dma_arb SOURCES ${CMN_RTL}
             ARGS -GN=5 -GReqW=20 -GMTagW=3 -GRspW=16 -GAdvanceOnStall=1\'b1)
hpcnet_model(PREFIX Vcmn_dma_arb_n1 TOP cmn_dma_arb SOURCES ${CMN_RTL}
             ARGS -GN=1 -GReqW=8 -GMTagW=1 -GRspW=8 -GAdvanceOnStall=1\'b1)
# cmn_realign: 32-byte frames with 4 streams (ssm_burst's width), 8-byte frames with one stream,
# 16-byte frames with 3 streams (the stream index does not fill its bits).
hpcnet_model(PREFIX Vcmn_realign TOP cmn_realign SOURCES ${CMN_RTL}
             ARGS -GBytes=32 -GStreams=4 -GUserW=8)
hpcnet_model(PREFIX Vcmn_realign_b8 TOP cmn_realign SOURCES ${CMN_RTL}
             ARGS -GBytes=8 -GStreams=1 -GUserW=1)
hpcnet_model(PREFIX Vcmn_realign_b16s3 TOP cmn_realign SOURCES ${CMN_RTL}
             ARGS -GBytes=16 -GStreams=3 -GUserW=3)
