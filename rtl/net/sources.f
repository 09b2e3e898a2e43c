// Source list of the mesh and torus networks (rtl/net, top net_mesh). docs/common.md#source-lists.
-f rtl/router/sources.f
rtl/net/net_mesh.sv
