#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "model/core/position_io.h"
#include "model/render/png.h"
#include "model/render/svg.h"
#include "model/render/tile_art.h"

namespace carc::render {
namespace {

namespace fs = std::filesystem;
using model::TileCatalog;
using nlohmann::json;

const fs::path kRoot = CARC_SOURCE_DIR;

// A small XML well-formedness check: one root, balanced and matching tags, quoted attributes,
// known entities, no stray '<' or '&'. Returns "" or what is wrong.
std::string XmlProblem(const std::string& s) {
  std::vector<std::string> stack;
  int roots = 0;
  size_t i = 0;
  auto name_at = [&](size_t& k) {
    size_t b = k;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' ||
                            s[k] == ':' || s[k] == '-' || s[k] == '.'))
      ++k;
    return s.substr(b, k - b);
  };
  auto entities_ok = [&](const std::string& t) {
    static const std::regex kEntity("&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);");
    std::string rest = std::regex_replace(t, kEntity, "");
    return rest.find('&') == std::string::npos && rest.find('<') == std::string::npos;
  };
  while (i < s.size()) {
    if (s[i] != '<') {
      size_t e = s.find('<', i);
      std::string text = s.substr(i, e == std::string::npos ? std::string::npos : e - i);
      if (!entities_ok(text)) return "bad character data near offset " + std::to_string(i);
      if (stack.empty() && text.find_first_not_of(" \t\r\n") != std::string::npos)
        return "text outside the root element";
      i = e == std::string::npos ? s.size() : e;
      continue;
    }
    for (auto [open, close] : {std::pair{"<?", "?>"}, std::pair{"<!--", "-->"}})
      if (s.compare(i, std::strlen(open), open) == 0) {
        size_t e = s.find(close, i);
        if (e == std::string::npos) return std::string("unterminated ") + open;
        i = e + std::strlen(close);
        goto next;
      }
    if (s.compare(i, 2, "</") == 0) {
      size_t k = i + 2;
      std::string name = name_at(k);
      if (k >= s.size() || s[k] != '>') return "bad end tag " + name;
      if (stack.empty() || stack.back() != name) return "end tag </" + name + "> does not match";
      stack.pop_back();
      i = k + 1;
    } else {
      size_t k = i + 1;
      std::string name = name_at(k);
      if (name.empty()) return "bad start tag at offset " + std::to_string(i);
      if (stack.empty() && ++roots > 1) return "more than one root element";
      std::vector<std::string> attrs;
      while (true) {
        while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
        if (k >= s.size()) return "unterminated tag " + name;
        if (s[k] == '>') { stack.push_back(name); ++k; break; }
        if (s.compare(k, 2, "/>") == 0) { k += 2; break; }
        std::string attr = name_at(k);
        if (attr.empty() || k >= s.size() || s[k] != '=') return "bad attribute in <" + name + ">";
        if (std::find(attrs.begin(), attrs.end(), attr) != attrs.end()) return "duplicate attribute " + attr;
        attrs.push_back(attr);
        char q = s[++k];
        if (q != '"' && q != '\'') return "unquoted attribute " + attr;
        size_t e = s.find(q, k + 1);
        if (e == std::string::npos || !entities_ok(s.substr(k + 1, e - k - 1))) return "bad value of " + attr;
        k = e + 1;
      }
      i = k;
    }
  next:;
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  return roots == 1 ? "" : "no root element";
}

TEST(XmlCheck, AcceptsAndRejects) {
  EXPECT_EQ(XmlProblem("<?xml version=\"1.0\"?>\n<a x=\"1\"><b/>t &amp; u</a>\n"), "");
  EXPECT_NE(XmlProblem("<a><b></a>"), "");
  EXPECT_NE(XmlProblem("<a x=1/>"), "");
  EXPECT_NE(XmlProblem("<a>R&D</a>"), "");
  EXPECT_NE(XmlProblem("<a/><b/>"), "");
  EXPECT_NE(XmlProblem("<a>"), "");
}

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<fs::path> PositionFiles() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "fixtures"))
    if (e.path().string().ends_with(".position.json")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

json QuestionOnly(const json& doc) {
  json r = {{"verdict", "?"}};
  if (doc.contains("question") && doc["question"].is_object())
    r["question"] = doc["question"].value("ask", "");
  return r;
}

// Every fixture renders, as a position and as a ruling, to well-formed XML; the malformed ones
// fail with a Status instead.
TEST(Render, EveryFixture) {
  int rendered = 0, refused = 0;
  for (const fs::path& p : PositionFiles()) {
    SCOPED_TRACE(p.string());
    // Refused input: the malformed fixtures, and any fixture whose ruling is an error exit
    // (e.g. an unknown variant, exit 69).
    bool malformed = p.string().find("/malformed/") != std::string::npos;
    {
      std::string r = p.string();
      r = r.substr(0, r.size() - 14) + ".ruling.json";
      auto spec = model::ReadJsonFile(r);
      if (spec.ok() && spec->contains("expect") && (*spec)["expect"].contains("error"))
        malformed = true;
    }
    auto doc = model::ReadJsonFile(p.string());
    if (!doc.ok()) {
      EXPECT_TRUE(malformed) << doc.status().message();
      ++refused;
      continue;
    }
    auto svg = RenderPositionFile(*doc, p.string());
    if (!svg.ok()) {
      EXPECT_TRUE(malformed) << svg.status().message();
      EXPECT_GE(static_cast<int>(svg.status().code()), 64);
      ++refused;
      continue;
    }
    EXPECT_EQ(XmlProblem(*svg), "");
    auto ruling_svg = RenderRuling(*doc, QuestionOnly(*doc), p.string());
    ASSERT_TRUE(ruling_svg.ok());
    EXPECT_EQ(XmlProblem(*ruling_svg), "");
    ++rendered;
  }
  EXPECT_GT(rendered, 60);
  EXPECT_GT(refused, 3);
}

// Numbers rounded to one decimal, so that golden files survive floating-point noise.
std::string Normalise(const std::string& s) {
  static const std::regex kNumber("-?[0-9]+\\.[0-9]+");
  std::string out;
  auto it = std::sregex_iterator(s.begin(), s.end(), kNumber);
  size_t last = 0;
  for (; it != std::sregex_iterator(); ++it) {
    out += s.substr(last, it->position() - last);
    out += Num(std::round(std::stod(it->str()) * 10) / 10);
    last = it->position() + it->length();
  }
  return out + s.substr(last);
}

void CheckGolden(const std::string& svg, const std::string& name) {
  const fs::path golden = kRoot / "model/render/testdata" / name;
  if (std::getenv("CARC_UPDATE_GOLDEN")) {
    // Writing a golden is not a check: the run fails, so that a picture nobody has looked at
    // never passes. Look at it (rsvg-convert), then run again without CARC_UPDATE_GOLDEN.
    std::ofstream(golden, std::ios::binary) << svg;
    ADD_FAILURE() << "wrote " << golden << ": look at it, then run without CARC_UPDATE_GOLDEN";
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " (run with CARC_UPDATE_GOLDEN=1 to create it)";
  EXPECT_EQ(Normalise(svg), Normalise(Slurp(golden))) << "differs from " << golden;
}

json Doc(const std::string& rel) {
  auto doc = model::ReadJsonFile((kRoot / rel).string());
  EXPECT_TRUE(doc.ok());
  return doc.ok() ? *doc : json();
}

TEST(Golden, WhoScoresTheCityPosition) {
  auto svg = RenderPositionFile(Doc("fixtures/examples/who_scores_the_city.position.json"), "who_scores_the_city");
  ASSERT_TRUE(svg.ok());
  CheckGolden(*svg, "who_scores_the_city.svg");
}

TEST(Golden, FarmsFinalScoreRuling) {
  const std::string rel = "fixtures/base/fields/fi01_farms_c3_per_farm.position.json";
  json doc = Doc(rel);
  auto svg = RenderRuling(doc, {{"question", "final_score"}, {"verdict", "scored"}}, "fi01");
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("f-scored"), std::string::npos);  // a farm is highlighted
  CheckGolden(*svg, "fi01_farms_c3_per_farm.ruling.svg");
}

TEST(Golden, PhantomPosition) {
  auto svg = RenderPositionFile(Doc("fixtures/phantom/ph04_meeple_and_phantom_outnumber.position.json"), "ph04");
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("phantom"), std::string::npos);
  EXPECT_NE(svg->find("dashed, pale: a phantom"), std::string::npos);  // the key says so
  CheckGolden(*svg, "ph04_meeple_and_phantom_outnumber.svg");
}

TEST(Ruling, CompletedCityIsHighlightedAndCaptioned) {
  json doc = Doc("fixtures/examples/who_scores_the_city.position.json");
  json ruling = {{"question", "apply"}, {"verdict", "upheld"}, {"scores_before", {12, 7}}, {"scores", {12, 11}}};
  auto svg = RenderRuling(doc, ruling, "who");
  ASSERT_TRUE(svg.ok());
  // D's and E's cities; the picture is the position after the turn, as the ruling's "position":
  // Ben's knight went home with the points (BASE-RETURN), drawn faded where it stood, his supply
  // back to 7, and it is Anna's turn with V, the next tile of the draw order, in hand.
  size_t n = 0;
  for (size_t p = svg->find("class=\"a-scored\" d="); p != std::string::npos; p = svg->find("class=\"a-scored\" d=", p + 1)) ++n;
  EXPECT_EQ(n, 2u);
  EXPECT_NE(svg->find("Ben: knight on city:S at (0, -1), returned by the ruling"),
            std::string::npos);
  EXPECT_NE(svg->find("Turn: Anna, step place_tile"), std::string::npos);
  EXPECT_NE(svg->find("meeple 7"), std::string::npos);
  EXPECT_NE(svg->find("Verdict: upheld"), std::string::npos);
  EXPECT_NE(svg->find("7 \u2192 11"), std::string::npos);
}

// --- anchors

Point Rot90(Point p) { return {1 - p.y, p.x}; }  // a clockwise quarter turn of the unit square

TEST(Anchor, StartTile) {
  const auto& rt = TileCatalog::Base().rotated(*TileCatalog::Base().Find("D"), 0);
  Point city = SegmentAnchor(rt, 0), road = SegmentAnchor(rt, 1), north = SegmentAnchor(rt, 2),
        south = SegmentAnchor(rt, 3);
  EXPECT_NEAR(city.x, 0.5, 1e-9);
  EXPECT_NEAR(city.y, 0.15, 1e-9);
  EXPECT_NEAR(road.x, 0.5, 1e-9);
  EXPECT_NEAR(road.y, 0.5, 1e-9);
  EXPECT_GT(north.y, 0.15);  // between the city cap and the road
  EXPECT_LT(north.y, 0.45);
  EXPECT_GT(south.y, 0.55);  // below the road
}

TEST(Anchor, TurnsWithTheTile) {
  // Cities and single-edge roads have anchors that turn with the tile (monasteries stay upright).
  const TileCatalog& cat = TileCatalog::Base();
  for (int t = 0; t < cat.size(); ++t)
    for (int r = 0; r < 3; ++r) {
      const auto &a = cat.rotated(t, r), &b = cat.rotated(t, r + 1);
      for (size_t s = 0; s < a.segments.size(); ++s) {
        const auto& seg = a.segments[s];
        if (seg.kind == model::FeatureKind::kField || seg.kind == model::FeatureKind::kMonastery ||
            (seg.kind == model::FeatureKind::kRoad && std::popcount(seg.sides) != 1))
          continue;
        Point p = Rot90(SegmentAnchor(a, s)), q = SegmentAnchor(b, s);
        EXPECT_NEAR(p.x, q.x, 1e-9) << cat.Name(t) << " rotation " << r << " segment " << s;
        EXPECT_NEAR(p.y, q.y, 1e-9) << cat.Name(t) << " rotation " << r << " segment " << s;
      }
    }
}

TEST(Anchor, SegmentsOfATileStandApart) {
  const TileCatalog& cat = TileCatalog::Base();
  for (int t = 0; t < cat.size(); ++t)
    for (int r = 0; r < 4; ++r) {
      const auto& rt = cat.rotated(t, r);
      for (size_t i = 0; i < rt.segments.size(); ++i) {
        Point p = SegmentAnchor(rt, i);
        EXPECT_TRUE(p.x > 0.05 && p.x < 0.95 && p.y > 0.05 && p.y < 0.95) << cat.Name(t);
        for (size_t j = 0; j < i; ++j) {
          Point q = SegmentAnchor(rt, j);
          EXPECT_GT(std::hypot(p.x - q.x, p.y - q.y), 0.2)
              << cat.Name(t) << " rotation " << r << " segments " << j << ", " << i;
        }
      }
    }
}

TEST(TileArt, OneShapePerSegmentPlusMarks) {
  const TileCatalog& cat = TileCatalog::Base();
  auto count = [&](const char* id, Role role) {
    int n = 0;
    for (const Shape& s : DescribeTile(cat.rotated(*cat.Find(id), 0))) n += s.role == role;
    return n;
  };
  EXPECT_EQ(count("L", Role::kJunction), 1);
  EXPECT_EQ(count("X", Role::kJunction), 1);
  EXPECT_EQ(count("A", Role::kJunction), 0);  // A's road ends at the monastery
  EXPECT_EQ(count("S", Role::kJunction), 0);  // S's road ends at the city
  EXPECT_EQ(count("H", Role::kCity), 2);
  EXPECT_EQ(count("C", Role::kShield), 1);
  EXPECT_EQ(count("R", Role::kShield), 0);
  EXPECT_EQ(count("X", Role::kField), 4);
  EXPECT_EQ(count("B", Role::kMonastery), 1);
}

}  // namespace
}  // namespace carc::render

namespace carc::render {
namespace {

// --png: the bytes are a PNG (signature) whose IHDR size is the SVG's width x height.
TEST(Png, SignatureAndSizeOfTheSvg) {
  auto doc = model::ReadJsonFile(
      (kRoot / "fixtures/examples/who_scores_the_city.position.json").string());
  ASSERT_TRUE(doc.ok());
  auto svg = RenderPositionFile(*doc, "who_scores_the_city");
  ASSERT_TRUE(svg.ok());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(*svg, m, std::regex("<svg [^>]*width=\"([0-9.]+)\" height=\"([0-9.]+)\"")));
  const long want_w = std::lround(std::ceil(std::stod(m[1].str())));
  const long want_h = std::lround(std::ceil(std::stod(m[2].str())));
  auto png = SvgToPng(*svg);
#ifndef CARC_HAVE_RSVG
  EXPECT_FALSE(PngAvailable());
  ASSERT_FALSE(png.ok());
  EXPECT_EQ(png.status().code(), model::ErrorCode::kUnknownRules);
  EXPECT_NE(png.status().message().find("librsvg"), std::string::npos);
#else
  ASSERT_TRUE(png.ok()) << png.status().message();
  ASSERT_GT(png->size(), 33u);
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png->substr(12, 4), "IHDR");
  auto be32 = [&](size_t at) {
    long v = 0;
    for (size_t i = 0; i < 4; ++i) v = v * 256 + static_cast<unsigned char>((*png)[at + i]);
    return v;
  };
  EXPECT_EQ(be32(16), want_w);
  EXPECT_EQ(be32(20), want_h);
  EXPECT_GT(want_w, 100);  // a real board, not an empty picture
  EXPECT_EQ(SvgToPng("<svg").ok(), false);  // not an SVG: an error, not a crash
#endif
}

// A picture over cairo's 32767 pixels a side (a board of 400 squares in a row) failed with
// librsvg's InvalidSize and turned the verdict's exit code into 70. Now it is scaled down, aspect
// kept, to 16384 pixels a side and 32 Mi pixels in all. By hand: 40000 x 100 -> scale 16384 /
// 40000 = 0.4096 -> 16384 x 40 (40.96 rounded down); 40000 x 40000 -> the area decides, scale
// sqrt(33554432 / 1.6e9) = 0.1448155 -> 5792 x 5792 (5792.62 rounded down).
TEST(Png, APictureWiderThanCairosLimitIsScaledDownToFit) {
#ifdef CARC_HAVE_RSVG
  auto size = [](const std::string& png) {
    auto be32 = [&](size_t at) {
      long v = 0;
      for (size_t i = 0; i < 4; ++i) v = v * 256 + static_cast<unsigned char>(png[at + i]);
      return v;
    };
    return std::make_pair(be32(16), be32(20));
  };
  auto svg = [](int w, int h) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) +
           "\" height=\"" + std::to_string(h) + "\"><rect width=\"" + std::to_string(w) +
           "\" height=\"" + std::to_string(h) + "\" fill=\"green\"/></svg>";
  };
  auto wide = SvgToPng(svg(40000, 100));
  ASSERT_TRUE(wide.ok()) << wide.status().message();
  EXPECT_EQ(size(*wide), std::make_pair(16384L, 40L));
  auto huge = SvgToPng(svg(40000, 40000));
  ASSERT_TRUE(huge.ok()) << huge.status().message();
  EXPECT_EQ(size(*huge), std::make_pair(5792L, 5792L));
  auto small = SvgToPng(svg(300, 200));  // within the limits: its own size
  ASSERT_TRUE(small.ok()) << small.status().message();
  EXPECT_EQ(size(*small), std::make_pair(300L, 200L));
#else
  // .ci/bootstrap test installs librsvg and sets CARC_REQUIRE_RSVG: there a build without it
  // is a failure, not a skip.
  if (std::getenv("CARC_REQUIRE_RSVG")) FAIL() << "built without librsvg, CARC_REQUIRE_RSVG set";
  GTEST_SKIP() << "built without librsvg";
#endif
}

}  // namespace
}  // namespace carc::render

namespace carc::render {
namespace {

// Messengers (MSG-DARK): the track is drawn, 50 spaces of which the 10 multiples of 5 are dark,
// and each player's two figures stand on their space: in d01's position file Anna's dame has 6
// points, her meeple 4; Ben's two figures 0. The track is no longer a JSON line.
TEST(Messengers, ScoringTrackWithBothFiguresAndDarkSpaces) {
  auto doc = model::ReadJsonFile(
      (kRoot / "fixtures/messengers/d01_message1_longer_road_disputed.position.json").string());
  ASSERT_TRUE(doc.ok());
  auto svg = RenderPositionFile(*doc, "d01");
  ASSERT_TRUE(svg.ok());
  auto count = [&](const std::string& needle) {
    size_t n = 0;
    for (size_t p = svg->find(needle); p != std::string::npos; p = svg->find(needle, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("fill=\"#555\" stroke=\"#999\""), 10u);
  EXPECT_EQ(count("fill=\"#f4efe2\" stroke=\"#999\""), 40u);
  EXPECT_EQ(count("Anna&apos;s dame: 6 points") + count("Anna's dame: 6 points"), 1u);
  EXPECT_EQ(count("Anna&apos;s meeple: 4 points") + count("Anna's meeple: 4 points"), 1u);
  EXPECT_EQ(count("Ben&apos;s dame: 0 points") + count("Ben's dame: 0 points"), 1u);
  EXPECT_EQ(count("messengers.tracks"), 0u);
}

}  // namespace
}  // namespace carc::render
