// Source list of the global sync network (rtl/gsn, top gsn_tree). docs/common.md#source-lists.
-f rtl/common/sources.f
-f rtl/alu/sources.f
rtl/gsn/gsn_pkg.sv
rtl/gsn/gsn_node.sv
rtl/gsn/gsn_tree.sv
