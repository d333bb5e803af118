// Each unit's fold starts from its first element converted to init's type: elements that do not
// convert are refused with a message that points to dash::transform_reduce.
#include <cstdint>

#include <dash/algorithms/accumulate.hpp>
#include <dash/containers/array.hpp>

struct Point {
  double x;
  double y;
};

double sum_of_x(const dash::Array<Point>& points) {
  return dash::accumulate(points.begin(), points.end(), 0.0, [](double sum, const Point& p) { return sum + p.x; });
}
