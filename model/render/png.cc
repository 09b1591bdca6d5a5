// PNG from SVG with librsvg + cairo, opened on first use; without librsvg's headers at build time
// (CARC_HAVE_RSVG unset) every call says so.
#include "model/render/png.h"

#ifdef CARC_HAVE_RSVG
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>

#include <algorithm>
#include <cmath>
#endif

namespace carc::render {

#ifndef CARC_HAVE_RSVG

bool PngAvailable() { return false; }

model::StatusOr<std::string> SvgToPng(const std::string&) {
  return model::Status(model::ErrorCode::kUnknownRules,
                       "--png is unavailable: this carc was built without librsvg (install "
                       "Debian librsvg2-dev and re-run cmake); use --svg instead");
}

#else

namespace {

// librsvg (and cairo, gobject, glib through it) is opened on the first PNG, not linked: its ~45
// shared libraries cost `carc` most of its start-up time when linked (an adjudication
// should cost little more than starting a process). The headers give the functions' types.
struct Rsvg {
  decltype(&rsvg_handle_new_from_data) new_from_data = nullptr;
  decltype(&rsvg_handle_get_intrinsic_size_in_pixels) size_in_pixels = nullptr;
  decltype(&rsvg_handle_render_document) render_document = nullptr;
  decltype(&g_object_unref) object_unref = nullptr;
  decltype(&g_error_free) error_free = nullptr;
  decltype(&cairo_image_surface_create) image_surface_create = nullptr;
  decltype(&cairo_create) create = nullptr;
  decltype(&cairo_surface_write_to_png_stream) write_to_png_stream = nullptr;
  decltype(&cairo_destroy) destroy = nullptr;
  decltype(&cairo_surface_destroy) surface_destroy = nullptr;
  decltype(&cairo_status_to_string) status_to_string = nullptr;
  std::string error;  // why it could not be loaded
};

template <typename F>
bool Sym(void* lib, const char* name, F& f, std::string& error) {
  f = reinterpret_cast<F>(dlsym(lib, name));  // the library or one it depends on
  if (f == nullptr && error.empty()) error = std::string("librsvg has no symbol ") + name;
  return f != nullptr;
}

const Rsvg& Library() {
  static const Rsvg lib = [] {
    Rsvg r;
    void* h = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      r.error = std::string("--png needs librsvg (Debian librsvg2-2): ") + (why ? why : "?");
      return r;
    }
    Sym(h, "rsvg_handle_new_from_data", r.new_from_data, r.error);
    Sym(h, "rsvg_handle_get_intrinsic_size_in_pixels", r.size_in_pixels, r.error);
    Sym(h, "rsvg_handle_render_document", r.render_document, r.error);
    Sym(h, "g_object_unref", r.object_unref, r.error);
    Sym(h, "g_error_free", r.error_free, r.error);
    Sym(h, "cairo_image_surface_create", r.image_surface_create, r.error);
    Sym(h, "cairo_create", r.create, r.error);
    Sym(h, "cairo_surface_write_to_png_stream", r.write_to_png_stream, r.error);
    Sym(h, "cairo_destroy", r.destroy, r.error);
    Sym(h, "cairo_surface_destroy", r.surface_destroy, r.error);
    Sym(h, "cairo_status_to_string", r.status_to_string, r.error);
    return r;
  }();
  return lib;
}

// The largest picture drawn: 16384 pixels a side, 32 M pixels (128 MiB of ARGB) in all.
constexpr double kMaxSide = 16384;
constexpr double kMaxPixels = 32.0 * 1024 * 1024;

model::Status Fail(const std::string& what) {
  return model::Status(model::ErrorCode::kInternal, "cannot draw the PNG: " + what);
}

cairo_status_t Append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

bool PngAvailable() { return Library().error.empty(); }

model::StatusOr<std::string> SvgToPng(const std::string& svg) {
  const Rsvg& lib = Library();
  if (!lib.error.empty()) return model::Status(model::ErrorCode::kUnknownRules, lib.error);
  GError* error = nullptr;
  RsvgHandle* handle =
      lib.new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error);
  if (handle == nullptr) {
    std::string msg = error != nullptr ? error->message : "librsvg refused the SVG";
    if (error != nullptr) lib.error_free(error);
    return Fail(msg);
  }
  double w = 0, h = 0;
  if (!lib.size_in_pixels(handle, &w, &h) || w <= 0 || h <= 0) {
    lib.object_unref(handle);
    return Fail("the SVG has no size in pixels (width/height attributes)");
  }
  // Scaled down to fit kMaxSide and kMaxPixels (cairo draws no surface over 32767 pixels a
  // side: a board wider than ~330 squares failed with librsvg's InvalidSize).
  const double scale = std::min({1.0, kMaxSide / w, kMaxSide / h, std::sqrt(kMaxPixels / w / h)});
  auto pixels = [&](double side) {  // scaled: rounded down, never over the limits
    return std::max(
        1, static_cast<int>(scale < 1 ? std::floor(side * scale + 1e-6) : std::ceil(side)));
  };
  const int width = pixels(w);
  const int height = pixels(h);
  cairo_surface_t* surface = lib.image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t* cr = lib.create(surface);
  RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
  const bool drawn = lib.render_document(handle, cr, &viewport, &error);
  std::string png;
  cairo_status_t st = CAIRO_STATUS_SUCCESS;
  if (drawn) st = lib.write_to_png_stream(surface, Append, &png);
  lib.destroy(cr);
  lib.surface_destroy(surface);
  lib.object_unref(handle);
  if (!drawn) {
    std::string msg = error != nullptr ? error->message : "librsvg could not draw the SVG";
    if (error != nullptr) lib.error_free(error);
    return Fail(msg);
  }
  if (st != CAIRO_STATUS_SUCCESS) return Fail(lib.status_to_string(st));
  return png;
}

#endif

}  // namespace carc::render
