// The streaming collections of core/: TopN keeps the best n in order; StreamingFront, fed one
// point at a time across several merges, returns the frontier pareto_front() finds at once.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "core/statistics/pareto.hpp"
#include "core/statistics/streaming_front.hpp"
#include "core/statistics/top_n.hpp"

using tessera::Direction;

namespace {

struct Point {
  std::size_t index = 0;
  std::array<double, 3> v{};
};
struct PointValues {
  const std::array<double, 3>& operator()(const Point& p) const { return p.v; }
};
bool by_index(const Point& a, const Point& b) { return a.index < b.index; }

}  // namespace

TEST_CASE("TopN keeps the n smallest best first and ties by the order given", "[pareto]") {
  const auto less = [](int a, int b) { return a < b; };
  tessera::TopN<int, decltype(less)> top(3, less);
  for (int x : {9, 4, 7, 1, 8, 4, 2, 6}) top.offer(x);
  CHECK(top.take() == std::vector<int>{1, 2, 4});
  tessera::TopN<int, decltype(less)> one(0, less);  // 0 is taken as 1
  for (int x : {5, 3, 8}) one.offer(x);
  CHECK(one.take() == std::vector<int>{3});
}

TEST_CASE("StreamingFront equals pareto_front over the whole set", "[pareto]") {
  std::mt19937_64 rng(2024);
  const std::vector<Direction> dirs{Direction::minimize, Direction::maximize, Direction::minimize};
  for (std::size_t n : {10, 3000, 20000}) {  // no merge, one merge, many merges
    std::vector<Point> points(n);
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
      points[i].index = i;
      for (auto& x : points[i].v) {
        x = static_cast<double>(rng() % 40);  // small range: ties and duplicates
        values.push_back(x);
      }
    }
    tessera::StreamingFront<Point, PointValues> front(dirs, {});
    for (const Point& p : points) front.offer(p);
    std::vector<std::size_t> streamed;
    for (const Point& p : front.take(by_index)) streamed.push_back(p.index);
    CHECK(streamed == tessera::pareto_front(values, 3, dirs));
    CHECK(!streamed.empty());
  }
}
