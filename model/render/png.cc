// PNG from SVG with librsvg + cairo; without librsvg (CARC_HAVE_RSVG unset) every call says so.
#include "model/render/png.h"

#ifdef CARC_HAVE_RSVG
#include <cairo.h>
#include <librsvg/rsvg.h>

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

bool PngAvailable() { return true; }

namespace {

model::Status Fail(const std::string& what) {
  return model::Status(model::ErrorCode::kInternal, "cannot draw the PNG: " + what);
}

cairo_status_t Append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

model::StatusOr<std::string> SvgToPng(const std::string& svg) {
  GError* error = nullptr;
  RsvgHandle* handle =
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &error);
  if (handle == nullptr) {
    std::string msg = error != nullptr ? error->message : "librsvg refused the SVG";
    if (error != nullptr) g_error_free(error);
    return Fail(msg);
  }
  double w = 0, h = 0;
  if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) || w <= 0 || h <= 0) {
    g_object_unref(handle);
    return Fail("the SVG has no size in pixels (width/height attributes)");
  }
  const int width = static_cast<int>(std::ceil(w));
  const int height = static_cast<int>(std::ceil(h));
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t* cr = cairo_create(surface);
  RsvgRectangle viewport{0, 0, static_cast<double>(width), static_cast<double>(height)};
  const bool drawn = rsvg_handle_render_document(handle, cr, &viewport, &error);
  std::string png;
  cairo_status_t st = CAIRO_STATUS_SUCCESS;
  if (drawn) st = cairo_surface_write_to_png_stream(surface, Append, &png);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  g_object_unref(handle);
  if (!drawn) {
    std::string msg = error != nullptr ? error->message : "librsvg could not draw the SVG";
    if (error != nullptr) g_error_free(error);
    return Fail(msg);
  }
  if (st != CAIRO_STATUS_SUCCESS) return Fail(cairo_status_to_string(st));
  return png;
}

#endif

}  // namespace carc::render
