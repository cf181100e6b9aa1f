#!/usr/bin/env python3
"""Checkpoints (docs/architecture.md "Checkpoints"): a study killed at a random point — kill -9,
SIGTERM, SIGINT — and resumed gives the uninterrupted run's outputs byte for byte (--json,
--csv, the text), and a bad checkpoint is refused with exit 2 and a message naming it.
Usage: checkpoint_test.py BUILD_DIR SOURCE_DIR [sanitized] (a sanitizer build: sweeps a quarter
the size, the same cases). The kill points are drawn from a seed printed
first (CHECKPOINT_TEST_SEED sets it)."""
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import sweep_scenario

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(exe, args, cwd):
    return subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True)


def outputs(d, names):
    return {n: open(os.path.join(d, n), "rb").read() for n in names}


def killed_then_resumed(exe, base, cwd, names, sig, delay):
    """Starts the study with --checkpoint, waits for its first record, sends `sig` `delay` s
    later, resumes; returns the resumed run, the units the resume started from (of how many),
    the first run's exit status and the files it left."""
    ck = os.path.join(cwd, "study.ckpt")
    if os.path.exists(ck):
        os.remove(ck)
    for n in names:
        if os.path.exists(os.path.join(cwd, n)):
            os.remove(os.path.join(cwd, n))
    p = subprocess.Popen([exe] + base + ["--checkpoint", ck, "--checkpoint-every", "0"], cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # A kill before the first record resumes nothing: wait for one (the study has started).
    while p.poll() is None:
        if os.path.exists(ck) and b"TSCKREC1" in open(ck, "rb").read():
            break
        time.sleep(0.002)
    time.sleep(delay)
    p.send_signal(sig)
    p.communicate()
    first = p.returncode
    left = sorted(f for f in os.listdir(cwd) if f not in ("study.ckpt", "s.yaml", "ref.json", "explore.yaml"))
    r = run(exe, base + ["--resume", ck, "--checkpoint-every", "0"], cwd)
    m = re.search(r"resumed after (\d+) of (\d+) work units", r.stderr)
    return r, (int(m.group(1)), int(m.group(2))) if m else (0, 0), first, left


def main():
    build, source = sys.argv[1], sys.argv[2]
    sanitized = len(sys.argv) > 3 and sys.argv[3] == "sanitized"
    exe = os.path.join(build, "bin", "tessera")
    seed = int(os.environ.get("CHECKPOINT_TEST_SEED", random.SystemRandom().randrange(1 << 30)))
    print(f"seed {seed} (CHECKPOINT_TEST_SEED={seed} repeats these kill points)")
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        scenario = os.path.join(d, "s.yaml")
        extra = sweep_scenario.write(scenario, source, 6 if sanitized else 22)
        # Without --csv: about 10^6 configurations on one thread (a second or so in Release; a
        # quarter of that in a sanitizer build, some seconds there).
        base = ["run", scenario, "--threads", "1", "--json", "out.json"] + extra
        start = time.monotonic()
        ref = run(exe, base, d)
        elapsed = time.monotonic() - start
        check(ref.returncode == 0, f"the uninterrupted run ({elapsed:.2f} s)")
        reference = {"out.json": open(os.path.join(d, "out.json"), "rb").read(), "stdout": ref.stdout}
        shutil.copy(os.path.join(d, "out.json"), os.path.join(d, "ref.json"))
        for sig, name in ((signal.SIGKILL, "kill -9"), (signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "SIGINT")):
            for attempt in range(4):
                delay = elapsed * rng.uniform(0.05, 0.5)
                r, (done, units), first, left = killed_then_resumed(exe, base, d, ["out.json"], sig, delay)
                if 0 < done < units:
                    break  # killed mid-study with records written: the case to test
            check(first != 0, f"{name} at {delay:.2f} s stopped the run (exit {first})")
            if sig == signal.SIGKILL:  # no handler runs: its temporary file (never the output) stays
                check(all(".tmp." in f for f in left), f"{name}: no output left, only temporary files ({left})")
                for f in left:
                    os.remove(os.path.join(d, f))
            else:
                check(left == [], f"{name}: no output or temporary file left ({left})")
            check(0 < done < units, f"{name}: resumed after {done} of {units} work units")
            same = r.returncode == 0 and open(os.path.join(d, "out.json"), "rb").read() == reference["out.json"] \
                and r.stdout == reference["stdout"]
            check(same, f"{name}: the resumed --json and text are the uninterrupted run's, byte for byte")
        # With --csv: the rows streamed before the kill are streamed again from the checkpoint.
        small = os.path.join(d, "s.yaml")
        sweep_scenario.write(small, source, 4, n_pp=40)
        base = ["run", small, "--threads", "1", "--json", "out.json", "--csv", "out.csv"] + extra
        reference = kill_resume_compare(exe, base, d, rng, "--csv", "work units")
        ck = os.path.join(d, "study.ckpt")
        bad_inputs(exe, base, d, ck, reference)
        explore(exe, source, d, rng, sanitized)
    if failures:
        sys.exit(f"{len(failures)} checks failed")


def explore(exe, source, d, rng, sanitized):
    """`tessera explore`: one work unit per hardware point; past 1000 points the fastest and the
    frontier listed, --csv every point."""
    scenario = os.path.join(d, "explore.yaml")
    sweep_scenario.write_explore(scenario, source, 20 if sanitized else 40)
    base = ["explore", scenario, "--threads", "1", "--no-sensitivity", "--json", "out.json", "--csv", "out.csv"]
    reference = kill_resume_compare(exe, base, d, rng, "explore", "hardware points")
    points = (20 if sanitized else 40) ** 2
    check(reference["out.csv"].count(b"\n") == points + 1, f"explore: --csv has a row per hardware point ({points})")


def kill_resume_compare(exe, base, d, rng, name, units_name):
    """The uninterrupted run of `base` (writing out.json and out.csv), then kill -9 at a random
    point with records written, resume, and compare every output; returns the reference."""
    start = time.monotonic()
    ref = run(exe, base, d)
    elapsed = time.monotonic() - start
    check(ref.returncode == 0, f"{name}: the uninterrupted run ({elapsed:.2f} s)")
    reference = outputs(d, ["out.json", "out.csv"])
    for attempt in range(4):
        r, (done, units), first, left = killed_then_resumed(exe, base, d, ["out.json", "out.csv"], signal.SIGKILL,
                                                            elapsed * rng.uniform(0.0, 0.3))
        if 0 < done < units:
            break
    check(0 < done < units, f"{name}, kill -9: resumed after {done} of {units} {units_name}")
    check(r.returncode == 0 and outputs(d, ["out.json", "out.csv"]) == reference and r.stdout == ref.stdout,
          f"{name}, kill -9: the resumed CSV, JSON and text are the uninterrupted run's, byte for byte")
    return reference


def refused(exe, args, cwd, pattern, what):
    r = run(exe, args, cwd)
    check(r.returncode == 2 and re.search(pattern, r.stderr) is not None,
          f"{what}: exit 2 and '{pattern}' (exit {r.returncode}: {r.stderr.strip()[:300]})")


def bad_inputs(exe, base, d, ck, reference):
    full = os.path.join(d, "full.ckpt")
    shutil.copy(ck, full)
    size = os.path.getsize(full)
    refused(exe, base + ["--checkpoint", ck], d, r"the file exists: resume its study with --resume", "an existing --checkpoint")
    refused(exe, base + ["--set", "workload.batch=2", "--resume", ck], d,
            r"written for another study: this one has 'argument workload.batch=2'", "another scenario")
    refused(exe, ["run", os.path.join(d, "s.yaml"), "--json", ck, "--resume", ck], d, r"is also the command's output --json", "a checkpoint named as an output")
    refused(exe, base + ["--resume", os.path.join(d, "s.yaml")], d, r"is the command's input", "a checkpoint named as an input")
    with open(os.path.join(d, "junk.ckpt"), "wb") as f:
        f.write(b"not a checkpoint\n")
    refused(exe, base + ["--resume", "junk.ckpt"], d, r"not a Tessera checkpoint", "a file that is not a checkpoint")
    shutil.copy(full, ck)
    os.truncate(ck, 40)
    refused(exe, base + ["--resume", ck], d, r"not a Tessera checkpoint .*cut short", "a header cut short")
    shutil.copy(full, ck)
    with open(ck, "r+b") as f:
        f.seek(60)
        f.write(b"X")
    refused(exe, base + ["--resume", ck], d, r"header is damaged|written for another study", "a damaged header")
    header = open(full, "rb").read().index(b"TSCKREC1")
    shutil.copy(full, ck)
    with open(ck, "r+b") as f:
        f.seek(header + 100)
        f.write(b"XXXX")
    refused(exe, base + ["--resume", ck], d, r"record 1 \(byte \d+\) is damaged", "a damaged record before the last")
    # A length that runs past the end of the file with a record after it: damaged, not cut short.
    shutil.copy(full, ck)
    with open(ck, "r+b") as f:
        f.seek(header + 8)
        f.write((1 << 62).to_bytes(8, "little"))
    refused(exe, base + ["--resume", ck], d, r"record 1 \(byte \d+\) is damaged \(its length runs past", "a damaged length")
    os.mkfifo(os.path.join(d, "fifo"))
    refused(exe, base + ["--resume", "fifo"], d, r"not a regular file", "a FIFO to resume")
    refused(exe, base + ["--checkpoint", d], d, r"not a regular file", "a folder as --checkpoint")
    os.mkdir(os.path.join(d, "charts"))
    refused(exe, base + ["--vega", "charts", "--checkpoint", os.path.join(d, "charts", "x.json")], d,
            r"lies in the folder charts that the command writes", "a checkpoint in the --vega folder")
    refused(exe, base + ["--set", "plugins.search=random", "--checkpoint", "r.ckpt"], d,
            r"not separable", "a search that is one work unit")
    refused(exe, [a for a in base if a not in ("--max-configs", "100000000")] + ["--max-configs", "10", "--checkpoint",
            "refused.ckpt"], d, r"max_configs", "a refused study")
    check(not os.path.exists(os.path.join(d, "refused.ckpt")), "a refused study leaves no checkpoint file")
    # One process at a time: a second resume of a checkpoint in use is refused.
    shutil.copy(full, ck)
    holder = subprocess.Popen(["python3", "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'rb'); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(30)", ck],
                              stdout=subprocess.PIPE)
    holder.stdout.readline()
    refused(exe, base + ["--resume", ck], d, r"in use by another tessera process", "a checkpoint in use")
    holder.kill()
    holder.wait()
    # Records of another study under this one's header: each record names its study.
    other = os.path.join(d, "other.ckpt")
    run(exe, base + ["--set", "workload.batch=2", "--checkpoint", other, "--checkpoint-every", "0"], d)
    data = open(other, "rb").read()
    with open(ck, "wb") as f:
        f.write(open(full, "rb").read()[:header] + data[data.index(b"TSCKREC1"):])
    refused(exe, base + ["--resume", ck], d, r"record 1 \(byte \d+\) belongs to another study", "another study's records")
    # A last record cut short or damaged (a kill during its write) is dropped and redone.
    for how in ("cut", "damaged"):
        shutil.copy(full, ck)
        if how == "cut":
            os.truncate(ck, size - 10)
        else:
            with open(ck, "r+b") as f:
                f.seek(size - 10)
                f.write(b"XXXX")
        r = run(exe, base + ["--resume", ck], d)
        check(r.returncode == 0 and "dropped, its units computed again" in r.stderr
              and outputs(d, ["out.json", "out.csv"]) == reference,
              f"a last record {how}: dropped, redone, the same outputs ({r.stderr.strip()[:200]})")


if __name__ == "__main__":
    main()
