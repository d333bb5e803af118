#pragma once
// Internal: the rank/size shown in log prefixes, set by dash::init and cleared by dash::finalize.

namespace dash::comm::detail {

void set_log_identity(int rank, int size) noexcept;
void clear_log_identity() noexcept;

}  // namespace dash::comm::detail
