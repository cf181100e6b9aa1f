#include "errors.hpp"

#include <exception>
#include <string>

#include "core/cancellation.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/error.hpp"

namespace py = pybind11;

namespace tessera::python {
namespace {

py::object error_class(const char* name) { return py::module_::import("tessera.errors").attr(name); }

void raise(const py::object& type, const py::object& value) { PyErr_SetObject(type.ptr(), value.ptr()); }

py::tuple diagnostic_tuple(const Diagnostic& d) {
  return py::make_tuple(d.where.file, d.where.line, d.where.column, printable_message(d.message), d.format());
}

}  // namespace

void register_error_translation(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const InputErrors& e) {
      py::list diags;
      std::string text;
      for (const auto& d : e.diagnostics()) {
        diags.append(diagnostic_tuple(d));
        text += (text.empty() ? "" : "\n") + d.format();
      }
      const py::object type = error_class("InputError");
      raise(type, type(text, diags));
    } catch (const InputError& e) {
      const py::object type = error_class("InputError");
      raise(type, type(printable_message(e.what()), py::list()));
    } catch (const PluginError& e) {
      const py::object type = error_class("PluginError");
      raise(type, type(printable_message(e.what())));
    } catch (const Error& e) {
      const py::object type = error_class("Error");
      raise(type, type(printable_message(e.what())));
    } catch (const Cancelled&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    }
  });
}

}  // namespace tessera::python
