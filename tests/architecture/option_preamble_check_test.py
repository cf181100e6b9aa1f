#!/usr/bin/env python3
"""The option preamble check can fail: run on preamble_fixture/ (alpha and beta repeat four
statements of a preamble, laid out differently and with a comment; gamma repeats them after its
parse call, which is no preamble), it must name exactly beta's repeat and exit 1.

    option_preamble_check_test.py OPTION_PREAMBLE_CHECK_PY FIXTURE_ROOT
"""
import subprocess
import sys

EXPECTED = [
    "framework/app/beta_command.cpp:5: error: the option preamble of framework/app/alpha_command.cpp:5 repeated",
]


def main(argv):
    run = subprocess.run([sys.executable, argv[1], argv[2]], capture_output=True, text=True)
    lines = [l for l in run.stdout.splitlines() if ": error: " in l]
    ok = run.returncode == 1 and len(lines) == len(EXPECTED)
    ok = ok and all(line.startswith(want) for line, want in zip(lines, EXPECTED))
    ok = ok and run.stdout.rstrip().endswith("option preamble check: 3 commands, 1 repeated preamble(s)")
    if not ok:
        print(f"exit {run.returncode}, expected 1; output:\n{run.stdout}{run.stderr}")
        print("expected (prefixes):\n" + "\n".join(EXPECTED))
        return 1
    print("option preamble check names the fixture's repeated preamble")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
