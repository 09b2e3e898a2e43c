// gsn_tree: the global sync network, a combining tree of gsn_node between the nodes' SSMs
// (docs/gsn.md). Leaf port n (n = 0..Nodes-1) is SSM n's link: it sends ONE up-message per io=1
// barrier/reduce and receives ONE down-message with the combined result per operation. Every
// operation involves every leaf exactly once.
//
// Shape: Depth = max(1, ceil(log_Radix(Nodes))) levels of gsn_node. Level 0 (bottom) has
// ceil(Nodes/Radix) nodes; node j of level 0 serves leaves j*Radix .. min(j*Radix+Radix, Nodes)-1;
// level l has ceil(Nodes/Radix^(l+1)) nodes and node j of level l has the nodes j*Radix ..
// min(j*Radix+Radix, nodes of level l-1)-1 of level l-1 as children (left-packed: only the last
// node of a level may have fewer than Radix children). The top level is a single node, the root;
// its up output feeds its own down input (turnaround). Every leaf is Depth levels below the root.
//
// Combine order (reduce): every node folds its children in child index order, so the result is
// the nested left fold  f(node) = (((f(c0) op f(c1)) op f(c2)) ... op f(c_last)),  f(leaf n) = v_n.
//
// Latency (no contention, ALU latency L): up 2 cycles per level for a barrier,
// 2 + (k-1)*L per level for a reduce (k = children of the node), then 1 cycle per level down:
// barrier = 3*Depth cycles from up_valid_i to dn_valid_o.
// Combinational paths: up_ready_o from up_valid_i/up_msg_i (of the same bottom node) and state;
// dn_valid_o/dn_msg_o are registers; no path from dn_ready_i to any output.
// Parameters: Nodes: leaves (1..64). Radix: children per tree node (>= 2).
// Slots: open combining contexts per tree node (>= 1): see the deadlock rule in docs/gsn.md.
module gsn_tree #(
  parameter int Nodes = 4,
  parameter int Radix = 4,
  parameter int Slots = 4,
  localparam int MsgW = gsn_pkg::GSN_MSG_BITS  // derived, do not override: 128
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [Nodes-1:0]      up_valid_i,
  output logic [Nodes-1:0]      up_ready_o,
  input  logic [Nodes*MsgW-1:0] up_msg_i,  // message n at [n*MsgW +: MsgW] (gsn_pkg::msg_t)
  output logic [Nodes-1:0]      dn_valid_o,
  input  logic [Nodes-1:0]      dn_ready_i,
  output logic [Nodes*MsgW-1:0] dn_msg_o
);
  // Parameter checks
  if (Nodes < 1 || Nodes > 64) begin : gen_err_nodes
    $error("gsn_tree: Nodes must be 1..64");
  end
  if (Radix < 2) begin : gen_err_radix
    $error("gsn_tree: Radix must be >= 2");
  end
  if (Slots < 1) begin : gen_err_slots
    $error("gsn_tree: Slots must be >= 1");
  end

  // Tree nodes on level l: ceil(n / r^(l+1)).
  function int lvl_nodes(int n, int r, int l);
    int p;
    p = 1;
    for (int i = 0; i <= l; i++) p = p * r;
    lvl_nodes = (n + p - 1) / p;
  endfunction
  // Levels: the smallest d >= 1 with r^d >= n (n <= 64, r >= 2: at most 6).
  function int tree_depth(int n, int r);
    int p;
    tree_depth = 1;
    p = r;
    for (int i = 0; i < 8; i++) begin
      if (p < n) begin
        p = p * r;
        tree_depth = tree_depth + 1;
      end
    end
  endfunction
  // Index of the first node of level l in the flat node numbering (level 0 first).
  function int lvl_off(int n, int r, int l);
    lvl_off = 0;
    for (int i = 0; i < 8; i++) if (i < l) lvl_off = lvl_off + lvl_nodes(n, r, i);
  endfunction

  localparam int Depth = tree_depth(Nodes, Radix);
  localparam int Total = lvl_off(Nodes, Radix, Depth);  // tree nodes
  localparam int Root  = Total - 1;

  // Each tree node's parent link, flat by node number.
  logic [Total-1:0]      nd_up_valid, nd_up_ready, nd_dn_valid, nd_dn_ready;
  logic [Total*MsgW-1:0] nd_up_msg, nd_dn_msg;

  for (genvar l = 0; l < Depth; l++) begin : g_lvl
    localparam int NumNodes = lvl_nodes(Nodes, Radix, l);
    localparam int NumBelow = (l == 0) ? Nodes : lvl_nodes(Nodes, Radix, l - 1);
    localparam int Off      = lvl_off(Nodes, Radix, l);
    localparam int OffBelow = (l == 0) ? 0 : lvl_off(Nodes, Radix, l - 1);
    for (genvar j = 0; j < NumNodes; j++) begin : g_node
      localparam int K  = (NumBelow - j*Radix < Radix) ? NumBelow - j*Radix : Radix;
      localparam int C0 = j*Radix;  // first child (leaf or node of level l-1)
      logic [K-1:0]      cu_valid, cu_ready, cd_valid, cd_ready;
      logic [K*MsgW-1:0] cu_msg, cd_msg;
      if (l == 0) begin : g_leaves
        assign cu_valid                      = up_valid_i[C0 +: K];
        assign cu_msg                        = up_msg_i[C0*MsgW +: K*MsgW];
        assign up_ready_o[C0 +: K]           = cu_ready;
        assign dn_valid_o[C0 +: K]           = cd_valid;
        assign dn_msg_o[C0*MsgW +: K*MsgW]   = cd_msg;
        assign cd_ready                      = dn_ready_i[C0 +: K];
      end else begin : g_nodes
        assign cu_valid                                   = nd_up_valid[OffBelow + C0 +: K];
        assign cu_msg                                     = nd_up_msg[(OffBelow + C0)*MsgW +: K*MsgW];
        assign nd_up_ready[OffBelow + C0 +: K]            = cu_ready;
        assign nd_dn_valid[OffBelow + C0 +: K]            = cd_valid;
        assign nd_dn_msg[(OffBelow + C0)*MsgW +: K*MsgW]  = cd_msg;
        assign cd_ready                                   = nd_dn_ready[OffBelow + C0 +: K];
      end
      gsn_node #(.NumChild(K), .Slots(Slots)) u_node (
        .clk_i, .rst_ni,
        .c_up_valid_i(cu_valid),
        .c_up_ready_o(cu_ready),
        .c_up_msg_i  (cu_msg),
        .c_dn_valid_o(cd_valid),
        .c_dn_ready_i(cd_ready),
        .c_dn_msg_o  (cd_msg),
        .p_up_valid_o(nd_up_valid[Off + j]),
        .p_up_ready_i(nd_up_ready[Off + j]),
        .p_up_msg_o  (nd_up_msg[(Off + j)*MsgW +: MsgW]),
        .p_dn_valid_i(nd_dn_valid[Off + j]),
        .p_dn_ready_o(nd_dn_ready[Off + j]),
        .p_dn_msg_i  (nd_dn_msg[(Off + j)*MsgW +: MsgW])
      );
    end
  end

`ifndef SYNTHESIS
  // The cycle counter of the waveforms (simulation only, no outputs).
  cmn_sim_cycle u_cycle (.clk_i);
`endif

  // The root turns the combined message around.
  assign nd_dn_valid[Root]                = nd_up_valid[Root];
  assign nd_dn_msg[Root*MsgW +: MsgW]     = nd_up_msg[Root*MsgW +: MsgW];
  assign nd_up_ready[Root]                = nd_dn_ready[Root];

  // Assertions: the leaf ports' protocol is checked by the bottom nodes (gsn_node). (A $stable
  // of a part of the whole up_msg_i/dn_msg_o here makes Verilator 5.006 sample the entire wide
  // port with a loop whose variable it declares in another function: the model does not compile.)
endmodule
