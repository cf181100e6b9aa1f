#!/usr/bin/env python3
"""The layer check can fail: run on fixture/ (one violation of each rule, and files that break
none), it must name exactly these files, lines and includes, and exit 1.

    layer_check_test.py LAYER_CHECK_PY FIXTURE_ROOT
"""
import subprocess
import sys

EXPECTED = [
    'framework/src/analysis/study.cpp:2: error: #include <nlohmann/json.hpp>: analysis does not render',
    'framework/src/analysis/study.cpp:6: error: #include "scenario/scenario_loader.hpp": analysis does not load',
    'framework/src/core/reaches_up.hpp:3: error: #include <yaml-cpp/yaml.h>: core is dependency-free',
    'framework/src/core/reaches_up.hpp:5: error: #include "eval/search_driver.hpp": core may not include eval',
    'framework/src/host/registry.hpp:4: error: #include "scenario/scenario.hpp": host may not include scenario',
    'framework/src/report/thick_report.hpp:3: error: #include "eval/search_driver.hpp": a report header takes results',
    'framework/src/studies/run_study.hpp:4: error: #include "report/search_report.hpp": studies may not include report',
    'framework/app/thick_command.cpp:3: error: #include "eval/search_driver.hpp": framework/app includes only studies/, report/, core/',
    'framework/include/tessera/sdk.hpp:3: error: #include "core/clean.hpp": the SDK includes only tessera/',
    'plugins/latency/demo/demo.cpp:3: error: #include "physics/topology_graph.hpp": a plugin includes only the SDK',
    'python/src/thick_binding.cpp:3: error: #include "report/search_report.hpp": python/src includes only studies/, core/,',
]


def main(argv):
    run = subprocess.run([sys.executable, argv[1], argv[2]], capture_output=True, text=True)
    lines = [l for l in run.stdout.splitlines() if ": error: " in l]
    ok = run.returncode == 1 and len(lines) == len(EXPECTED)
    ok = ok and all(line.startswith(want) for line, want in zip(lines, EXPECTED))
    ok = ok and run.stdout.rstrip().endswith("layer check: 12 files, 11 violation(s)")
    if not ok:
        print(f"exit {run.returncode}, expected 1; output:\n{run.stdout}{run.stderr}")
        print("expected (prefixes):\n" + "\n".join(EXPECTED))
        return 1
    print(f"layer check names all {len(EXPECTED)} fixture violations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
