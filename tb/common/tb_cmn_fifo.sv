// tb_cmn_fifo: self-checking SystemVerilog testbench of cmn_fifo (Verilator --main --timing).
// Random idle cycles at the source and random back-pressure at the sink, with rates that change
// every 500 cycles; a queue scoreboard checks data, order, count_o, valid_o and ready_o at every
// edge. Counts errors, ends with $fatal on any, has a watchdog. Plusargs: +seed=N, +trace (FST).
// Testbench processes update scoreboard state with blocking assignments on purpose.
/* verilator lint_off BLKSEQ */
/* verilator lint_off INITIALDLY */
module tb_cmn_fifo;
  localparam int Width = 12;
  localparam int Depth = 3;
  localparam int Beats = 20000;

  logic             clk = 1'b0;
  logic             rst_n = 1'b0;
  logic             valid_i = 1'b0, ready_i = 1'b0, valid_o, ready_o;
  logic [Width-1:0] data_i = '0, data_o;
  logic [1:0]       count_o;

  cmn_fifo #(.Width(Width), .Depth(Depth)) dut (
    .clk_i(clk), .rst_ni(rst_n),
    .valid_i, .ready_o, .data_i,
    .valid_o, .ready_i, .data_o,
    .count_o
  );
  cmn_sim_cycle u_cycle (.clk_i(clk));  // the waveform's cycle counter

  always #5 clk = ~clk;

  logic [Width-1:0] sb[$];  // scoreboard: beats inside the FIFO, oldest first
  int unsigned errors = 0, sent = 0, received = 0, seed = 1, cycle = 0;
  int unsigned idle_pct = 50, bp_pct = 50;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    $display("tb_cmn_fifo: seed=%0d (+seed=N to repeat)", seed);
    void'($urandom(seed));
    if ($test$plusargs("trace")) begin
      $dumpfile("tb_cmn_fifo.fst");
      $dumpvars(0, tb_cmn_fifo);
    end
    repeat (3) @(posedge clk);
    rst_n <= 1'b1;
  end

  // Everything below reads the values from before the edge (the DUT's flops update with NBAs).
  always @(posedge clk) begin
    if (rst_n) begin
      if (valid_o != (sb.size() != 0) || ready_o != (sb.size() < Depth) || 32'(count_o) != sb.size()) begin
        errors++;
        $display("ERROR: status: valid_o %b ready_o %b count_o %0d, model holds %0d", valid_o, ready_o,
               count_o, sb.size());
      end
      if (valid_o && ready_i) begin
        if (sb.size() == 0) begin
          errors++;
          $display("ERROR: pop from an empty model");
        end else begin
          if (data_o != sb[0]) begin
            errors++;
            $display("ERROR: beat %0d: got %h, expected %h", received, data_o, sb[0]);
          end
          void'(sb.pop_front());
        end
        received++;
      end
      if (errors > 10) $fatal(1, "tb_cmn_fifo: too many errors");
      if (valid_i && ready_o) begin
        sb.push_back(data_i);
        sent++;
      end
      cycle++;
      if (cycle % 500 == 0) begin  // new rates for the next phase
        idle_pct = $urandom_range(100);
        bp_pct = $urandom_range(100);
      end
      // Next source beat: a stalled beat stays offered unchanged until taken.
      if (!valid_i || ready_o) begin
        if (sent < Beats && $urandom_range(99) >= idle_pct) begin
          valid_i <= 1'b1;
          data_i <= Width'($urandom);
        end else begin
          valid_i <= 1'b0;
        end
      end
      ready_i <= $urandom_range(99) >= bp_pct;
    end
  end

  always @(posedge clk) begin
    if (received == Beats) begin
      if (errors != 0) $fatal(1, "tb_cmn_fifo: FAILED with %0d errors", errors);
      $display("tb_cmn_fifo: PASSED, %0d beats", received);
      $finish;
    end
  end

  initial begin : watchdog
    #(Beats * 10 * 100);
    $fatal(1, "tb_cmn_fifo: watchdog, %0d of %0d beats received", received, Beats);
  end
endmodule
