// `moreau view OUT_DIR [-o FILE.html] [--max-frames N] [--title TEXT]`: writes one
// self-contained HTML page that plays the run in OUT_DIR (a CSV folder or run.h5 with its
// geometry), docs/cli.md §moreau view. The page is the viewer template built from viewer/ by
// npm and esbuild (three.js bundled in: no network needed) with the run filled in
// (io/run/viewer_page.hpp). The template is looked up in $MOREAU_VIEWER_TEMPLATE, then next to the
// program (<bin>/../viewer/viewer.html: the build tree), then <bin>/../share/moreau/viewer.html
// (installed).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/os/input_file.hpp"
#include "moreau/io/run/run_reader.hpp"
#include "moreau/io/run/viewer_page.hpp"

namespace moreau::cli {
namespace {

namespace fs = std::filesystem;

struct ViewOptions {
  std::string folder;
  std::string html;  // "" = FOLDER/view.html
  ViewerPageSettings page;
};

// The viewer template: $MOREAU_VIEWER_TEMPLATE, the build tree, the installed share folder.
std::string find_viewer_template() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("MOREAU_VIEWER_TEMPLATE")) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path prefix = exe.parent_path().parent_path();
    candidates.push_back(prefix / "viewer" / "viewer.html");
    candidates.push_back(prefix / "share" / "moreau" / "viewer.html");
  }
  for (const auto& c : candidates)
    if (fs::exists(c)) return c.string();
  throw std::runtime_error(
      "the viewer page template (viewer.html) was not found next to the program (build the "
      "moreau_viewer target, which needs node and npm, or set MOREAU_VIEWER_TEMPLATE)");
}

void run(const ViewOptions& opt) {
  const RunFolder folder = read_run_folder(opt.folder);
  if (folder.geometry.is_null())
    std::fprintf(stderr,
                 "moreau: warning: %s has no geometry (geometry.json or run.h5's /geometry): the "
                 "page shows the energy and the events, no bodies\n",
                 opt.folder.c_str());
  const std::string template_path = find_viewer_template();
  ViewerPageStats stats;
  const std::string page =
      viewer_page_html(read_text_file(template_path), viewer_run_json(folder, opt.page, &stats));
  const std::string html =
      opt.html.empty() ? (fs::path(opt.folder) / "view.html").string() : opt.html;
  for (const std::string& w : stats.warnings)
    std::fprintf(stderr, "moreau: warning: %s\n", w.c_str());
  write_file_atomically(html, page);
  std::printf(
      "%ld frames of %ld recorded, %ld bodies (%ld static), %ld contact records (%ld "
      "located), %ld events, %ld visuals, %ld joints\n",
      static_cast<long>(stats.frames), static_cast<long>(folder.result.records()),
      static_cast<long>(stats.bodies + stats.static_bodies), static_cast<long>(stats.static_bodies),
      static_cast<long>(stats.contact_records), static_cast<long>(stats.contacts_located),
      static_cast<long>(stats.events), static_cast<long>(stats.visuals),
      static_cast<long>(stats.joints));
  std::printf("wrote %s (%.1f MB)\n", fs::absolute(html).lexically_normal().string().c_str(),
              static_cast<double>(page.size()) / 1e6);
}

}  // namespace

void add_view_command(CLI::App& app) {
  auto opt = std::make_shared<ViewOptions>();
  auto* cmd = app.add_subcommand(
      "view",
      "Write one self-contained HTML page that plays a run (bodies, contacts, events, energy)");
  cmd->add_option("folder", opt->folder,
                  "Output folder of moreau simulate (CSV files or run.h5, with its geometry)")
      ->required();
  cmd->add_option("-o,--out", opt->html, "The page to write (default: FOLDER/view.html)");
  cmd->add_option("--max-frames", opt->page.max_frames,
                  "Keep every k-th record (and the last) so that the page has at most this many "
                  "frames; 0 = all (default 2000)")
      ->check(CLI::Range(static_cast<Index>(0), static_cast<Index>(1) << 40));
  cmd->add_option("--title", opt->page.title, "The page's title (default: the folder's name)");
  cmd->footer(
      "Examples:\n"
      "  moreau simulate examples/scenes/box_stack.json -o out/stack && moreau view out/stack\n"
      "  moreau view out/pile -o pile.html --max-frames 500\n"
      "Open the page in a browser: play, pause, speed, time slider, click an event to jump to it;\n"
      "#frame=N or #frame=last in the URL opens it at that frame.");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace moreau::cli
