// Pictures: `carc render FILE [-o out.svg] [--png out.png]` and
// `carc adjudicate FILE --svg out.svg --png out.png`.
// The drawing lives in model/render/ (carc_render); this file only wires it to the CLI.
#include <fstream>
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "model/core/notation.h"
#include "model/core/position_io.h"
#include "model/render/png.h"
#include "model/render/svg.h"

namespace carc::adjudicator {

namespace {

struct State {
  std::string file;
  std::string out;  // render: "-" or empty = stdout
  std::string svg;  // adjudicate --svg
  std::string png;  // render/adjudicate --png
};

// Writes the picture; returns 0 or an exit code (with a message on stderr).
int Write(const model::StatusOr<std::string>& svg, const std::string& path) {
  if (!svg.ok()) {
    std::cerr << "carc: " << svg.status().message() << "\n";
    return static_cast<int>(svg.status().code());
  }
  if (path.empty() || path == "-") {
    std::cout << *svg;
    return 0;
  }
  std::ofstream f(path, std::ios::binary);
  f << *svg;
  f.close();
  if (!f) {
    std::cerr << "carc: " << path << ": cannot write the picture\n";
    return kExitIo;
  }
  return 0;
}

// Writes the SVG to `svg_path` (if given or no PNG is asked for) and the PNG to `png_path`.
int WriteBoth(const model::StatusOr<std::string>& svg, const std::string& svg_path,
              const std::string& png_path, bool svg_to_stdout) {
  if (!svg.ok() || png_path.empty()) return Write(svg, svg_path);
  if (!svg_path.empty() || svg_to_stdout) {
    if (int rc = Write(svg, svg_path); rc != 0) return rc;
  }
  if (png_path == "-") {
    std::cerr << "carc: --png -: a PNG is not written to the terminal; give a file name\n";
    return kExitUsage;
  }
  auto png = render::SvgToPng(*svg);
  if (!png.ok()) {
    std::cerr << "carc: " << png_path << ": " << png.status().message() << "\n";
    return static_cast<int>(png.status().code());
  }
  return Write(*png, png_path);
}

// One file named for the SVG and the PNG: one picture would silently overwrite the other.
void RefuseOneFileForBoth(const char* svg_option, const std::string& svg, const std::string& png) {
  if (svg.empty() || png.empty() || svg == "-") return;
  if (!FileNamedTwice({svg, png}).empty())
    throw CLI::ValidationError(std::string(svg_option) + " and --png name the same file (" + png +
                               "): one picture would overwrite the other; give two names");
}

}  // namespace

void RegisterRenderCommands(Registry& reg) {
  static State st;
  if (reg.Wants("render")) {
    auto* render = reg.root->add_subcommand("render", "Draw the position of a position file (SVG)");
    render->add_option("file", st.file, "Position file (JSON)")->required();
    render->add_option("-o,--output", st.out, "SVG file to write (default: stdout)");
    render->add_option("--png", st.png,
                       "PNG file to write (librsvg); then the SVG is written only with -o");
    render->parse_complete_callback([] { RefuseOneFileForBoth("-o", st.out, st.png); });
    reg.commands.push_back(
        {render, [] {
           auto doc = model::ReadJsonFile(st.file);
           if (!doc.ok()) return Write(doc.status(), st.out);
           // A malformed question is refused, not drawn past unread.
           if (auto s = CheckPositionJson(*doc, model::SourceName(st.file)); !s.ok())
             return Write(s, st.out);
           return WriteBoth(render::RenderPositionFile(*doc, model::SourceName(st.file)), st.out,
                            st.png, /*svg_to_stdout=*/false);
         }});
  }

  if (reg.adjudicate == nullptr) return;
  reg.adjudicate->add_option("--svg", st.svg,
                             "Also draw the ruling: the position after the question's actions, "
                             "the scored features highlighted, the verdict as caption");
  reg.adjudicate->add_option("--png", st.png, "Also draw the ruling as a PNG (librsvg)");
  reg.adjudicate->parse_complete_callback([] { RefuseOneFileForBoth("--svg", st.svg, st.png); });
  reg.adjudication_hooks.push_back([](const std::string& file, const Outcome& o) {
    if ((st.svg.empty() && st.png.empty()) || !o.error.empty()) return 0;  // errors keep their code
    auto doc = model::ReadJsonFile(file);
    if (!doc.ok()) return Write(doc.status(), st.svg.empty() ? st.png : st.svg);
    return WriteBoth(render::RenderRuling(*doc, o.ruling, model::SourceName(file)), st.svg, st.png,
                     /*svg_to_stdout=*/false);
  });
}

}  // namespace carc::adjudicator
