// The machine file schema (docs/specification.md §2.3 "Machine file — a hierarchy").
#include "core/checked_math.hpp"
#include "scenario/fields/field_reader.hpp"
#include "scenario/fields/mapping_reader.hpp"
#include "scenario/readers/raw_params.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/schemas/collectives_schema.hpp"
#include "scenario/schemas/schemas.hpp"
#include "tessera/limits.hpp"

namespace tessera::loader {

namespace {

LinkTopology topology_from(const std::string& s) {
  if (s == "ring") return LinkTopology::ring;
  if (s == "all-to-all") return LinkTopology::all_to_all;
  if (s == "torus") return LinkTopology::torus;
  return LinkTopology::switched;
}

// `dims: [4, 4, 4]`: the torus extents, innermost first; their product is the fanout.
void parse_torus_dims(const YNode& item, const std::string& ip, LevelSpec& l, Diags& d) {
  const YNode* dn = item.find("dims");
  const std::string kp = join_path(ip, "dims");
  if (!dn) {
    if (l.topology == LinkTopology::torus)
      d.error(item.where, kp + ": a torus level needs its extents, e.g. dims: [4, 4, 4] (product = fanout)");
    return;
  }
  if (l.topology != LinkTopology::torus) {
    d.error(dn->where, kp + ": only a torus level has dims (this level's topology is " +
                           topology_name(l.topology) + ")");
    return;
  }
  if (!dn->is_sequence() || dn->items.empty() || dn->items.size() > static_cast<std::size_t>(kMaxTorusDims)) {
    d.error(dn->where, kp + ": expected a list of 1 to " + std::to_string(kMaxTorusDims) +
                           " positive integers (the torus extents), found " + describe(*dn));
    return;
  }
  std::int64_t product = 1;
  bool ok = true;
  for (std::size_t i = 0; i < dn->items.size(); ++i) {
    const auto v =
        read_field(dn->items[i], kp + "[" + std::to_string(i) + "]", row_of("machine.levels.*.dims"), d);
    if (!v) {
      ok = false;
      continue;
    }
    l.dims[i] = static_cast<std::int32_t>(v->integer);
    product = saturating_mul(product, v->integer);
  }
  if (!ok) return;
  l.dim_count = static_cast<int>(dn->items.size());
  if (product != l.fanout)
    d.error(dn->where, kp + ": the extents multiply to " + std::to_string(product) + ", not the fanout " +
                           std::to_string(l.fanout));
}

void parse_efficiency(const YNode& n, const std::string& path, std::vector<RawParam>* out, Diags& d) {
  if (!expect_mapping(n, path, d)) return;
  std::vector<RawParam> params;
  read_raw_params(n, path, "", "a value", false, params, d);
  if (out) out->insert(out->end(), params.begin(), params.end());
}

}  // namespace

namespace {

// `flops: {bf16: 989 TFLOP/s, ...}`: a mapping keyed by number format.
void read_flops(const YNode* fl, const std::string& fp, schema::FieldSite& site, Diags& d) {
  if (!expect_mapping(*fl, fp, d)) return;
  check_keys(*fl, fp, *schema_keys("machine.pe.flops"), d);
  const schema::FieldRow& peak = row_of("machine.pe.flops.<dtype>");
  for (const auto& e : fl->entries) {
    const auto t = dtype_from_name(e.key);
    if (!t) continue;  // reported by check_keys
    site.dtype = *t;
    if (auto v = read_field(e.value, join_path(fp, e.key), peak, d)) *peak.slot.real(site) = v->number;
  }
  if (fl->entries.empty())
    d.error(fl->where, fp + ": expected at least one number format with its peak, e.g. "
                            "{bf16: 989 TFLOP/s}, found an empty mapping");
}

// One item of `levels:`: its name first (the path shows it), then the rows of machine.levels.*,
// the topology, torus extents and collectives.
void read_level(const YNode& item, const std::string& lp, std::size_t i, MachineSpec& m,
                schema::FieldSite& site, Diags& d) {
  std::string ip = lp + "[" + std::to_string(i) + "]";
  if (!expect_mapping(item, ip, d)) return;
  LevelSpec l;
  if (const YNode* nm = field_member(item, ip, row_of("machine.levels.*.name"), d)) {
    if (auto v = read_field(*nm, ip + ".name", row_of("machine.levels.*.name"), d)) {
      const std::string& s = v->text;
      l.name = s;
      ip = join_path(lp, s);
      if (s == "pe" || s == m.pe.name)
        d.error(nm->where, ip + ": a level cannot be named like the PE ('" + s + "')");
      for (const auto& prev : m.levels)
        if (prev.name == s)
          d.error(nm->where, ip + ": duplicate level name '" + s + "'; level names must be unique");
    }
  }
  site.level = &l;
  const ChildReader children[] = {
      {"machine.levels.*.name", [](const YNode*, const std::string&) {}, true},  // read above
      {"machine.levels.*.topology",
       [&](const YNode* t, const std::string& p) {
         if (t)
           if (auto v = read_field(*t, p, row_of("machine.levels.*.topology"), d))
             l.topology = topology_from(v->text);
       }},
      {"machine.levels.*.dims", [&](const YNode*, const std::string&) { parse_torus_dims(item, ip, l, d); },
       true},
      {"machine.levels.*.collectives",
       [&](const YNode* c, const std::string&) { parse_level_collectives(c, ip, i, l, d); }, true},
  };
  read_mapping(item, ip, "machine.levels.*", site, d, children);
  site.level = nullptr;
  m.levels.push_back(std::move(l));
}

void read_levels(const YNode* levels, const std::string& lp, MachineSpec& m, schema::FieldSite& site,
                 Diags& d) {
  if (!levels->is_sequence()) {
    d.error(levels->where, lp + ": expected a list of levels, innermost first, found " + describe(*levels));
  } else if (levels->items.empty()) {
    d.error(levels->where, lp + ": expected at least one level (e.g. {name: node, fanout: 8, link_bw: "
                                "450 GB/s, latency: 3 us, topology: switch}), found an empty list");
  } else {
    for (std::size_t i = 0; i < levels->items.size(); ++i) read_level(levels->items[i], lp, i, m, site, d);
  }
}

// Per-plugin blocks: `plugins:` holds one mapping per plugin, each checked against that plugin's
// machine schema when it runs; `efficiency:` (kept for compatibility) is the block of the latency
// plugin whose descriptor declares that key (host/plugin_roles.hpp).
void read_keyed_block(const YNode& n, const YNode* ef, const std::string& path,
                      std::vector<MachineBlock>* blocks, Diags& d) {
  MachineBlock b;
  b.key = "efficiency";
  b.label = "machine 'efficiency'";
  b.where = n.find_entry("efficiency")->key_where;
  parse_efficiency(*ef, path, &b.params, d);
  if (blocks) blocks->push_back(std::move(b));
}

void read_plugin_blocks(const YNode* pl, const std::string& pp, std::vector<MachineBlock>* blocks, Diags& d) {
  if (!expect_mapping(*pl, pp, d)) return;
  for (const auto& e : pl->entries) {
    MachineBlock b;
    b.plugin = e.key;
    b.label = "machine.plugins." + e.key;
    b.where = e.key_where;
    parse_efficiency(e.value, join_path(pp, e.key), &b.params, d);
    if (blocks) blocks->push_back(std::move(b));
  }
}

}  // namespace

// The machine mapping, walked by the field table (scenario/fields/mapping_reader.hpp); only the
// irregular children are code: the name (required in a machine file only), the peaks keyed by
// number format, the list of levels, the per-plugin blocks and energy's presence.
std::optional<MachineSpec> parse_machine(const YNode& n, const std::string& path, bool require_name,
                                         std::vector<MachineBlock>* blocks, Diags& d) {
  const std::size_t before = d.size();
  MachineSpec m;
  m.name = "inline machine";
  schema::FieldSite site;
  site.machine = &m;
  const auto text_into = [&](std::string& out, const char* row) {
    return [&out, row, &d](const YNode* v, const std::string& p) {
      if (v)
        if (auto t = read_field(*v, p, row_of(row), d)) out = t->text;
    };
  };
  std::string description;
  const ChildReader children[] = {
      name_reader(n, path, "machine.name", require_name, m.name, d),
      {"machine.description", text_into(description, "machine.description")},
      {"machine.pe.name", text_into(m.pe.name, "machine.pe.name")},
      {"machine.pe.flops", [&](const YNode* fl, const std::string& p) { read_flops(fl, p, site, d); }},
      {"machine.levels", [&](const YNode* v, const std::string& p) { read_levels(v, p, m, site, d); }},
      {"machine.energy",
       [&](const YNode* v, const std::string& p) {
         if (read_mapping(*v, p, "machine.energy", site, d)) m.energy.present = true;
       }},
      {"machine.efficiency",
       [&](const YNode* v, const std::string& p) { read_keyed_block(n, v, p, blocks, d); }},
      {"machine.plugins", [&](const YNode* v, const std::string& p) { read_plugin_blocks(v, p, blocks, d); }},
  };
  if (!read_mapping(n, path, "machine", site, d, children)) return std::nullopt;
  if (d.size() == before) check_machine_consistency(n, path, m, d);
  if (d.size() != before) return std::nullopt;
  return m;
}

void check_machine_consistency(const YNode& n, const std::string& path, const MachineSpec& m, Diags& d) {
  // Total PEs: the product of the fanouts, each partial product checked (fanouts each within
  // machine.pes can still multiply past int64).
  const std::uint64_t limit = limit_value("machine.pes");
  std::int64_t total = 1;
  std::string product;
  bool over = false;
  for (const auto& l : m.levels) {
    product += (product.empty() ? "" : " x ") + std::to_string(l.fanout);
    const auto next = checked_mul(total, l.fanout);
    if (!next || static_cast<std::uint64_t>(*next) > limit) over = true;
    if (next) total = *next;
  }
  if (!over) return;
  const YNode* levels = n.find("levels");
  d.error(levels ? levels->where : n.where, join_path(path, "levels") + ": the fanouts give " + product +
                                                " PEs, which " + limit_exceeded("machine.pes"));
}

}  // namespace tessera::loader
