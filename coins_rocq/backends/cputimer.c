/* Make ITIMER_REAL count the process's CPU time (LD_PRELOAD shim for the prover).
 *
 * Rocq's `timeout` and `Timeout` arm ITIMER_REAL with setitimer and read it back with
 * getitimer (nested timeouts save and restore the time left), and raise on SIGALRM. This
 * shim answers both calls from one POSIX timer on CLOCK_PROCESS_CPUTIME_ID that delivers
 * SIGALRM, so every Rocq timeout counts the prover's own CPU time, however busy the
 * machine is. Other timers go to the C library unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#if defined(__GLIBC__) && defined(__USE_GNU)
typedef __itimer_which_t which_t; /* glibc declares the timer's kind as an enum under _GNU_SOURCE */
#else
typedef int which_t;
#endif

typedef int (*setitimer_fn)(which_t, const struct itimerval *, struct itimerval *);
typedef int (*getitimer_fn)(which_t, struct itimerval *);

static timer_t cpu_timer;
static pid_t cpu_timer_pid;

static int ensure_timer(void) {
  if (cpu_timer_pid == getpid()) return 0;
  struct sigevent event;
  memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGALRM;
  if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &event, &cpu_timer) != 0) return -1;
  cpu_timer_pid = getpid();
  return 0;
}

static void to_spec(const struct timeval *from, struct timespec *to) {
  to->tv_sec = from->tv_sec;
  to->tv_nsec = (long)from->tv_usec * 1000L;
}

static void to_val(const struct timespec *from, struct timeval *to) {
  to->tv_sec = from->tv_sec;
  to->tv_usec = from->tv_nsec / 1000L;
  if (to->tv_sec == 0 && to->tv_usec == 0 && from->tv_nsec > 0) to->tv_usec = 1;
}

static void to_itimerval(const struct itimerspec *from, struct itimerval *to) {
  to_val(&from->it_value, &to->it_value);
  to_val(&from->it_interval, &to->it_interval);
}

int getitimer(which_t which, struct itimerval *current) {
  if (which != ITIMER_REAL) {
    getitimer_fn next = (getitimer_fn)dlsym(RTLD_NEXT, "getitimer");
    return next ? next(which, current) : (errno = ENOSYS, -1);
  }
  struct itimerspec now;
  if (ensure_timer() != 0 || timer_gettime(cpu_timer, &now) != 0) return -1;
  to_itimerval(&now, current);
  return 0;
}

int setitimer(which_t which, const struct itimerval *restrict value, struct itimerval *restrict old) {
  if (which != ITIMER_REAL) {
    setitimer_fn next = (setitimer_fn)dlsym(RTLD_NEXT, "setitimer");
    return next ? next(which, value, old) : (errno = ENOSYS, -1);
  }
  struct itimerspec wanted, before;
  if (ensure_timer() != 0) return -1;
  to_spec(&value->it_value, &wanted.it_value);
  to_spec(&value->it_interval, &wanted.it_interval);
  if (timer_settime(cpu_timer, 0, &wanted, &before) != 0) return -1;
  if (old) to_itimerval(&before, old);
  return 0;
}
