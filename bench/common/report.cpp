// bench/common/report.cpp: see report.hpp.
#include "common/report.hpp"

#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/cli.hpp"

namespace hpcnet::bench {

namespace {

std::vector<std::pair<std::string, Table>>& tables() {
  static std::vector<std::pair<std::string, Table>> t;
  return t;
}

// A cell as a JSON number when the whole cell is one, else as text.
nlohmann::json cell(const std::string& s) {
  if (s.empty()) return nullptr;
  size_t used = 0;
  try {
    const double d = std::stod(s, &used);
    if (used == s.size()) return d;
  } catch (const std::exception&) {
  }
  return s;
}

nlohmann::json option_value(const CLI::Option& o) {
  std::vector<std::string> v = o.count() ? o.results() : std::vector<std::string>{};
  if (!o.count()) {
    if (o.get_default_str().empty()) return o.get_type_size() == 0 ? nlohmann::json(false) : nlohmann::json(nullptr);
    return cell(o.get_default_str());
  }
  if (o.get_type_size() == 0) return true;  // a flag given
  if (v.size() == 1 && o.get_expected_max() <= 1 && !o.get_delimiter()) return cell(v[0]);
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : v) a.push_back(cell(s));
  return a;
}

}  // namespace

void record_table(const std::string& name, const Table& t) {
  tables().emplace_back(name.empty() ? "table" + std::to_string(tables().size() + 1) : name, t);
}

void write_json(const std::string& path, const CLI::App& command, int status) {
  nlohmann::json j;
  j["version"] = version();
  j["command"] = command.get_name();
  j["exit_code"] = status;
  nlohmann::json cfg = nlohmann::json::object();
  for (const CLI::Option* o : command.get_options()) {
    const std::string n = o->get_name(false, false);
    if (n.rfind("--", 0) != 0 || n == "--help" || n == "--json") continue;
    cfg[n.substr(2)] = option_value(*o);
  }
  j["config"] = cfg;
  nlohmann::json ts = nlohmann::json::object();
  for (const auto& [name, t] : tables()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : t.rows()) {
      nlohmann::json row = nlohmann::json::object();
      for (size_t i = 0; i < r.size() && i < t.columns().size(); ++i) row[t.columns()[i]] = cell(r[i]);
      rows.push_back(row);
    }
    ts[name] = rows;
  }
  j["tables"] = ts;
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write the JSON file '" + path + "'");
  f << j.dump(2) << "\n";
}

}  // namespace hpcnet::bench
