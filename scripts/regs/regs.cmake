# regs generation (placeholder)
