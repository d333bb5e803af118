#include <dash/comm/layout.hpp>

#include <cstring>
#include <string>

#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/mpi_call.hpp>

namespace dash::comm {

namespace {

// `element_bytes` bytes as one MPI element, so a layout's counts are in elements.
MPI_Datatype element_type(std::size_t element_bytes, const char* function) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_contiguous(to_int_count(element_bytes, function, "element_bytes"), MPI_BYTE, &type),
            std::string(function) + ": MPI_Type_contiguous");
  return type;
}

}  // namespace

Layout::CommittedType::~CommittedType() {
  if (handle != MPI_DATATYPE_NULL) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) {
      MPI_Type_free(&handle);
    }
  }
}

Layout Layout::contiguous(std::size_t count, std::size_t element_bytes) {
  constexpr const char* function = "dash::comm::Layout::contiguous";
  if (element_bytes == 0) {
    throw invalid_argument(function, "element_bytes", element_bytes, "at least 1");
  }
  Layout layout;
  layout.element_bytes_ = element_bytes;
  layout.bytes_ = count * element_bytes;
  auto type = std::make_shared<CommittedType>();
  MPI_Datatype element = element_type(element_bytes, function);
  const int status = MPI_Type_contiguous(to_int_count(count, function, "count"), element, &type->handle);
  MPI_Type_free(&element);
  check_mpi(status, std::string(function) + ": MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&type->handle), std::string(function) + ": MPI_Type_commit");
  layout.type_ = std::move(type);
  return layout;
}

Layout Layout::box(std::span<const std::size_t> extents, std::span<const std::size_t> first,
                   std::span<const std::size_t> sizes, std::size_t element_bytes) {
  constexpr const char* function = "dash::comm::Layout::box";
  if (element_bytes == 0) {
    throw invalid_argument(function, "element_bytes", element_bytes, "at least 1");
  }
  if (first.size() != extents.size() || sizes.size() != extents.size() || extents.empty()) {
    throw invalid_argument(function, "first.size(), sizes.size()", std::to_string(first.size()) + ", " +
                               std::to_string(sizes.size()),
                           "both equal to extents.size() = " + std::to_string(extents.size()) + " (at least 1)");
  }
  std::vector<int> int_extents;
  std::vector<int> int_first;
  std::vector<int> int_sizes;
  std::size_t elements = 1;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    if (first[d] > extents[d] || sizes[d] > extents[d] - first[d]) {
      throw invalid_argument(function, "box in dimension " + std::to_string(d),
                             "[" + std::to_string(first[d]) + ", " + std::to_string(first[d] + sizes[d]) + ")",
                             "a range within the extent [0, " + std::to_string(extents[d]) + ")");
    }
    int_extents.push_back(to_int_count(extents[d], function, "extents"));
    int_first.push_back(static_cast<int>(first[d]));
    int_sizes.push_back(static_cast<int>(sizes[d]));
    elements *= sizes[d];
  }
  Layout layout;
  layout.extents_.assign(extents.begin(), extents.end());
  layout.first_.assign(first.begin(), first.end());
  layout.sizes_.assign(sizes.begin(), sizes.end());
  layout.element_bytes_ = element_bytes;
  layout.bytes_ = elements * element_bytes;
  auto type = std::make_shared<CommittedType>();
  MPI_Datatype element = element_type(element_bytes, function);
  int status = MPI_SUCCESS;
  if (elements == 0) {
    // MPI forbids empty subarrays; an empty box sends nothing.
    status = MPI_Type_contiguous(0, element, &type->handle);
  } else {
    status = MPI_Type_create_subarray(static_cast<int>(extents.size()), int_extents.data(), int_sizes.data(),
                                      int_first.data(), MPI_ORDER_C, element, &type->handle);
  }
  MPI_Type_free(&element);
  check_mpi(status, std::string(function) + ": MPI_Type_create_subarray");
  check_mpi(MPI_Type_commit(&type->handle), std::string(function) + ": MPI_Type_commit");
  layout.type_ = std::move(type);
  return layout;
}

void Layout::copy_to_contiguous(const std::byte* source, std::byte* destination) const {
  for_each_run([&](std::size_t offset, std::size_t length) {
    std::memcpy(destination, source + offset, length);
    destination += length;
  });
}

}  // namespace dash::comm
