// The hostile-input table (adjudicator/hostile_cases.json): every entry an input, the command,
// its exit code worked out from the limits (adjudicator/docs/limits.md), a part of the message,
// and the CPU time and address space the command runs within. The bounds are rlimits of the
// child (ulimit), so a limit that does not hold ends in a signal or an allocation failure and
// shows as a wrong exit code, never as a timed assertion.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "adjudicator/run_carc.h"

namespace carc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;

json Table() {
  std::ifstream in(kRoot + "/adjudicator/hostile_cases.json");
  return json::parse(in);
}

// A string's code points below 256 as one byte each (bytes that are not UTF-8 in the table).
std::string Latin1(const std::string& utf8) {
  std::string out;
  for (size_t i = 0; i < utf8.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c == 0xC2 || c == 0xC3) {
      out += static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(utf8[++i]) & 0x3F));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The input's bytes (hostile_cases.json "about").
std::string InputBytes(const json& in, bool latin1) {
  if (in.contains("text")) {
    const std::string t = in["text"].get<std::string>();
    return latin1 ? Latin1(t) : t;
  }
  if (in.contains("json")) return in["json"].dump();
  if (in.contains("repeat")) {
    const json& r = in["repeat"];
    const std::string item = r["item"].get<std::string>();
    const size_t times = r["times"].get<size_t>();
    std::string out = r.value("head", "");
    out.reserve(out.size() + item.size() * times + 64);
    for (size_t i = 0; i < times; ++i) out += item;
    return out + r.value("tail", "");
  }
  std::ifstream f(kRoot + "/" + in["base"].get<std::string>(), std::ios::binary);
  json doc = json::parse(f);
  // "set" is optional: reading a missing key of a const json is undefined (it crashed).
  if (in.contains("set"))
    for (const auto& [pointer, value] : in["set"].items()) doc[json::json_pointer(pointer)] = value;
  return doc.dump();
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Bytes a terminal would act on: ESC, and C1 controls written in UTF-8 (U+0080..U+009F).
bool HoldsRawControl(const std::string& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '\x1b') return true;
    if (out[i] == '\xc2' && i + 1 < out.size() &&
        static_cast<unsigned char>(out[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(out[i + 1]) <= 0x9f)
      return true;
  }
  return false;
}

class HostileTable : public ::testing::TestWithParam<size_t> {};

TEST_P(HostileTable, AnswersWithItsExitCodeWithinItsBounds) {
  static const json table = Table();
  const json& c = table["cases"][GetParam()];
  const std::string what = c["finding"].get<std::string>() + ": " + c["name"].get<std::string>();
  std::string tmpl = (fs::temp_directory_path() / "carc-table-XXXXXX").string();
  const std::string dir = mkdtemp(tmpl.data());
  const std::string in = dir + "/input" + c.value("ext", std::string(".txt"));
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const bool latin1 = c.value("latin1", false);
  if (!c["input"].is_null()) {
    std::ofstream(in, std::ios::binary) << InputBytes(c["input"], latin1);
  }
  std::string cmd = "ulimit -v " + std::to_string(c["mem_mb"].get<int>() * 1024) +
                    "; ulimit -t " + std::to_string(c["cpu_s"].get<int>()) + "; " + kCarc;
  for (const json& w : c["args"]) {
    std::string word = w.get<std::string>();
    if (latin1) word = Latin1(word);
    word = Replace(Replace(Replace(word, "{in}", in), "{dir}", dir), "{fifo}", fifo);
    cmd += " " + ShellQuote(word);
  }
  cmd += " </dev/null";
  const testing::Result r = testing::Shell(cmd, /*merge_stderr=*/true);
  std::error_code ec;
  fs::remove_all(dir, ec);
  EXPECT_EQ(r.code, c["exit"].get<int>()) << what << "\n" << r.out.substr(0, 600);
  if (c.contains("says")) {
    EXPECT_NE(r.out.find(c["says"].get<std::string>()), std::string::npos)
        << what << "\n"
        << r.out.substr(0, 600);
  }
  EXPECT_FALSE(HoldsRawControl(r.out)) << what;
  EXPECT_EQ(r.out.find("type_error"), std::string::npos) << what << "\n" << r.out.substr(0, 600);
  EXPECT_EQ(r.out.find("internal error"), std::string::npos) << what << "\n" << r.out.substr(0, 600);
}

INSTANTIATE_TEST_SUITE_P(Cases, HostileTable, ::testing::Range<size_t>(0, Table()["cases"].size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           // The entry's finding and number: "notation_repeated_value_3".
                           static const json table = Table();
                           std::string name =
                               table["cases"][info.param]["finding"].get<std::string>() + "_" +
                               std::to_string(info.param);
                           for (char& ch : name)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace carc
