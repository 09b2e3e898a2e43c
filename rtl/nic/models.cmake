# NIC models driven from C++ (tb/nic, sim/nic): the modules at their own level, then the NIC.
hpcnet_sources(NIC_RTL ${HPCNET_RTL}/nic/sources.f)
# nic_att (tb/nic/test_nic_att.cpp): the NIC's configuration (4 clients, 1024 keys, 2^16 ATT entries,
# AttLat 24); one client with 40 keys (not a power of two), a 64-entry ATT and AttLat 1 (the
# ATT-index range check, no data pipe); 3 clients (the client index does not fill its bits).
hpcnet_model(PREFIX Vnic_att TOP nic_att SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_att_c1 TOP nic_att SOURCES ${NIC_RTL}
             ARGS -GClients=1 -GNumKeys=40 -GAttLog2=6 -GAttLat=1 -GNumVp=8)
hpcnet_model(PREFIX Vnic_att_c3 TOP nic_att SOURCES ${NIC_RTL}
             ARGS -GClients=3 -GNumKeys=100 -GAttLog2=10 -GAttLat=7)
# Read engine (engines 0 and 1): the defaults, and a small FIFO with short requests where the
# credit rule binds all the time.
hpcnet_model(PREFIX Vnic_rdeng TOP nic_rdeng SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_rdeng_small TOP nic_rdeng SOURCES ${NIC_RTL}
             ARGS -GFifoBytes=1024 -GReqBytes=256 -GTagW=2)
# The deregistration fence (tb/nic/test_nic_inval.cpp): the NIC's 6 holders and 8-bit read count;
# 2 holders and a 3-bit count (the count reaches its top).
hpcnet_model(PREFIX Vnic_inval TOP nic_inval SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_inval_h2 TOP nic_inval SOURCES ${NIC_RTL} ARGS -GHolders=2 -GRdW=3)
# The NIC (sim/nic: the device of the two-node system) with the defaults of docs/nic.md.
hpcnet_model(PREFIX Vnic_top TOP nic_top SOURCES ${NIC_RTL})
# nic_dq: the default DQs (32 VPs of 512 words) and a small variant (5 VPs: the VP index does not
# fill its bits; 32-word DQs: full DQs, drops and stalls happen often).
hpcnet_model(PREFIX Vnic_dq TOP nic_dq SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_dq_s TOP nic_dq SOURCES ${NIC_RTL} ARGS -GNumVp=5 -GDqWords=32 -GMaxWords=24)
# nic_hdq: the default fetcher and a small one (3 VPs, 16-word DQs: tiny room, 64-byte requests).
hpcnet_model(PREFIX Vnic_hdq TOP nic_hdq SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_hdq_s TOP nic_hdq SOURCES ${NIC_RTL} ARGS -GNumVp=3 -GDqWords=16 -GMaxReqBytes=64)
# Unit tests of the read engine's back end and of small NIC blocks (tb/nic/test_nic_pktz.cpp,
# test_nic_rdfifo.cpp, test_nic_ackgen.cpp, test_nic_epoch_drop.cpp: program tb_nic_units), small
# so that each compiles in about a second: the packetizer with a 4-bit FIFO count (the test's FIFO
# holds 6..15 frames); the data FIFO with 5 rows of 70 bits (the row pointer wraps at a
# non-power of two) and with 2 rows of 8 bits; the answer generator with 2 queued read requests
# (full often); the epoch filter with the NIC's 6 slot bits and 2.
hpcnet_model(PREFIX Vnic_pktz TOP nic_pktz SOURCES ${NIC_RTL} ARGS -GCntW=4)
hpcnet_model(PREFIX Vnic_rdfifo TOP nic_rdfifo SOURCES ${NIC_RTL} ARGS -GDepth=5 -GWidth=70)
hpcnet_model(PREFIX Vnic_rdfifo_d2 TOP nic_rdfifo SOURCES ${NIC_RTL} ARGS -GDepth=2 -GWidth=8)
hpcnet_model(PREFIX Vnic_ackgen TOP nic_ackgen SOURCES ${NIC_RTL} ARGS -GReqDepth=2)
hpcnet_model(PREFIX Vnic_epoch_drop TOP nic_epoch_drop SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_epoch_drop_m2 TOP nic_epoch_drop SOURCES ${NIC_RTL} ARGS -GMsgW=2)
# The VP error words (test_nic_vp_err.cpp): 5 VPs (the index does not fill its bits), 3 reporters
# with queues of 2 (the DQ-overflow queue fills).
hpcnet_model(PREFIX Vnic_vp_err_s TOP nic_vp_err SOURCES ${NIC_RTL} ARGS -GNumVp=5 -GPorts=3 -GDepth=2)
# The completion unit (test_nic_cmpl.cpp): 5 VPs (the VP index does not fill its bits) and 8
# message slots (MsgW 3: the table fills, the epoch sits in MSG_ID bits 4:3). -Wno-WIDTH: nic_cmpl
# indexes cq_irq_o and cq_room_o (NumVp bits) with a 5-bit VP, which Verilator flags below 32 VPs.
hpcnet_model(PREFIX Vnic_cmpl_s TOP nic_cmpl SOURCES ${NIC_RTL} ARGS -Wno-WIDTH -GNumVp=5 -GMsgW=3)
# The register block (test_nic_regs.cpp): 5 VPs (user pages 5..31 and VPC elements 5..31 unmapped),
# 32-word DQs, the NIC's two error reporters; -Wno-WIDTH as for nic_cmpl (vp_en_o, vp_phys_ok_o).
hpcnet_model(PREFIX Vnic_regs_s TOP nic_regs SOURCES ${NIC_RTL}
             ARGS -Wno-WIDTH -GNumVp=5 -GDqWords=32 -GNumKeys=100 -GAttLog2=10)
# Descriptor execution (test_nic_exec.cpp): 5 VPs (the VP index does not fill its bits, DST_VP 5..31
# is BAD_VP) and 8 message slots (MSG_ID {epoch, 3-bit slot}); -Wno-WIDTH as for nic_cmpl.
hpcnet_model(PREFIX Vnic_exec_s TOP nic_exec SOURCES ${NIC_RTL} ARGS -Wno-WIDTH -GNumVp=5 -GMsgW=3)
# The receive path (test_nic_rx.cpp, test_nic_rx_multi.cpp): VC0 and VC1, 5 VPs, 8 MSG_IDs a sender; -Wno-WIDTH as above.
# Without the queue that checks ahead (Ahead 0, as VC1 in nic_top): the reference takes a flit when
# the state machine does; the queue is tested in the two-node tests (test_nic_ahead.cpp).
hpcnet_model(PREFIX Vnic_rx0_s TOP nic_rx SOURCES ${NIC_RTL} ARGS -Wno-WIDTH -GNumVp=5 -GVc=0 -GMsgW=3 -GAhead=0)
hpcnet_model(PREFIX Vnic_rx1_s TOP nic_rx SOURCES ${NIC_RTL} ARGS -Wno-WIDTH -GNumVp=5 -GVc=1 -GMsgW=3 -GAhead=0)
# The NIC with a doubled link retransmit buffer (320 flits, 64 packets), a benchmark model: `hpcnet
# link` measures goodput against error rate and link delay with it beside the default 160
# (docs/link.md section 9). It joins the NIC's model table (sim/nic: nic_models(), found by LinkRetx).
hpcnet_model(PREFIX Vnic_top_retx320 TOP nic_top SOURCES ${NIC_RTL} ARGS -GLinkRetx=320 BENCH)
# The NIC of a machine of more than 64 nodes, a benchmark model: a route table of 256 entries and
# receivers' tables of 256 senders (RouteLog2 8; docs/machine.md section 4). `hpcnet machine` takes
# it for 65 to 256 nodes (sim/machine: found in nic_models() by RouteLog2).
hpcnet_model(PREFIX Vnic_top_n256 TOP nic_top SOURCES ${NIC_RTL} ARGS -GRouteLog2=8 BENCH)
