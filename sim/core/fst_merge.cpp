// sim/core/fst_merge.cpp: see fst_merge.hpp. Uses the FST reader and writer of GTKWave's fstapi,
// which Verilator's runtime compiles in (verilated_fst_c.cpp).
#include "sim/core/fst_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "gtkwave/fstapi.h"
#include "sim/core/trace.hpp"

namespace hpcnet::sim {

namespace {

struct Reader {
  void* ctx = nullptr;
  explicit Reader(const std::string& file) : ctx(fstReaderOpen(file.c_str())) {
    if (!ctx) throw TraceError(fmt::format("trace merge: cannot read {}", file));
  }
  ~Reader() { fstReaderClose(ctx); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
};

// One input's value changes, in its time order: the values' bytes in a pool.
struct Changes {
  struct Var {
    fstHandle out = 0;  // the variable in the merged file
    uint32_t bytes = 0; // a value's bytes: its bits as characters, or a double
  };
  std::vector<Var> vars;  // by the input's handle
  struct Change {
    uint64_t time;
    uint32_t var, off;
  };
  std::vector<Change> list;
  std::string pool;
  bool varlen = false;  // a variable-length value came (not supported)
};

void on_change(void* user, uint64_t time, fstHandle h, const unsigned char* value) {
  auto& c = *static_cast<Changes*>(user);
  if (h >= c.vars.size() || c.vars[h].out == 0) return;
  c.list.push_back({time, uint32_t(h), uint32_t(c.pool.size())});
  c.pool.append(reinterpret_cast<const char*>(value), c.vars[h].bytes);
}

void on_varlen(void* user, uint64_t, fstHandle, const unsigned char*, uint32_t) { static_cast<Changes*>(user)->varlen = true; }

bool is_real(unsigned char typ) {
  return typ == FST_VT_VCD_REAL || typ == FST_VT_VCD_REAL_PARAMETER || typ == FST_VT_VCD_REALTIME || typ == FST_VT_SV_SHORTREAL;
}

// Copies one input's hierarchy into the writer; returns its variables.
Changes copy_hierarchy(void* r, void* w, uint64_t& enum_tables) {
  Changes c;
  c.vars.resize(size_t(fstReaderGetMaxHandle(r)) + 1);
  std::unordered_map<uint64_t, uint64_t> tables;  // enum table handles: the input's -> the merged file's
  fstReaderIterateHierRewind(r);
  while (fstHier* h = fstReaderIterateHier(r)) {
    switch (h->htyp) {
      case FST_HT_SCOPE:
        fstWriterSetScope(w, fstScopeType(h->u.scope.typ), h->u.scope.name, h->u.scope.component);
        break;
      case FST_HT_UPSCOPE: fstWriterSetUpscope(w); break;
      case FST_HT_VAR: {
        const auto& v = h->u.var;
        const fstHandle alias = v.is_alias && v.handle < c.vars.size() ? c.vars[v.handle].out : 0;
        const fstHandle out = fstWriterCreateVar(w, fstVarType(v.typ), fstVarDir(v.direction), v.length, v.name, alias);
        if (!v.is_alias && v.handle < c.vars.size()) c.vars[v.handle] = {out, is_real(v.typ) ? 8u : v.length};
        break;
      }
      case FST_HT_ATTRBEGIN: {
        const auto& a = h->u.attr;
        uint64_t arg = a.arg;
        if (a.typ == FST_AT_MISC && a.subtype == FST_MT_ENUMTABLE) {  // a table (named) or a reference to one
          if (a.name && a.name[0]) arg = tables[a.arg] = ++enum_tables;
          else if (const auto t = tables.find(a.arg); t != tables.end()) arg = t->second;
        }
        fstWriterSetAttrBegin(w, fstAttrType(a.typ), a.subtype, a.name && a.name[0] ? a.name : nullptr, arg);
        break;
      }
      case FST_HT_ATTREND: fstWriterSetAttrEnd(w); break;
      default: break;
    }
  }
  return c;
}

}  // namespace

void fst_merge(const std::vector<std::string>& inputs, const std::string& out) {
  if (inputs.empty()) throw TraceError("trace merge: no input");
  std::vector<std::unique_ptr<Reader>> readers;
  for (const std::string& f : inputs) readers.push_back(std::make_unique<Reader>(f));
  const signed char ts = fstReaderGetTimescale(readers[0]->ctx);
  for (size_t i = 1; i < readers.size(); ++i)
    if (fstReaderGetTimescale(readers[i]->ctx) != ts)
      throw TraceError(fmt::format("trace merge: {} and {} have different timescales", inputs[0], inputs[i]));
  void* w = fstWriterCreate(out.c_str(), 1);
  if (!w) throw TraceError(fmt::format("trace merge: cannot write {}", out));
  fstWriterSetTimescale(w, ts);
  std::vector<Changes> all;
  uint64_t enum_tables = 0;
  try {
    for (auto& r : readers) {
      all.push_back(copy_hierarchy(r->ctx, w, enum_tables));
      fstReaderSetFacProcessMaskAll(r->ctx);
      fstReaderIterBlocksSetNativeDoublesOnCallback(r->ctx, 1);
      fstReaderIterBlocks2(r->ctx, on_change, on_varlen, &all.back(), nullptr);
      if (all.back().varlen) throw TraceError("trace merge: variable-length values (strings) are not supported");
    }
  } catch (...) {
    fstWriterClose(w);
    throw;
  }
  // every input's changes in time order (each already is): a merge by the time of the next change
  std::vector<size_t> at(all.size(), 0);
  uint64_t now = UINT64_MAX;
  for (;;) {
    size_t pick = all.size();
    for (size_t i = 0; i < all.size(); ++i)
      if (at[i] < all[i].list.size() && (pick == all.size() || all[i].list[at[i]].time < all[pick].list[at[pick]].time)) pick = i;
    if (pick == all.size()) break;
    const Changes& c = all[pick];
    const Changes::Change& ch = c.list[at[pick]++];
    if (ch.time != now) {
      fstWriterEmitTimeChange(w, ch.time);
      now = ch.time;
    }
    fstWriterEmitValueChange(w, c.vars[ch.var].out, c.pool.data() + ch.off);
  }
  fstWriterClose(w);
}

}  // namespace hpcnet::sim
