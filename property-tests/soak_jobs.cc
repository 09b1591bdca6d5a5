// `carc fuzz --jobs N`: the soak's games on N worker processes (fork), merged into the result
// the same run gives on one (property-tests/README.md "Soak: `carc fuzz`"). Processes, not threads:
// the model keeps thread_local caches and function-local statics, and a worker that crashes is
// reported instead of taking the run down.
//
// The workers take the shard's games in order from a shared counter (the next game goes to the
// first worker free: game n depends only on the seed and n, so who plays it does not matter)
// and write one JSON line per game played (SoakGameJson with the checks' times) to a pipe, then
// {"done"}. A failing game's index goes to a shared minimum: no worker starts a game above it,
// every game below it was taken before it and is finished, and the parent keeps the games up to
// the lowest failing one, which it shrinks as one process would.
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

// Shared by the parent and its workers (an anonymous shared mapping).
struct Shared {
  std::atomic<long> next{0};                // the shard's next game to take (its j, not n)
  std::atomic<long> min_failing{LONG_MAX};  // the lowest failing game found
  std::atomic<long> current[kMaxSoakJobs];  // the game each worker took last (-1: none)
};

void WriteAll(int fd, const std::string& s) {
  for (size_t done = 0; done < s.size();) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(4);  // the parent is gone
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void Worker(const SoakOptions& opts, int w, int fd, Shared* shared) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  prctl(PR_SET_PDEATHSIG, SIGTERM);  // the parent killed outright: stop too
  std::atomic<long>* min_failing = &shared->min_failing;
  const long shards = std::max(opts.shards, 1);
  long taken = -1;  // the game this worker plays next
  auto take = [&] {
    taken = shared->next.fetch_add(1) * shards + opts.shard - 1;
    shared->current[w].store(taken);
  };
  take();
  int code = 0;
  try {
    std::optional<Failure> failure;
    PlayGames(
        opts,
        [&](long index) {
          if (index < taken) return false;
          if (index > taken) take();  // the last one was played
          return index == taken;
        },
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

// Worker w and where it stopped, for a message about it.
std::string Describe(const SoakOptions& opts, int w, const Slot& s, long current) {
  std::string d = "worker " + std::to_string(w + 1) + " of " + std::to_string(opts.jobs) + " (" +
                  std::to_string(s.played) + " games played)";
  if (current < 0 || current == s.last_index || (opts.games > 0 && current >= opts.games))
    return d + " after its last game";
  return d + " in game " + std::to_string(current) + " (that game alone: --games " +
         std::to_string(current + 1) + " --shard " + std::to_string(current + 1) + "/" +
         std::to_string(current + 1) + ")";
}

}  // namespace

SoakResult RunSoakJobs(const SoakOptions& opts, std::ostream& progress) {
  const auto t0 = Clock::now();
  auto since = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  progress.flush();
  std::fflush(nullptr);  // a forked worker must not flush the parent's buffers again
  void* mem =
      mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw SoakAborted(std::string("mmap: ") + std::strerror(errno), false);
  auto* shared = new (mem) Shared;
  for (std::atomic<long>& c : shared->current) c.store(-1);
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
      Worker(opts, w, fds[1], shared);
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
    if (!what.empty())
      errors += (errors.empty() ? "" : "\n") + Describe(opts, w, s, shared->current[w].load()) +
                " " + what;
  }
  g_worker_count = 0;
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  munmap(mem, sizeof(Shared));
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
