// bench/common/report.hpp: --json, the machine-readable record of one command's run: the
// version, the command, its effective configuration (every option, given or default) and every
// table it printed (print_table records them), numbers as JSON numbers.
#pragma once

#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "common/table.hpp"

namespace hpcnet::bench {

void record_table(const std::string& name, const Table& t);
// The value option `option` ("--nodes") took in this run when the user did not give it: a --quick
// default, a default chosen at run time, a list --help describes in words. --json's config
// records it instead of the --help default, so that the record reproduces the run.
void record_config(const std::string& option, nlohmann::json value);
// Writes the record; `status` is the command's exit code; `partial`: the run did not complete
// (a failed check or run, an interrupt): the tables it finished and the one under way.
void write_json(const std::string& path, const CLI::App& command, int status, bool partial);

}  // namespace hpcnet::bench
