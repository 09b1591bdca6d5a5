// `carc render --png` and `carc adjudicate --png` draw the PNG in the carc process itself: a
// copy of the binary alone in a folder (no other carc binary beside it) writes a PNG.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A build without librsvg answers --png with exit 69 naming it (model/render/png.cc).
bool HaveLibrsvg(const fs::path& carc, const fs::path& dir) {
  const fs::path err = dir / "probe.err";
  const int status = std::system((carc.string() + " render " + CARC_SOURCE_DIR +
                                  "/fixtures/examples/who_scores_the_city.position.json --png " +
                                  (dir / "probe.png").string() + " -o /dev/null 2>" + err.string())
                                     .c_str());
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 69 &&
           Slurp(err).find("librsvg") != std::string::npos);
}

int Shell(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class PngCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("carc_png_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(CARC_BINARY, dir_ / "carc");
    if (!HaveLibrsvg(dir_ / "carc", dir_)) {
      // .ci/bootstrap test sets CARC_REQUIRE_RSVG: there a build without librsvg fails.
      if (std::getenv("CARC_REQUIRE_RSVG")) FAIL() << "carc was built without librsvg";
      GTEST_SKIP() << "carc was built without librsvg";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const char* kExample = CARC_SOURCE_DIR "/fixtures/examples/who_scores_the_city.position.json";

// A PNG file: the 8-byte signature, then the IHDR chunk.
void ExpectPng(const fs::path& p) {
  const std::string png = Slurp(p);
  ASSERT_GT(png.size(), 33u) << p;
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
}

TEST_F(PngCli, RenderWritesPngWithNoSiblingBinary) {
  const fs::path out = dir_ / "pos.png";
  ASSERT_EQ(Shell((dir_ / "carc").string() + " render " + kExample + " --png " + out.string() +
                  " -o " + (dir_ / "pos.svg").string() + " >/dev/null 2>&1"),
            0);
  ExpectPng(out);
}

TEST_F(PngCli, AdjudicateWritesPngWithNoSiblingBinary) {
  const fs::path out = dir_ / "ruling.png";
  // The example's claim is upheld: exit 0, the ruling drawn.
  ASSERT_EQ(Shell((dir_ / "carc").string() + " adjudicate " + kExample + " --png " + out.string() +
                  " >/dev/null 2>&1"),
            0);
  ExpectPng(out);
}

}  // namespace
