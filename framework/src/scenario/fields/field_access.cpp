// Numeric machine leaves by dotted path, through the field table's slots (field_access.hpp).
#include "scenario/fields/field_access.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/text/dotted_path.hpp"
#include "core/text/nearest_name.hpp"
#include "scenario/fields/field_table.hpp"
#include "scenario/readers/schema_util.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

bool numeric_row(const schema::FieldRow& r) { return r.slot.real || r.slot.integer; }

// A path as alternatives per segment, for the compact listing.
using Pattern = std::vector<std::vector<std::string>>;

// Merges patterns that differ in one segment only, the last segments first, until none do:
// machine.pe.hbm.capacity and machine.pe.hbm.bandwidth -> machine.pe.hbm.<capacity|bandwidth>.
void merge_patterns(std::vector<Pattern>& ps) {
  bool changed = true;
  while (changed) {
    changed = false;
    std::size_t longest = 0;
    for (const auto& p : ps) longest = std::max(longest, p.size());
    for (std::size_t pos = longest; pos-- > 0;) {
      for (std::size_t i = 0; i < ps.size(); ++i) {
        for (std::size_t j = i + 1; j < ps.size();) {
          bool same = ps[i].size() == ps[j].size() && pos < ps[i].size();
          for (std::size_t k = 0; same && k < ps[i].size(); ++k)
            if (k != pos && ps[i][k] != ps[j][k]) same = false;
          if (!same) {
            ++j;
            continue;
          }
          for (auto& alt : ps[j][pos])
            if (std::find(ps[i][pos].begin(), ps[i][pos].end(), alt) == ps[i][pos].end())
              ps[i][pos].push_back(alt);
          ps.erase(ps.begin() + static_cast<std::ptrdiff_t>(j));
          changed = true;
        }
      }
    }
  }
}

LevelSpec* level_of(MachineSpec& m, const FieldPath& f) {
  if (f.canonical.rfind("machine.levels.*.", 0) != 0) return nullptr;
  for (auto& l : m.levels)
    if (l.name == f.level) return &l;
  throw InputError("'" + f.canonical + "' names no level '" + f.level + "' of machine '" + m.name + "'");
}

// The member a resolved numeric field lands in.
schema::FieldSite site_of(MachineSpec& m, const FieldPath& f) {
  if (!f.numeric())
    throw InputError(f.error.empty() ? "'" + f.canonical + "' is not a numeric machine field" : f.error);
  schema::FieldSite s;
  s.machine = &m;
  s.level = level_of(m, f);
  s.dtype = f.dtype;
  return s;
}

}  // namespace

bool FieldPath::numeric() const { return row && numeric_row(*row); }
Dimension FieldPath::dimension() const { return row ? row->spec.dimension : Dimension::none; }

std::string numeric_machine_fields(std::string_view under) {
  std::vector<Pattern> ps;
  for (const schema::FieldRow& r : schema::field_rows()) {
    if (r.file != schema::FieldFile::machine || !numeric_row(r)) continue;
    if (!under.empty() && !(r.path == under || (r.path.starts_with(under) && r.path.size() > under.size() &&
                                                r.path[under.size()] == '.')))
      continue;
    Pattern p;
    for (auto& seg : split_dotted(r.path)) p.push_back({seg == "*" ? std::string("<level>") : seg});
    ps.push_back(std::move(p));
  }
  merge_patterns(ps);
  std::string out;
  for (const auto& p : ps) {
    if (!out.empty()) out += ", ";
    for (std::size_t k = 0; k < p.size(); ++k) {
      if (k) out += '.';
      if (p[k].size() == 1) {
        out += p[k][0];
        continue;
      }
      out += '<';
      for (std::size_t a = 0; a < p[k].size(); ++a) out += (a ? "|" : "") + p[k][a];
      out += '>';
    }
  }
  return out;
}

FieldPath resolve_machine_field(std::string_view path, const MachineSpec* machine) {
  FieldPath f;
  std::vector<std::string> parts = split_dotted(path);
  if (parts.empty() || parts[0] != "machine") parts.insert(parts.begin(), "machine");
  const auto fail = [&](const std::string& why) {
    f.row = nullptr;
    f.error = "'" + std::string(path) + "' " + why;
    return f;
  };
  std::string canon = "machine";
  std::string shown = "machine";
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& seg = parts[i];
    const schema::FieldStep st = schema::step_field(canon, seg);
    if (st.canonical.ends_with(".*")) {
      // A list of mappings addressed by name (machine.levels.<level>).
      if (machine) {
        std::vector<std::string> names;
        bool found = false;
        for (const auto& l : machine->levels) {
          names.push_back(l.name);
          found = found || l.name == seg;
        }
        if (!found)
          return fail("names no level of machine '" + machine->name + "'" + did_you_mean(seg, names) +
                      "; its levels are " + loader::join_names(names, " and "));
      }
      f.level = seg;
    } else if (!st.row) {
      if (st.is_value)
        return fail("is not a numeric machine field: " + shown + " holds a value; numeric fields are " +
                    numeric_machine_fields());
      const std::string numeric = numeric_machine_fields(canon);
      return fail("names no field '" + seg + "' of " + shown + did_you_mean(seg, st.keys) + "; " + shown +
                  " takes " + loader::join_names(st.keys, " and ") +
                  (numeric.empty() ? "; numeric fields are " + numeric_machine_fields()
                                   : "; its numeric fields are " + numeric));
    } else if (schema::field_key(*st.row) == "<dtype>") {
      f.dtype = *dtype_from_name(seg);
    }
    canon = st.canonical;
    shown += "." + seg;
  }
  f.canonical = canon;
  f.row = schema::find_field(canon);
  if (!f.row || !numeric_row(*f.row))
    return fail("is not a numeric machine field; numeric fields are " + numeric_machine_fields());
  return f;
}

double get_field(const MachineSpec& machine, const FieldPath& field) {
  // A slot hands out a pointer to a member of a mutable machine: read through a copy (the
  // getter serves sensitivity and messages, not the hot path).
  MachineSpec m = machine;
  const schema::FieldSite s = site_of(m, field);
  if (field.row->slot.integer) return static_cast<double>(*field.row->slot.integer(s));
  return *field.row->slot.real(s);
}

void set_field(MachineSpec& machine, const FieldPath& field, double value_si) {
  const schema::FieldSite s = site_of(machine, field);
  if (field.row->slot.integer)
    *field.row->slot.integer(s) = static_cast<std::int64_t>(std::llround(value_si));
  else
    *field.row->slot.real(s) = value_si;
  if (field.canonical.rfind("machine.energy.", 0) == 0) machine.energy.present = true;
}

void set_machine_field(MachineSpec& machine, const std::string& path, double value_si) {
  const FieldPath f = resolve_machine_field(path, &machine);
  if (!f.error.empty()) throw InputError(f.error);
  set_field(machine, f, value_si);
}

double get_machine_field(const MachineSpec& machine, const std::string& path) {
  const FieldPath f = resolve_machine_field(path, &machine);
  if (!f.error.empty()) throw InputError(f.error);
  return get_field(machine, f);
}

Dimension machine_field_dimension(const std::string& path) {
  const FieldPath f = resolve_machine_field(path, nullptr);
  if (!f.error.empty()) throw InputError(f.error);
  return f.dimension();
}

}  // namespace tessera
