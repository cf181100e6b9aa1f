#include "tessera/error.hpp"

#include "core/text/safe_text.hpp"
#include "tessera/plugin/plugin_object.hpp"

namespace tessera {

Error::Error(const std::string& message) : std::runtime_error(message) {}
Error::~Error() = default;
InputError::InputError(const std::string& message) : Error(message) {}
InputError::~InputError() = default;
PluginError::PluginError(const std::string& message) : Error(message) {}
PluginError::~PluginError() = default;

namespace {
std::string join_diagnostics(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) {
    if (!s.empty()) s += '\n';
    s += d.format();
  }
  return s;
}
}  // namespace

// The one place a diagnostic becomes text: file name and message escaped (safe_text.hpp).
std::string Diagnostic::format() const {
  std::string s = where.file.empty() ? std::string("<input>") : printable_text(where.file);
  if (where.line > 0) {
    s += ':' + std::to_string(where.line);
    if (where.column > 0) s += ':' + std::to_string(where.column);
  }
  return s + ": error: " + printable_message(message);
}

InputErrors::InputErrors(std::vector<Diagnostic> diagnostics)
    : InputError(join_diagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}
InputErrors::~InputErrors() = default;

PluginObject::~PluginObject() = default;

}  // namespace tessera
