# NIC models driven from C++ (tb/nic, sim/nic): the modules at their own level, then the NIC.
hpcnet_sources(NIC_RTL ${HPCNET_RTL}/nic/sources.f)
# Read engine (engines 0 and 1): the defaults, and a small FIFO with short requests where the
# credit rule binds all the time.
hpcnet_model(PREFIX Vnic_rdeng TOP nic_rdeng SOURCES ${NIC_RTL})
hpcnet_model(PREFIX Vnic_rdeng_small TOP nic_rdeng SOURCES ${NIC_RTL}
             ARGS -GFifoBytes=1024 -GReqBytes=256 -GTagW=2)
