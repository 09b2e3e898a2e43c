// bench/common/report.cpp: see report.hpp.
#include "common/report.hpp"

#include <fstream>
#include <map>
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

std::map<std::string, nlohmann::json>& effective() {
  static std::map<std::string, nlohmann::json> m;
  return m;
}

// A cell as a JSON number when the whole cell is one, else as text.
nlohmann::json cell(const std::string& s) {
  if (s.empty()) return nullptr;
  size_t used = 0;
  try {
    if (s.find_first_not_of("0123456789") == std::string::npos) return std::stoull(s);  // a whole number (a seed: all 64 bits)
    const double d = std::stod(s, &used);
    if (used == s.size()) return d;
  } catch (const std::exception&) {
  }
  if (s == "true" || s == "false") return s == "true";
  return s;
}

// CLI11's text of a list default, "[1,2,4]", as a JSON array.
nlohmann::json list_or_cell(const std::string& s) {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') return cell(s);
  nlohmann::json a = nlohmann::json::array();
  std::string item;
  for (char c : s.substr(1, s.size() - 2) + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    if (!item.empty()) a.push_back(cell(item));
    item.clear();
  }
  return a;
}

nlohmann::json option_value(const CLI::Option& o) {
  std::vector<std::string> v = o.count() ? o.results() : std::vector<std::string>{};
  const bool flag = o.get_expected_max() == 0;  // CLI11 2.1 gives flags a type size of 1
  if (!o.count()) {
    if (o.get_default_str().empty()) return flag ? nlohmann::json(false) : nlohmann::json(nullptr);
    return list_or_cell(o.get_default_str());
  }
  if (flag) return cell(v.empty() ? "true" : v.back());  // a flag given: --quick, or --quick=false
  if (v.size() == 1 && o.get_expected_max() <= 1 && !o.get_delimiter()) return cell(v[0]);
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : v) a.push_back(cell(s));
  return a;
}

}  // namespace

void record_config(const std::string& option, nlohmann::json value) { effective()[option] = std::move(value); }

void record_table(const std::string& name, const Table& t) {
  tables().emplace_back(name.empty() ? "table" + std::to_string(tables().size() + 1) : name, t);
}

void write_json(const std::string& path, const CLI::App& command, int status, bool partial) {
  nlohmann::json j;
  j["version"] = version();
  j["command"] = command.get_name();
  j["exit_code"] = status;
  j["partial"] = partial;
  nlohmann::json cfg = nlohmann::json::object();
  for (const CLI::Option* o : command.get_options()) {
    const std::string n = o->get_name(false, false);
    if (n.rfind("--", 0) != 0 || n == "--help" || n == "--json") continue;
    const auto e = effective().find(n);
    cfg[n.substr(2)] = !o->count() && e != effective().end() ? e->second : option_value(*o);
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
  f << j.dump(2) << "\n";
  f.close();
  if (!f) throw std::runtime_error("cannot write the JSON file '" + path + "'");
}

}  // namespace hpcnet::bench
