// bench/net/net_config.cpp: `hpcnet net`'s configuration: key=value settings, the effective
// configuration (TOML: printed at the start, written by --save-config, read by --config), which
// option applies to which scenario, the patterns that fit the mesh, and the message for a mesh
// without a model (docs/net_bench.md#options).
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "common/cli.hpp"
#include "net/net_bench.hpp"
#include "sim/net/model/net_sim.hpp"

namespace hpcnet::bench {

namespace {

const std::set<std::string> kAll = {"zeroload", "latency", "saturation", "gain", "buffers", "speed"};
const std::set<std::string> kMeshScenarios = {"zeroload", "latency", "saturation", "gain", "buffers"};

// Option -> the scenarios it applies to (docs/net_bench.md has this table). Options not listed
// apply to every scenario (--scenario, --seed, --quick, --quiet, --csv, --json, --trace*,
// --config, --save-config).
struct Rule {
  const char* option;
  std::set<std::string> scenarios;
  const char* why;  // what the other scenarios do instead
};
const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = {
      {"--mesh", kMeshScenarios, "speed runs the meshes of --speed-mesh"},
      {"--mode", kMeshScenarios, "speed runs ADBR (DOR-VCT on a torus)"},
      {"--pattern", kMeshScenarios, "speed runs uniform traffic"},
      {"--loads", {"latency", "speed"},
       "zeroload runs at 0.01, saturation and buffers bisect, gain runs at fractions of DOR-VCT's saturation"},
      {"--depth", {"zeroload", "latency", "saturation", "gain"},
       "buffers sweeps the depths of --buf, speed runs the model's default depth"},
      {"--buf", {"buffers"}, "the other scenarios take one depth: --depth"},
      {"--gain-buf", {"gain"}, ""},
      {"--warmup", kMeshScenarios, "speed runs 100,000 cycles (10,000 with --quick), a tenth of them warm-up"},
      {"--measure", kMeshScenarios, "speed runs 100,000 cycles (10,000 with --quick), a tenth of them warm-up"},
      {"--hotspot-frac", kMeshScenarios, "speed runs uniform traffic"},
      {"--hotspots", kMeshScenarios, "speed runs uniform traffic"},
      {"--speed-mesh", {"speed"}, ""},
      {"--threads", {"speed"}, ""},
      {"--speed-runs", {"speed"}, ""},
      {"--plot", {"latency", "buffers"}, "plots are drawn of the latency curves and of the buffer sweep"},
  };
  return r;
}

std::string join(const std::set<std::string>& s, const std::vector<std::string>& order = {}) {
  std::string out;
  for (const std::string& k : order.empty() ? std::vector<std::string>(s.begin(), s.end()) : order)
    if (s.count(k)) out += (out.empty() ? "" : ", ") + k;
  return out;
}
const std::vector<std::string> kOrder = {"zeroload", "latency", "saturation", "gain", "buffers", "speed"};

// The keys of the config file and of key=value: the option names without "--".
const std::vector<std::string> kKeys = {"scenario", "mesh", "mode", "pattern", "loads", "depth", "buf", "gain-buf",
                                        "warmup", "measure", "seed", "hotspot-frac", "hotspots", "speed-mesh", "threads",
                                        "speed-runs", "quick", "starve-t", "no-wait-arb"};

bool applies(const std::string& key, const std::set<std::string>& scen) {
  for (const Rule& r : rules())
    if (key == r.option + 2) {
      for (const std::string& s : scen)
        if (r.scenarios.count(s)) return true;
      return false;
    }
  return true;
}

bool is_number(const std::string& s) {
  try {
    size_t used = 0;
    (void)std::stod(s, &used);
    return used == s.size();
  } catch (const std::exception&) {
    return false;
  }
}

std::string toml_value(const CLI::Option& o, const std::vector<std::string>& v) {
  auto one = [](const std::string& s) { return is_number(s) || s == "true" || s == "false" ? s : "\"" + s + "\""; };
  if (o.get_type_size() == 0) return v.empty() || v.back() == "true" || v.back() == "1" ? "true" : "false";
  if (!o.get_delimiter()) return v.empty() ? "\"\"" : one(v.back());
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + one(v[i]);
  return s + "]";
}

}  // namespace

namespace {

// Why `text` is not a text file ("" if it is): a control byte other than tab, line feed and
// carriage return, or bytes that are not UTF-8.
std::string not_text(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f)
        return fmt::format("control byte 0x{:02x} at offset {}", b, i);
      ++i;
      continue;
    }
    const size_t n = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
    bool ok = n != 0 && i + n <= text.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xc0) == 0x80;
    if (!ok) return fmt::format("byte 0x{:02x} at offset {} is not UTF-8", b, i);
    i += n;
  }
  return {};
}

const std::string kKeyHelp = ", shape (= mesh), phases (= warmup/measure, e.g. 500/2000)";

// Sets option --key of `c` to `values` (the option's own checks apply); `what` names the setting
// in an error ("seed=x", "my.toml: seed").
void set_key(NetCommand& c, const std::string& what, std::string key, const std::vector<std::string>& values,
             const std::set<std::string>& keep) {
  std::replace(key.begin(), key.end(), '_', '-');
  std::vector<std::pair<std::string, std::vector<std::string>>> sets;
  if (key == "shape") {
    sets.push_back({"mesh", values});
  } else if (key == "phases") {
    const std::string v = values.empty() ? "" : values.back();
    const size_t sl = v.find('/');
    if (sl == std::string::npos) throw UsageError(what, "phases is warmup/measure, e.g. phases=500/2000");
    sets.push_back({"warmup", {v.substr(0, sl)}});
    sets.push_back({"measure", {v.substr(sl + 1)}});
  } else if (std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end()) {
    sets.push_back({key, values});
  } else {
    throw UsageError(what, fmt::format("unknown key '{}'; the keys: {}{}", key, fmt::join(kKeys, ", "), kKeyHelp));
  }
  for (const auto& [k, vs] : sets) {
    if (keep.count(k)) continue;  // given as an option: the option wins over the config file
    CLI::Option* o = c.app->get_option("--" + k);
    o->clear();
    for (const std::string& v : vs) o->add_result(v);
    try {
      o->run_callback();
    } catch (const CLI::Error& e) {
      throw UsageError(what, plain_cli_error(e.what()));
    }
  }
}

}  // namespace

// The config file first (options given on the command line win over it), then the key=value
// settings (they win over both).
void apply_settings(NetCommand& c) {
  if (!c.config.empty()) {
    std::set<std::string> given;
    for (const std::string& k : kKeys)
      if (c.app->count("--" + k)) given.insert(k);
    std::ifstream f(c.config, std::ios::binary);
    if (!f) throw UsageError("--config", fmt::format("cannot read '{}'", c.config));
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    // a binary file is named, never echoed (its bytes would reach the terminal in CLI11's messages)
    if (const std::string why = not_text(text); !why.empty())
      throw UsageError("--config", fmt::format("'{}' is not a text config file (TOML): {}", c.config, why));
    std::istringstream in(text);
    std::vector<CLI::ConfigItem> items;
    try {
      items = CLI::ConfigTOML().from_config(in);
    } catch (const CLI::Error& e) {
      throw UsageError("--config", fmt::format("{}: {}", c.config, e.what()));
    }
    std::set<std::string> seen;
    for (const CLI::ConfigItem& it : items) {
      if (it.name == "++" || it.name == "--") continue;  // CLI11's section markers
      const std::string what = fmt::format("{}: {}", c.config, it.fullname());
      if (!it.parents.empty() && !(it.parents.size() == 1 && it.parents[0] == "net"))
        throw UsageError(what, "unknown section; the keys stand at the top or under [net]");
      // a key given twice: CLI11 merges two lines in a row into one item of two values, and
      // lets a later line replace an earlier one; both are refused, naming the key
      std::string key = it.name;
      std::replace(key.begin(), key.end(), '_', '-');
      if (!seen.insert(key).second) throw UsageError(what, fmt::format("the key '{}' is given twice", it.name));
      if (const CLI::Option* o = c.app->get_option_no_throw("--" + key);
          o && it.inputs.size() > 1 && !o->get_delimiter() && o->get_expected_max() <= 1)
        throw UsageError(what, fmt::format("the key '{}' is given {} times (or as a list): it takes one value", it.name,
                                           it.inputs.size()));
      set_key(c, what, it.name, it.inputs, given);
    }
  }
  for (const std::string& kv : c.settings) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(kv, fmt::format("a setting is key=value (e.g. mesh=4x4 seed=7; lists are comma-separated: --loads "
                                       "0.1,0.2); the keys: {}{}", fmt::join(kKeys, ", "), kKeyHelp));
    set_key(c, kv, kv.substr(0, eq), {kv.substr(eq + 1)}, {});
  }
}

std::set<std::string> chosen_scenarios(const NetCommand& c) {
  std::set<std::string> s(c.scenarios.begin(), c.scenarios.end());
  if (s.empty() || s.count("all")) s = kAll;
  return s;
}

namespace {
// The depth each mode runs with by default (its model's, or its block's): one number when they
// agree, else a TOML inline table ({adbr = 3, dorvct = 2}).
std::string default_depths(const std::vector<sim::NetMode>& modes, const sim::MeshShape& shape) {
  std::vector<std::pair<std::string, unsigned>> d;
  for (sim::NetMode m : modes) {
    const sim::NetModelInfo* i = sim::find_net(shape, m, 0);
    if (!i) i = sim::find_block(shape, m, 0);
    if (i) d.emplace_back(sim::mode_name(m), i->spec.buf_pkts);
  }
  if (d.empty()) return "0";
  bool same = true;
  for (const auto& [m, b] : d) same = same && b == d.front().second;
  if (same) return std::to_string(d.front().second);
  std::string t;
  for (const auto& [m, b] : d) t += fmt::format("{}{} = {}", t.empty() ? "{" : ", ", m, b);
  return t + "}";
}
}  // namespace

std::string effective_config(const NetCommand& c, const std::set<std::string>& scen) {
  std::string out = "# hpcnet net: the effective configuration (--config FILE reads it back; a line starting with # is a default)\n";
  for (const std::string& k : kKeys) {
    if (!applies(k, scen)) continue;
    const CLI::Option* o = c.app->get_option("--" + k);
    if (o->count()) {
      out += fmt::format("{} = {}\n", k, toml_value(*o, o->results()));
      continue;
    }
    std::string v;  // the default in effect
    const NetBenchOptions& b = c.opts;
    if (k == "scenario") v = "[\"all\"]";
    else if (k == "mesh") v = fmt::format("\"{}\"", b.mesh);
    else if (k == "warmup") v = fmt::format("{}{}", b.warmup, b.quick ? "  (--quick)" : "");
    else if (k == "measure") v = fmt::format("{}{}", b.measure, b.quick ? "  (--quick)" : "");
    else if (k == "seed") v = std::to_string(b.seed);
    else if (k == "speed-runs") v = std::to_string(b.speed_runs);
    else if (k == "starve-t") v = std::to_string(b.starve_t);
    else if (k == "no-wait-arb") v = "false";
    else if (k == "mode" || k == "pattern") {
      std::string l;
      if (k == "mode")
        for (sim::NetMode m : b.modes) l += (l.empty() ? "\"" : ", \"") + std::string(sim::mode_name(m)) + "\"";
      else
        for (sim::Pattern p : b.patterns) l += (l.empty() ? "\"" : ", \"") + std::string(sim::pattern_name(p)) + "\"";
      v = "[" + l + "]";
    } else if (k == "depth") v = default_depths(b.modes, sim::MeshShape::parse(b.mesh));
    else if (k == "loads") v = b.quick ? "[0.05, 0.15, 0.3]  (latency; speed: 0, 0.1, 0.5)"
                                       : "[0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8]  (latency; speed: 0, 0.1, 0.5)";
    else if (k == "hotspot-frac") v = fmt::format("{}", b.hotspot_frac);
    else if (k == "quick") v = "false";
    else continue;  // buf, gain-buf, hotspots, speed-mesh, threads: the scenario's own defaults (--help)
    if ((k == "hotspot-frac") && std::find(b.patterns.begin(), b.patterns.end(), sim::Pattern::hotspot) == b.patterns.end())
      continue;
    out += fmt::format("# {} = {}\n", k, v);
  }
  return out;
}

Table config_table(const std::string& toml) {
  Table t({"key", "value", "given"});
  size_t pos = 0;
  while (pos < toml.size()) {
    size_t nl = toml.find('\n', pos);
    if (nl == std::string::npos) nl = toml.size();
    std::string line = toml.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("# hpcnet", 0) == 0) continue;
    const bool given = line.rfind("# ", 0) != 0;
    if (!given) line = line.substr(2);
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string v = line.substr(eq + 3);
    if (const size_t c = v.find("  ("); c != std::string::npos) v = v.substr(0, c);  // "500  (--quick)"
    std::string clean;
    for (char ch : v)
      if (ch != '"' && ch != '[' && ch != ']' && ch != ' ') clean += ch;
    t.add({line.substr(0, eq), clean, given ? "true" : "false"});
  }
  return t;
}

void check_applicability(const NetCommand& c, const std::set<std::string>& scen) {
  const std::string run = join(scen, kOrder);
  for (const Rule& r : rules()) {
    if (!c.app->count(r.option)) continue;
    bool ok = false;
    for (const std::string& s : scen) ok = ok || r.scenarios.count(s);
    if (!ok)
      throw UsageError(r.option, fmt::format("does not apply to the scenario{} run ({}); it applies to {}{}{}",
                                             scen.size() > 1 ? "s" : "", run, join(r.scenarios, kOrder),
                                             *r.why ? "; " : "", r.why));
  }
  const bool latency = scen.count("latency");
  if (latency)
    for (double l : c.opts.loads)
      if (l <= 0) throw UsageError("--loads", "0 (idle inputs) applies only to the speed scenario; the latency sweep needs loads > 0");
  if (scen.count("gain") && !c.scenarios.empty() && std::find(c.scenarios.begin(), c.scenarios.end(), "all") == c.scenarios.end() &&
      !c.modes.empty()) {
    const bool a = std::find(c.modes.begin(), c.modes.end(), "adbr") != c.modes.end();
    const bool d = std::find(c.modes.begin(), c.modes.end(), "dorvct") != c.modes.end();
    if (!a || !d) throw UsageError("--mode", "the gain scenario compares adbr with dorvct: give both (e.g. --mode adbr,dorvct)");
  }
}

std::vector<sim::Pattern> fitting_patterns(NetCommand& c, const sim::MeshShape& shape, const std::set<std::string>& scen) {
  std::vector<sim::Pattern> out;
  const bool given = !c.patterns.empty();
  std::vector<sim::Pattern> want;
  if (given)
    for (const auto& s : c.patterns) want.push_back(sim::parse_pattern(s));
  else
    want.assign(std::begin(sim::kAllPatterns), std::end(sim::kAllPatterns));
  std::vector<std::string> dropped;
  for (sim::Pattern p : want) {
    sim::PatternConfig pc;
    pc.pattern = p;
    pc.hotspot_frac = c.opts.hotspot_frac;
    pc.hotspots = c.opts.hotspots;
    try {
      sim::Traffic t(shape, pc);
      out.push_back(p);
    } catch (const std::invalid_argument& e) {
      if (given) throw UsageError("--pattern", e.what());
      dropped.push_back(e.what());
    }
  }
  bool mesh_scen = false;
  for (const std::string& s : scen) mesh_scen = mesh_scen || kMeshScenarios.count(s);
  if (!dropped.empty() && mesh_scen)
    c.opts.notes.push_back(fmt::format("{} of the default patterns do{} not fit the {}, left out: {}", dropped.size(),
                                       dropped.size() == 1 ? "es" : "", shape.name(), fmt::join(dropped, "; ")));
  const bool hot = std::find(out.begin(), out.end(), sim::Pattern::hotspot) != out.end();
  if (mesh_scen && !hot)
    for (const char* o : {"--hotspot-frac", "--hotspots"})
      if (c.app->count(o)) throw UsageError(o, "applies only with the hotspot pattern (--pattern ... ,hotspot)");
  return out;
}

std::string no_model_message(const sim::MeshShape& shape) {
  std::map<std::string, std::string> shapes;  // shape -> its modes
  std::vector<std::string> order;
  for (const auto& m : sim::net_models()) {
    if (m.spec.threads != 1) continue;
    const std::string n = m.spec.shape.name();
    if (!shapes.count(n)) order.push_back(n);
    std::string& ms = shapes[n];
    const std::string md = sim::mode_name(m.spec.mode);
    if (ms.find(md) == std::string::npos) ms += (ms.empty() ? "" : " ") + md;
  }
  std::string built;
  for (const std::string& n : order) built += (built.empty() ? "" : ", ") + n + " (" + shapes[n] + ")";
  return fmt::format("no {} model is built and no block tiles it; the whole meshes built: {}. A new shape is one "
                     "hpcnet_model line, a new block one rtr_block_model line, in rtl/router/models.cmake "
                     "(docs/net_sim.md#meshes-and-tori-of-any-size-blocks-joined-at-run-time); --list-models lists "
                     "the models with their buffer depths",
                     shape.name(), built.empty() ? "none" : built);
}

}  // namespace hpcnet::bench
