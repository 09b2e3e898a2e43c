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
# The NIC with a doubled link retransmit buffer (320 flits, 64 packets), a benchmark model: `hpcnet
# link` measures goodput against error rate and link delay with it beside the default 160
# (docs/link.md section 9). It joins the NIC's model table (sim/nic: nic_models(), found by LinkRetx).
hpcnet_model(PREFIX Vnic_top_retx320 TOP nic_top SOURCES ${NIC_RTL} ARGS -GLinkRetx=320 BENCH)
