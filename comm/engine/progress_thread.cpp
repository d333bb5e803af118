#include <memory>
#include <string>
#include <utility>

#include "engine/progress_thread.hpp"

#include <dash/comm/log.hpp>

#if DASH_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace dash::comm::detail {

namespace {

// Binds the calling thread to the last processing unit of the process's binding; says where.
std::string bind_calling_thread() {
#if DASH_HAVE_HWLOC
  hwloc_topology_t topology = nullptr;
  if (hwloc_topology_init(&topology) != 0) {
    return "not bound: hwloc_topology_init failed";
  }
  if (hwloc_topology_load(topology) != 0) {
    hwloc_topology_destroy(topology);
    return "not bound: hwloc_topology_load failed";
  }
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  std::string where;
  if (hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(set)) {
    hwloc_bitmap_copy(set, hwloc_topology_get_allowed_cpuset(topology));
  }
  const int last = hwloc_bitmap_last(set);
  const int candidates = hwloc_bitmap_weight(set);
  if (last < 0) {
    where = "not bound: the process has no processing unit to bind to";
  } else {
    hwloc_bitmap_only(set, static_cast<unsigned>(last));
    if (hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD) == 0) {
      where = "PU " + std::to_string(last) + " (hwloc, last of the process's " + std::to_string(candidates) +
              (candidates == 1 ? " PU: shared with the application)" : " PUs)");
    } else {
      where = "not bound: hwloc_set_cpubind failed";
    }
  }
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topology);
  return where;
#else
  return "not bound: dash was built without hwloc";
#endif
}

std::unique_ptr<ProgressThread>& instance() {
  static std::unique_ptr<ProgressThread> thread;
  return thread;
}

}  // namespace

ProgressThread::ProgressThread() {
  thread_ = std::thread([this] { run(); });
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [this] { return bound_; });
}

ProgressThread::~ProgressThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ProgressThread::attach(BackgroundWork& work) {
  {
    std::lock_guard lock(mutex_);
    attached_.push_back(&work);
  }
  wake_.notify_all();
}

void ProgressThread::detach(BackgroundWork& work) {
  std::lock_guard lock(mutex_);
  std::erase(attached_, &work);
}

std::string ProgressThread::binding() const {
  std::lock_guard lock(mutex_);
  return binding_;
}

void ProgressThread::run() {
  std::string where = bind_calling_thread();
  std::unique_lock lock(mutex_);
  binding_ = std::move(where);
  bound_ = true;
  wake_.notify_all();
  while (!stopping_) {
    if (attached_.empty()) {
      wake_.wait(lock);
      continue;
    }
    for (std::size_t i = 0; i < attached_.size();) {
      if (attached_[i]->progress_in_background()) {
        attached_[i] = attached_.back();
        attached_.pop_back();
      } else {
        ++i;
      }
    }
    // Let attach/detach and the application's own progress calls in between sweeps.
    lock.unlock();
    std::this_thread::yield();
    lock.lock();
  }
}

ProgressThread* progress_thread() noexcept { return instance().get(); }

void start_progress_thread() {
  instance() = std::make_unique<ProgressThread>();
  log(LogLevel::info, "progress thread started; ", instance()->binding());
}

void stop_progress_thread() noexcept { instance().reset(); }

}  // namespace dash::comm::detail
