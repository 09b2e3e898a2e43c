// bench/common/report.hpp: --json, the machine-readable record of one command's run: the
// version, the command, its effective configuration (every option, given or default) and every
// table it printed (print_table records them), numbers as JSON numbers.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "common/table.hpp"

namespace hpcnet::bench {

void record_table(const std::string& name, const Table& t);
// Writes the record; `status` is the command's exit code.
void write_json(const std::string& path, const CLI::App& command, int status);

}  // namespace hpcnet::bench
