// The carc process around Run (cli.h): standard error escaped, an escaped exception exits 70.
#include <exception>
#include <iostream>
#include <mutex>
#include <streambuf>
#include <string>

#include "adjudicator/cli.h"
#include "adjudicator/exit_codes.h"
#include "model/core/text_escape.h"

namespace carc::adjudicator {

namespace {

// Standard error with control characters escaped (model::EscapeControls, lines and tabs kept):
// a message quoting an input (an unknown key, a token, a name) never writes an escape sequence
// to the terminal. Text is passed on at each flush (std::cerr flushes after every output), less
// an unfinished UTF-8 sequence at its end, which waits for its next bytes. Lines, tabs and
// carriage returns (progress lines) pass.
class EscapingBuf : public std::streambuf {
 public:
  explicit EscapingBuf(std::streambuf* out) : out_(out) {}
  ~EscapingBuf() override { Emit(pending_); }

 protected:
  int_type overflow(int_type c) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (c != traits_type::eof()) pending_ += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.append(s, static_cast<size_t>(n));
    return n;
  }
  int sync() override {
    std::lock_guard<std::mutex> lock(mu_);
    size_t keep = 0;  // the bytes of a UTF-8 sequence that may go on in the next write
    for (size_t k = 1; k <= 3 && k <= pending_.size(); ++k) {
      const unsigned char c = static_cast<unsigned char>(pending_[pending_.size() - k]);
      if ((c & 0xC0) == 0x80) continue;
      const size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      if (c >= 0xC0 && len > k) keep = k;
      break;
    }
    std::string head = pending_.substr(0, pending_.size() - keep);
    pending_.erase(0, pending_.size() - keep);
    Emit(head);
    return out_->pubsync();
  }

 private:
  void Emit(const std::string& text) {
    if (text.empty()) return;
    const std::string safe = model::EscapeControls(text, /*keep_lines=*/true);
    out_->sputn(safe.data(), static_cast<std::streamsize>(safe.size()));
  }
  std::mutex mu_;  // the conform workers write from their own threads
  std::streambuf* out_;
  std::string pending_;
};

}  // namespace

int Main(int argc, char** argv) {
  EscapingBuf err(std::cerr.rdbuf());
  std::streambuf* const raw = std::cerr.rdbuf(&err);
  int code;
  try {
    code = Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc: internal error: " << e.what() << "\n";
    code = kExitInternal;
  }
  std::cerr.flush();
  std::cerr.rdbuf(raw);
  return code;
}

}  // namespace carc::adjudicator
