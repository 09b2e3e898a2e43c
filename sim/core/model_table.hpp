// sim/core/model_table.hpp: the tables of built Verilated models (generated at configure time by
// hpcnet_model_table, rtl/models.cmake), and the lookup every block uses: a model is found by its
// Verilator parameters and recorded facts (-G<Param>=<value>, META Key=Value), never by name
// switches kept by hand.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpcnet::sim {

// Whether this build tree has the benchmark-only models (rtl/models.cmake, BENCH: the whole 8x8
// and larger meshes, the large barrier meshes, the 64-node tree), and the sentence a refusal for
// one of them ends with ("" where they are built). Generated: bench_models_gen.cpp.
bool bench_models_built();
const char* bench_models_hint();

template <class Make>
struct ModelEntry {
  const char* name;  // Verilator prefix, e.g. "Vssm_top_1core"
  const char* top;   // top module
  std::vector<std::pair<const char*, const char*>> params;  // as given to hpcnet_model
  Make make;

  // The parameter's value, or dflt when the model was built with the module's default. Accepts
  // decimal and SystemVerilog sized literals (1'b1, 8'd12, 4'hA).
  long param(std::string_view key, long dflt) const {
    for (const auto& [k, v] : params)
      if (key == k) return parse(v);
    return dflt;
  }

 private:
  static long parse(std::string_view v) {
    int base = 10;
    if (const size_t q = v.find('\''); q != std::string_view::npos && q + 1 < v.size()) {
      const char b = v[q + 1];
      base = (b == 'b' || b == 'B') ? 2 : (b == 'h' || b == 'H') ? 16 : (b == 'o' || b == 'O') ? 8 : 10;
      v = v.substr(q + 2);
    }
    return std::stol(std::string(v), nullptr, base);
  }
};

// The first entry of `table` whose every (key, value) in `want` matches (a parameter missing from
// an entry takes its value from `defaults`: the module's default); nullptr if none.
template <class Make>
const ModelEntry<Make>* find_model(const std::vector<ModelEntry<Make>>& table,
                                   const std::vector<std::pair<std::string_view, long>>& want,
                                   const std::vector<std::pair<std::string_view, long>>& defaults = {}) {
  for (const auto& e : table) {
    bool ok = true;
    for (const auto& [k, v] : want) {
      long dflt = -1;
      for (const auto& [dk, dv] : defaults)
        if (dk == k) dflt = dv;
      ok = ok && e.param(k, dflt) == v;
    }
    if (ok) return &e;
  }
  return nullptr;
}

// The names of all entries, for an error message.
template <class Make>
std::string model_names(const std::vector<ModelEntry<Make>>& table) {
  std::string s;
  for (const auto& e : table) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s.empty() ? "none" : s;
}

}  // namespace hpcnet::sim
