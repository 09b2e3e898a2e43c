# Reliable link layer models driven from C++ (tb/link/test_lnk.cpp): the defaults (2 VCs, 5-flit
# packets, 4 credits per VC, a 32-packet retransmit buffer, a 1024-cycle timeout), and a small
# variant where the brake, the credits and the timeout bind all the time (a 17-flit retransmit
# buffer: 3.4 packets, so the brake comes mid-packet, 2 packets per VC, a 150-cycle timeout).
hpcnet_sources(LNK_RTL ${HPCNET_RTL}/link/sources.f)
hpcnet_model(PREFIX Vlnk_tx TOP lnk_tx SOURCES ${LNK_RTL})
hpcnet_model(PREFIX Vlnk_rx TOP lnk_rx SOURCES ${LNK_RTL})
hpcnet_model(PREFIX Vlnk_tx_s TOP lnk_tx SOURCES ${LNK_RTL} ARGS -GRetxFlits=17 -GCredits=2 -GTimeout=150)
hpcnet_model(PREFIX Vlnk_rx_s TOP lnk_rx SOURCES ${LNK_RTL} ARGS -GBufPkts=2)
# The window for a 30-metre cable (50 cycles each way): the default sender with 24 credits and a
# receiver of 24 packets per VC (the NIC's defaults).
hpcnet_model(PREFIX Vlnk_tx_c24 TOP lnk_tx SOURCES ${LNK_RTL} ARGS -GCredits=24)
hpcnet_model(PREFIX Vlnk_rx_b24 TOP lnk_rx SOURCES ${LNK_RTL} ARGS -GBufPkts=24)
# Two whole ends (lnk_end) whose link goes down and comes back within a few hundred cycles
# (tb/link/test_lnk_state.cpp): a 150-cycle timeout, down after 4 replays or 600 cycles without
# progress, 16 cycles of TRAIN; 4 packets per VC, a 40-flit retransmit buffer.
hpcnet_model(PREFIX Vlnk_end_s TOP lnk_end SOURCES ${LNK_RTL}
             ARGS -GCredits=4 -GBufPkts=4 -GRetxFlits=40 -GTimeout=150 -GDownRetries=4 -GMinTrain=16)
# The router's end of a NIC's link on the router network (sim/machine, docs/machine.md): a whole
# end with the NIC's window (24 credits, 24 packets per VC), its two VCs into the two router planes.
hpcnet_model(PREFIX Vlnk_end_rport TOP lnk_end SOURCES ${LNK_RTL} ARGS -GCredits=24 -GBufPkts=24)
