#include "moreau/io/os/interrupt_guard.hpp"

#include <signal.h>  // sigaction, pthread_sigmask

#include <csignal>

namespace moreau {
namespace {

StopRequest g_stop{false};
volatile std::sig_atomic_t g_signal = 0;
struct sigaction g_previous_int, g_previous_term;

// First signal: request the stop. Second: the default action (the program ends at once).
void on_signal(int sig) {
  if (g_signal != 0) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  g_signal = sig;
  g_stop.store(true);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  static_assert(StopRequest::is_always_lock_free, "a signal handler may only set a lock-free flag");
  g_stop.store(false);
  g_signal = 0;
  struct sigaction action = {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

const StopRequest* InterruptGuard::stop_request() const { return &g_stop; }

int InterruptGuard::signal_received() const { return g_signal; }

void InterruptGuard::hold_signals(const std::function<void()>& work) const {
  sigset_t held, previous;
  sigemptyset(&held);
  sigaddset(&held, SIGINT);
  sigaddset(&held, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &held, &previous);
  try {
    work();
  } catch (...) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    throw;
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace moreau
