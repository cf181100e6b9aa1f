"""Ctrl-C during a long call raises KeyboardInterrupt within a second (the engine's
cancellation token, polled between batches); the next call runs normally."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import tessera


def _interrupt_after_first_progress(delay):
    """SIGINT `delay` seconds after the first progress call (the work has started)."""
    started = threading.Event()
    stamp = {}

    def fire():
        started.wait(30)
        time.sleep(delay)
        stamp["t"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=fire)
    timer.start()
    seen = []
    return timer, stamp, seen, lambda done, total, unit: (seen.append(done), started.set())


def test_ctrl_c_stops_a_large_evaluate(small):
    s = tessera.Scenario.load(small)
    n = 2_000_000  # ~1 s or more of work on one thread; ~330 MB of columns
    batch = {"tp": np.full(n, 2, dtype=np.int32)}
    timer, stamp, seen, progress = _interrupt_after_first_progress(0.2)
    with pytest.raises(KeyboardInterrupt):
        s.evaluate(batch, threads=1, progress=progress)
    elapsed = time.monotonic() - stamp["t"]
    timer.join()
    assert elapsed < 1.0
    assert seen[-1] < n
    assert s.evaluate({"tp": np.array([2])}, threads=1)["valid"][0]


def test_ctrl_c_stops_a_large_sweep():
    # The default scenario on a grid of ~190,000 valid configurations (seconds on one thread).
    # SIGINT comes 0.02 s after the first batch (the sweep's evaluation takes ~0.2 s or more
    # on one thread, its 47 batches polled one by one): the grid's enumeration before it polls nothing
    # (docs/python.md, "Threads, the GIL, Ctrl-C, progress").
    big = {"sweep.parallelism.dp": list(range(1, 65)), "sweep.parallelism.pp": [1, 2, 4, 5, 8, 10, 16, 20, 40, 80],
           "sweep.parallelism.cp": list(range(1, 129)), "sweep.parallelism.tp": [1, 2, 4, 8, 16, 32, 64]}
    s = tessera.Scenario.load(None, set=big)
    timer, stamp, seen, progress = _interrupt_after_first_progress(0.02)
    with pytest.raises(KeyboardInterrupt):
        s.run(threads=1, progress=progress)
    elapsed = time.monotonic() - stamp["t"]
    timer.join()
    assert elapsed < 1.0
    assert seen[-1] < 190_000  # stopped before the end


def test_progress_callback_and_its_exception(small):
    s = tessera.Scenario.load(small)
    seen = []
    s.run(threads=1, progress=lambda done, total, unit: seen.append((done, total, unit)))
    assert seen and seen[-1][0] == seen[-1][1] and seen[-1][2] == "configurations"

    def stop(done, total, unit):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        s.evaluate({"tp": np.full(100_000, 2, dtype=np.int32)}, threads=1, progress=stop)


@pytest.mark.parametrize("study", ["serve", "explore", "validate_data", "compare", "sensitivity"])
def test_progress_on_every_long_call(study):
    from conftest import ROOT

    seen = []
    progress = lambda done, total, unit: seen.append((done, total, unit))  # noqa: E731
    if study == "serve":
        tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-70b-serve-4k1k-h100.yaml").serve(threads=2,
                                                                                             progress=progress)
    elif study == "explore":
        tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-8b-sram-capacity-explore.yaml").explore(
            sensitivity=False, threads=2, progress=progress)
    elif study == "validate_data":
        tessera.validate_data(ROOT / "data" / "measurements-h200.csv", "roofline", progress=progress)
    elif study == "compare":
        s = tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-8b-decode-4k-h100.yaml")
        tessera.compare(s, ["overlap", "roofline"], threads=2, progress=progress)
    else:
        tessera.Scenario.load(ROOT / "scenarios" / "llama3.1-8b-decode-4k-h100.yaml").sensitivity(
            threads=2, progress=progress)
    assert seen, "no progress call"
    assert all(isinstance(u, str) and u and 0 <= d and (t == 0 or d <= t) for d, t, u in seen)
    if study == "validate_data":
        assert {u for _, _, u in seen} == {"rows prepared", "rows predicted"} and seen[-1][1] == 164
    with pytest.raises(TypeError, match="progress: expected a callable"):
        tessera.validate_data(ROOT / "data" / "measurements-h200.csv", "roofline", progress=3)
