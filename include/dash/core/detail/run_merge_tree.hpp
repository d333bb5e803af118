#pragma once
// Merges sorted runs that land one by one in a buffer (seed 004 §5.3: the k-way merge of a sort
// as a partial-aggregation consumer). The runs lie side by side in source order, as the
// canonical output of an alltoallv packs them. A fixed balanced binary tree over the sources
// merges two neighbouring ranges as soon as both are complete, so merging overlaps the exchange
// while the result stays stable: on equal keys the lower source comes first. Every element takes
// part in ceil(lg p) merges at most.

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/check.hpp>

namespace dash::detail {

template <class T, class Less>
class RunMergeTree {
public:
  // `buffer` holds run_sizes[s] elements of source s, sources in order; each run is sorted by
  // `less` once it has landed completely.
  RunMergeTree(std::span<T> buffer, std::span<const std::size_t> run_sizes, Less less)
      : buffer_(buffer),
        less_(std::move(less)),
        start_(run_sizes.size() + 1, 0),
        missing_(run_sizes.begin(), run_sizes.end()),
        leaf_(run_sizes.size(), 0) {
    for (std::size_t s = 0; s < run_sizes.size(); ++s) {
      start_[s + 1] = start_[s] + run_sizes[s];
    }
    assert_that(start_.back() == buffer.size(), "dash::detail::RunMergeTree: run sizes do not add up to the buffer");
    if (!run_sizes.empty()) {
      nodes_.reserve(2 * run_sizes.size() - 1);
      build(0, run_sizes.size(), none);
    }
    for (std::size_t s = 0; s < run_sizes.size(); ++s) {
      if (missing_[s] == 0) {
        complete(s);
      }
    }
  }

  // `count` more elements of `source`'s run have landed; merges what that completes.
  void landed(std::size_t source, std::size_t count) {
    if (count == 0) {
      return;
    }
    assert_that(count <= missing_[source], [&] {
      return "dash::detail::RunMergeTree: " + std::to_string(count) + " elements landed for source " +
             std::to_string(source) + ", which expected only " + std::to_string(missing_[source]) + " more";
    });
    missing_[source] -= count;
    if (missing_[source] == 0) {
      complete(source);
    }
  }

  // Every run has landed (some possibly unreported, e.g. a member's block to itself): merges the rest.
  void finish() {
    for (std::size_t s = 0; s < missing_.size(); ++s) {
      if (missing_[s] != 0) {
        missing_[s] = 0;
        complete(s);
      }
    }
  }

  // The whole buffer is one sorted run.
  bool done() const noexcept { return nodes_.empty() || nodes_.front().complete; }

private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // Sources [first, last); an inner node's children split them at `middle`.
  struct Node {
    std::size_t first = 0;
    std::size_t middle = 0;
    std::size_t last = 0;
    std::size_t parent = none;
    std::size_t left = none;
    std::size_t right = none;
    bool complete = false;
  };

  std::size_t build(std::size_t first, std::size_t last, std::size_t parent) {
    const std::size_t index = nodes_.size();
    nodes_.push_back({first, first + (last - first) / 2, last, parent});
    if (last - first == 1) {
      leaf_[first] = index;
    } else {
      const std::size_t left = build(first, nodes_[index].middle, index);
      const std::size_t right = build(nodes_[index].middle, last, index);
      nodes_[index].left = left;
      nodes_[index].right = right;
    }
    return index;
  }

  void complete(std::size_t source) {
    std::size_t node = leaf_[source];
    nodes_[node].complete = true;
    for (node = nodes_[node].parent; node != none; node = nodes_[node].parent) {
      Node& up = nodes_[node];
      if (!nodes_[up.left].complete || !nodes_[up.right].complete) {
        return;
      }
      const auto at = [&](std::size_t s) { return buffer_.begin() + static_cast<std::ptrdiff_t>(start_[s]); };
      std::inplace_merge(at(up.first), at(up.middle), at(up.last), less_);
      up.complete = true;
    }
  }

  std::span<T> buffer_;
  Less less_;
  std::vector<std::size_t> start_;    // start_[s]: where source s's run begins; start_[p] = the size
  std::vector<std::size_t> missing_;  // elements of each run still to land
  std::vector<std::size_t> leaf_;     // each source's node
  std::vector<Node> nodes_;           // nodes_[0] is the root
};

}  // namespace dash::detail
