// detail::make_call (include/dash/comm/detail/collective_call.hpp).

#include <dash/comm/detail/collective_call.hpp>

namespace dash::comm::detail {

CollectiveCall make_call(std::string_view function, Coll collective, int root, bool commutative) {
  CollectiveCall call;
  call.function = function;
  call.collective = collective;
  call.root = root;
  call.commutative = commutative;
  return call;
}

}  // namespace dash::comm::detail
