// bench/common/results.cpp: see results.hpp.
#include "common/results.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

#include <fmt/format.h>

#include "common/report.hpp"

namespace hpcnet::bench {

namespace {

std::vector<Results>& unfinished() {
  static std::vector<Results> u;
  return u;
}

void check_key(const std::string& k) {
  bool ok = !k.empty() && k.front() >= 'a' && k.front() <= 'z';
  for (char c : k) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok) throw std::logic_error(fmt::format("results column '{}' is not snake_case", k));
}

}  // namespace

Cell num(double v, int decimals) {
  if (std::isnan(v)) return {"", "-"};
  const std::string s = fmt::format("{:.{}f}", v, decimals);
  return {s, s};
}

Cell num(uint64_t v) { return word(std::to_string(v)); }

Cell word(const std::string& s) { return {s, s}; }

Cell shown_as(Cell c, std::string shown) {
  c.shown = std::move(shown);
  return c;
}

Results::Results(std::vector<Column> columns, std::string name) : cols_(std::move(columns)), name_(std::move(name)) {
  for (const Column& c : cols_)
    if (!c.key.empty() || c.shown.empty() || c.shown == "~") check_key(c.key);
}

Results::~Results() {
  if (!saved_ && !rows_.empty() && std::uncaught_exceptions() > 0) {
    try {
      unfinished().push_back(*this);
      unfinished().back().saved_ = true;
    } catch (...) {  // no memory left: the partial rows are lost, the run's error stands
    }
  }
}

const std::vector<Results>& unfinished_results() { return unfinished(); }

void save_unfinished(const std::string& csv, const std::string& command, const std::string& why) {
  std::string fallback = command;
  std::replace(fallback.begin(), fallback.end(), '-', '_');
  for (size_t i = 0; i < unfinished().size(); ++i) {
    const Results& r = unfinished()[i];
    const Table tidy = r.tidy();
    const std::string name = !r.name().empty() ? r.name() : unfinished().size() > 1 ? fmt::format("{}-partial{}", fallback, i + 1) : fallback;
    record_table(name, tidy);
    if (i == 0 && !csv.empty()) {
      tidy.write_csv(csv, fmt::format("partial: {}; {} rows", why, r.rows()));
      fmt::print("CSV written to {} (partial: {} rows)\n", csv, r.rows());
    }
  }
}

Results& Results::config(const std::string& key, const std::string& value) {
  check_key(key);
  config_.emplace_back(key, value);
  return *this;
}

Results& Results::config(const std::string& key, double value) { return config(key, fmt::format("{}", value)); }

void Results::add(std::vector<Cell> row) {
  if (row.size() != cols_.size())
    throw std::logic_error(fmt::format("results row of {} cells for {} columns", row.size(), cols_.size()));
  rows_.push_back(std::move(row));
}

Table Results::display() const {
  std::vector<size_t> shown;
  std::vector<std::string> heads;
  for (size_t i = 0; i < cols_.size(); ++i)
    if (cols_[i].shown != "~") {
      shown.push_back(i);
      heads.push_back(cols_[i].shown.empty() ? cols_[i].key : cols_[i].shown);
    }
  Table t(heads);
  for (const auto& r : rows_) {
    std::vector<std::string> cells;
    for (size_t i : shown) cells.push_back(r[i].shown);
    t.add(std::move(cells));
  }
  return t;
}

Table Results::tidy() const {
  std::vector<std::string> heads;
  for (const Column& c : cols_)
    if (!c.key.empty()) heads.push_back(c.key);
  for (const auto& [k, v] : config_) heads.push_back(k);
  Table t(heads);
  for (const auto& r : rows_) {
    std::vector<std::string> cells;
    for (size_t i = 0; i < r.size(); ++i)
      if (!cols_[i].key.empty()) cells.push_back(r[i].value);
    for (const auto& [k, v] : config_) cells.push_back(v);
    t.add(std::move(cells));
  }
  return t;
}

void print_results(const Results& r, const std::string& csv, const std::string& name) {
  fmt::print("{}", r.display().text());
  save_results(r, csv, name);
}

void save_results(const Results& r, const std::string& csv, const std::string& name) {
  r.saved();
  const Table tidy = r.tidy();
  record_table(name, tidy);
  if (!csv.empty()) {
    tidy.write_csv(csv);
    fmt::print("CSV written to {}\n", csv);
  }
}

}  // namespace hpcnet::bench
