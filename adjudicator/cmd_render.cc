// Pictures: `carc render FILE [-o out.svg]` and `carc adjudicate FILE --svg out.svg`.
// The drawing lives in model/render/ (carc_render); this file only wires it to the CLI.
#include <fstream>
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "model/core/position_io.h"
#include "model/render/svg.h"

namespace carc::adjudicator {

namespace {

struct State {
  std::string file;
  std::string out;  // render: "-" or empty = stdout
  std::string svg;  // adjudicate --svg
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

}  // namespace

void RegisterRenderCommands(Registry& reg) {
  static State st;
  auto* render = reg.root->add_subcommand("render", "Draw the position of a position file (SVG)");
  render->add_option("file", st.file, "Position file (JSON)")->required();
  render->add_option("-o,--output", st.out, "SVG file to write (default: stdout)");
  reg.commands.push_back({render, [] {
                            auto doc = model::ReadJsonFile(st.file);
                            if (!doc.ok()) return Write(doc.status(), st.out);
                            return Write(render::RenderPositionFile(*doc, st.file), st.out);
                          }});

  if (reg.adjudicate == nullptr) return;
  reg.adjudicate->add_option("--svg", st.svg,
                             "Also draw the ruling: the position after the question's actions, "
                             "the scored features highlighted, the verdict as caption");
  reg.adjudication_hooks.push_back([](const std::string& file, const Outcome& o) {
    if (st.svg.empty() || !o.error.empty()) return 0;  // an error exit keeps its own code
    auto doc = model::ReadJsonFile(file);
    if (!doc.ok()) return Write(doc.status(), st.svg);
    return Write(render::RenderRuling(*doc, o.ruling, file), st.svg);
  });
}

}  // namespace carc::adjudicator
