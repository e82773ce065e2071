#include "moreau/common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace moreau {
namespace {

// True on a pool worker and on a caller inside parallel_for: a nested loop then runs inline
// (a worker waiting for the pool it belongs to would never return).
thread_local bool inside_parallel_for = false;

// A pool of workers fed one loop at a time. The loop is published like a sequence lock: seq_ is
// odd while the fields are written and 2·g once loop g is complete; a worker reads the fields
// between two equal even values of seq_. Workers spin on seq_ for a while (a colour of a
// Gauss–Seidel sweep lasts microseconds), then sleep on the condition variable; the caller never
// holds the mutex while workers spin, so no worker waits for it on the fast path.
class WorkerPool {
 public:
  ~WorkerPool() {
    stop_.store(true);
    seq_.fetch_add(1);  // a write of no loop: the workers wake, see stop_ and return
    publish();
    for (auto& t : workers_) t.join();
  }

  // Runs body on chunk k for k = 0 … threads − 1, chunk 0 on the caller.
  void run(Index n, int threads, const RangeBody& body) {
    std::lock_guard<std::mutex> serial(run_mutex_);
    while (static_cast<int>(workers_.size()) < threads - 1) {
      const int id = static_cast<int>(workers_.size()) + 1;
      const long published = seq_.load();  // even: the loops before this one are not its
      workers_.emplace_back([this, id, published] { loop(id, published); });
    }
    pending_.store(threads - 1);
    seq_.fetch_add(1);  // odd: writing
    n_.store(n, std::memory_order_relaxed);
    threads_.store(threads, std::memory_order_relaxed);
    body_.store(&body, std::memory_order_relaxed);
    publish();
    chunk(n, threads, body, 0);
    while (pending_.load() > 0) std::this_thread::yield();
  }

 private:
  // Ends the write (seq_ even again) and wakes the sleeping workers.
  void publish() {
    seq_.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(mutex_); }  // a worker between its test and its wait
    wake_.notify_all();
  }

  static void chunk(Index n, int threads, const RangeBody& body, int k) {
    const Index begin = n * k / threads, end = n * (k + 1) / threads;
    if (begin < end) body(begin, end);
  }

  bool fresh(long s, long seen) const { return s % 2 == 0 && s != seen; }

  void loop(int id, long seen) {
    inside_parallel_for = true;
    for (;;) {
      long s = seq_.load(std::memory_order_acquire);
      for (int spin = 0; !fresh(s, seen) && spin < 100000; ++spin)
        s = seq_.load(std::memory_order_acquire);
      if (!fresh(s, seen)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return fresh(s = seq_.load(std::memory_order_acquire), seen); });
      }
      if (stop_.load()) return;
      const Index n = n_.load(std::memory_order_relaxed);
      const int threads = threads_.load(std::memory_order_relaxed);
      const RangeBody* body = body_.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (seq_.load(std::memory_order_relaxed) != s) continue;  // rewritten meanwhile: read again
      seen = s;
      if (id < threads) {
        chunk(n, threads, *body, id);
        pending_.fetch_sub(1);
      }
    }
  }

  std::mutex run_mutex_, mutex_;
  std::condition_variable wake_;
  std::vector<std::thread> workers_;
  std::atomic<long> seq_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  std::atomic<Index> n_{0};
  std::atomic<int> threads_{1};
  std::atomic<const RangeBody*> body_{nullptr};
};

}  // namespace

void parallel_for(Index n, int threads, const RangeBody& body) {
  threads = static_cast<int>(std::min<Index>(std::max(threads, 1), std::max<Index>(n, 1)));
  if (threads <= 1 || inside_parallel_for) {
    if (n > 0) body(0, n);
    return;
  }
  static WorkerPool pool;
  inside_parallel_for = true;
  pool.run(n, threads, body);
  inside_parallel_for = false;
}

int hardware_threads() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace moreau
