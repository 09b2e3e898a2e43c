// bench/common/results.hpp: one set of results, two tables made from it.
//
// The display table is printed for a reader: its headers and cells may carry units and
// annotations ("-" for a value that does not exist, "2 (below the minimum)"). The tidy table is
// written as CSV (--csv) and recorded for --json: snake_case headers with the unit in the name
// (latency_ns, ops_per_kcycle), one value per cell, an empty cell for a value that does not
// exist, and the run's configuration as columns (the same value in every row). Keys that are not
// snake_case are refused when the columns are declared, so every command names its columns alike.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/table.hpp"

namespace hpcnet::bench {

struct Cell {
  std::string value;  // the tidy cell: a number or a word alone, "" when there is none
  std::string shown;  // the display cell
};
// A number with `decimals` places; NaN is a value that does not exist (tidy "", shown "-").
Cell num(double v, int decimals = 1);
Cell num(uint64_t v);
inline Cell num(unsigned v) { return num(uint64_t{v}); }
// The same word in both tables.
Cell word(const std::string& s);
// The cell's value shown with an annotation in the display table only.
Cell shown_as(Cell c, std::string shown);

struct Column {
  std::string key;    // the tidy header: snake_case, the unit in the name ("" = display table only)
  std::string shown;  // the display header ("" = the key; "~" = tidy table only)
};

class Results {
 public:
  // `name`: the table's name in --json, for the record of a run that ends before the table is
  // saved ("" = the command's name, '-' as '_').
  explicit Results(std::vector<Column> columns, std::string name = "");
  // A table left unsaved by an exception (Ctrl-C, a failed run) keeps its rows for the record
  // (unfinished_results()).
  ~Results();
  Results(const Results&) = default;
  Results& operator=(const Results&) = default;
  // A configuration column of the tidy table (after the data columns), the same in every row.
  Results& config(const std::string& key, const std::string& value);
  Results& config(const std::string& key, double value);
  // One cell per column, in the order declared.
  void add(std::vector<Cell> row);
  Table display() const;
  Table tidy() const;
  bool empty() const { return rows_.empty(); }
  size_t rows() const { return rows_.size(); }
  void saved() const { saved_ = true; }
  const std::string& name() const { return name_; }

 private:
  std::vector<Column> cols_;
  std::vector<std::pair<std::string, std::string>> config_;
  std::vector<std::vector<Cell>> rows_;
  std::string name_;
  mutable bool saved_ = false;
};

// The tables a command was filling when an exception left them (rows so far; none empty).
const std::vector<Results>& unfinished_results();
// Writes them as the partial record of a run that did not complete: the first to `csv` (when set;
// its last line "# partial: <why>; <rows> rows"), each for --json under its name (else
// `command`'s, '-' as '_'; "-partial<i>" added when several have none).
void save_unfinished(const std::string& csv, const std::string& command, const std::string& why);

// Prints the display table, writes the tidy one as CSV when `csv` is set (and says where), and
// records the tidy one for --json under `name`.
void print_results(const Results& r, const std::string& csv, const std::string& name);
// The same without printing (a command whose display is a summary of its own).
void save_results(const Results& r, const std::string& csv, const std::string& name);

}  // namespace hpcnet::bench
