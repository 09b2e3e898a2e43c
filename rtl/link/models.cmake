# Reliable link layer models driven from C++ (tb/link/test_lnk.cpp): the defaults (2 VCs, 5-flit
# packets, 4 credits per VC, a 32-packet retransmit buffer, a 1024-cycle timeout), and a small
# variant where the brake, the credits and the timeout bind all the time (a 17-flit retransmit
# buffer: 3.4 packets, so the brake comes mid-packet, 2 packets per VC, a 150-cycle timeout).
hpcnet_sources(LNK_RTL ${HPCNET_RTL}/link/sources.f)
hpcnet_model(PREFIX Vlnk_tx TOP lnk_tx SOURCES ${LNK_RTL})
hpcnet_model(PREFIX Vlnk_rx TOP lnk_rx SOURCES ${LNK_RTL})
hpcnet_model(PREFIX Vlnk_tx_s TOP lnk_tx SOURCES ${LNK_RTL} ARGS -GRetxFlits=17 -GCredits=2 -GTimeout=150)
hpcnet_model(PREFIX Vlnk_rx_s TOP lnk_rx SOURCES ${LNK_RTL} ARGS -GBufPkts=2)
