#pragma once
// Internal: the optional progress thread (DASH_PROGRESS_THREAD=1, docs/design.md §2 "Progress").
//
// It advances every attached collective in the background, so communication moves on while the
// application computes without calling test(). Collectives attach when they start and detach
// when they are destroyed; detach() returns only once the thread no longer touches the object.
// The thread spins (yielding) while work is attached and sleeps otherwise. It is bound to one
// processing unit of the process's binding (the last one, with hwloc), so on a process bound to
// several cores it leaves the first to the application.

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace dash::comm::detail {

// Work the thread can advance. progress_in_background() must not throw and must do nothing
// harmful once its work is complete; it returns true when the work needs no more progress.
class BackgroundWork {
public:
  virtual bool progress_in_background() noexcept = 0;

protected:
  ~BackgroundWork() = default;
};

class ProgressThread {
public:
  ProgressThread();
  ~ProgressThread();
  ProgressThread(const ProgressThread&) = delete;
  ProgressThread& operator=(const ProgressThread&) = delete;

  void attach(BackgroundWork& work);
  void detach(BackgroundWork& work);

  // Where the thread was bound, for logs and tests ("PU 1 (hwloc)", "not bound: ...").
  std::string binding() const;

private:
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<BackgroundWork*> attached_;
  bool stopping_ = false;
  std::string binding_;
  bool bound_ = false;
  std::thread thread_;
};

// The process's progress thread, or null when DASH_PROGRESS_THREAD is off. Started by dash::init
// and stopped by dash::finalize.
ProgressThread* progress_thread() noexcept;
void start_progress_thread();
void stop_progress_thread() noexcept;

}  // namespace dash::comm::detail
