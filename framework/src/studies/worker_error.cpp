#include "studies/worker_error.hpp"

#include <cstdint>
#include <vector>

#include "core/checkpoint/byte_record.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {

namespace {
enum class Kind : std::uint8_t { input_errors = 1, input = 2, plugin = 3, other = 4 };
}  // namespace

std::string save_error(const std::exception_ptr& error) {
  ByteWriter out;
  try {
    std::rethrow_exception(error);
  } catch (const InputErrors& e) {
    out.put(Kind::input_errors);
    out.put<std::uint64_t>(e.diagnostics().size());
    for (const Diagnostic& d : e.diagnostics()) {
      out.put_text(d.where.file);
      out.put<std::int32_t>(d.where.line);
      out.put<std::int32_t>(d.where.column);
      out.put_text(d.message);
    }
  } catch (const InputError& e) {
    out.put(Kind::input);
    out.put_text(e.what());
  } catch (const PluginError& e) {
    out.put(Kind::plugin);
    out.put_text(e.what());
  } catch (const std::exception& e) {
    out.put(Kind::other);
    out.put_text(e.what());
  } catch (...) {
    out.put(Kind::other);
    out.put_text("an exception that is not a std::exception");
  }
  return out.take();
}

void throw_saved_error(std::string_view bytes) {
  ByteReader in(bytes, "a worker process's error");
  try {
    const auto kind = in.get<Kind>();
    if (kind == Kind::input_errors) {
      const auto count = in.get<std::uint64_t>();
      if (count > bytes.size()) in.fail();  // each takes bytes: no allocation for a forged count
      std::vector<Diagnostic> diagnostics(static_cast<std::size_t>(count));
      for (Diagnostic& d : diagnostics) {
        d.where.file = in.get_text();
        d.where.line = in.get<std::int32_t>();
        d.where.column = in.get<std::int32_t>();
        d.message = in.get_text();
      }
      if (!diagnostics.empty()) throw InputErrors(std::move(diagnostics));
    }
    const std::string message = in.get_text();
    if (kind == Kind::input) throw InputError(message);
    if (kind == Kind::plugin) throw PluginError(message);
    throw Error(message);
  } catch (const InputError&) {
    if (!in.done()) throw Error("a worker process's error could not be read back");
    throw;
  }
}

}  // namespace tessera::studies
