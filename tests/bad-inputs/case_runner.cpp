// The hostile-case runner: runs one `NAME.expect` case (tests/bad-inputs/README.md) against
// the real `tessera` executable and checks how it ended. Exit 0 when the case passes, 1 when
// it fails (with the expected and the actual outcome on stderr), 2 when the case file itself
// is malformed.
//
//   case_runner --tessera EXE --tests DIR --fixtures DIR --root DIR --build DIR CASE.expect
//
// The child runs with the working directory DIR (tests/), stdin from /dev/null, in its own
// process group (a timeout kills the group). A child ended by a signal always fails the case,
// and so does a sanitizer report on its stderr.
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace fs = std::filesystem;

namespace {

// A problem with the case file itself (exit 2), not with tessera.
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Paths {
  std::string tessera, tests, fixtures, root, build;
};

struct Expectation {
  std::string name;
  std::vector<std::string> args;
  std::optional<int> exit_status;
  std::optional<std::string> stderr_first, stdout_first;
  std::vector<std::string> stderr_has, stderr_lacks, stdout_has, stdout_lacks;
  std::vector<std::string> env, setup, absent, present, not_regular;
  double timeout_s = 30;
  std::optional<std::pair<int, double>> signal;  // send this signal after so many seconds
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// The words of an `args:` line: split on spaces; '…' and "…" quote (also inside a word, as in
// a shell: --config 'tp=1 pp=2' or key="a b"); '' is an empty word.
std::vector<std::string> split_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'' || c == '"') {
      const auto close = line.find(c, i + 1);
      if (close == std::string::npos) throw CaseError("args: unterminated quote " + std::string(1, c));
      word += line.substr(i + 1, close - i - 1);
      in_word = true;
      i = close;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

int signal_number(const std::string& name) {
  static const std::map<std::string, int> known = {{"INT", SIGINT},   {"TERM", SIGTERM}, {"HUP", SIGHUP},
                                                   {"QUIT", SIGQUIT}, {"KILL", SIGKILL}, {"PIPE", SIGPIPE},
                                                   {"USR1", SIGUSR1}};
  const std::string n = name.rfind("SIG", 0) == 0 ? name.substr(3) : name;
  const auto it = known.find(n);
  if (it == known.end()) throw CaseError("signal: unknown signal '" + name + "'");
  return it->second;
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

double parse_seconds(const std::string& key, const std::string& v) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(d > 0) || d > 3600)
    throw CaseError(key + ": expected seconds, found '" + v + "'");
  return d;
}

Expectation read_case(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw CaseError("cannot read " + file.string());
  Expectation x;
  x.name = file.stem().string();
  std::string line;
  int number = 0;
  bool have_args = false;
  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto colon = t.find(':');
    if (colon == std::string::npos)
      throw CaseError("line " + std::to_string(number) + ": expected 'key: value'");
    const std::string key = t.substr(0, colon);
    // The value: everything after ": " (one space); trailing spaces are kept out.
    std::string value = t.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    const auto once = [&](auto& slot) {
      if (slot) throw CaseError("line " + std::to_string(number) + ": '" + key + ":' given twice");
    };
    if (key == "args") {
      if (have_args) throw CaseError("line " + std::to_string(number) + ": 'args:' given twice");
      have_args = true;
      x.args = split_words(value);
    } else if (key == "exit") {
      once(x.exit_status);
      char* end = nullptr;
      const long v = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || v < 0 || v > 255)
        throw CaseError("exit: expected 0..255, found '" + value + "'");
      x.exit_status = static_cast<int>(v);
    } else if (key == "stderr") {
      once(x.stderr_first);
      x.stderr_first = value;
    } else if (key == "stdout") {
      once(x.stdout_first);
      x.stdout_first = value;
    } else if (key == "stderr-has") {
      x.stderr_has.push_back(value);
    } else if (key == "stderr-lacks") {
      x.stderr_lacks.push_back(value);
    } else if (key == "stdout-has") {
      x.stdout_has.push_back(value);
    } else if (key == "stdout-lacks") {
      x.stdout_lacks.push_back(value);
    } else if (key == "env") {
      if (value.find('=') == std::string::npos)
        throw CaseError("env: expected KEY=VALUE, found '" + value + "'");
      x.env.push_back(value);
    } else if (key == "setup") {
      x.setup.push_back(value);
    } else if (key == "absent") {
      x.absent.push_back(value);
    } else if (key == "present") {
      x.present.push_back(value);
    } else if (key == "not-regular") {
      x.not_regular.push_back(value);
    } else if (key == "timeout") {
      x.timeout_s = parse_seconds("timeout", value);
    } else if (key == "signal") {
      once(x.signal);
      const auto words = split_words(value);
      if (words.size() != 2) throw CaseError("signal: expected 'NAME SECONDS', found '" + value + "'");
      x.signal = std::make_pair(signal_number(words[0]), parse_seconds("signal", words[1]));
    } else {
      throw CaseError("line " + std::to_string(number) + ": unknown key '" + key + "'");
    }
  }
  if (!have_args) throw CaseError("no 'args:' line");
  if (!x.exit_status) throw CaseError("no 'exit:' line");
  return x;
}

struct Placeholders {
  std::map<std::string, std::string> values;
  std::string input_problem;  // why {input} has no value

  std::string apply(const std::string& s) const {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '{') {
        const auto close = s.find('}', i);
        if (close != std::string::npos) {
          const std::string name = s.substr(i + 1, close - i - 1);
          if (name == "input" && !input_problem.empty()) throw CaseError("{input}: " + input_problem);
          if (const auto it = values.find(name); it != values.end()) {
            out += it->second;
            i = close;
            continue;
          }
        }
      }
      out += s[i];
    }
    return out;
  }
};

// bad-inputs/NAME.<ext>: the case's one input file beside the .expect (or its folder NAME/).
Placeholders make_placeholders(const fs::path& case_file, const Paths& paths, const std::string& tmp) {
  Placeholders p;
  const fs::path dir = case_file.parent_path();
  const std::string rel_dir = fs::path(dir).lexically_relative(paths.tests).string();
  const std::string stem = case_file.stem().string();
  std::vector<std::string> inputs;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n == stem + ".expect") continue;
    if (n == stem || (n.size() > stem.size() + 1 && n.compare(0, stem.size() + 1, stem + ".") == 0))
      inputs.push_back(n);
  }
  if (inputs.size() == 1)
    p.values["input"] = rel_dir + "/" + inputs.front();
  else
    p.input_problem =
        inputs.empty() ? "no file " + stem + ".* beside the case" : "more than one file " + stem + ".*";
  p.values["dir"] = rel_dir;
  p.values["tmp"] = tmp;
  p.values["fixtures"] = paths.fixtures;
  p.values["root"] = paths.root;
  p.values["build"] = paths.build;
  return p;
}

// `write` text: `\n` is a newline, `\t` a tab, `\\` a backslash, `\xHH` a byte.
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    if (c == 'n')
      out += '\n';
    else if (c == 't')
      out += '\t';
    else if (c == '\\')
      out += '\\';
    else if (c == 'x' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
             std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += '\\';
      out += c;
    }
  }
  return out;
}

void run_setup(const std::string& action) {
  const auto space = action.find(' ');
  const std::string verb = action.substr(0, space);
  const std::string rest = space == std::string::npos ? "" : action.substr(space + 1);
  const auto words = split_words(rest);
  const auto need = [&](std::size_t n) {
    if (words.size() != n)
      throw CaseError("setup: '" + verb + "' takes " + std::to_string(n) + " argument(s): " + action);
  };
  std::error_code ec;
  if (verb == "mkdir") {
    need(1);
    fs::create_directories(words[0], ec);
  } else if (verb == "mkfifo") {
    need(1);
    if (::mkfifo(words[0].c_str(), 0644) != 0) ec.assign(errno, std::generic_category());
  } else if (verb == "symlink") {
    need(2);
    fs::create_symlink(words[0], words[1], ec);
  } else if (verb == "write") {
    if (rest.empty()) throw CaseError("setup: 'write' takes PATH TEXT: " + action);
    const auto sp = rest.find(' ');
    const std::string path = rest.substr(0, sp);
    const std::string text = sp == std::string::npos ? "" : unescape(rest.substr(sp + 1));
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) ec.assign(EIO, std::generic_category());
  } else if (verb == "chmod") {
    need(2);
    char* end = nullptr;
    const long mode = std::strtol(words[0].c_str(), &end, 8);
    if (*end != '\0' || mode < 0 || mode > 07777)
      throw CaseError("setup: chmod: bad mode '" + words[0] + "'");
    if (::chmod(words[1].c_str(), static_cast<mode_t>(mode)) != 0) ec.assign(errno, std::generic_category());
  } else {
    throw CaseError("setup: unknown action '" + verb + "' (mkdir, mkfifo, symlink, write, chmod)");
  }
  if (ec) throw CaseError("setup: " + action + ": " + ec.message());
}

// A fresh, empty, absolute folder for the case; folders left unreadable by an earlier run are
// made writable again first.
std::string fresh_tmp(const Paths& paths, const std::string& name) {
  const fs::path dir = fs::path(paths.build) / "case-tmp" / name;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec))) {
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0755);
    }
    ::chmod(dir.c_str(), 0755);
    fs::remove_all(dir, ec);
    if (ec) throw CaseError("cannot empty " + dir.string() + ": " + ec.message());
  }
  fs::create_directories(dir, ec);
  if (ec) throw CaseError("cannot create " + dir.string() + ": " + ec.message());
  return fs::absolute(dir).lexically_normal().string();
}

struct Outcome {
  bool exited = false;
  int status = 0;  // exit status, or the signal
  bool timed_out = false;
  std::string out, err;
};

constexpr std::size_t kCaptureLimit = 8u << 20;  // per stream; the rest is read and dropped

Outcome run_child(const std::vector<std::string>& argv, const std::vector<std::string>& env, double timeout_s,
                  std::optional<std::pair<int, double>> send_signal) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const auto& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    const int null_in = ::open("/dev/null", O_RDONLY);
    if (null_in >= 0) ::dup2(null_in, 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::signal(SIGPIPE, SIG_DFL);
    ::execve(cargv[0], cargv.data(), cenv.data());
    const std::string m =
        std::string("case_runner: cannot run ") + cargv[0] + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] auto n = ::write(2, m.data(), m.size());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no race with the child's own call
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  Outcome o;
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s));
  };
  const auto deadline = start + seconds(timeout_s);
  std::optional<clock::time_point> signal_at;
  if (send_signal) signal_at = start + seconds(send_signal->second);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&o.out, &o.err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    const auto now = clock::now();
    if (now >= deadline) {
      o.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    auto next = deadline;
    if (signal_at && *signal_at < next) next = *signal_at;
    if (signal_at && now >= *signal_at) {
      ::kill(pid, send_signal->first);
      signal_at.reset();
      continue;
    }
    const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count() + 1;
    const int r = ::poll(fds, 2, static_cast<int>(wait_ms));
    if (r < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        if (sinks[i]->size() < kCaptureLimit) sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int wstatus = 0;
  // The streams closed (or the group was killed): the child is ending; reap it, still bounded.
  while (true) {
    const pid_t w = ::waitpid(pid, &wstatus, o.timed_out ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (w == 0) {
      if (clock::now() >= deadline) {
        o.timed_out = true;
        ::kill(-pid, SIGKILL);
      } else {
        ::usleep(2000);
      }
    }
  }
  ::kill(-pid, SIGKILL);  // anything the child left behind in its group
  if (WIFEXITED(wstatus)) {
    o.exited = true;
    o.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    o.status = WTERMSIG(wstatus);
  }
  return o;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string shown(const std::string& s) {
  constexpr std::size_t kShow = 4000;
  if (s.size() <= kShow) return s;
  return s.substr(0, kShow) + "\n[... " + std::to_string(s.size() - kShow) + " more bytes]\n";
}

std::string quoted_command(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    const bool plain = !a.empty() && a.find_first_of(" \t'\"\\$*?;&|<>()") == std::string::npos;
    s += (s.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return s;
}

std::vector<std::string> glob_paths(const std::string& pattern) {
  glob_t g{};
  std::vector<std::string> out;
  if (::glob(pattern.c_str(), GLOB_NOSORT | GLOB_PERIOD, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  return out;
}

bool path_exists(const std::string& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0;
}

int run_case(const fs::path& case_file, const Paths& paths) {
  const Expectation x = read_case(case_file);
  if (::chdir(paths.tests.c_str()) != 0)
    throw std::runtime_error("cannot enter " + paths.tests + ": " + std::strerror(errno));
  const std::string tmp = fresh_tmp(paths, x.name);
  const Placeholders ph = make_placeholders(fs::absolute(case_file), paths, tmp);

  std::vector<std::string> argv{paths.tessera};
  for (const auto& a : x.args) argv.push_back(ph.apply(a));

  // The environment: ours, with the case defaults, then the case's own `env:` lines.
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  env["TESSERA_DATA_DIR"] = "bad-inputs/data";
  env["TESSERA_PLUGIN_PATH"] = "";
  for (const auto& kv : x.env) {
    const std::string v = ph.apply(kv);
    const auto eq = v.find('=');
    env[v.substr(0, eq)] = v.substr(eq + 1);
  }
  std::vector<std::string> envv;
  for (const auto& [k, v] : env) envv.push_back(k + "=" + v);

  for (const auto& s : x.setup) run_setup(ph.apply(s));

  const Outcome o = run_child(argv, envv, x.timeout_s, x.signal);

  std::vector<std::string> problems;
  const auto outcome_text = [&]() -> std::string {
    if (o.timed_out) {
      std::ostringstream t;
      t << "hung (killed after " << x.timeout_s << " s)";
      return t.str();
    }
    if (!o.exited) return "crashed with " + signal_name(o.status);
    return "exit " + std::to_string(o.status);
  };
  if (o.timed_out || !o.exited) {
    problems.push_back(outcome_text());
  } else if (o.status != *x.exit_status) {
    problems.push_back("exit: expected " + std::to_string(*x.exit_status) + ", got " +
                       std::to_string(o.status));
  }
  for (const char* marker : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", ": runtime error: "})
    if (o.err.find(marker) != std::string::npos)
      problems.push_back(std::string("sanitizer report: ") + marker);
  const auto check_first = [&](const char* stream, const std::optional<std::string>& want,
                               const std::string& got) {
    if (want && first_line(got) != ph.apply(*want))
      problems.push_back(std::string(stream) + ": first line differs\n  expected: " + ph.apply(*want) +
                         "\n  actual:   " + first_line(got));
  };
  check_first("stderr", x.stderr_first, o.err);
  check_first("stdout", x.stdout_first, o.out);
  const auto check_has = [&](const char* stream, const std::vector<std::string>& want, const std::string& got,
                             bool must_have) {
    for (const auto& w : want) {
      const std::string s = ph.apply(w);
      if ((got.find(s) != std::string::npos) != must_have)
        problems.push_back(std::string(stream) + (must_have ? " lacks: " : " has: ") + s);
    }
  };
  check_has("stderr", x.stderr_has, o.err, true);
  check_has("stderr", x.stderr_lacks, o.err, false);
  check_has("stdout", x.stdout_has, o.out, true);
  check_has("stdout", x.stdout_lacks, o.out, false);
  for (const auto& a : x.absent)
    for (const auto& p : glob_paths(ph.apply(a)))
      problems.push_back("absent: " + p + " exists after the run");
  for (const auto& p : x.present)
    if (!path_exists(ph.apply(p)))
      problems.push_back("present: " + ph.apply(p) + " does not exist after the run");
  for (const auto& p : x.not_regular) {
    struct stat st {};
    if (::lstat(ph.apply(p).c_str(), &st) != 0)
      problems.push_back("not-regular: " + ph.apply(p) + " does not exist after the run");
    else if (S_ISREG(st.st_mode))
      problems.push_back("not-regular: " + ph.apply(p) + " was replaced by a regular file");
  }

  if (problems.empty()) {
    std::cout << "case " << x.name << ": ok (" << outcome_text() << ")\n";
    return 0;
  }
  std::cerr << "case " << x.name << " FAILED (" << case_file.string() << ")\n"
            << "  command (in " << paths.tests << "): " << quoted_command(argv) << "\n"
            << "  expected: exit " << *x.exit_status;
  if (x.stderr_first) std::cerr << ", stderr " << ph.apply(*x.stderr_first);
  std::cerr << "\n  actual:   " << outcome_text() << ", stderr " << first_line(o.err) << "\n";
  for (const auto& p : problems) std::cerr << "- " << p << "\n";
  std::cerr << "--- stderr ---\n" << shown(o.err) << "--- stdout ---\n" << shown(o.out) << "---\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Paths paths;
  std::string case_file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&](std::string& slot) {
      if (i + 1 >= argc) throw CaseError(a + " needs a value");
      slot = argv[++i];
    };
    try {
      if (a == "--tessera")
        value(paths.tessera);
      else if (a == "--tests")
        value(paths.tests);
      else if (a == "--fixtures")
        value(paths.fixtures);
      else if (a == "--root")
        value(paths.root);
      else if (a == "--build")
        value(paths.build);
      else if (!a.empty() && a[0] != '-' && case_file.empty())
        case_file = a;
      else
        throw CaseError("unexpected argument '" + a + "'");
    } catch (const CaseError& e) {
      std::cerr << "case_runner: " << e.what() << "\n";
      return 2;
    }
  }
  if (case_file.empty() || paths.tessera.empty() || paths.tests.empty()) {
    std::cerr << "usage: case_runner --tessera EXE --tests DIR [--fixtures DIR] [--root DIR] [--build DIR] "
                 "CASE.expect\n";
    return 2;
  }
  if (paths.build.empty()) paths.build = fs::temp_directory_path().string();
  try {
    paths.tessera = fs::absolute(paths.tessera).string();
    paths.tests = fs::absolute(paths.tests).lexically_normal().string();
    while (paths.tests.size() > 1 && paths.tests.back() == '/') paths.tests.pop_back();
    paths.build = fs::absolute(paths.build).lexically_normal().string();
    return run_case(fs::absolute(case_file).lexically_normal(), paths);
  } catch (const CaseError& e) {
    std::cerr << "case_runner: " << case_file << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "case_runner: " << case_file << ": " << e.what() << "\n";
    return 2;
  }
}
