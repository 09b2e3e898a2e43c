// sim/core/trace.cpp: trace requests and outcomes (trace.hpp).
#include "sim/core/trace.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "sim/core/fst_merge.hpp"

namespace hpcnet::sim {

namespace {

struct State {
  std::mutex m;
  TraceWindow request;
  unsigned request_run = 1;
  unsigned alive = 0;  // harnesses alive now
  unsigned run = 0;    // runs started so far
  std::set<std::string> files;  // every file bound in this process
  std::vector<TraceOutcome> out;
};

State& state() {
  static State s;
  return s;
}

uint64_t number(const std::string& s, const std::string& what, const char* part) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    if (s.empty() || s[0] == '-' || s[0] == '+') throw std::invalid_argument(s);
    v = std::stoull(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size())
    throw std::invalid_argument(fmt::format("{}: the {} cycle '{}' is not a whole number", what, part, s));
  return v;
}

// FILE -> FILE-2.ext, FILE-3.ext, ... (the first not bound before).
std::string unique_name(const std::set<std::string>& taken, const std::string& file) {
  if (!taken.count(file)) return file;
  const std::filesystem::path p(file);
  for (unsigned i = 2;; ++i) {
    std::filesystem::path q = p.parent_path() / (p.stem().string() + "-" + std::to_string(i) + p.extension().string());
    if (!taken.count(q.string())) return q.string();
  }
}

// Makes the file's missing folders and checks that the file can be created now, so that a path
// that cannot be written fails before the simulation runs, not when the window opens.
void check_writable(const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path p(file);
  std::error_code ec;
  if (fs::is_directory(p, ec)) throw TraceError(fmt::format("cannot write the trace file {}: it is a folder", file));
  if (p.has_parent_path()) {
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw TraceError(fmt::format("cannot write the trace file {}: cannot make its folder ({})", file, ec.message()));
  }
  const bool existed = fs::exists(p, ec);
  std::FILE* f = std::fopen(file.c_str(), "ab");  // creates it, keeps what is there
  if (!f) throw TraceError(fmt::format("cannot write the trace file {}: {}", file, std::strerror(errno)));
  std::fclose(f);
  if (!existed) fs::remove(p, ec);  // the harness creates it when its window opens
}

}  // namespace

TraceWindow parse_trace_spec(const std::string& spec, const std::string& what) {
  TraceWindow w;
  const size_t c1 = spec.find(':');
  w.file = spec.substr(0, c1);
  if (w.file.empty()) throw std::invalid_argument(fmt::format("{}: no file name before ':'", what));
  if (c1 != std::string::npos) {
    const size_t c2 = spec.find(':', c1 + 1);
    w.first = number(spec.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1), what, "first");
    if (c2 != std::string::npos) w.last = number(spec.substr(c2 + 1), what, "last");
  }
  if (w.last < w.first)
    throw std::invalid_argument(fmt::format("{}: the last cycle {} is below the first {}", what, w.last, w.first));
  return w;
}

TraceWindow trace_from_env() {
  const char* env = std::getenv("HPCNET_TRACE");
  if (!env || !*env) return {};
  return parse_trace_spec(env, fmt::format("HPCNET_TRACE={}", env));
}

void set_trace_request(TraceWindow window, unsigned run) {
  std::lock_guard l(state().m);
  state().request = std::move(window);
  state().request_run = run;
}

unsigned trace_run() {
  std::lock_guard l(state().m);
  return state().run;
}

TraceWindow requested_trace() {
  if (TraceWindow env = trace_from_env(); env.enabled()) return env;
  State& s = state();
  std::lock_guard l(s.m);
  return s.run == s.request_run ? s.request : TraceWindow{};
}

std::string TraceOutcome::text() const {
  if (!written)
    return fmt::format("no trace written to {} ({}, run {}): the run ended at cycle {}, before the window's first cycle {}",
                       file, model, run, end, first);
  std::string s = fmt::format("trace {} ({}, run {}): cycles {}..{}", file, model, run, from, to);
  if (last != UINT64_MAX && to < last) s += fmt::format(" (the run ended before cycle {})", last);
  if (merged > 1) s += fmt::format(", merged with the {} other traces of the run", merged - 1);
  else if (!merged_into.empty()) s += fmt::format(", merged into {}", merged_into);
  return s;
}

std::string trace_merge_run(unsigned run) {
  std::vector<size_t> parts;
  std::vector<std::string> files;
  {
    std::lock_guard l(state().m);
    for (size_t i = 0; i < state().out.size(); ++i)
      if (state().out[i].run == run && state().out[i].written) {
        parts.push_back(i);
        files.push_back(state().out[i].file);
      }
  }
  if (files.size() < 2) return {};
  const std::string into = files[0], tmp = into + ".merging";
  fst_merge(files, tmp);
  std::error_code ec;
  std::filesystem::rename(tmp, into, ec);
  if (ec) throw TraceError(fmt::format("trace merge: cannot rename {} to {}: {}", tmp, into, ec.message()));
  for (size_t k = 1; k < files.size(); ++k) std::filesystem::remove(files[k], ec);
  std::lock_guard l(state().m);
  for (size_t i : parts) state().out[i].merged_into = into;
  state().out[parts[0]].merged = unsigned(files.size());
  return into;
}

std::vector<TraceOutcome> trace_outcomes() {
  std::lock_guard l(state().m);
  return state().out;
}

void trace_harness_born() {
  std::lock_guard l(state().m);
  if (state().alive++ == 0) ++state().run;
}

void trace_harness_died() {
  std::lock_guard l(state().m);
  --state().alive;
}

size_t trace_bind(const TraceWindow& w, const std::string& model, std::string& file) {
  State& s = state();
  std::lock_guard l(s.m);
  file = unique_name(s.files, w.file);
  check_writable(file);
  s.files.insert(file);
  TraceOutcome o;
  o.file = file;
  o.model = model;
  o.run = s.run;
  o.first = w.first;
  o.last = w.last;
  s.out.push_back(o);
  return s.out.size() - 1;
}

void trace_opened(size_t id, uint64_t cycle) {
  std::lock_guard l(state().m);
  state().out.at(id).from = cycle;
}

void trace_closed(size_t id, uint64_t cycle) {
  std::lock_guard l(state().m);
  TraceOutcome& o = state().out.at(id);
  o.written = true;
  o.to = cycle;
}

void trace_ended(size_t id, uint64_t cycle) {
  std::lock_guard l(state().m);
  state().out.at(id).end = cycle;
}

}  // namespace hpcnet::sim
