#include "model/core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>
#include <vector>

namespace carc::model {

using nlohmann::json;

namespace {

// Reads fd to the end, or to max_bytes + 1 bytes (so that "too large" is seen).
bool ReadAll(int fd, size_t max_bytes, std::string& out, int& err) {
  char buf[1 << 16];
  while (out.size() <= max_bytes) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return false;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return true;
}

std::string MiB(size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// JSON pointer bookkeeping for the parse callback: one frame per open object or array.
struct Frame {
  bool array = false;
  size_t index = 0;  // arrays: index of the element being read
  std::string key;   // objects: the key being read
  std::unordered_set<std::string> keys;
};

std::string Escape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

// The pointer of the value being read; long pointers (hostile keys) are cut.
std::string Pointer(const std::vector<Frame>& stack) {
  std::string out;
  for (const Frame& f : stack) {
    out += "/" + (f.array ? std::to_string(f.index) : Escape(f.key));
    if (out.size() > 300) return out.substr(0, 300) + "...";
  }
  return out.empty() ? "/" : out;
}

struct ParseFailure {
  std::string pointer;
  std::string what;
};

// After a complete value (scalar, object or array) inside an array, move to the next index.
void NextElement(std::vector<Frame>& stack) {
  if (!stack.empty() && stack.back().array) ++stack.back().index;
}

}  // namespace

StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes) {
  const std::string name = DisplayName(path);
  std::string out;
  int err = 0;
  if (path == "-") {
    if (!ReadAll(STDIN_FILENO, max_bytes, out, err))
      return Status(ErrorCode::kNoInput, std::string("<stdin>: cannot read: ") + std::strerror(err));
  } else {
    // O_NONBLOCK: opening a FIFO with no writer must not block; it is refused below.
    int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      return Status(ErrorCode::kNoInput,
                    name + ": cannot open the file (" + std::strerror(errno) + ")");
    struct stat st;
    if (fstat(fd, &st) != 0) {
      close(fd);
      return Status(ErrorCode::kNoInput, name + ": cannot read the file");
    }
    if (S_ISDIR(st.st_mode)) {
      close(fd);
      return Status(ErrorCode::kNoInput, name + ": is a directory, not a position file");
    }
    if (!S_ISREG(st.st_mode)) {
      close(fd);
      return Status(ErrorCode::kNoInput, name +
                                             ": not a regular file (a FIFO, device or socket); "
                                             "give a file, or - for stdin");
    }
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      close(fd);
      return Status(ErrorCode::kMalformed,
                    name + ":/: the file is larger than the " + MiB(max_bytes) + " input limit");
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    bool ok = ReadAll(fd, max_bytes, out, err);
    close(fd);
    if (!ok)
      return Status(ErrorCode::kNoInput,
                    name + ": cannot read the file (" + std::strerror(err) + ")");
  }
  if (out.size() > max_bytes)
    return Status(ErrorCode::kMalformed, (path == "-" ? std::string("<stdin>") : name) +
                                             ":/: the input is larger than the " +
                                             MiB(max_bytes) + " input limit");
  return out;
}

StatusOr<json> ParseJsonText(const std::string& text, const std::string& source) {
  std::vector<Frame> stack;
  auto cb = [&](int /*depth*/, json::parse_event_t ev, json& parsed) -> bool {
    switch (ev) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (static_cast<int>(stack.size()) >= kMaxJsonDepth)
          throw ParseFailure{Pointer(stack), "JSON nested deeper than " +
                                                 std::to_string(kMaxJsonDepth) + " levels"};
        stack.push_back({ev == json::parse_event_t::array_start, 0, {}, {}});
        break;
      case json::parse_event_t::key: {
        Frame& f = stack.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second)
          throw ParseFailure{Pointer(stack), "duplicate key \"" + f.key.substr(0, 100) + "\""};
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        stack.pop_back();
        NextElement(stack);
        break;
      case json::parse_event_t::value:
        NextElement(stack);
        break;
    }
    return true;
  };
  try {
    return json::parse(text, cb);
  } catch (const ParseFailure& f) {
    return Status(ErrorCode::kMalformed, source + ":" + f.pointer + ": " + f.what);
  } catch (const json::out_of_range& e) {
    // 406: a number beyond the range of a double (1e400, a 100,000-digit integer).
    return Status(ErrorCode::kMalformed,
                  source + ":" + Pointer(stack) + ": number out of range (" + e.what() + ")");
  } catch (const json::exception& e) {
    std::string msg = e.what();
    if (auto p = msg.find("parse error"); p != std::string::npos) msg = msg.substr(p);
    return Status(ErrorCode::kMalformed, source + ":/: malformed JSON: " + msg);
  }
}

std::optional<int> JsonInt(const json& j, int64_t lo, int64_t hi) {
  if (j.is_number_unsigned()) {
    const uint64_t u = j.get<uint64_t>();
    if (hi < 0 || u > static_cast<uint64_t>(hi) || static_cast<int64_t>(u) < lo)
      return std::nullopt;
    return static_cast<int>(u);
  }
  if (!j.is_number_integer()) return std::nullopt;
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) return std::nullopt;
  return static_cast<int>(v);
}

std::string JsonIntError(const json& j, int64_t lo, int64_t hi) {
  std::string got = j.is_number() ? j.dump() : std::string(j.type_name());
  if (got.size() > 40) got = got.substr(0, 40) + "...";
  return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
         ", got " + got;
}

std::string DisplayName(const std::string& path) {
  std::string out;
  auto hex = [&](unsigned char c) {
    static const char* d = "0123456789abcdef";
    out += "\\x";
    out += d[c >> 4];
    out += d[c & 15];
  };
  const auto* s = reinterpret_cast<const unsigned char*>(path.data());
  const size_t n = path.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    if (c < 0x20 || c == 0x7f) {
      hex(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    // Well-formed UTF-8 sequences (Unicode Table 3-7) are kept; anything else byte by byte.
    size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    bool ok = len > 0 && i + len <= n;
    if (ok) {
      unsigned char lo = 0x80, hi = 0xBF;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
      ok = s[i + 1] >= lo && s[i + 1] <= hi;
      for (size_t k = 2; ok && k < len; ++k) ok = s[i + k] >= 0x80 && s[i + k] <= 0xBF;
    }
    if (!ok) {
      hex(c);
      ++i;
      continue;
    }
    out.append(path, i, len);
    i += len;
  }
  return out;
}

}  // namespace carc::model
