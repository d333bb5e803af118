#pragma once
// Merges sorted runs that land one by one (Kowalewski 2021 §5.3.3: the k-way merge of a sort as a
// partial-aggregation consumer). The runs lie side by side in source order, as the canonical
// output of an alltoallv packs them. A fixed balanced binary tree over the sources merges two
// neighbouring ranges as soon as both are complete, so merging overlaps the exchange while the
// result stays stable: on equal keys the lower source comes first. Every element takes part in
// ceil(lg p) merges at most.
//
// Merges are out of place and branch-free (std::merge and std::inplace_merge branch on every
// comparison, which random keys mispredict half the time), in four independent chains where the
// output overlaps neither input (merge_four_chains). Runs land in a `received` buffer and the
// result goes to a separate `destination`; inner merges alternate between `received` and a scratch
// buffer allocated only when a merge needs it (from p = 3 on). All three buffers share one layout:
// a range of sources occupies the same offsets in each. A merge may write into the buffer that
// holds one of its two inputs, since that input lies at one end of the output: merging from the
// other end never overwrites an element not yet read. This lets one run (`resident`) stay where it
// already is in the destination, and a range whose other half is empty is not moved.
//
// Map: merge_forward and merge_backward (one chain, either may overlap an input); ChainPair and
// merge_four_chains (out of place); RunBuffer and RunMergePlacement; RunMergeTree.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/check.hpp>
#include <dash/core/detail/scratch_buffer.hpp>

namespace dash::detail {

// Merges the sorted ranges [a, a_end) and [b, b_end) into out, stably (a first on equal keys).
// out may be where [b, b_end) ends up (then out + (a_end - a) == b), never inside [a, a_end).
// Branch-free: the comparison selects the element and advances one of the inputs.
template <class T, class Less>
void merge_forward(const T* a, const T* a_end, const T* b, const T* b_end, T* out, Less& less) {
  while (a != a_end && b != b_end) {
    const bool take_b = less(*b, *a);
    *out = take_b ? *b : *a;
    ++out;
    a += static_cast<std::ptrdiff_t>(!take_b);
    b += static_cast<std::ptrdiff_t>(take_b);
  }
  if (a != a_end) {
    std::copy(a, a_end, out);
  } else if (out != b) {
    std::copy(b, b_end, out);
  }
}

// The same merge filled from the back, ending at out_end. [a, a_end) may be where it ends up (then
// a_end + (b_end - b) == out_end); out_end never inside [b, b_end).
template <class T, class Less>
void merge_backward(const T* a, const T* a_end, const T* b, const T* b_end, T* out_end, Less& less) {
  while (a != a_end && b != b_end) {
    const bool take_a = less(*(b_end - 1), *(a_end - 1));
    --out_end;
    *out_end = take_a ? *(a_end - 1) : *(b_end - 1);
    a_end -= static_cast<std::ptrdiff_t>(take_a);
    b_end -= static_cast<std::ptrdiff_t>(!take_a);
  }
  if (b != b_end) {
    std::copy_backward(b, b_end, out_end);
  } else if (out_end != a_end) {
    std::copy_backward(a, a_end, out_end);
  }
}

// Two chains of one merge into an output that overlaps neither input: `front` takes the least
// remaining element from the front, `back` the greatest from the back. A single branch-free merge
// waits for each comparison before its next loads (37 ms for two runs of 2^22 doubles here);
// independent chains interleaved in one loop overlap those waits. Steps come in blocks of at most
// half the smaller gap left between the chains in either input, so the chains never pass each
// other whatever `less` does: the output is a permutation of the inputs even under an order that
// is not strict weak (NaN keys). merge_forward merges what lies between them at the end.
template <class T>
struct ChainPair {
  const T* front_a;
  const T* front_b;
  const T* back_a;
  const T* back_b;
  T* front_out;
  T* back_out;

  std::ptrdiff_t safe_steps() const { return std::min(back_a - front_a, back_b - front_b) / 2; }

  template <class Less>
  [[gnu::always_inline]] void step(Less& less) {
    const bool front_takes_b = less(*front_b, *front_a);
    *front_out = front_takes_b ? *front_b : *front_a;
    ++front_out;
    front_a += static_cast<std::ptrdiff_t>(!front_takes_b);
    front_b += static_cast<std::ptrdiff_t>(front_takes_b);
    const bool back_takes_a = less(*(back_b - 1), *(back_a - 1));
    --back_out;
    *back_out = back_takes_a ? *(back_a - 1) : *(back_b - 1);
    back_a -= static_cast<std::ptrdiff_t>(back_takes_a);
    back_b -= static_cast<std::ptrdiff_t>(!back_takes_a);
  }

  template <class Less>
  void finish(Less& less) {
    for (std::ptrdiff_t steps = safe_steps(); steps != 0; steps = safe_steps()) {
      for (std::ptrdiff_t i = 0; i < steps; ++i) {
        step(less);
      }
    }
    merge_forward(front_a, back_a, front_b, back_b, front_out, less);
  }
};

// merge_forward's result in four chains (10 ms for the runs above, where two chains took 19 ms;
// eight measured no faster): a
// binary search splits the output at its middle (the first half holds a's first i elements and
// b's first k - i, with a first on equal keys), and each half is merged by a pair of chains, both
// pairs stepping in one loop.
template <class T, class Less>
void merge_four_chains(const T* a, const T* a_end, const T* b, const T* b_end, T* out, Less& less) {
  const auto a_size = static_cast<std::size_t>(a_end - a);
  const auto b_size = static_cast<std::size_t>(b_end - b);
  const std::size_t half = (a_size + b_size) / 2;
  std::size_t low = half > b_size ? half - b_size : 0;
  std::size_t high = std::min(half, a_size);
  while (low < high) {
    const std::size_t i = low + (high - low) / 2;
    if (less(b[half - i - 1], a[i])) {
      high = i;
    } else {
      low = i + 1;
    }
  }
  const T* a_middle = a + low;
  const T* b_middle = b + (half - low);
  ChainPair<T> first{a, b, a_middle, b_middle, out, out + half};
  ChainPair<T> second{a_middle, b_middle, a_end, b_end, out + half, out + (a_size + b_size)};
  for (std::ptrdiff_t steps = std::min(first.safe_steps(), second.safe_steps()); steps != 0;
       steps = std::min(first.safe_steps(), second.safe_steps())) {
    for (std::ptrdiff_t i = 0; i < steps; ++i) {
      first.step(less);
      second.step(less);
    }
  }
  first.finish(less);
  second.finish(less);
}

// Where a run, or a merged range of runs, lies.
enum class RunBuffer : std::uint8_t { received, scratch, destination };

struct RunMergePlacement {
  static constexpr std::size_t no_source = static_cast<std::size_t>(-1);
  // The source whose run is already in the destination at its offsets (it never lands in `received`).
  std::size_t resident = no_source;
  // The destination is still being read (the exchange's send buffer): the final merge, the only one
  // that writes there, waits for finish().
  bool destination_busy = false;
};

template <class T, class Less>
class RunMergeTree {
public:
  // Run s has run_sizes[s] elements; it lands at offset run_sizes[0] + ... + run_sizes[s - 1] of
  // `received` and is sorted by `less` once it has landed completely. `received` and `destination`
  // have room for all runs and do not overlap.
  RunMergeTree(std::span<T> received, std::span<T> destination, std::span<const std::size_t> run_sizes, Less less,
               RunMergePlacement placement = {})
      : received_(received),
        destination_(destination),
        less_(std::move(less)),
        placement_(placement),
        start_(run_sizes.size() + 1, 0),
        missing_(run_sizes.begin(), run_sizes.end()),
        leaf_(run_sizes.size(), 0) {
    for (std::size_t s = 0; s < run_sizes.size(); ++s) {
      start_[s + 1] = start_[s] + run_sizes[s];
    }
    assert_that(start_.back() == received.size() && start_.back() == destination.size(),
                "dash::detail::RunMergeTree: run sizes do not add up to the buffers");
    assert_that(placement.resident == RunMergePlacement::no_source || placement.resident < run_sizes.size(),
                "dash::detail::RunMergeTree: the resident run is not one of the sources");
    if (!run_sizes.empty()) {
      nodes_.reserve(2 * run_sizes.size() - 1);
      build(0, run_sizes.size(), none);
    }
    if (placement.resident != RunMergePlacement::no_source) {
      nodes_[leaf_[placement.resident]].where = RunBuffer::destination;
      missing_[placement.resident] = 0;
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

  // Every run has landed (some possibly unreported, e.g. a member's block to itself) and the
  // destination is free: merges the rest into it.
  void finish() {
    for (std::size_t s = 0; s < missing_.size(); ++s) {
      if (missing_[s] != 0) {
        missing_[s] = 0;
        complete(s);
      }
    }
    placement_.destination_busy = false;
    if (!nodes_.empty() && !nodes_.front().complete) {
      merge(0);
    }
  }

  // The destination holds all runs merged.
  bool done() const noexcept { return nodes_.empty() || nodes_.front().complete; }

private:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // Sources [first, last); an inner node's children split them at `middle`. `where` holds the
  // node's elements once it is complete.
  struct Node {
    std::size_t first = 0;
    std::size_t middle = 0;
    std::size_t last = 0;
    std::size_t parent = none;
    std::size_t left = none;
    std::size_t right = none;
    bool complete = false;
    RunBuffer where = RunBuffer::received;
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
    if (node != 0) {
      nodes_[node].complete = true;
      node = nodes_[node].parent;
    }
    for (; node != none; node = nodes_[node].parent) {
      const Node& up = nodes_[node];
      if ((up.left != none && (!nodes_[up.left].complete || !nodes_[up.right].complete)) ||
          (node == 0 && placement_.destination_busy)) {
        return;
      }
      merge(node);
    }
  }

  T* buffer(RunBuffer where) {
    switch (where) {
      case RunBuffer::received:
        return received_.data();
      case RunBuffer::scratch:
        if (!scratch_) {
          scratch_ = make_scratch<T>(received_.size());
        }
        return scratch_.get();
      case RunBuffer::destination:
        break;
    }
    return destination_.data();
  }

  // Merges the two children of `index` (both complete) into one buffer; the root's goes to the
  // destination. An inner merge writes to `received` unless both inputs are there.
  void merge(std::size_t index) {
    Node& node = nodes_[index];
    const bool root = index == 0;
    const std::size_t first = start_[node.first];
    const std::size_t middle = start_[node.middle];
    const std::size_t last = start_[node.last];
    // A leaf (the root of a single source) is its own merged range, where it landed.
    if (node.left != none && (middle == first || middle == last)) {
      // One side is empty: the other is the merged range, wherever it is.
      node.where = nodes_[middle == first ? node.right : node.left].where;
    } else if (node.left != none) {
      const RunBuffer left = nodes_[node.left].where;
      const RunBuffer right = nodes_[node.right].where;
      RunBuffer out = RunBuffer::received;
      if (root) {
        out = RunBuffer::destination;
      } else if (left == RunBuffer::received && right == RunBuffer::received) {
        out = RunBuffer::scratch;
      }
      const T* a = buffer(left);
      const T* b = buffer(right);
      T* target = buffer(out);
      if (!less_(b[middle], a[middle - 1])) {
        // Already in order: the merge is a concatenation.
        if (left != out) {
          std::copy(a + first, a + middle, target + first);
        }
        if (right != out) {
          std::copy(b + middle, b + last, target + middle);
        }
      } else if (left != out && right != out) {
        merge_four_chains(a + first, a + middle, b + middle, b + last, target + first, less_);
      } else if (const RunBuffer other = left == out ? right : left; other != RunBuffer::destination) {
        // One input lies where the output goes. The other input's buffer is free at that input's
        // offsets (its data there was merged earlier, or never landed: a resident run), so the
        // input moves there and the chains merge out of place: a copy costs far less than the
        // single chain saves (2^22 doubles: 2.2 ms).
        T* moved = buffer(other);
        if (left == out) {
          std::copy(a + first, a + middle, moved + first);
          merge_four_chains(moved + first, moved + middle, b + middle, b + last, target + first, less_);
        } else {
          std::copy(b + middle, b + last, moved + middle);
          merge_four_chains(a + first, a + middle, moved + middle, moved + last, target + first, less_);
        }
      } else if (left == out) {
        // The other input is resident in the destination, which may still be the exchange's send
        // buffer: merge in place with a single chain.
        merge_backward(a + first, a + middle, b + middle, b + last, target + last, less_);
      } else {
        merge_forward(a + first, a + middle, b + middle, b + last, target + first, less_);
      }
      node.where = out;
    }
    if (root && node.where != RunBuffer::destination) {
      const T* from = buffer(node.where);
      std::copy(from + first, from + last, destination_.data() + first);
      node.where = RunBuffer::destination;
    }
    node.complete = true;
  }

  std::span<T> received_;
  std::span<T> destination_;
  Less less_;
  RunMergePlacement placement_;
  Scratch<T> scratch_;
  std::vector<std::size_t> start_;    // start_[s]: where source s's run begins; start_[p] = the size
  std::vector<std::size_t> missing_;  // elements of each run still to land
  std::vector<std::size_t> leaf_;     // each source's node
  std::vector<Node> nodes_;           // nodes_[0] is the root
};

}  // namespace dash::detail
