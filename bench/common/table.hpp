// bench/table.hpp: a small results table printed aligned on stdout and optionally as CSV.
#pragma once

#include <string>
#include <vector>

namespace hpcnet::bench {

class Table {
 public:
  explicit Table(std::vector<std::string> columns) : cols_(std::move(columns)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string text() const;                   // aligned columns
  // Throws std::runtime_error on I/O failure. `comment`: a last line "# comment" (a partial table).
  void write_csv(const std::string& path, const std::string& comment = "") const;
  const std::vector<std::vector<std::string>>& rows() const { return rows_; }
  const std::vector<std::string>& columns() const { return cols_; }

 private:
  std::vector<std::string> cols_;
  std::vector<std::vector<std::string>> rows_;
};

// Prints the table; also writes it as CSV when `csv` is not empty (and says where); records it
// for --json under `name` (bench/common/report.hpp).
void print_table(const Table& t, const std::string& csv, const std::string& name = "");

}  // namespace hpcnet::bench
