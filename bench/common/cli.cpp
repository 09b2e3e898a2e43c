// bench/common/cli.cpp: see cli.hpp.
#include "common/cli.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/table.hpp"
#include "sim/core/trace.hpp"

extern const char* const hpcnet_git_version;  // generated (cmake/version.cmake)

namespace hpcnet::bench {

namespace fs = std::filesystem;

namespace {

// The trace the command line asked for (TraceOptions::check), to tell when its run never came.
struct TraceAsked {
  std::string file;
  unsigned run = 1;
};
TraceAsked& trace_asked() {
  static TraceAsked a;
  return a;
}

std::map<unsigned, std::string>& run_names() {
  static std::map<unsigned, std::string> n;
  return n;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The nearest existing ancestor of p that is not a folder, if any ("a path under a file").
std::string file_in_the_way(const fs::path& p) {
  std::error_code ec;
  for (fs::path q = p; !q.empty() && q != q.root_path(); q = q.parent_path())
    if (fs::exists(q, ec) && !fs::is_directory(q, ec)) return q.string();
  return {};
}

std::vector<fs::path>& made_folders() {  // in the order made (a parent before its child)
  static std::vector<fs::path> m;
  return m;
}

}  // namespace

void remove_empty_made_folders() {
  auto& m = made_folders();
  for (auto it = m.rbegin(); it != m.rend(); ++it) {
    std::error_code ec;
    if (fs::is_directory(*it, ec) && fs::is_empty(*it, ec)) fs::remove(*it, ec);
  }
  m.clear();
}

void prepare_output(const std::string& option, const std::string& path, OutKind kind) {
  if (path.empty()) return;
  const fs::path p(path);
  std::error_code ec;
  const fs::path folder = kind == OutKind::folder ? p : p.parent_path();
  if (kind == OutKind::file && fs::is_directory(p, ec)) throw UsageError(option, fmt::format("'{}' is a folder, not a file", path));
  if (!folder.empty()) {
    if (const std::string f = file_in_the_way(folder); !f.empty())
      throw UsageError(option, fmt::format("cannot make the folder of '{}': '{}' is a file", path, f));
    std::vector<fs::path> missing;  // the folders this call makes, the deepest first
    for (fs::path q = fs::absolute(folder, ec); !q.empty() && !fs::exists(q, ec) && q != q.root_path(); q = q.parent_path())
      missing.push_back(q);
    fs::create_directories(folder, ec);
    if (ec) throw UsageError(option, fmt::format("cannot make the folder '{}': {}", folder.string(), ec.message()));
    made_folders().insert(made_folders().end(), missing.rbegin(), missing.rend());
  }
  // Can we write there? A file: open it for appending (creates it, keeps what is there); a
  // folder: create and remove a probe file.
  const fs::path probe = kind == OutKind::file ? p : p / ".hpcnet-write-check";
  const bool existed = fs::exists(probe, ec);
  {
    std::ofstream f(probe, std::ios::app);
    if (!f) throw UsageError(option, fmt::format("cannot write '{}': {}", probe.string(), std::strerror(errno)));
  }
  if (!existed) fs::remove(probe, ec);
}

namespace {

struct OutputOption {
  OutKind kind;
  bool prepare;
};
std::map<const CLI::Option*, OutputOption>& output_options() {
  static std::map<const CLI::Option*, OutputOption> m;
  return m;
}

// The path as the file system will resolve it (folders, "..", symbolic links of the existing part).
fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  const fs::path c = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : c;
}

}  // namespace

CLI::Option* output_option(CLI::Option* o, OutKind kind, bool prepare) {
  output_options()[o] = {kind, prepare};
  return o->type_name(kind == OutKind::file ? "FILE" : "FOLDER");
}

void prepare_outputs(const CLI::App& app) {
  std::vector<std::pair<const CLI::Option*, OutputOption>> given;
  for (const CLI::Option* o : app.get_options())
    if (const auto it = output_options().find(o); it != output_options().end() && o->count()) given.emplace_back(o, it->second);
  std::vector<std::pair<std::string, fs::path>> seen;  // option, resolved path
  for (const auto& [o, out] : given) {
    const std::string path = o->as<std::string>();
    if (path.empty())
      throw UsageError(o->get_name(), fmt::format("an empty path; give the {} to write", out.kind == OutKind::file ? "file" : "folder"));
    const fs::path r = resolved(path);
    for (const auto& [other, rp] : seen)
      if (rp == r)
        throw UsageError(fmt::format("{} and {}", other, o->get_name()),
                         fmt::format("both name '{}': one would overwrite the other; give each output its own path", path));
    seen.emplace_back(o->get_name(), r);
  }
  for (const auto& [o, out] : given)
    if (out.prepare) prepare_output(o->get_name(), o->as<std::string>(), out.kind);
}

std::string plain_cli_error(const std::string& what) {
  std::string m = what;
  for (const std::string prefix : {"hpcnet: usage error: ", "hpcnet: usage error"})
    while (m.rfind(prefix, 0) == 0) m = m.substr(prefix.size());
  std::smatch r;
  static const std::regex at_most(R"(^(.*): At Most ([0-9]+) required but received ([0-9]+)$)");
  static const std::regex at_least(R"(^(.*): At least ([0-9]+) required but received ([0-9]+)$)");
  static const std::regex typed(R"(^(.*): ([0-9]+) required (.*) missing$)");
  static const std::regex exactly(R"(^Expected (exactly|at least) ([0-9]+) arguments to (.*), got ([0-9]+)$)");
  static const std::regex convert(R"(^Could not convert: (.*) = (.*)$)");
  static const std::regex allowed(R"(^The value (.*) is not an allowed value for (.*)$)");
  static const std::regex flag_inputs(R"(^(.*): too many inputs for a flag$)");
  if (std::regex_match(m, r, at_most))
    return r[2] == "1" ? fmt::format("{}: given {} values (the option given twice?): it takes one", r[1].str(), r[3].str())
                       : fmt::format("{}: given {} values: it takes at most {}", r[1].str(), r[3].str(), r[2].str());
  if (std::regex_match(m, r, at_least))
    return fmt::format("{}: given {} values: it needs at least {}", r[1].str(), r[3].str(), r[2].str());
  if (std::regex_match(m, r, typed)) return fmt::format("{}: needs a value ({})", r[1].str(), r[3].str());
  if (std::regex_match(m, r, exactly))
    return fmt::format("{}: {} {} value(s) needed, {} given", r[3].str(), r[1].str() == "exactly" ? "exactly" : "at least",
                       r[2].str(), r[4].str());
  if (std::regex_match(m, r, convert)) {
    const std::string v = r[2].str();
    if (!v.empty() && v.find_first_not_of("0123456789") == std::string::npos)  // a narrower whole number than 64 bits
      return fmt::format("{}: {} is out of range: a whole number 0 to {} at most (--help gives the range)", r[1].str(), v,
                         UINT32_MAX);
    return fmt::format("{}: '{}' is not a value it takes (--help gives the type and range)", r[1].str(), v);
  }
  if (std::regex_match(m, r, allowed)) return fmt::format("{}: '{}' is not an allowed value", r[2].str(), r[1].str());
  if (std::regex_match(m, r, flag_inputs)) return fmt::format("{}: a flag takes no value", r[1].str());
  if (m == "A subcommand is required") return "a command is required";
  return m;
}

const CLI::Validator& finite() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        try {
          size_t used = 0;
          const double d = std::stod(s, &used);
          if (used == s.size() && std::isfinite(d)) return {};
        } catch (const std::exception&) {
        }
        return fmt::format("'{}' is not a finite number", s);
      },
      "FINITE");
  return v;
}

const CLI::Validator& unsigned_number() {
  static const CLI::Validator v(
      [](std::string& s) -> std::string {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
          return fmt::format("'{}' is not a whole number >= 0", s);
        // CLI11 clamps a value past 2^64 - 1 to it (strtoull): refuse it instead. A narrower
        // type's overflow is refused by CLI11's conversion (main words that error).
        static const std::string kMax = std::to_string(UINT64_MAX);
        const std::string digits = s.substr(std::min(s.find_first_not_of('0'), s.size() - 1));
        if (digits.size() > kMax.size() || (digits.size() == kMax.size() && digits > kMax))
          return fmt::format("{} is out of range: a whole number 0 to {}", s, kMax);
        return {};
      },
      "");
  return v;
}

void check_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    const std::string t = o->get_type_name();  // "FLOAT", "UINT:UINT in [1 - 64]", ...
    auto is = [&t](const char* k) { return t.rfind(k, 0) == 0 && (t.size() == std::strlen(k) || t[std::strlen(k)] == ':'); };
    if (is("FLOAT")) o->check(finite());
    if (is("UINT")) o->check(unsigned_number());
  }
}

void require_with(const CLI::App& app, const std::string& opt, const std::string& needs) {
  if (app.count(opt) && !app.count(needs)) throw UsageError(opt, fmt::format("applies only with {}", needs));
}

void reject_if_given(const CLI::App& app, const std::string& opt, const std::string& why) {
  if (app.count(opt)) throw UsageError(opt, fmt::format("does not apply: {}", why));
}

std::vector<std::string> resolve_scenarios(const std::vector<std::string>& given, const std::vector<std::string>& all) {
  const std::set<std::string> want(given.begin(), given.end());
  std::vector<std::string> v;
  for (const std::string& s : all)
    if (want.empty() || want.count("all") || want.count(s)) v.push_back(s);
  return v;
}

void check_scenario_options(const CLI::App& app, const std::map<std::string, std::set<std::string>>& rules,
                            const std::vector<std::string>& run) {
  auto join = [](auto b, auto e) {
    std::string s;
    for (; b != e; ++b) s += (s.empty() ? "" : ", ") + *b;
    return s;
  };
  for (const auto& [opt, where] : rules) {
    if (!app.count(opt)) continue;
    bool applies = false;
    for (const std::string& s : run) applies = applies || where.count(s);
    if (!applies)
      throw UsageError(opt, fmt::format("does not apply to the scenario{} run ({}); it applies to {}", run.size() > 1 ? "s" : "",
                                        join(run.begin(), run.end()), join(where.begin(), where.end())));
  }
}

void TraceOptions::add(CLI::App& app, const std::string& run_help) {
  app.add_option("--trace", file, "write an FST trace of a cycle window of one run to this file (each further model of that run: FILE-2.fst, ...)");
  app.add_option("--trace-first", first, "first traced cycle (harness cycles, reset included)");
  app.add_option("--trace-last", last, "last traced cycle");
  app.add_option("--trace-run", run, run_help.empty() ? "which run to trace: runs are counted by the models alive at once, 1 = the first" : run_help)
      ->check(CLI::Range(1u, 1000000u));
}

void TraceOptions::check(const CLI::App& app) const {
  for (const char* o : {"--trace-first", "--trace-last", "--trace-run"}) require_with(app, o, "--trace");
  if (file.empty()) return;
  if (last < first) throw UsageError("--trace-last", fmt::format("{} is below --trace-first {}", last, first));
  if (const char* env = std::getenv("HPCNET_TRACE"); env && *env)  // it would win over --trace in every run
    throw UsageError("--trace", fmt::format("HPCNET_TRACE={} is set too; use one of them", env));
  std::error_code ec;
  const bool existed = fs::exists(file, ec);
  prepare_output("--trace", file, OutKind::file);
  if (!existed) fs::remove(file, ec);  // made by the check; the harness writes it when its window opens
  sim::TraceWindow w;
  w.file = file;
  w.first = first;
  w.last = last;
  sim::set_trace_request(w, run);
  trace_asked() = {file, run};
}

bool report_traces(bool decides) {
  bool ok = true;
  // a trace not written is an error message (docs/cli.md): on stderr, the run's failure when it decides the exit code
  const char* prefix = decides ? "hpcnet: run failed: " : "hpcnet: ";
  std::fflush(stdout);
  const std::vector<sim::TraceOutcome> outs = sim::trace_outcomes();
  for (const sim::TraceOutcome& o : outs) {
    const auto name = run_names().find(o.run);
    const std::string line =
        fmt::format("{}{}", o.text(), name == run_names().end() ? "" : fmt::format(" [run {}: {}]", o.run, name->second));
    if (o.written)
      fmt::print("{}\n", line);
    else
      fmt::print(stderr, "{}{}\n", prefix, line);
    ok = ok && o.written;
  }
  if (const TraceAsked& a = trace_asked(); !a.file.empty() && outs.empty()) {  // the run asked for never came
    fmt::print(stderr, "{}no trace written to {}: --trace-run {} asked for, the command ran {} run(s)\n", prefix, a.file, a.run,
               sim::trace_run());
    ok = false;
  }
  return ok;
}

void name_next_run(const std::string& label) { run_names()[sim::trace_run() + 1] = label; }

const char* version() { return hpcnet_git_version; }

void print_banner(const std::string& command, const std::string& seed) {
  fmt::print("hpcnet {} {}: seed {}\n", version(), command, seed);
  std::fflush(stdout);  // before the progress lines on stderr
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.1f} s", s);
  if (s < 7200) return fmt::format("{:.0f} min", s / 60);
  return fmt::format("{:.1f} hours", s / 3600);
}

Progress::Progress(std::string what, size_t total, bool on) : what_(std::move(what)), total_(total), on_(on), t0_(now_s()) {}

void Progress::step(const std::string& label) {
  ++done_;
  if (!on_) return;
  const double el = now_s() - t0_;
  std::string left;
  if (done_ < total_) left = fmt::format(", ~{:.0f} s left", el / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  std::fprintf(stderr, "[%s %zu/%zu] %s  (%.1f s%s)\n", what_.c_str(), done_, total_, label.c_str(), el, left.c_str());
}

}  // namespace hpcnet::bench
