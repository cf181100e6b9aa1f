#include "eval/context_watch.hpp"

#include <type_traits>
#include <variant>

namespace tessera {

static_assert(std::is_trivially_copyable_v<EvalContext>, "the watch restores an EvalContext byte for byte");
static_assert(std::is_trivially_copyable_v<Workload>, "the watch restores a Workload byte for byte");

void ContextWatch::add(const char* label, const void* at, std::size_t size) {
  if (at == nullptr || size == 0) return;
  regions_.push_back({at, size, snapshot_.size(), label});
  const auto* p = static_cast<const unsigned char*>(at);
  snapshot_.insert(snapshot_.end(), p, p + size);
}

// A string's characters when they live outside the string object (no short-string buffer).
void ContextWatch::add_string(const char* label, const std::string& s) {
  const auto* data = reinterpret_cast<const unsigned char*>(s.data());
  const auto* self = reinterpret_cast<const unsigned char*>(&s);
  if (data >= self && data < self + sizeof s) return;  // inside the object: watched with it
  add(label, s.data(), s.size());
}

ContextWatch::ContextWatch(const EvalContext& ctx, const Workload& workload) {
  regions_.reserve(16);
  snapshot_.reserve(4096);
  add("the EvalContext", &ctx, sizeof ctx);
  add("the workload", &workload, sizeof workload);
  if (const ModelSpec* m = ctx.model) {
    add("the model", m, sizeof *m);
    add_string("the model's name", m->name);
  }
  if (const MachineSpec* m = ctx.machine) {
    add("the machine", m, sizeof *m);
    add_string("the machine's name", m->name);
    add_string("the machine's PE name", m->pe.name);
    add("the machine's levels", m->levels.data(), m->levels.size() * sizeof(LevelSpec));
    for (const LevelSpec& l : m->levels) add_string("a machine level's name", l.name);
    for (const auto& kv : m->efficiency.values()) {
      add("the machine's plugin block", &kv, sizeof kv);
      add_string("the machine's plugin block", kv.first);
      if (const auto* s = std::get_if<std::string>(&kv.second)) add_string("the machine's plugin block", *s);
      if (const auto* v = std::get_if<std::vector<double>>(&kv.second))
        add("the machine's plugin block", v->data(), v->size() * sizeof(double));
    }
  }
}

const char* ContextWatch::changed() const {
  for (const Region& r : regions_)
    if (std::memcmp(r.at, snapshot_.data() + r.offset, r.size) != 0) return r.label;
  return nullptr;
}

void ContextWatch::restore() const {
  for (const Region& r : regions_) std::memcpy(const_cast<void*>(r.at), snapshot_.data() + r.offset, r.size);
}

}  // namespace tessera
