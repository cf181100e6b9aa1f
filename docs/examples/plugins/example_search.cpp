// search/example: every `stride`-th valid configuration of the grid, in the grid's order.
#include <tessera/sdk.hpp>

namespace {

using namespace tessera;

class StrideRun final : public SearchRun {
 public:
  StrideRun(const SearchSpace& space, std::uint64_t stride) : space_(space), stride_(stride) {}
  std::size_t propose(std::span<ParallelConfig> out) override {
    std::size_t k = 0;
    // valid_range reads the grid piecewise: no list of every configuration is built.
    while (k < out.size() && next_ < space_.valid_count()) {
      space_.valid_range(next_, out.subspan(k, 1));
      ++k;
      next_ += stride_;
    }
    return k;  // 0 once past the end: the search is done
  }
  void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}

 private:
  const SearchSpace& space_;  // lives as long as the run (the host keeps the strategy alive)
  std::uint64_t stride_;
  std::uint64_t next_ = 0;
};

class ExampleSearch final : public SearchStrategy {
 public:
  explicit ExampleSearch(std::int64_t stride) : stride_(static_cast<std::uint64_t>(stride)) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override {
    return std::make_unique<StrideRun>(space, stride_);
  }

 private:
  std::uint64_t stride_;
};

const ParamSpec kParams[] = {
    {"stride", ParamType::integer, Dimension::none, "2", 1, kNoMax, nullptr, 0,
     "evaluate every stride-th valid configuration (1: all of them)"},
};

PluginObject* create(const ParamSet& p) { return new ExampleSearch(p.integer("stride")); }

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::search,
    .name = "example",
    .version = "1.0.0",
    .summary = "worked example: every stride-th valid configuration",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
