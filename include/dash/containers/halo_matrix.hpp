#pragma once
// dash::HaloMatrix: a dash::Matrix with a halo of copies of its neighbours' border cells, as
// wide as a stencil reaches (Kowalewski 2021 §5.3.1; docs/design.md §3 "Patterns and containers").
//
//   dash::Matrix<double, 2> u(dash::SizeSpec<2>(n, n), dash::DistributionSpec<2>(dash::BLOCKED, dash::BLOCKED));
//   auto stencil = dash::Stencil<2>::star(1, 0.0, 0.25);
//   dash::HaloMatrix<double, 2> halo(u, stencil, dash::HaloBoundary::fixed, [](auto) { return 1.0; });
//   halo.update();                       // or update_async(), see halo_update.hpp
//   double north = halo.value({-1, 0});  // the cell above the unit's first local cell
//
// The matrix must give each unit at most one block per dimension (BLOCKED or NONE) and every block
// must be at least as wide as the stencil reaches, so that each halo region comes from the
// adjacent unit. Beyond the domain's edge a dimension is periodic or fixed (values from a function
// of the global coordinates, which may be negative or past the extent; T{} without one).
// Local indices are signed: -1 is the first halo row below index 0.
//
// Construction and destruction are collective over the matrix's team (a small global segment
// holds the counters of the shared-memory path); the matrix must outlive the wrapper.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <boost/container/static_vector.hpp>

#include <dash/comm/exception.hpp>
#include <dash/comm/uniform_check.hpp>
#include <dash/containers/detail/halo_exchange.hpp>
#include <dash/containers/halo_box.hpp>
#include <dash/containers/halo_update.hpp>
#include <dash/containers/matrix.hpp>
#include <dash/containers/stencil.hpp>

namespace dash {

// The cells of one halo region (or of the unit's block), row-major, for hand-written kernels.
template <class T, std::size_t N>
struct HaloRegion {
  const T* data = nullptr;  // null for a region the stencil never reads
  std::array<std::size_t, N> extents{};
};

// Counts of halo regions by where their data comes from (HaloMatrix::routes).
struct HaloRoutes {
  std::size_t fixed = 0;
  std::size_t shared_memory = 0;
  std::size_t messages = 0;
};

template <class T, std::size_t N>
class HaloMatrix {
  using Exchange = detail::HaloExchange<T, N>;

public:
  using Index = std::array<std::ptrdiff_t, N>;
  using Coords = std::array<std::size_t, N>;
  using FixedValue = typename Exchange::FixedValue;

  // Collective. Throws dash::InvalidArgument for an unallocated matrix, a distribution other than
  // BLOCKED or NONE, or blocks narrower than the stencil's reach.
  HaloMatrix(Matrix<T, N>& matrix, const Stencil<N>& stencil, const std::array<HaloBoundary, N>& boundaries,
             FixedValue fixed_value = {})
      : exchange_(make_exchange(matrix, stencil, boundaries, fixed_value)) {}
  HaloMatrix(Matrix<T, N>& matrix, const Stencil<N>& stencil, HaloBoundary boundary = HaloBoundary::periodic,
             FixedValue fixed_value = {})
      : HaloMatrix(matrix, stencil, all(boundary), std::move(fixed_value)) {}

  Matrix<T, N>& matrix() const noexcept { return exchange_->matrix(); }
  const Stencil<N>& stencil() const noexcept { return exchange_->stencil(); }
  // The unit's block: its extents and the global coordinates of its first cell.
  const Coords& local_extents() const noexcept { return exchange_->extents(); }
  const Index& local_origin() const noexcept { return exchange_->origin(); }

  // Starts refreshing the halo from the neighbours' current blocks. Collective over the team, in
  // the same order as its other collectives. Throws dash::InvalidState while the previous update
  // of this halo has not completed.
  HaloUpdate<T, N> update_async() {
    if (exchange_->in_flight) {
      throw InvalidState("dash::HaloMatrix::update_async: the previous update of this halo has not completed; "
                         "wait for it (HaloUpdate::wait) before starting another");
    }
    return HaloUpdate<T, N>(*exchange_, ++epoch_);
  }
  void update() { update_async().wait(); }

  // The cells whose stencil reads only the unit's block, and the boxes of the other (boundary)
  // cells (3^N - 1 at most, held in place: no allocation); together they cover the block once.
  const HaloBox<N>& inner() const noexcept { return exchange_->inner(); }
  boost::container::static_vector<HaloBox<N>, Exchange::regions - 1> boundary() const {
    boost::container::static_vector<HaloBox<N>, Exchange::regions - 1> boxes;
    for (const auto& entry : exchange_->boundary()) {
      boxes.push_back(entry.box);
    }
    return boxes;
  }
  // The cells whose stencil reads no exchanged halo region: the inner cells and, along fixed domain
  // edges, the boundary bands as far as they form one box with them (the whole block for a single
  // unit with fixed boundaries). They can be computed while an update runs; every boundary box lies
  // inside it or outside it entirely. inner() when no region is fixed.
  const HaloBox<N>& without_exchange() const noexcept { return exchange_->without_exchange(); }

  // The value at a local index: a cell of the block or of the halo (as of the last update).
  // Throws dash::OutOfRange for an index outside the block and the regions the stencil reads.
  T value(const Index& local) const {
    if (!exchange_->holds(local)) {
      std::string text = "(";
      for (std::size_t d = 0; d < N; ++d) {
        text += (d == 0 ? "" : ", ") + std::to_string(local[d]);
      }
      throw out_of_range("dash::HaloMatrix::value", "local", text + ")",
                         "an index of the unit's block or of a halo region the stencil reads");
    }
    return exchange_->cell(local);
  }
  // As value(), unchecked: for the boundary loops of stencil kernels.
  T value_unchecked(const Index& local) const noexcept { return exchange_->cell(local); }

  // How this unit's halo regions are filled: once from the fixed-boundary function, by copies
  // through shared memory (same-node sources, including this unit at a periodic edge), or as MPI
  // messages.
  HaloRoutes routes() const noexcept {
    HaloRoutes routes;
    for (std::size_t r = 0; r < Exchange::regions; ++r) {
      switch (exchange_->region(r).source) {
        case detail::HaloSource::fixed:
          ++routes.fixed;
          break;
        case detail::HaloSource::shared:
          ++routes.shared_memory;
          break;
        case detail::HaloSource::remote:
          ++routes.messages;
          break;
        case detail::HaloSource::unused:
          break;
      }
    }
    return routes;
  }

  // Region `index` (0 <= index < 3^N; see direction()); the middle index, (3^N - 1) / 2, is the
  // unit's own block. Valid as of the last completed update; throws dash::OutOfRange beyond 3^N.
  HaloRegion<T, N> region(std::size_t index) const {
    if (index >= Exchange::regions) {
      throw out_of_range("dash::HaloMatrix::region", "index", index,
                         "below 3^N = " + std::to_string(Exchange::regions));
    }
    if (index == Exchange::centre) {
      return {matrix().lbegin(), local_extents()};
    }
    const auto& region = exchange_->region(index);
    return {region.cells.empty() ? nullptr : region.cells.data(), region.extents};
  }

  // The direction (-1, 0 or +1 per dimension) of halo region `region` (as for_each_arrival names it).
  static std::array<int, N> direction(std::size_t region) { return detail::halo_direction<N>(region); }

private:
  static std::array<HaloBoundary, N> all(HaloBoundary boundary) {
    std::array<HaloBoundary, N> boundaries;
    boundaries.fill(boundary);
    return boundaries;
  }

  static std::unique_ptr<Exchange> make_exchange(Matrix<T, N>& matrix, const Stencil<N>& stencil,
                                                 const std::array<HaloBoundary, N>& boundaries,
                                                 const FixedValue& fixed_value) {
    if (!matrix.is_allocated()) {
      throw invalid_argument("dash::HaloMatrix", "matrix", "unallocated", "an allocated dash::Matrix");
    }
    // Units that disagree on the stencil or the boundaries would exchange different faces and hang.
    const auto& points = stencil.points();
    const std::uint64_t hash =
        comm::detail::fnv1a_hash(points.data(), points.size() * sizeof(StencilPoint<N>)) ^
        (comm::detail::fnv1a_hash(boundaries.data(), sizeof(boundaries)) * 0x9e3779b97f4a7c15ULL);
    comm::check_uniform(hash, "dash::HaloMatrix", "stencil and boundaries", matrix.team().mpi_comm());
    return std::make_unique<Exchange>(matrix, stencil, boundaries, fixed_value);
  }

  std::unique_ptr<Exchange> exchange_;
  std::uint64_t epoch_ = 0;
};

}  // namespace dash
