#pragma once
// dash::HaloUpdate: a running halo update of a dash::HaloMatrix (Kowalewski 2021 Alg. 6).
//
//   auto update = halo.update_async();
//   ... compute the inner cells (halo.inner()) while the faces travel ...
//   update.for_each_ready_boundary([&](const dash::HaloBox<2>& box) { ... compute box ... });
//
// Progress is manual: the update advances inside test(), wait() and the for_each functions (the
// regions copied from the unit's own block, at periodic edges with one unit along a dimension,
// are copied as it starts). Each face is reported the moment its data is in place, whether it came
// through shared memory or as a message. The matrix must not be written until the update completed (its faces are being read),
// and the halo must not be read before the region in question arrived. Destroying an update
// that has not completed completes it first (blocking). An update allocates nothing for halos of
// up to 3-D (its lists are bounded by the 3^N - 1 regions; see also comm::NeighborRequest).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <boost/container/static_vector.hpp>

#include <dash/comm/neighbor_alltoallw.hpp>
#include <dash/comm/peer_progress.hpp>
#include <dash/containers/detail/halo_exchange.hpp>
#include <dash/containers/halo_box.hpp>

namespace dash {

template <class T, std::size_t N>
class HaloUpdate {
  using Exchange = detail::HaloExchange<T, N>;

public:
  // A complete update with nothing to report.
  HaloUpdate() = default;

  // Starts update number `epoch` (called by HaloMatrix::update_async).
  HaloUpdate(Exchange& exchange, std::uint64_t epoch) : exchange_(&exchange), epoch_(epoch) {
    exchange.in_flight = true;
    complete_ = false;
    for (std::size_t r = 0; r < Exchange::regions; ++r) {
      const auto source = exchange.region(r).source;
      if (source == detail::HaloSource::fixed) {
        arrived_ |= 1U << r;
      } else if (source != detail::HaloSource::unused) {
        exchanged_ |= 1U << r;
        if (source == detail::HaloSource::shared) {
          pending_shared_.push_back(r);
        }
      }
    }
    remote_ = exchange.start(epoch);
    // The unit's own faces, published just now by start().
    for (std::size_t i = 0; i < pending_shared_.size();) {
      if (exchange.region(pending_shared_[i]).own && exchange.try_copy(pending_shared_[i], epoch)) {
        arrived_ |= 1U << pending_shared_[i];
        pending_shared_[i] = pending_shared_.back();
        pending_shared_.pop_back();
      } else {
        ++i;
      }
    }
  }

  HaloUpdate(HaloUpdate&& other) noexcept
      : exchange_(std::exchange(other.exchange_, nullptr)),
        epoch_(other.epoch_),
        remote_(std::move(other.remote_)),
        arrived_(other.arrived_),
        exchanged_(other.exchanged_),
        reported_(other.reported_),
        boundary_done_(other.boundary_done_),
        pending_shared_(std::move(other.pending_shared_)),
        complete_(std::exchange(other.complete_, true)) {}
  HaloUpdate& operator=(HaloUpdate&& other) noexcept {
    if (this != &other) {
      finish();
      exchange_ = std::exchange(other.exchange_, nullptr);
      epoch_ = other.epoch_;
      remote_ = std::move(other.remote_);
      arrived_ = other.arrived_;
      exchanged_ = other.exchanged_;
      reported_ = other.reported_;
      boundary_done_ = other.boundary_done_;
      pending_shared_ = std::move(other.pending_shared_);
      complete_ = std::exchange(other.complete_, true);
    }
    return *this;
  }
  HaloUpdate(const HaloUpdate&) = delete;
  HaloUpdate& operator=(const HaloUpdate&) = delete;
  ~HaloUpdate() { finish(); }

  // Advances the update; true once every halo region holds its data and every neighbour has
  // read this unit's faces.
  bool test() {
    advance();
    return complete_;
  }

  void wait() {
    while (!complete_) {
      if (!advance()) {
        comm::yield_to_peers();  // the data comes from other processes: let them run
      }
    }
  }

  bool done() const noexcept { return complete_; }

  // Calls f(region index) for each exchanged halo region as its data arrives (region index:
  // dash::HaloMatrix::direction gives its direction); returns when the update completed.
  template <class F>
  void for_each_arrival(F&& f) {
    while (true) {
      const bool moved = advance();
      const std::uint32_t fresh = arrived_ & ~reported_ & exchanged_;
      reported_ |= fresh;
      for (std::uint32_t bits = fresh; bits != 0; bits &= bits - 1) {
        f(static_cast<std::size_t>(std::countr_zero(bits)));
      }
      if (complete_) {
        return;
      }
      if (!moved) {
        comm::yield_to_peers();
      }
    }
  }

  // Calls f(box) for each of the block's boundary boxes once every halo region its stencil reads
  // has arrived (each box once); returns when the update completed.
  template <class F>
  void for_each_ready_boundary(F&& f) {
    if (exchange_ == nullptr) {
      return;
    }
    const auto& boxes = exchange_->boundary();
    std::size_t remaining = boxes.size() - static_cast<std::size_t>(std::popcount(boundary_done_));
    while (true) {
      const bool moved = advance();
      for (std::size_t b = 0; b < boxes.size() && remaining != 0; ++b) {
        if ((boundary_done_ & (1U << b)) == 0 && (boxes[b].reads & ~arrived_) == 0) {
          boundary_done_ |= 1U << b;
          --remaining;
          f(static_cast<const HaloBox<N>&>(boxes[b].box));
        }
      }
      if (remaining == 0 && complete_) {
        return;
      }
      if (!moved) {
        comm::yield_to_peers();
      }
    }
  }

private:
  // One round of progress; true if some region arrived or the update completed.
  bool advance() {
    if (complete_) {
      return false;
    }
    bool moved = false;
    for (std::size_t i = 0; i < pending_shared_.size();) {
      if (exchange_->try_copy(pending_shared_[i], epoch_)) {
        arrived_ |= 1U << pending_shared_[i];
        pending_shared_[i] = pending_shared_.back();
        pending_shared_.pop_back();
        moved = true;
      } else {
        ++i;
      }
    }
    remote_.test_arrivals([&](std::size_t receive) {
      arrived_ |= 1U << exchange_->remote_region(receive);
      moved = true;
    });
    if (pending_shared_.empty() && remote_.done() && exchange_->readers_done(epoch_)) {
      complete_ = true;
      exchange_->in_flight = false;
      moved = true;
    }
    return moved;
  }

  void finish() noexcept {
    if (exchange_ != nullptr && !complete_) {
      wait();
    }
  }

  Exchange* exchange_ = nullptr;
  std::uint64_t epoch_ = 0;
  comm::NeighborRequest remote_;
  std::uint32_t arrived_ = 0;    // regions holding this update's data (fixed ones from the start)
  std::uint32_t exchanged_ = 0;  // regions filled by copies or messages (not fixed ones)
  std::uint32_t reported_ = 0;   // regions for_each_arrival reported
  std::uint32_t boundary_done_ = 0;  // boundary boxes for_each_ready_boundary handed out (3^N - 1 at most)
  boost::container::static_vector<std::size_t, Exchange::regions> pending_shared_;
  bool complete_ = true;
};

}  // namespace dash
