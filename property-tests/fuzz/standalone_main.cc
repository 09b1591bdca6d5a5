// A driver for the libFuzzer targets where clang's libFuzzer is not at hand (GCC builds,
// -DCARC_FUZZ_STANDALONE=ON): runs every file given (folders: every file in them) through
// LLVMFuzzerTestOneInput, then -runs=N mutated inputs (byte flips, dictionary-free splices,
// deep nesting and huge numbers spliced in) from a fixed -seed=S, printed for replay. It is no
// coverage-guided fuzzer: README.md says which figures came from which driver.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Optional, as in libFuzzer: called once before the first input when the target defines it.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

std::string Mutate(std::string s, std::mt19937_64& rng) {
  static const std::vector<std::string> splices = {
      std::string(100, '[') + std::string(100, ']'), "1e400", "18446744073709551615",
      "4294967296", "-9223372036854775809", "2147483647", "[]", "[0]", "{}", "\"\"", "null",
      "\"x\": 1, \"x\": 2", std::string(500, '9')};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 5) {
      case 0:  // flip a byte
        if (!s.empty()) s[at % s.size()] = static_cast<char>(rng() % 256);
        break;
      case 1:  // delete a run
        if (!s.empty()) s.erase(at % s.size(), 1 + rng() % 16);
        break;
      case 2:  // splice a hostile token
        s.insert(at, splices[rng() % splices.size()]);
        break;
      case 3: {  // replace a number with a hostile one
        size_t d = s.find_first_of("0123456789", at);
        if (d != std::string::npos) s.replace(d, 1, splices[1 + rng() % 5]);
        break;
      }
      default:  // duplicate a chunk
        if (!s.empty()) {
          const size_t from = rng() % s.size();
          s.insert(at, s.substr(from, 1 + rng() % 64));
        }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  long runs = 0;
  uint64_t seed = 1;
  std::vector<std::string> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("-runs=", 0) == 0) {
      runs = std::stol(a.substr(6));
    } else if (a.rfind("-seed=", 0) == 0) {
      seed = std::stoull(a.substr(6));
    } else {
      std::vector<std::filesystem::path> files;
      if (std::filesystem::is_directory(a)) {
        for (const auto& e : std::filesystem::recursive_directory_iterator(a))
          if (e.is_regular_file()) files.push_back(e.path());
      } else {
        files.push_back(a);
      }
      for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      }
    }
  }
  for (const std::string& c : corpus)
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(c.data()), c.size());
  std::printf("ran %zu corpus inputs\n", corpus.size());
  if (corpus.empty()) corpus.push_back("{}");
  std::mt19937_64 rng(seed);
  for (long r = 0; r < runs; ++r) {
    const std::string in = Mutate(corpus[rng() % corpus.size()], rng);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(in.data()), in.size());
    if ((r + 1) % 10000 == 0) {
      std::printf("  %ld mutated inputs (seed %llu)\n", r + 1,
                  static_cast<unsigned long long>(seed));
      std::fflush(stdout);  // progress survives a timeout
    }
  }
  std::printf("Done %ld mutated runs, seed %llu: no crash\n", runs,
              static_cast<unsigned long long>(seed));
  return 0;
}
