#pragma once
// The exception a worker process's command failed with, carried to its parent as bytes (its
// kind, its message as thrown, an InputErrors' diagnostics), so that an embedding parent (Python)
// raises the same error a study in its own process would: the same type, message and locations
// (studies/plugin_isolation.hpp, the whole study's `failed` message).
#include <exception>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera::studies {

TESSERA_API std::string save_error(const std::exception_ptr& error);
// Throws the error save_error wrote: InputErrors, InputError, PluginError or Error. Bytes that
// are not one: an Error saying so.
[[noreturn]] TESSERA_API void throw_saved_error(std::string_view bytes);

}  // namespace tessera::studies
