// cmn_sram: single-port synchronous RAM (one read or one write per cycle), the shape of an
// SRAM macro. Synthesis keeps it as a $mem cell.
//   Read : req_i && !we_i at cycle t -> rdata_o holds mem[addr_i] from cycle t+1 until the next read.
//   Write: req_i &&  we_i at cycle t -> mem[addr_i] = wdata_i after the edge (rdata_o unchanged).
// Parameters: Width (bits per row), Depth (rows). Contents are not reset (as in an SRAM).
module cmn_sram #(
  parameter int Width = 32,
  parameter int Depth = 256,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1  // derived, do not override
) (
  input  logic             clk_i,
  input  logic             req_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
  logic [Width-1:0] mem [Depth];

  always_ff @(posedge clk_i) begin
    if (req_i && we_i) mem[addr_i] <= wdata_i;
    if (req_i && !we_i) rdata_o <= mem[addr_i];
  end

`ifndef SYNTHESIS
  // Assertions
  always_ff @(posedge clk_i) begin
    if (req_i) assert (32'(addr_i) < Depth) else $error("cmn_sram: address %0d out of range", addr_i);
  end
`endif
endmodule
