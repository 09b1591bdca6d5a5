#include "model/core/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "model/core/text_escape.h"

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

// Builds the document from nlohmann's SAX events, checking as it goes: nesting deeper than
// kMaxJsonDepth, a key named twice in one object (found in the object being built, no second
// set), a number beyond the range of a double. Linear in the input: nlohmann 3.11's callback
// parser rescans the enclosing array whenever an object in it closes (quadratic: 10^6 board
// tiles took minutes).
class DomBuilder {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  json& root() { return root_; }
  const std::string& pointer() const { return failure_pointer_; }
  const std::string& failure() const { return failure_; }

  bool null() { return Value(nullptr); }
  bool boolean(bool v) { return Value(v); }
  bool number_integer(number_integer_t v) { return Value(v); }
  bool number_unsigned(number_unsigned_t v) { return Value(v); }
  bool number_float(number_float_t v, const string_t&) { return Value(v); }
  bool string(string_t& v) { return Value(std::move(v)); }
  bool binary(binary_t& v) { return Value(json::binary(std::move(v))); }

  bool start_object(std::size_t) { return Open(json::value_t::object); }
  bool start_array(std::size_t) { return Open(json::value_t::array); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }

  bool key(string_t& k) {
    Frame& f = stack_.back();
    auto [it, inserted] = f.value->get_ref<json::object_t&>().emplace(k, nullptr);
    f.key = &it->first;
    if (!inserted) {
      // The pointer names the repeated key.
      return Fail("duplicate key \"" + k.substr(0, 100) + "\"");
    }
    f.slot = &it->second;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const json::exception& e) {
    if (e.id == 406) {
      // A number beyond the range of a double (1e400, a 100,000-digit integer).
      return Fail(std::string("number out of range (") + e.what() + ")");
    }
    std::string msg = e.what();
    if (auto p = msg.find("parse error"); p != std::string::npos) msg = msg.substr(p);
    failure_pointer_ = "/";
    // nlohmann quotes the bytes last read: one that is not UTF-8 is written \xNN.
    failure_ = "malformed JSON: " + DisplayName(msg);
    return false;
  }

 private:
  // One per open object or array: the pointer to it, and where its next member goes.
  struct Frame {
    json* value;
    size_t index = 0;                  // arrays: index of the element being read
    const std::string* key = nullptr;  // objects: the key being read
    json* slot = nullptr;              // objects: the member of that key
  };

  // Puts a complete value where the innermost open container expects it.
  json* Place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      auto& a = f.value->get_ref<json::array_t&>();
      a.push_back(std::move(v));
      return &a.back();
    }
    *f.slot = std::move(v);
    return f.slot;
  }
  bool Value(json&& v) {
    Place(std::move(v));
    Next();
    return true;
  }
  bool Open(json::value_t type) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
      return Fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    json* v = Place(json(type));
    stack_.push_back({v});
    return true;
  }
  bool Close() {
    stack_.pop_back();
    Next();
    return true;
  }
  // After a complete value inside an array, move to the next index.
  void Next() {
    if (!stack_.empty() && stack_.back().value->is_array()) ++stack_.back().index;
  }
  bool Fail(std::string what) {
    failure_pointer_ = Pointer();
    failure_ = std::move(what);
    return false;
  }
  // The pointer of the value being read; long pointers (hostile keys) are cut.
  std::string Pointer() const {
    std::string out;
    for (const Frame& f : stack_) {
      out += "/" + (f.value->is_array() ? std::to_string(f.index)
                    : f.key             ? Escape(*f.key)
                                        : std::string());
      if (out.size() > 300) return out.substr(0, 300) + "...";
    }
    return out.empty() ? "/" : out;
  }

  json root_;
  std::vector<Frame> stack_;
  std::string failure_pointer_;
  std::string failure_;
};

}  // namespace

StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes) {
  const std::string name = DisplayName(path);
  std::string out;
  int err = 0;
  if (path == "-") {
    if (!ReadAll(STDIN_FILENO, max_bytes, out, err))
      return Status(ErrorCode::kNoInput,
                    std::string("<stdin>: cannot read: ") + std::strerror(err));
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
                                             ":/: the input is larger than the " + MiB(max_bytes) +
                                             " input limit");
  return out;
}

StatusOr<json> ParseJsonText(const std::string& text, const std::string& source) {
  DomBuilder dom;
  if (!json::sax_parse(text, &dom, json::input_format_t::json, /*strict=*/true))
    return Status(ErrorCode::kMalformed, source + ":" + dom.pointer() + ": " + dom.failure());
  return std::move(dom.root());
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
  return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
         got;
}

std::string DisplayName(const std::string& path) { return EscapeControls(path); }

}  // namespace carc::model
