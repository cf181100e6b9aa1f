// One plugin library: open, find the entry, check the ABI, the kind and the descriptor.
#include "host/plugin_loader.hpp"

#include <dlfcn.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/dll/shared_library.hpp>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>

#include "host/load_probe.hpp"
#include "host/param_check.hpp"
#include "host/plugin_roles.hpp"
#include "tessera/limits.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {
namespace {

constexpr const char* kEntryName = "tessera_plugin_entry";
bool kind_known(PluginKind k) {
  return std::find(std::begin(kAllPluginKinds), std::end(kAllPluginKinds), k) != std::end(kAllPluginKinds);
}

bool valid_plugin_name(const char* name) {
  if (!name || !*name) return false;
  for (const char* c = name; *c; ++c)
    if (!(std::islower(static_cast<unsigned char>(*c)) || std::isdigit(static_cast<unsigned char>(*c)) ||
          *c == '_'))
      return false;
  return true;
}

// "latency/x" from the descriptor's header (kind, name), which keeps its layout across ABI
// versions; only read when the plugin says its descriptor is that long.
std::string header_id(const PluginDescriptor* d) {
  constexpr std::size_t header_end = offsetof(PluginDescriptor, name) + sizeof(d->name);
  if (d->descriptor_size < header_end) return "";
  std::string kind = kind_known(d->kind) ? plugin_kind_name(d->kind)
                                         : "kind" + std::to_string(static_cast<std::uint32_t>(d->kind));
  return kind + "/" + (d->name ? d->name : "<unnamed>");
}

std::string sanity_problems(const PluginDescriptor& d) {
  std::vector<std::string> problems;
  if (!valid_plugin_name(d.name))
    problems.emplace_back("the name must be lower-case letters, digits and '_'");
  if (!d.version || !*d.version) problems.emplace_back("no version");
  if (!d.summary) problems.emplace_back("no summary");
  if (!d.create && !d.create_with_fallback) problems.emplace_back("no factory (create is null)");
  if (std::string roles = role_problems(d); !roles.empty()) problems.push_back(std::move(roles));
  for (auto& p : check_param_schema(d.params, d.param_count)) problems.push_back(std::move(p));
  if (d.machine_param_count > 0 && d.kind != PluginKind::latency)
    problems.emplace_back("only latency plugins may declare machine parameters");
  for (auto& p : check_param_schema(d.machine_params, d.machine_param_count))
    problems.push_back("machine " + std::move(p));
  std::string s;
  for (const auto& p : problems) s += (s.empty() ? "" : "; ") + p;
  return s;
}

// The entry must be what TESSERA_PLUGIN (BOOST_DLL_ALIAS) defines: an exported data object of
// pointer size holding the address of a function in this library. Anything else (a plain
// function named tessera_plugin_entry, a null or foreign pointer) would be called blindly and
// crash the host. Returns the function, or sets `error`.
using Entry = const PluginDescriptor*();

// An exception thrown by a library's static initialiser cannot be caught: dlopen runs the
// initialisers from C frames, so the C++ runtime calls std::terminate. While a library is being
// opened, the terminate handler says which library and why, and ends the program with exit
// status 1 instead of an abort (SIGABRT). The library cannot be skipped: fix or remove it.
const char* g_loading_path = nullptr;  // main thread only (plugins load on the main thread)

// Where the C library was built with unwind tables (seen with clang's sanitizer builds) the
// exception instead escapes from dlopen itself, leaving the dynamic loader in an unknown state:
// it is reported the same way, with the same exit.
// In the probe's child (load_probe.hpp): only the reason goes to the parent, through fd 2.
bool g_probe_child = false;
constexpr int kProbeThrew = 213;  // the child's exit status when an initialiser threw (unlikely from exit())

[[noreturn]] void initialiser_threw(const std::exception_ptr& e) {
  std::string why = "an exception of unknown type";
  if (e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& ex) {
      why = std::string("'") + ex.what() + "'";
    } catch (...) {
    }
  }
  if (g_probe_child) {
    [[maybe_unused]] const auto n = ::write(2, why.data(), why.size());
    std::_Exit(kProbeThrew);
  }
  const std::string m = std::string("tessera: error: cannot load ") +
                        (g_loading_path ? g_loading_path : "?") +
                        ": a static initialiser of the library threw " + why +
                        "; the library cannot be skipped once loading began: fix it or remove it from the "
                        "plugin search path\n";
  [[maybe_unused]] const auto n = ::write(2, m.data(), m.size());
  std::_Exit(1);
}

[[noreturn]] void terminate_while_loading() { initialiser_threw(std::current_exception()); }

class LoadingGuard {
 public:
  explicit LoadingGuard(const std::string& path) : previous_(std::set_terminate(&terminate_while_loading)) {
    g_loading_path = path.c_str();
  }
  ~LoadingGuard() {
    std::set_terminate(previous_);
    g_loading_path = nullptr;
  }
  LoadingGuard(const LoadingGuard&) = delete;
  LoadingGuard& operator=(const LoadingGuard&) = delete;

 private:
  std::terminate_handler previous_;
};

Entry* checked_entry(void* handle, const std::string& path, std::string& error) {
  const std::string fix = ": define the entry with TESSERA_PLUGIN(descriptor) from <tessera/sdk.hpp>";
  dlerror();
  void* symbol = dlsym(handle, kEntryName);
  if (!symbol) {
    error = path + " is not a Tessera plugin: no " + kEntryName;
    return nullptr;
  }
  Dl_info info{};
  void* extra = nullptr;
  const int found = dladdr1(symbol, &info, &extra, RTLD_DL_SYMENT);
  const auto* sym = static_cast<const ElfW(Sym)*>(extra);
  if (found == 0 || !sym || info.dli_saddr != symbol) {
    error = path + ": " + kEntryName + " has no symbol table entry" + fix;
    return nullptr;
  }
  const unsigned type = ELF64_ST_TYPE(sym->st_info);
  if (type == STT_FUNC || type == STT_GNU_IFUNC) {
    error = path + ": " + kEntryName + " is a function, not the entry pointer TESSERA_PLUGIN defines" + fix;
    return nullptr;
  }
  if (type != STT_OBJECT || sym->st_size != sizeof(void*)) {
    error = path + ": " + kEntryName + " is a " + std::to_string(sym->st_size) + "-byte " +
            (type == STT_OBJECT ? "object" : "symbol of ELF type " + std::to_string(type)) + ", not the " +
            std::to_string(sizeof(void*)) + "-byte entry pointer TESSERA_PLUGIN defines" + fix;
    return nullptr;
  }
  void* target = *static_cast<void* const*>(symbol);
  if (!target) {
    error = path + ": " + kEntryName + " is a null pointer" + fix;
    return nullptr;
  }
  Dl_info where{};
  if (dladdr(target, &where) == 0 || where.dli_fbase != info.dli_fbase) {
    error = path + ": " + kEntryName + " points outside the library" + fix;
    return nullptr;
  }
  return reinterpret_cast<Entry*>(target);
}

}  // namespace

namespace {
std::atomic<bool> g_probe{false};
std::atomic<bool> g_probe_outside{false};
}  // namespace

void set_plugin_load_probe(bool on) { g_probe = on; }
bool plugin_load_probe() { return g_probe; }
void set_plugin_load_probe_outside_shipped(bool on) { g_probe_outside = on; }
bool plugin_load_probe_outside_shipped() { return g_probe_outside; }

std::optional<std::string> probe_plugin_library(const std::string& path) {
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;  // no probe possible: the load itself decides
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return std::nullopt;
  }
  if (pid == 0) {  // the child: open the library, report only an initialiser's failure
    ::close(fds[0]);
    ::dup2(fds[1], 2);
    g_probe_child = true;
    g_loading_path = path.c_str();
    std::set_terminate(&terminate_while_loading);
    // An initialiser that calls exit(n): the status is what the parent reads. Registered before
    // the library's own handlers (which run first), this ends the child with it before the
    // process-wide ones, a sanitizer's leak check among them (seconds, in a forked copy).
    ::on_exit([](int status, void*) { ::_exit(status); }, nullptr);
    // glibc declares dlopen noexcept, so a call to it gets no landing pad and the catch below
    // would be dropped: where the C library has unwind tables (clang's sanitizer builds) the
    // exception would then unwind into this child's caller. Called through a volatile pointer of
    // a potentially-throwing type, the compiler must keep the handler.
    using OpenFn = void* (*)(const char*, int);
    static OpenFn volatile open_library = &::dlopen;
    try {
      [[maybe_unused]] void* handle = open_library(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    } catch (...) {
      initialiser_threw(std::current_exception());
    }
    std::_Exit(0);
  }
  ::close(fds[1]);
  std::string why;
  char buf[512];
  // The child's stderr until it ends (the pipe's end), for at most plugin.probe_seconds.
  const std::uint64_t limit_s = current_limits().plugin_probe_seconds;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_s);
  bool timed_out = false;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0 && why.size() < 4096) why.append(buf, static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string skipped = " (seen when a child process opened it first); the library was not loaded";
  if (timed_out)
    return "cannot load " + path + ": a " + std::string(kInitialiserFailure) +
           " of the library did not return within " + std::to_string(limit_s) +
           " s (the limit plugin.probe_seconds)" + skipped;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kProbeThrew)
    return "cannot load " + path + ": a " + std::string(kInitialiserFailure) + " of the library threw " +
           (why.empty() ? std::string("an exception") : why) + skipped;
  if (WIFSIGNALED(status))
    return "cannot load " + path + ": a " + std::string(kInitialiserFailure) +
           " of the library crashed with signal " + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")" + skipped;
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    return "cannot load " + path + ": a " + std::string(kInitialiserFailure) +
           " of the library ended the process with exit status " + std::to_string(WEXITSTATUS(status)) +
           skipped;
  return std::nullopt;
}

// The library at `path` opened in this process (null and `error` set when dlopen fails).
static std::shared_ptr<boost::dll::shared_library> open_library(const std::string& path, std::string& error) {
  auto lib = std::make_shared<boost::dll::shared_library>();
  {
    boost::dll::fs::error_code ec;
    const LoadingGuard guard(path);
    try {
      lib->load(boost::dll::fs::path(path),
                boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    } catch (...) {
      initialiser_threw(std::current_exception());
    }
    if (ec || !lib->is_loaded()) {
      const char* why = dlerror();
      error = "cannot load " + path + ": " + (why ? std::string(why) : ec.message());
      return nullptr;
    }
  }
  // Never unloaded (RTLD_NODELETE, set on the loaded library through a second handle): a thread
  // the library left running keeps its code and its static objects, which dlclose would unmap
  // and destroy under it; the executable ends without static destructors (app/main.cpp).
  if (void* pin = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) ::dlclose(pin);
  return lib;
}

PluginLoadResult load_plugin_library(const std::string& path, bool outside_shipped) {
  PluginLoadResult r;
  if (plugin_load_probe() || (outside_shipped && plugin_load_probe_outside_shipped()))
    if (auto failure = probe_plugin_library(path)) {
      r.error = std::move(*failure);
      return r;
    }
  const std::shared_ptr<boost::dll::shared_library> lib = open_library(path, r.error);
  if (!lib) return r;
  Entry* entry = checked_entry(lib->native(), path, r.error);
  if (!entry) return r;

  const PluginDescriptor* d = nullptr;
  try {
    d = entry();
  } catch (const std::exception& e) {
    r.error = path + ": " + kEntryName + " failed: " + e.what();
    return r;
  } catch (...) {
    r.error = path + ": " + kEntryName + " failed with an unknown exception";
    return r;
  }
  if (!d) {
    r.error = path + ": " + kEntryName + " returned no descriptor";
    return r;
  }

  // The two leading integers first: nothing else is read from a descriptor of another ABI.
  const std::uint32_t abi = d->abi_version, size = d->descriptor_size;
  if (abi != kAbiVersion) {
    const std::string id = header_id(d);
    r.error = path + ": plugin " + (id.empty() ? "" : id + " ") + "was built for ABI " + std::to_string(abi) +
              ", host has ABI " + std::to_string(kAbiVersion) + ": rebuild it against this SDK";
    return r;
  }
  if (size != sizeof(PluginDescriptor)) {
    const std::string id = header_id(d);
    r.error = path + ": plugin " + (id.empty() ? "" : id + " ") + "has a " + std::to_string(size) +
              "-byte descriptor, host expects " + std::to_string(sizeof(PluginDescriptor)) + " for ABI " +
              std::to_string(kAbiVersion) + ": rebuild it against this SDK";
    return r;
  }
  if (!kind_known(d->kind)) {
    r.error = path + ": plugin " + (d->name ? std::string(d->name) + " " : "") + "has unknown kind " +
              std::to_string(static_cast<std::uint32_t>(d->kind)) + " (host knows " + plugin_kind_list() +
              ")";
    return r;
  }
  const std::string id = header_id(d);
  const std::uint32_t supported = plugin_kind_interface_version(d->kind);
  if (d->kind_version != supported) {
    r.error = path + ": plugin " + id + " was built for " + plugin_kind_name(d->kind) +
              " interface version " + std::to_string(d->kind_version) + ", host supports version " +
              std::to_string(supported) + ": rebuild it against this SDK";
    return r;
  }
  if (std::string problems = sanity_problems(*d); !problems.empty()) {
    r.error = path + ": plugin " + id + ": " + problems;
    return r;
  }

  LoadedPlugin p;
  p.descriptor = d;
  p.path = path;
  p.library = std::move(lib);
  r.plugin = std::move(p);
  return r;
}

}  // namespace tessera
