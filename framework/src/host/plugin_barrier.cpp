// The cold half of the exception barrier (plugin_barrier.hpp).
#include "host/plugin_barrier.hpp"

#include <cxxabi.h>

#include <exception>

namespace tessera {

void rethrow_plugin_failure(const LoadedPlugin& plugin, std::string_view action) {
  std::string message;
  bool input_error = false;
  try {
    throw;
  } catch (const abi::__forced_unwind&) {
    throw;  // thread cancellation must keep unwinding
  } catch (const InputError& e) {
    message = e.what();
    input_error = true;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "unknown exception (not derived from std::exception)";
  }
  // The message is a host copy: the plugin's exception object is destroyed as this unwinds.
  throw_plugin_failure(plugin, action, message, input_error);
}

}  // namespace tessera
