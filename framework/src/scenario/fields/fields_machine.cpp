// The machine file's fields (field_table.hpp), with the paths they take inside a scenario.
// docs/scenario-format.md "Machine file" and "Collectives".
#include <iterator>

#include "scenario/fields/field_row_builders.hpp"

namespace tessera::schema {

namespace {

using namespace rows;
constexpr FieldFile F = FieldFile::machine;

constexpr ParamChoice kMachineKind[] = {{"machine", "a machine file"}};
constexpr ParamChoice kTopologies[] = {
    {"switch", "every unit reaches every other through a switch at link_bw"},
    {"ring", "units in a ring: neighbours only"},
    {"all-to-all", "a direct link between every pair of units (link_bw shared among the peers)"},
    {"torus", "a torus of `dims` extents, neighbours in each dimension"}};
constexpr ParamChoice kFabrics[] = {
    {"nvlink", "NVLink / NVSwitch (NCCL's NVLink constants)"},
    {"xgmi", "AMD Infinity Fabric (xGMI)"},
    {"pcie", "PCIe"},
    {"network", "InfiniBand / Ethernet between nodes (NCCL's NET constants)"},
    {"ici", "TPU inter-chip interconnect"},
    {"neuronlink", "AWS Trainium NeuronLink (torus rings by dimension, as ici)"},
    {"roce", "Intel Gaudi integrated RoCE (HCCL: NET constants, hierarchical allowed)"}};
constexpr ParamChoice kAlgorithms[] = {
    {"auto", "every algorithm but the legacy ring; the fastest is chosen per collective"},
    {"ring", "the legacy alpha-beta ring"},
    {"nccl_ring", "NCCL ring, per protocol"},
    {"nccl_tree", "NCCL double binary tree (all-reduce), per protocol"},
    {"one_shot", "one-shot all-reduce (P2P loads)"},
    {"two_shot", "two-shot all-reduce (reduce-scatter + all-gather over P2P)"},
    {"in_network", "in-network reduction (NVLS, SHARP)"},
    {"direct", "every rank exchanges with every peer at once (all-to-all, copy)"}};

constexpr ParamChoice kHostLinks[] = {{"pcie4", "PCIe Gen4 x16"},
                                      {"pcie5", "PCIe Gen5 x16"},
                                      {"pcie6", "PCIe Gen6 x16"},
                                      {"nvlink_c2c", "NVLink-C2C (Grace Hopper, Grace Blackwell)"}};

// host_memory.dram (Ssd false) and .ssd: each PE's share of one tier.
template <bool Ssd>
HostTierSpec& tier_of(const FieldSite& s) {
  return Ssd ? s.machine->host_memory.ssd : s.machine->host_memory.dram;
}
template <bool Ssd>
double* tier_capacity(const FieldSite& s) {
  return &tier_of<Ssd>(s).capacity;
}
template <bool Ssd>
double* tier_bandwidth(const FieldSite& s) {
  return &tier_of<Ssd>(s).bandwidth;
}
template <bool Ssd>
double* tier_latency(const FieldSite& s) {
  return &tier_of<Ssd>(s).latency;
}
template <bool Ssd>
void tier_link(const FieldSite& s, const FieldItems& v) {
  tier_of<Ssd>(s).link = kHostLinks[v.choices[0]].value;
}
constexpr const char* kTierCapacity = "each PE's share of the tier's capacity";
constexpr const char* kTierBandwidth =
    "each PE's copy rate from the tier into HBM (measured, not the link's peak)";
constexpr const char* kTierLatency = "per iteration that copies from the tier";
constexpr const char* kTierLink = "how the tier reaches the PE (stated with the bandwidth's source)";

constexpr FieldRow kMachineRows[] = {
    integer("machine.schema_version", F, nullptr, 1, 1,
            "file format version: 1 (required in a machine file)"),
    choice("machine.kind", F, nullptr, kMachineKind, "machine (required in a machine file)"),
    text("machine.name", F, nullptr, "the machine's name, e.g. DGX-H100 (required in a machine file)"),
    text("machine.description", F, "", "free text"),
    mapping("machine.pe", F, nullptr, "the processing element: {name, flops, hbm}"),
    text("machine.pe.name", F, "pe", "the PE's name (placements may use it besides `pe`)", FieldFormat::name),
    mapping("machine.pe.flops", F, nullptr,
            "dense peak per number format, e.g. {bf16: 989 TFLOP/s, fp8: 1979 TFLOP/s}"),
    quantity("machine.pe.flops.<dtype>", F, Dimension::flop_rate, "", true,
             "dense peak in this number format; absent: the next format the PE has",
             real_slot(
                 [](const FieldSite& s) { return &s.machine->pe.flops[static_cast<std::size_t>(s.dtype)]; })),
    mapping("machine.pe.hbm", F, nullptr, "{capacity, bandwidth, usable, reported}"),
    quantity("machine.pe.hbm.capacity", F, Dimension::bytes, nullptr, true, "HBM capacity per PE",
             real_slot([](const FieldSite& s) { return &s.machine->pe.hbm_capacity; })),
    quantity("machine.pe.hbm.bandwidth", F, Dimension::bandwidth, nullptr, true, "HBM bandwidth per PE",
             real_slot([](const FieldSite& s) { return &s.machine->pe.hbm_bandwidth; })),
    real("machine.pe.hbm.usable", F, "1", 0, 1, true, "fraction of the HBM capacity the runtime can allocate",
         real_slot([](const FieldSite& s) { return &s.machine->pe.hbm_usable; })),
    quantity("machine.pe.hbm.reported", F, Dimension::bytes, "", true,
             "the total the driver reports per PE (CUDA's total_memory), what a serving engine's memory "
             "fraction multiplies (docs/physics.md §10.1); absent: the capacity",
             real_slot([](const FieldSite& s) { return &s.machine->pe.hbm_reported; })),
    list(mapping(
        "machine.levels", F, nullptr,
        "a list of levels, innermost first, e.g. [{name: node, fanout: 8, link_bw: 450 GB/s, latency: "
        "3 us, topology: switch}]")),
    text("machine.levels.*.name", F, nullptr, "the level's name, e.g. node (paths address the level by it)",
         FieldFormat::name),
    integer("machine.levels.*.fanout", F, nullptr, 1, kNoMax,
            "units of the level below held by one unit of this level",
            int_slot([](const FieldSite& s) { return &s.level->fanout; }), "machine.pes"),
    quantity("machine.levels.*.link_bw", F, Dimension::bandwidth, nullptr, true,
             "each PE's injection bandwidth at this level, per direction",
             real_slot([](const FieldSite& s) { return &s.level->link_bw; })),
    quantity("machine.levels.*.latency", F, Dimension::time, nullptr, false, "time per message (alpha)",
             real_slot([](const FieldSite& s) { return &s.level->latency; })),
    choice("machine.levels.*.topology", F, "switch", kTopologies, "how the level's units are linked"),
    quantity("machine.levels.*.uplink_bw", F, Dimension::bandwidth, "", true,
             "bandwidth shared by one unit of the level below; absent: not limiting",
             real_slot([](const FieldSite& s) { return &s.level->uplink_bw; })),
    list(integer("machine.levels.*.dims", F, "", 1, kNoMax,
                 "a torus level's extents, innermost first, 1 to 4 of them (product = fanout)", {},
                 "machine.pes")),
    mapping("machine.levels.*.collectives", F, "",
            "the level's collective algorithms and constants; absent: its fabric's documented defaults"),
    choice("machine.levels.*.collectives.fabric", F, "", kFabrics,
           "what the links are made of (selects the default constants); absent: nvlink for the first level, "
           "network above"),
    list(choice("machine.levels.*.collectives.algorithm", F, "auto", kAlgorithms,
                "the algorithms allowed: a name or a list of them")),
    mapping("machine.levels.*.collectives.in_network", F, "false",
            "in-network reduction: true, false or its constants {base, hop, bw_factor}"),
    quantity("machine.levels.*.collectives.in_network.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.in_network_cost.base; })),
    quantity("machine.levels.*.collectives.in_network.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.in_network_cost.hop; })),
    real("machine.levels.*.collectives.in_network.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.in_network_cost.bw_factor; })),
    real("machine.levels.*.collectives.link_efficiency", F, "", 0, 1, true,
         "achievable fraction of link_bw for bulk copies; absent: the fabric's",
         real_slot([](const FieldSite& s) { return &s.level->collectives.link_efficiency; })),
    mapping("machine.levels.*.collectives.ring", F, "",
            "NCCL ring constants per protocol: {ll, ll128, simple}"),
    mapping("machine.levels.*.collectives.ring.ll", F, "",
            "NCCL ring, protocol ll: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.ring.ll.base", F, Dimension::time, "", false, "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[0].base; })),
    quantity("machine.levels.*.collectives.ring.ll.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[0].hop; })),
    real("machine.levels.*.collectives.ring.ll.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.ring[0].bw_factor; })),
    mapping("machine.levels.*.collectives.ring.ll128", F, "",
            "NCCL ring, protocol ll128: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.ring.ll128.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[1].base; })),
    quantity("machine.levels.*.collectives.ring.ll128.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[1].hop; })),
    real("machine.levels.*.collectives.ring.ll128.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.ring[1].bw_factor; })),
    mapping("machine.levels.*.collectives.ring.simple", F, "",
            "NCCL ring, protocol simple: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.ring.simple.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[2].base; })),
    quantity("machine.levels.*.collectives.ring.simple.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.ring[2].hop; })),
    real("machine.levels.*.collectives.ring.simple.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.ring[2].bw_factor; })),
    mapping("machine.levels.*.collectives.tree", F, "",
            "NCCL tree constants per protocol: {ll, ll128, simple}"),
    mapping("machine.levels.*.collectives.tree.ll", F, "",
            "NCCL tree, protocol ll: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.tree.ll.base", F, Dimension::time, "", false, "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[0].base; })),
    quantity("machine.levels.*.collectives.tree.ll.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[0].hop; })),
    real("machine.levels.*.collectives.tree.ll.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.tree[0].bw_factor; })),
    mapping("machine.levels.*.collectives.tree.ll128", F, "",
            "NCCL tree, protocol ll128: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.tree.ll128.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[1].base; })),
    quantity("machine.levels.*.collectives.tree.ll128.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[1].hop; })),
    real("machine.levels.*.collectives.tree.ll128.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.tree[1].bw_factor; })),
    mapping("machine.levels.*.collectives.tree.simple", F, "",
            "NCCL tree, protocol simple: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.tree.simple.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[2].base; })),
    quantity("machine.levels.*.collectives.tree.simple.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.tree[2].hop; })),
    real("machine.levels.*.collectives.tree.simple.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.tree[2].bw_factor; })),
    mapping("machine.levels.*.collectives.one_shot", F, "",
            "one-shot all-reduce: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.one_shot.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.one_shot.base; })),
    quantity("machine.levels.*.collectives.one_shot.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.one_shot.hop; })),
    real("machine.levels.*.collectives.one_shot.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.one_shot.bw_factor; })),
    mapping("machine.levels.*.collectives.two_shot", F, "",
            "two-shot all-reduce: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.two_shot.base", F, Dimension::time, "", false,
             "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.two_shot.base; })),
    quantity("machine.levels.*.collectives.two_shot.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.two_shot.hop; })),
    real("machine.levels.*.collectives.two_shot.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.two_shot.bw_factor; })),
    mapping(
        "machine.levels.*.collectives.direct", F, "",
        "direct all-to-all / copy to every peer: {base, hop, bw_factor}; keys left out keep the fabric's"),
    quantity("machine.levels.*.collectives.direct.base", F, Dimension::time, "", false, "time once per call",
             real_slot([](const FieldSite& s) { return &s.level->collectives.direct.base; })),
    quantity("machine.levels.*.collectives.direct.hop", F, Dimension::time, "", false,
             "time per step (ring step, tree level)",
             real_slot([](const FieldSite& s) { return &s.level->collectives.direct.hop; })),
    real("machine.levels.*.collectives.direct.bw_factor", F, "", 0, 1, false,
         "achieved fraction of the bandwidth the topology gives the pattern; 0 = not available",
         real_slot([](const FieldSite& s) { return &s.level->collectives.direct.bw_factor; })),
    quantity("machine.stage_overhead", F, Dimension::time, "0 s", false, "time added to every compute stage",
             real_slot([](const FieldSite& s) { return &s.machine->stage_overhead; })),
    mapping("machine.energy", F, "", "energy per operation (the energy_per_token objective); absent: none"),
    quantity("machine.energy.flop", F, Dimension::energy, nullptr, false, "energy per FLOP",
             real_slot([](const FieldSite& s) { return &s.machine->energy.flop; })),
    quantity("machine.energy.hbm_byte", F, Dimension::energy, nullptr, false, "energy per HBM byte",
             real_slot([](const FieldSite& s) { return &s.machine->energy.hbm_byte; })),
    quantity("machine.energy.link_byte", F, Dimension::energy, nullptr, false,
             "energy per byte sent over a link",
             real_slot([](const FieldSite& s) { return &s.machine->energy.link_byte; })),
    quantity("machine.energy.static_power", F, Dimension::power, "0 W", false,
             "power each PE draws for the whole step, busy or not (leakage, idle clocks)",
             real_slot([](const FieldSite& s) { return &s.machine->energy.static_power; })),
    mapping("machine.price", F, "",
            "the price model (the cost and cost_per_mtok objectives, docs/physics.md §9 \"Price\"); absent: "
            "the defaults below"),
    quantity("machine.price.pe", F, Dimension::money, "", true,
             "capital cost of one PE (its share of the system); absent: the cost objective's parametric "
             "estimate (about 26 kUSD for an H100-class PE)",
             real_slot([](const FieldSite& s) { return &s.machine->price.pe; })),
    real("machine.price.lifetime", F, "4", 0, 100, true,
         "years the capital is depreciated over (straight line, no residual value)",
         real_slot([](const FieldSite& s) { return &s.machine->price.lifetime_years; })),
    quantity("machine.price.power", F, Dimension::power, "", true,
             "power each PE draws while serving, at the wall; absent: the energy block's energy per token",
             real_slot([](const FieldSite& s) { return &s.machine->price.power; })),
    real("machine.price.electricity", F, "0.08", 0, 10, false, "electricity price, USD per kWh",
         real_slot([](const FieldSite& s) { return &s.machine->price.electricity_per_kwh; })),
    real("machine.price.utilization", F, "1", 0, 1, true,
         "fraction of the lifetime spent serving at the evaluated rate (idle time still depreciates)",
         real_slot([](const FieldSite& s) { return &s.machine->price.utilization; })),
    mapping("machine.host_memory", F, "",
            "memory below HBM a serving engine may offload KV to, per PE: {dram, ssd} (docs/physics.md §12.7 "
            "\"KV offload\"); absent: none"),
    mapping("machine.host_memory.dram", F, "", "host DRAM: {capacity, bandwidth, latency, link}"),
    quantity("machine.host_memory.dram.capacity", F, Dimension::bytes, nullptr, true, kTierCapacity,
             real_slot(&tier_capacity<false>)),
    quantity("machine.host_memory.dram.bandwidth", F, Dimension::bandwidth, nullptr, true, kTierBandwidth,
             real_slot(&tier_bandwidth<false>)),
    quantity("machine.host_memory.dram.latency", F, Dimension::time, "0 s", false, kTierLatency,
             real_slot(&tier_latency<false>)),
    slotted(choice("machine.host_memory.dram.link", F, nullptr, kHostLinks, kTierLink),
            store_slot(&tier_link<false>)),
    mapping("machine.host_memory.ssd", F, "", "local SSD: {capacity, bandwidth, latency, link}"),
    quantity("machine.host_memory.ssd.capacity", F, Dimension::bytes, nullptr, true, kTierCapacity,
             real_slot(&tier_capacity<true>)),
    quantity("machine.host_memory.ssd.bandwidth", F, Dimension::bandwidth, nullptr, true, kTierBandwidth,
             real_slot(&tier_bandwidth<true>)),
    quantity("machine.host_memory.ssd.latency", F, Dimension::time, "0 s", false, kTierLatency,
             real_slot(&tier_latency<true>)),
    slotted(choice("machine.host_memory.ssd.link", F, nullptr, kHostLinks, kTierLink),
            store_slot(&tier_link<true>)),
    free_keys("machine.efficiency", F,
              "the machine parameters of the latency plugin that declares `efficiency` as its block's key "
              "(the same as machine.plugins.<that plugin>; checked against its schema: tessera plugins)"),
    free_keys("machine.plugins", F,
              "one block per plugin, keyed by plugin name: that plugin's machine parameters, checked against "
              "its machine schema when it runs (tessera plugins); sweepable as "
              "machine.plugins.<plugin>.<param>"),
};

}  // namespace

std::span<const FieldRow> machine_field_rows() { return {kMachineRows, std::size(kMachineRows)}; }

}  // namespace tessera::schema
