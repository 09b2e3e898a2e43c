// bench/common/table.cpp: see table.hpp.
#include "common/table.hpp"

#include "common/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace hpcnet::bench {

std::string Table::text() const {
  std::vector<size_t> w(cols_.size(), 0);
  for (size_t i = 0; i < cols_.size(); ++i) w[i] = cols_[i].size();
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], r[i].size());
  auto line = [&](const std::vector<std::string>& r) {
    std::string s;
    for (size_t i = 0; i < w.size(); ++i) {
      const std::string cell = i < r.size() ? r[i] : "";
      s += (i ? "  " : "") + cell + std::string(w[i] - cell.size(), ' ');
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(cols_);
  std::string rule;
  for (size_t i = 0; i < w.size(); ++i) rule += (i ? "  " : "") + std::string(w[i], '-');
  out += rule + "\n";
  for (const auto& r : rows_) out += line(r);
  return out;
}

void Table::write_csv(const std::string& path, const std::string& comment) const {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write CSV file '" + path + "'");
  auto cell = [](const std::string& c) {  // RFC 4180: quote cells with commas, quotes, newlines
    if (c.find_first_of(",\"\n") == std::string::npos) return c;
    std::string q = "\"";
    for (char ch : c) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  auto row = [&](const std::vector<std::string>& r) {
    for (size_t i = 0; i < r.size(); ++i) f << (i ? "," : "") << cell(r[i]);
    f << "\n";
  };
  row(cols_);
  for (const auto& r : rows_) row(r);
  if (!comment.empty()) f << "# " << comment << "\n";
  f.close();
  if (!f) throw std::runtime_error("cannot write CSV file '" + path + "'");  // e.g. the disk full
}

void print_table(const Table& t, const std::string& csv, const std::string& name) {
  record_table(name, t);
  fmt::print("{}", t.text());
  if (!csv.empty()) {
    t.write_csv(csv);
    fmt::print("CSV written to {}\n", csv);
  }
}

}  // namespace hpcnet::bench
