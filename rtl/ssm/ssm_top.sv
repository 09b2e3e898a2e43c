/* verilator lint_off UNUSEDPARAM */
// ssm_top: the node synchronization engine (SSM), paper seed 001 / SPEC section 2.
// PORT CONTRACT (frozen; the C++ simulation binds to these names):
//   MMIO slave : 64-bit register reads/writes from the host bus. A request moves when
//                mmio_req_valid_i && mmio_req_ready_o. A read is answered by mmio_rsp_valid_o
//                (one cycle pulse) some cycles later; at most one read is outstanding.
//   DMA master : requests of 1..32 bytes that never cross a 32-byte boundary; byte i of
//                dma_req_wdata_o goes to dma_req_addr_o + i. Writes are posted (no response).
//                A read returns one dma_rsp beat with the request's tag; byte i of
//                dma_rsp_rdata_i is the byte at addr + i. The host memory completes requests
//                in the order it accepted them.
//   irq_o      : level interrupt, high while (IRQ_STATUS & IRQ_ENABLE) != 0.
module ssm_top #(
  parameter int NumPe      = 5,    // processing elements
  parameter int NumThreads = 4,    // threads per PE
  parameter int NumCores   = 2,    // fine-grain processing cores
  parameter int OpqDepth   = 4,    // operation FIFO depth per thread
  parameter int HashSets   = 1024, // sets in the on-chip hash table
  parameter int HashWays   = 4,    // ways per set
  parameter int HashBanks  = 4     // SRAM banks (sets interleaved over banks)
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // MMIO slave
  input  logic         mmio_req_valid_i,
  output logic         mmio_req_ready_o,
  input  logic         mmio_req_write_i,
  input  logic [15:0]  mmio_req_addr_i,
  input  logic [63:0]  mmio_req_wdata_i,
  output logic         mmio_rsp_valid_o,
  output logic [63:0]  mmio_rsp_rdata_o,
  // DMA master
  output logic         dma_req_valid_o,
  input  logic         dma_req_ready_i,
  output logic         dma_req_write_o,
  output logic [47:0]  dma_req_addr_o,
  output logic [5:0]   dma_req_len_o,
  output logic [3:0]   dma_req_tag_o,
  output logic [255:0] dma_req_wdata_o,
  input  logic         dma_rsp_valid_i,
  output logic         dma_rsp_ready_o,
  input  logic [3:0]   dma_rsp_tag_i,
  input  logic [255:0] dma_rsp_rdata_i,
  // interrupt
  output logic         irq_o
);
  // STUB: replaced by the real engine.
  /* verilator lint_off UNUSEDPARAM */
  assign mmio_req_ready_o = 1'b1;
  assign mmio_rsp_valid_o = 1'b0;
  assign mmio_rsp_rdata_o = '0;
  assign dma_req_valid_o  = 1'b0;
  assign dma_req_write_o  = 1'b0;
  assign dma_req_addr_o   = '0;
  assign dma_req_len_o    = '0;
  assign dma_req_tag_o    = '0;
  assign dma_req_wdata_o  = '0;
  assign dma_rsp_ready_o  = 1'b1;
  assign irq_o            = 1'b0;
  logic unused;
  assign unused = ^{clk_i, rst_ni, mmio_req_valid_i, mmio_req_write_i, mmio_req_addr_i,
                    mmio_req_wdata_i, dma_req_ready_i, dma_rsp_valid_i, dma_rsp_tag_i,
                    dma_rsp_rdata_i};
endmodule
