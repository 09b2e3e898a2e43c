// tb_formats: the generated SystemVerilog formats as C++ sees them (tb/regs/test_formats.cpp).
// Each *_i input takes the raw bits of one format; the outputs are its fields read through the
// generated packed struct; the assertions check that the struct members and the generated
// <BLOCK>_<FORMAT>_<FIELD>_LSB/_WIDTH localparams name the same bits. The codes_o outputs are
// generated codes of the regions. Combinational.
/* verilator lint_off UNUSEDSIGNAL */
module tb_formats (
  // ssm_pkg::entry_t (region of ssm_pkg.sv)
  input  logic [ssm_pkg::SSM_ENTRY_BITS-1:0] entry_i,
  output logic [63:0]                        entry_value_o,
  output logic                               entry_l_o,
  output logic                               entry_p_o,
  output logic [7:0]                         entry_cnt_o,
  // ssm_regs_pkg::cmd_args_t and ovf_node_t (the generated package)
  input  logic [ssm_regs_pkg::SSM_CMD_ARGS_BITS-1:0] args_i,
  output logic [7:0]                         args_readers_o,
  output logic [3:0]                         args_size_o,
  output logic [7:0]                         args_group_o,
  output logic [2:0]                         args_type_o,
  output logic [1:0]                         args_rop_o,
  output logic                               args_io_o,
  output logic [31:0]                        args_length_o,
  input  logic [ssm_regs_pkg::SSM_OVF_NODE_BITS-1:0] node_i,
  output logic [63:0]                        node_tag_o,
  output logic [63:0]                        node_value_o,
  output logic                               node_l_o,
  output logic                               node_p_o,
  output logic [7:0]                         node_counter_o,
  output logic [63:0]                        node_next_o,
  // gsn_pkg::msg_t (region of gsn_pkg.sv)
  input  logic [gsn_pkg::GSN_MSG_BITS-1:0]   msg_i,
  output logic [63:0]                        msg_value_o,
  output logic [47:0]                        msg_addr_o,
  output logic [1:0]                         msg_type_o,
  output logic [1:0]                         msg_op_o,
  output logic                               msg_kind_o,
  output logic                               msg_err_o,
  output logic [9:0]                         msg_zero_o,
  // rtr_pkg::head_t with its route_t (region of rtr_pkg.sv)
  input  logic [rtr_pkg::RTR_HEAD_BITS-1:0]  head_i,
  output logic [23:0]                        head_hops_o,
  output logic [7:0]                         head_hop_count_o,
  // {gsn_pkg: SSM_RED_TYPE_DOUBLE, SSM_RED_TYPE_INT32, SSM_RED_OP_MIN, GSN_KIND_REDUCE, 2'b00,
  //  ssm_regs_pkg: SSM_RED_TYPE_INT32, SSM_OPCODE_BURST, SSM_STATE_ERR_MISMATCH}
  output logic [23:0]                        codes_o
);
  ssm_pkg::entry_t           entry;
  ssm_regs_pkg::cmd_args_t   args;
  ssm_regs_pkg::ovf_node_t   node;
  gsn_pkg::msg_t             msg;
  rtr_pkg::head_t            head;
  assign entry = entry_i;
  assign args  = args_i;
  assign node  = node_i;
  assign msg   = msg_i;
  assign head  = head_i;

  assign entry_value_o    = entry.value;
  assign entry_l_o        = entry.l;
  assign entry_p_o        = entry.p;
  assign entry_cnt_o      = entry.cnt;
  assign args_readers_o   = args.readers;
  assign args_size_o      = args.size;
  assign args_group_o     = args.group;
  assign args_type_o      = args.type_;
  assign args_rop_o       = args.rop;
  assign args_io_o        = args.io;
  assign args_length_o    = args.length;
  assign node_tag_o       = node.tag;
  assign node_value_o     = node.value;
  assign node_l_o         = node.l;
  assign node_p_o         = node.p;
  assign node_counter_o   = node.counter;
  assign node_next_o      = node.next;
  assign msg_value_o      = msg.value;
  assign msg_addr_o       = msg.addr;
  assign msg_type_o       = msg.type_;
  assign msg_op_o         = msg.op;
  assign msg_kind_o       = msg.kind;
  assign msg_err_o        = msg.err;
  assign msg_zero_o       = msg.zero;
  assign head_hops_o      = head.route.hops;
  assign head_hop_count_o = head.hop_count;
  assign codes_o = {gsn_pkg::SSM_RED_TYPE_DOUBLE, gsn_pkg::SSM_RED_TYPE_INT32, gsn_pkg::SSM_RED_OP_MIN,
                    gsn_pkg::GSN_KIND_REDUCE, 2'b00, ssm_regs_pkg::SSM_RED_TYPE_INT32,
                    ssm_regs_pkg::SSM_OPCODE_BURST, ssm_regs_pkg::SSM_STATE_ERR_MISMATCH};

  // The struct members and the position localparams agree.
  always_comb begin
    a_entry: assert (entry.value == entry_i[ssm_pkg::SSM_ENTRY_VALUE_LSB +: ssm_pkg::SSM_ENTRY_VALUE_WIDTH]
                     && entry.l == entry_i[ssm_pkg::SSM_ENTRY_L_LSB]
                     && entry.p == entry_i[ssm_pkg::SSM_ENTRY_P_LSB]
                     && entry.cnt == entry_i[ssm_pkg::SSM_ENTRY_CNT_LSB +: ssm_pkg::SSM_ENTRY_CNT_WIDTH]);
    a_args: assert (args.type_ == args_i[ssm_regs_pkg::SSM_CMD_ARGS_TYPE_LSB +: ssm_regs_pkg::SSM_CMD_ARGS_TYPE_WIDTH]
                    && args.rop == args_i[ssm_regs_pkg::SSM_CMD_ARGS_ROP_LSB +: ssm_regs_pkg::SSM_CMD_ARGS_ROP_WIDTH]
                    && args.length == args_i[ssm_regs_pkg::SSM_CMD_ARGS_LENGTH_LSB +: ssm_regs_pkg::SSM_CMD_ARGS_LENGTH_WIDTH]);
    a_node: assert (node.counter == node_i[ssm_regs_pkg::SSM_OVF_NODE_COUNTER_LSB +: ssm_regs_pkg::SSM_OVF_NODE_COUNTER_WIDTH]
                    && node.next == node_i[ssm_regs_pkg::SSM_OVF_NODE_NEXT_LSB +: ssm_regs_pkg::SSM_OVF_NODE_NEXT_WIDTH]);
    a_msg: assert (msg.value == msg_i[gsn_pkg::GSN_MSG_VALUE_LSB +: gsn_pkg::GSN_MSG_VALUE_WIDTH]
                   && msg.addr == msg_i[gsn_pkg::GSN_MSG_ADDR_LSB +: gsn_pkg::GSN_MSG_ADDR_WIDTH]
                   && msg.type_ == msg_i[gsn_pkg::GSN_MSG_TYPE_LSB +: gsn_pkg::GSN_MSG_TYPE_WIDTH]
                   && msg.op == msg_i[gsn_pkg::GSN_MSG_OP_LSB +: gsn_pkg::GSN_MSG_OP_WIDTH]
                   && msg.kind == msg_i[gsn_pkg::GSN_MSG_KIND_LSB]
                   && msg.err == msg_i[gsn_pkg::GSN_MSG_ERR_LSB]
                   && msg.zero == msg_i[gsn_pkg::GSN_MSG_ZERO_LSB +: gsn_pkg::GSN_MSG_ZERO_WIDTH]);
    a_head: assert (head.route.hops[rtr_pkg::RTR_ROUTE_HOPS_WIDTH +: rtr_pkg::RTR_ROUTE_HOPS_WIDTH]
                      == head_i[rtr_pkg::RTR_HEAD_ROUTE_LSB + rtr_pkg::RTR_ROUTE_HOPS_LSB + rtr_pkg::RTR_ROUTE_HOPS_WIDTH
                                +: rtr_pkg::RTR_ROUTE_HOPS_WIDTH]
                    && head.hop_count == head_i[rtr_pkg::RTR_HEAD_HOP_COUNT_LSB +: rtr_pkg::RTR_HEAD_HOP_COUNT_WIDTH]);
  end
endmodule
/* verilator lint_on UNUSEDSIGNAL */
