// machine_command.cpp: `hpcnet machine`: its options, their checks (before anything runs) and the
// program chosen (machine_bench.hpp).
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "machine/machine_bench.hpp"
#include "sim/core/trace.hpp"

namespace hpcnet::bench {

namespace {

using namespace machineb;

void add_machine_commands(Registry& reg) {
  reg.add("machine",
          "the whole machine: NICs on the router network (and SSMs on the sync tree) running ping-pong, all-to-all or the stencil",
          [](CLI::App& c) -> Runner {
            struct State {
              MachineOptions o;
              std::string shape = "4x4", mode = "adbr";
              RunFlags f;
            };
            auto st = std::make_shared<State>();
            c.add_option("--program", st->o.program, "ping-pong, all-to-all, stream or stencil")
                ->check(CLI::IsMember({"ping-pong", "all-to-all", "stream", "stencil"}));
            c.add_option("--shape", st->shape, "the network: KxK[xK][-torus] (e.g. 4x4, 8x8, 4x4-torus)")
                ->check(parses(sim::MeshShape::parse, "SHAPE"));
            c.add_option("--mode", st->mode, "router mode: adbr, dorvct, dorwh")->check(parses(sim::parse_mode, "MODE"));
            c.add_option("--rounds", st->o.rounds, "ping-pong: round trips per distance; all-to-all: rounds (--quick: 4)")
                ->check(CLI::Range(1u, 100000u));
            c.add_option("--size", st->o.size, "all-to-all: bytes a message (1..128: immediate writes; more: RDMA writes); stream: default 65536")
                ->check(CLI::Range(1u, 1u << 20));
            add_list(c, "--loads", st->o.loads, "stream: background loads, fractions of a link (0..0.9; default 0)")
                ->check(CLI::Range(0.0, 0.9));
            c.add_option("--tile", st->o.tile, "stencil: points per side of a node's tile, 1..16 (a halo in one packet)")
                ->check(CLI::Range(1u, 16u));
            c.add_option("--steps", st->o.steps, "stencil: Jacobi steps (--quick: 3)")->check(CLI::Range(1u, 100000u));
            c.add_option("--trace-node", st->o.trace_node, "the node whose NIC and router end --trace records (with plane 0)");
            add_run_flags(c, st->f, "CI-sized run (4 rounds, 3 steps unless given)", "write the tables to FILE-<table>.csv");
            return [st, &c] {
              MachineOptions& o = st->o;
              o.shape = sim::MeshShape::parse(st->shape);
              o.mode = sim::parse_mode(st->mode);
              if (o.shape.nodes() > sim::kMachineMaxNodes)
                throw UsageError("--shape", fmt::format("{} nodes: a NIC routes to {} nodes at most (its route table, "
                                                        "docs/machine.md section 4)", o.shape.nodes(), sim::kMachineMaxNodes));
              if (o.trace_node >= o.shape.nodes())
                throw UsageError("--trace-node", fmt::format("node {} of a {}-node machine", o.trace_node, o.shape.nodes()));
              if (const std::string why = sim::net_unavailable(o.shape, o.mode); !why.empty()) throw UsageError("--shape", why);
              if (o.program != "all-to-all" && o.program != "stream") reject_if_given(c, "--size", "all-to-all and stream only");
              if (o.program != "stream") reject_if_given(c, "--loads", "stream only");
              if (o.program == "stream" && !c.count("--size")) o.size = 65536;
              if (o.program != "stencil") {
                reject_if_given(c, "--tile", "stencil only");
                reject_if_given(c, "--steps", "stencil only");
              } else {
                reject_if_given(c, "--rounds", "ping-pong and all-to-all only");
              }
              quick_default(c, st->f, "--rounds", o.rounds, 4u);
              quick_default(c, st->f, "--steps", o.steps, 3u);
              o.progress = !st->f.quiet;
              bool ok = false;
              try {
                if (o.program == "ping-pong") ok = run_pingpong(o, st->f.csv);
                else if (o.program == "all-to-all") ok = run_alltoall(o, st->f.csv);
                else if (o.program == "stream") ok = run_stream(o, st->f.csv);
                else ok = run_stencil(o, st->f.csv);
              } catch (const std::invalid_argument& e) {  // a machine that cannot be built (no sync tree of that size)
                throw UsageError("--shape", e.what());
              }
              // the traced node's NIC, router end and plane 0 wrote a file each: one file (docs/machine.md section 10)
              for (unsigned run = 1; run <= sim::trace_run(); ++run) sim::trace_merge_run(run);
              return ok ? kExitOk : kExitCheckFailed;
            };
          },
          "which run to trace: the machine is one run (node --trace-node's NIC and router end, plane 0: merged into FILE)");
}

}  // namespace

const CommandBlock kMachineCommands{45, add_machine_commands};  // the block's commands, registered (common/registry.hpp)

}  // namespace hpcnet::bench
