#pragma once
// The framework's exceptions as Python ones (python/tessera/errors.py): InputErrors and
// InputError -> tessera.InputError (file, line, column, key path of the first problem, every
// diagnostic), PluginError -> tessera.PluginError, any other tessera::Error -> tessera.Error,
// Cancelled -> KeyboardInterrupt. Nothing escapes as a crash of the interpreter.
#include <pybind11/pybind11.h>

namespace tessera::python {

void register_error_translation(pybind11::module_& m);

}  // namespace tessera::python
