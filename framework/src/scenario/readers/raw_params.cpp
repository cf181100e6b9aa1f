// YAML -> plugin parameters (scenario/readers/raw_params.hpp).
#include "scenario/readers/raw_params.hpp"

#include "scenario/readers/schema_util.hpp"

namespace tessera::loader {

bool read_raw_params(const YNode& n, const std::string& path, std::string_view skip, std::string_view what,
                     bool null_as_text, std::vector<RawParam>& out, Diags& d) {
  bool ok = true;
  for (const auto& e : n.entries) {
    if (!skip.empty() && e.key == skip) continue;
    RawParam p;
    p.key = e.key;
    p.where = e.value.where;
    const std::string kp = join_path(path, e.key);
    if (e.value.is_scalar() || (null_as_text && e.value.is_null() && !e.value.value.empty())) {
      p.text = e.value.value;
    } else if (e.value.is_sequence()) {
      p.is_list = true;
      bool items_ok = true;
      for (const auto& item : e.value.items) {
        if (!item.is_scalar()) {
          d.error(item.where, kp + ": expected a list of values, found an item that is " + describe(item));
          items_ok = false;
          continue;
        }
        p.items.push_back(item.value);
        p.text += (p.text.empty() ? "" : ",") + item.value;
      }
      if (!items_ok) {
        ok = false;
        continue;
      }
    } else {
      d.error(e.value.where,
              kp + ": expected " + std::string(what) + " or a list of values, found " + describe(e.value));
      ok = false;
      continue;
    }
    out.push_back(std::move(p));
  }
  return ok;
}

}  // namespace tessera::loader
