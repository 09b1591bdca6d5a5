// `carc fuzz --jobs N`: the soak's games on N worker processes (fork), merged into the result
// the same run gives on one (property-tests/README.md "Soak"). Processes, not threads: the model
// keeps thread_local caches and function-local statics, and a worker that crashes is reported
// instead of taking the run down.
//
// Worker w of N plays the j-th game of the shard when j % N == w, in index order, and writes one
// JSON line per game played (SoakGameJson with the checks' times) to its pipe, then {"done"}.
// A failing game's index goes to a shared minimum: no worker starts a game above it, and the
// parent keeps the games up to the lowest failing one, which it shrinks as one process would.
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include "property-tests/soak.h"

namespace carc::prop {
namespace {

using Clock = std::chrono::steady_clock;
static_assert(std::atomic<long>::is_always_lock_free, "shared between processes");

// For the signal handler: the workers to stop and the signal seen.
volatile sig_atomic_t g_signal = 0;
pid_t g_workers[kMaxSoakJobs];
volatile sig_atomic_t g_worker_count = 0;

void OnSignal(int sig) {
  g_signal = sig;
  for (int i = 0; i < g_worker_count; ++i)
    if (g_workers[i] > 0) kill(g_workers[i], SIGTERM);
}

// Whether worker w of opts.jobs plays game `index` (within opts' shard).
bool Mine(const SoakOptions& opts, int w, long index) {
  const long shards = std::max(opts.shards, 1);
  return index % shards == opts.shard - 1 && (index / shards) % opts.jobs == w;
}

void WriteAll(int fd, const std::string& s) {
  for (size_t done = 0; done < s.size();) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(4);  // the parent is gone
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void Worker(const SoakOptions& opts, int w, int fd, std::atomic<long>* min_failing) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  prctl(PR_SET_PDEATHSIG, SIGTERM);  // the parent killed outright: stop too
  int code = 0;
  try {
    std::optional<Failure> failure;
    PlayGames(
        opts, [&](long index) { return Mine(opts, w, index); },
        [&](long index) { return index > min_failing->load(); },
        [&](const SoakGame& g) {
          if (!g.failure.empty()) {
            long cur = min_failing->load();
            while (g.index < cur && !min_failing->compare_exchange_weak(cur, g.index)) {
            }
          }
          WriteAll(fd, SoakGameJson(g, /*with_seconds=*/true).dump() + "\n");
        },
        &failure);
    WriteAll(fd, "{\"done\":true}\n");
  } catch (const std::exception& e) {
    WriteAll(fd, nlohmann::json{{"error", e.what()}}.dump() + "\n");
    code = 3;
  }
  _exit(code);  // no static destructors, no second flush of the parent's buffers
}

struct Slot {
  pid_t pid = -1;
  int fd = -1;
  std::string buf;
  long last_index = -1;  // the last game it reported
  long played = 0;
  bool done = false;
  std::string error;  // a worker's exception, or a line that is not JSON
};

// The games worker w was given and where it stopped, for a message about it.
std::string Describe(const SoakOptions& opts, int w, const Slot& s) {
  const long stride = static_cast<long>(std::max(opts.shards, 1)) * opts.jobs;
  const long first = opts.shard - 1 + static_cast<long>(std::max(opts.shards, 1)) * w;
  std::string d = "worker " + std::to_string(w + 1) + " of " + std::to_string(opts.jobs) +
                  " (games n with n % " + std::to_string(stride) + " == " + std::to_string(first) +
                  "; " + std::to_string(s.played) + " of them played)";
  long next = s.last_index < 0 ? first : s.last_index + stride;
  if (opts.games > 0 && next >= opts.games) return d + " after its last game";
  return d + " in game " + std::to_string(next) + " (that game alone: --games " +
         std::to_string(next + 1) + " --shard " + std::to_string(next + 1) + "/" +
         std::to_string(next + 1) + ")";
}

}  // namespace

SoakResult RunSoakJobs(const SoakOptions& opts, std::ostream& progress) {
  const auto t0 = Clock::now();
  auto since = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  progress.flush();
  std::fflush(nullptr);  // a forked worker must not flush the parent's buffers again
  void* mem = mmap(nullptr, sizeof(std::atomic<long>), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw SoakAborted(std::string("mmap: ") + std::strerror(errno), false);
  auto* min_failing = new (mem) std::atomic<long>(LONG_MAX);
  struct sigaction on {
  }, old_int{}, old_term{};
  on.sa_handler = OnSignal;
  sigemptyset(&on.sa_mask);
  on.sa_flags = 0;  // no SA_RESTART: poll returns EINTR
  g_signal = 0;
  g_worker_count = 0;
  sigaction(SIGINT, &on, &old_int);
  sigaction(SIGTERM, &on, &old_term);
  std::vector<Slot> slots(static_cast<size_t>(opts.jobs));
  for (int w = 0; w < opts.jobs; ++w) {
    int fds[2];
    if (pipe(fds) != 0) throw SoakAborted(std::string("pipe: ") + std::strerror(errno), false);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      for (int v = 0; v < w; ++v) close(slots[static_cast<size_t>(v)].fd);
      Worker(opts, w, fds[1], min_failing);
    }
    close(fds[1]);
    if (pid < 0) {
      OnSignal(SIGTERM);
      throw SoakAborted(std::string("fork: ") + std::strerror(errno), false);
    }
    slots[static_cast<size_t>(w)].pid = pid;
    slots[static_cast<size_t>(w)].fd = fds[0];
    g_workers[w] = pid;
    g_worker_count = w + 1;
  }
  std::vector<SoakGame> games;
  long decisions = 0;
  double last_report = -1;
  for (;;) {
    std::vector<pollfd> open;
    std::vector<Slot*> of;
    for (Slot& s : slots)
      if (s.fd >= 0) {
        open.push_back({s.fd, POLLIN, 0});
        of.push_back(&s);
      }
    if (open.empty() || g_signal) break;
    if (poll(open.data(), open.size(), 500) < 0 && errno != EINTR)
      throw SoakAborted(std::string("poll: ") + std::strerror(errno), false);
    for (size_t i = 0; i < open.size(); ++i) {
      if (open[i].revents == 0) continue;
      Slot& s = *of[i];
      char chunk[65536];
      const ssize_t n = read(s.fd, chunk, sizeof chunk);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        close(s.fd);
        s.fd = -1;
        continue;
      }
      s.buf.append(chunk, static_cast<size_t>(n));
      for (size_t nl; (nl = s.buf.find('\n')) != std::string::npos; s.buf.erase(0, nl + 1)) {
        const auto j = nlohmann::json::parse(s.buf.substr(0, nl), nullptr, false);
        if (j.is_object() && j.contains("done")) {
          s.done = true;
        } else if (j.is_object() && j.contains("error")) {
          s.error = j["error"].is_string() ? j["error"].get<std::string>() : j.dump();
        } else {
          try {
            games.push_back(SoakGameFromJson(j));
          } catch (const nlohmann::json::exception& e) {
            s.error = std::string("a line that is not a game: ") + e.what();
            continue;
          }
          s.last_index = games.back().index;
          ++s.played;
          decisions += games.back().decisions;
        }
      }
    }
    if (since() - last_report >= 1.0) {
      last_report = since();
      progress << (opts.rewrite_progress ? "\r" : "") << "carc fuzz: " << games.size() << " games, "
               << decisions << " decisions, " << std::fixed << std::setprecision(1) << since()
               << " s, " << games.size() / std::max(since(), 1e-9) << " games/s (" << opts.jobs
               << " jobs)" << (opts.rewrite_progress ? "" : "\n") << std::flush;
    }
  }
  // Every worker has closed its pipe (or a signal came): collect them.
  std::string errors;
  for (int w = 0; w < opts.jobs; ++w) {
    Slot& s = slots[static_cast<size_t>(w)];
    if (g_signal) kill(s.pid, SIGTERM);
    int status = 0;
    while (waitpid(s.pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_workers[w] = -1;  // reaped: its pid may be reused
    // Ctrl-C reaches the workers (the terminal's process group) as well as this process.
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) g_signal = SIGINT;
    if (s.fd >= 0) close(s.fd);
    if (g_signal) continue;
    std::string what;
    if (WIFSIGNALED(status))
      what = "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
             strsignal(WTERMSIG(status)) + ")";
    else if (!s.error.empty())
      what = "failed: " + s.error;
    else if (WEXITSTATUS(status) != 0 || !s.done)
      what = "exited with status " + std::to_string(WEXITSTATUS(status)) + " before its end";
    if (!what.empty()) errors += (errors.empty() ? "" : "\n") + Describe(opts, w, s) + " " + what;
  }
  g_worker_count = 0;
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  munmap(mem, sizeof(std::atomic<long>));
  if (opts.rewrite_progress && (g_signal || !errors.empty())) progress << "\n";
  if (g_signal)
    throw SoakAborted("interrupted (signal " + std::to_string(g_signal) + "); stopped the " +
                          std::to_string(opts.jobs) + " workers after " +
                          std::to_string(games.size()) + " games",
                      true);
  if (!errors.empty()) throw SoakAborted(errors, false);
  // The games up to the lowest failing one, as one process plays them.
  long failing = LONG_MAX;
  for (const SoakGame& g : games)
    if (!g.failure.empty()) failing = std::min(failing, g.index);
  std::erase_if(games, [&](const SoakGame& g) { return g.index > failing; });
  SoakResult res = Summarize(std::move(games));
  if (failing != LONG_MAX) {
    const GameDraw draw = GameAt(opts, failing);
    const std::optional<Failure> f = SoakCheck(opts, Playout(draw.spec), draw.salt, nullptr);
    if (!f)
      throw SoakAborted("game " + std::to_string(failing) + " failed in a worker only", false);
    ShrinkAndWrite(opts, failing, *f, &res, progress);
  }
  res.seconds = since();
  if (opts.rewrite_progress) progress << "\n";
  return res;
}

}  // namespace carc::prop
