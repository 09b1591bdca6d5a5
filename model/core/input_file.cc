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

  explicit DomBuilder(CompactBoard* board) : board_(board) {}

  json& root() { return root_; }
  const std::string& pointer() const { return failure_pointer_; }
  const std::string& failure() const { return failure_; }

  // A value a record cannot hold goes to the document (Place makes the element an object).
  bool null() { return Value(nullptr); }
  bool boolean(bool v) { return Value(v); }
  bool number_integer(number_integer_t v) { return Compact() && Record(v) ? Next() : Value(v); }
  bool number_unsigned(number_unsigned_t v) {
    return Compact() && v <= static_cast<uint64_t>(kMaxJsonInt) && Record(static_cast<int64_t>(v))
               ? Next()
               : Value(v);
  }
  bool number_float(number_float_t v, const string_t&) { return Value(v); }
  bool string(string_t& v) {
    if (Compact() && v.size() == 1 && cur_ == 0) {
      board_->tiles.back().tile = v[0];
      return Next();
    }
    return Value(std::move(v));
  }
  bool binary(binary_t& v) { return Value(json::binary(std::move(v))); }

  bool start_object(std::size_t) { return Open(json::value_t::object); }
  bool start_array(std::size_t) { return Open(json::value_t::array); }
  bool end_object() {
    // A record without its tile, x or y goes to the document, whose reader names what is
    // missing.
    if (!stack_.empty() && stack_.back().compact && (have_ & 7) != 7) Materialize();
    return Close();
  }
  bool end_array() { return Close(); }

  bool key(string_t& k) {
    Frame& f = stack_.back();
    if (f.compact) {
      int i = 0;
      while (i < 4 && k != kBoardKeys[i]) ++i;
      if (i < 4 && (have_ >> i & 1)) {
        f.key = &kBoardKeys[i];
        return Fail("duplicate key \"" + k.substr(0, 100) + "\"");
      }
      if (i < 4) {
        have_ |= 1 << i;
        cur_ = i;
        pending_ = true;
        f.key = &kBoardKeys[i];
        return true;
      }
      Materialize();  // a key the plain form does not have: the element as read
    }
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
  static inline const std::string kBoardKeys[4] = {"tile", "x", "y", "rotation"};

  // One per open object or array: the pointer to it, and where its next member goes.
  struct Frame {
    json* value;
    size_t index = 0;                  // arrays: index of the element being read
    const std::string* key = nullptr;  // objects: the key being read
    json* slot = nullptr;              // objects: the member of that key
    bool board = false;                // the top-level "board" array read into board_
    bool compact = false;              // an element of it read as a record (value: null)
  };

  // Inside an element of the board being read as a record (a value of key cur_ follows).
  bool Compact() const { return !stack_.empty() && stack_.back().compact; }
  // x, y (within kMaxJsonInt) or rotation (0, 90, 180, 270) into the record; false: the value
  // goes to the document (Materialize first).
  bool Record(int64_t v) {
    BoardRecord& r = board_->tiles.back();
    if (cur_ == 1 && v >= -kMaxJsonInt && v <= kMaxJsonInt)
      return r.x = static_cast<int32_t>(v), true;
    if (cur_ == 2 && v >= -kMaxJsonInt && v <= kMaxJsonInt)
      return r.y = static_cast<int32_t>(v), true;
    if (cur_ == 3 && v >= 0 && v <= 270 && v % 90 == 0)
      return r.rotation = static_cast<uint8_t>(v / 90), true;
    Materialize();
    return false;
  }
  // The element read so far as the document's object (its members in the types the parser
  // gives: a non-negative integer is unsigned), then read on as any other value.
  void Materialize() {
    Frame& f = stack_.back();
    BoardRecord& r = board_->tiles.back();
    auto number = [](int64_t v) { return v >= 0 ? json(static_cast<uint64_t>(v)) : json(v); };
    json o = json::object();
    for (int i = 0; i < 4; ++i) {
      if (!(have_ >> i & 1) || (i == cur_ && pending_)) continue;
      o[kBoardKeys[i]] = i == 0   ? json(std::string(1, r.tile))
                         : i == 1 ? number(r.x)
                         : i == 2 ? number(r.y)
                                  : number(r.rotation * 90);
    }
    *f.value = std::move(o);
    f.compact = false;
    r.in_doc = true;
    if (pending_) {
      // The key whose value is being read: its member, for Place.
      auto it = f.value->get_ref<json::object_t&>().emplace(kBoardKeys[cur_], nullptr).first;
      f.key = &it->first;
      f.slot = &it->second;
    }
  }

  // Puts a complete value where the innermost open container expects it.
  json* Place(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.compact) Materialize();
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
    return Next();
  }
  bool Open(json::value_t type) {
    if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
      return Fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    const bool element = !stack_.empty() && stack_.back().board;
    if (element && type == json::value_t::object) {
      // An element of the board: a record unless it turns out otherwise (null holds its
      // place in the document's array).
      json* v = Place(json());
      board_->tiles.emplace_back();
      have_ = 0;
      pending_ = false;
      stack_.push_back({v});
      stack_.back().compact = true;
      return true;
    }
    if (element) board_->tiles.emplace_back().in_doc = true;
    const bool board = board_ && type == json::value_t::array && stack_.size() == 1 &&
                       stack_[0].value->is_object() && stack_[0].key && *stack_[0].key == "board";
    json* v = Place(json(type));
    stack_.push_back({v});
    if (board) {
      stack_.back().board = true;
      board_->read = true;
      board_->tiles.clear();
    }
    return true;
  }
  bool Close() {
    stack_.pop_back();
    return Next();
  }
  // After a complete value inside an array, move to the next index; after a value of a
  // record's key, no value is pending.
  bool Next() {
    pending_ = false;
    if (!stack_.empty() && stack_.back().value->is_array()) {
      ++stack_.back().index;
      // A scalar element of the board (not an object): the document's, as read.
      if (stack_.back().board && board_->tiles.size() < stack_.back().index)
        board_->tiles.emplace_back().in_doc = true;
    }
    return true;
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
                    : f.key             ? JsonPointerToken(*f.key)
                                        : std::string());
      if (out.size() > 300) return out.substr(0, 300) + "...";
    }
    return out.empty() ? "/" : out;
  }

  json root_;
  std::vector<Frame> stack_;
  std::string failure_pointer_;
  std::string failure_;
  CompactBoard* board_;
  int have_ = 0;          // the keys of the record being read (bit i: kBoardKeys[i])
  int cur_ = -1;          // the key whose value comes next
  bool pending_ = false;  // a value of cur_ is being read
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
    out.reserve(static_cast<size_t>(st.st_size) + 1);  // read once in place, not regrown
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

StatusOr<json> ParseJsonText(const std::string& text, const std::string& source,
                             CompactBoard* board) {
  if (board) *board = CompactBoard();
  // nlohmann's lexer takes a NUL byte for the end of the input: "{...}\0{...}" would be read as
  // its first value and the rest dropped unread. JSON text holds no raw NUL anywhere.
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    return Status(ErrorCode::kMalformed,
                  source + ":/: a NUL byte at byte " + std::to_string(nul + 1) +
                      ": JSON text holds none (nothing after it would be read)");
  DomBuilder dom(board);
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

std::string JsonPointerToken(const std::string& key) {
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

}  // namespace carc::model
