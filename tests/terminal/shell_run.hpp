#pragma once
// A shell command's exit status and standard output, for the end-to-end terminal tests.
#include <cstdio>
#include <string>

#include <sys/wait.h>

namespace tessera::testing {

struct Ran {
  int rc = -1;
  std::string out;  // stdout, and stderr where the command redirects it there
};

inline Ran shell(const std::string& cmd) {
  Ran r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int rc = pclose(p);
  r.rc = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return r;
}

}  // namespace tessera::testing
