# NIC models driven from C++ (tb/nic, sim/nic): the modules at their own level, then the NIC.
hpcnet_sources(NIC_RTL ${HPCNET_RTL}/nic/sources.f)
