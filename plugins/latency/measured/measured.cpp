// latency/measured: calibrated for the step, then each tabled stage from its table
// (measured.hpp; the operator of each stage and its axes: README.md "Which stage reads which table").
#include "measured.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

namespace tessera::plugins {

namespace {

// A stage's operator and the values of every axis any table of that operator may use.
struct StageQuery {
  const char* op = nullptr;  // nullptr: no table covers this kind of stage
  const char* dtype = "any";
  const char* level = "";
  double m = 0, n = 0, k = 0, batch = 0, context = 0, q_heads = 0, kv_heads = 0, bytes = 0, ranks = 0,
         tokens = 0, experts = 0;

  double axis(std::string_view name) const {
    if (name == "m") return m;
    if (name == "n") return n;
    if (name == "k") return k;
    if (name == "nk") return n * k;
    if (name == "batch") return batch;
    if (name == "context") return context;
    if (name == "q_heads") return q_heads;
    if (name == "kv_heads") return kv_heads;
    if (name == "bytes") return bytes;
    if (name == "ranks") return ranks;
    if (name == "tokens") return tokens;
    if (name == "experts") return experts;
    return 0;
  }
};

bool starts_with(const char* s, std::string_view prefix) { return std::string_view(s).rfind(prefix, 0) == 0; }

StageQuery query_of(const EvalContext& ctx, const StepCall& step, const StageWork& w) {
  StageQuery q;
  const ModelSpec& m = *ctx.model;
  const double tp = static_cast<double>(std::max<std::int64_t>(1, step.config.tp));
  if (w.has_cp) return q;
  if (w.attention_kernel) {
    // GQA/MHA attention at cp 1, one part only (no mixed decode sequences); MLA is not tabled.
    // A local layer's (attn.core.sliding/.chunked) context is not the step's: not tabled.
    if (m.has_mla || step.config.cp > 1 || step.shape.mixed_batch > 0) return q;
    if (std::string_view(w.name) != "attn.core") return q;
    q.dtype = dtype_name(stage_math_dtype(ctx, w));
    q.batch = static_cast<double>(step.shape.batch);
    q.q_heads = static_cast<double>(m.heads) / tp;
    q.kv_heads = std::max(1.0, static_cast<double>(m.kv_heads) / tp);
    if (step.shape.mode == Mode::decode) {
      if (step.shape.queries != 1) return StageQuery{};  // a verify step's q queries: not tabled
      q.op = "attention_decode";
      q.context = step.shape.kv_cached;
    } else if (step.shape.kv_cached == 0) {  // a whole prompt in one chunk
      q.op = "attention_prefill";
      q.context = static_cast<double>(step.shape.chunk);
    }
    return q;
  }
  if (w.comm_count == 1 && w.flops == 0 && w.hbm_bytes == 0) {
    const Collective& c = w.comms[0];
    if (c.kind != CommKind::all_reduce || c.link.level < 1 ||
        c.link.level > static_cast<int>(ctx.machine->levels.size()))
      return q;
    q.op = "all_reduce";
    q.bytes = c.bytes;
    q.ranks = c.ranks;
    q.level = ctx.machine->levels[static_cast<std::size_t>(c.link.level - 1)].name.c_str();
    return q;
  }
  if (w.comm_count > 0) return q;
  if (starts_with(w.name, "moe.experts")) {
    if (!m.has_moe) return q;
    q.op = "fused_moe";
    q.dtype = dtype_name(stage_math_dtype(ctx, w));
    q.tokens = w.gemm.m > 0 ? w.gemm.m : 0;
    q.experts = static_cast<double>(m.moe.experts);
    return q;
  }
  if (w.gemm.m > 0) {
    q.op = "gemm";
    q.dtype = dtype_name(stage_math_dtype(ctx, w));
    q.m = w.gemm.m;
    q.n = w.gemm.n;
    q.k = w.gemm.k;
    return q;
  }
  if (std::string_view(w.name) == "copy" && w.flops == 0 && w.hbm_bytes > 0) {
    q.op = "copy";
    q.dtype = "any";
    q.bytes = w.hbm_bytes / 2;  // read once, written once
  }
  return q;
}

bool applies(const KernelTable& t, const StageQuery& q, const EvalContext& ctx,
             const std::string& framework) {
  return t.op == q.op && (t.dtype == "any" || q.dtype == std::string_view("any") || t.dtype == q.dtype) &&
         t.machine == ctx.machine->name && (t.framework == "any" || t.framework == framework) &&
         (t.level.empty() || t.level == q.level);
}

}  // namespace

std::vector<KernelTable> load_builtin_tables() {
  std::vector<KernelTable> out;
  for (const BuiltinTable& b : builtin_tables())
    out.push_back(parse_kernel_table(b.text, std::string("data/kernel-tables/") + b.name + ".csv", b.name));
  return out;
}

std::vector<KernelTable> load_tables_from(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".csv") files.push_back(e.path());
    std::sort(files.begin(), files.end());
  } else if (fs::is_regular_file(dir, ec)) {
    files.emplace_back(dir);
  } else {
    throw InputError("latency/measured: tables '" + dir + "' is neither a folder nor a file");
  }
  if (files.empty()) throw InputError("latency/measured: no .csv table in '" + dir + "'");
  std::vector<KernelTable> out;
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::ostringstream text;
    text << in.rdbuf();
    out.push_back(parse_kernel_table(text.str(), f.string(), f.stem().string()));
  }
  return out;
}

void MeasuredLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  fallback_->time_step(ctx, step, out);
  // The per-kernel cost of the machine block this model reads (its fallback's schema: the
  // machine's `kernel_overhead`, 0 when that schema has none).
  const ParamSet& block = ctx.machine->efficiency;
  const double kernel_overhead = block.has("kernel_overhead") ? block.real("kernel_overhead") : 0.0;
  const StepWork& work = step.work;
  std::array<double, kMaxTableAxes> axes{};
  for (int i = 0; i < out.size; ++i) {
    Stage& s = out.items[static_cast<std::size_t>(i)];
    if (i >= work.size) {
      s.source = kStepStage;
      continue;
    }
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    const StageQuery q = query_of(ctx, step, w);
    if (!q.op) {
      s.source = kNotTabled;
      continue;
    }
    s.source = kNoTable;
    for (const KernelTable& t : tables_) {
      if (!applies(t, q, ctx, framework_)) continue;
      for (std::size_t a = 0; a < t.axes.size(); ++a) axes[a] = q.axis(t.axes[a]);
      const TableLookup r = lookup(t, axes.data());
      if (!r.hit) {
        s.source = t.outside_tags[static_cast<std::size_t>(r.outside_axis)].c_str();
        continue;  // another table of the same operator may cover it
      }
      s.source = t.hit_tag.c_str();
      if (q.op == std::string_view("all_reduce")) {
        // The measured call replaces the collective; the framework's cost per call stays.
        s.comm_s = r.seconds + s.call_overhead_s;
        s.visible_s = s.comm_s;
        s.bound = Bound::comm;
      } else {
        // The measured kernel replaces the stage's binding roof; its other kernels (norm, rope,
        // activation) keep calibrated's per-kernel cost.
        (s.compute_s >= s.memory_s ? s.compute_s : s.memory_s) = r.seconds;
        s.visible_s = r.seconds + ctx.machine->stage_overhead + std::max(0, w.kernels - 1) * kernel_overhead;
      }
      break;
    }
  }
}

}  // namespace tessera::plugins
