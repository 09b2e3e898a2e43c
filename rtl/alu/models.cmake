# Reduction ALU (rtl/alu: ssm_alu and its binary64 units; used by the SSM and the GSN). Unit tests
# in tb/ssm/alu: the ALU with its default parameters (TagW = 8, Latency = 4).
hpcnet_sources(ALU_RTL ${HPCNET_RTL}/alu/sources.f)
hpcnet_model(PREFIX Vssm_alu TOP ssm_alu SOURCES ${ALU_RTL})
