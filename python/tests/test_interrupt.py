"""Ctrl-C during a long call raises KeyboardInterrupt within a second (the engine's
cancellation token, polled between batches); the next call runs normally."""
import os
import signal
import threading
import time

import numpy as np
import pytest

import tessera


def _interrupt_after(seconds):
    stamp = {}

    def fire():
        stamp["t"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Timer(seconds, fire)
    t.start()
    return t, stamp


def test_ctrl_c_stops_a_large_evaluate(small):
    s = tessera.Scenario.load(small)
    n = 20_000_000  # far more than a second of work
    batch = {"tp": np.full(n, 2, dtype=np.int32)}
    timer, stamp = _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        s.evaluate(batch, threads=2)
    elapsed = time.monotonic() - stamp["t"]
    timer.join()
    assert elapsed < 1.0
    assert s.evaluate({"tp": np.array([2])}, threads=1)["valid"][0]


def test_ctrl_c_stops_a_large_sweep():
    # The default scenario on a grid of ~190,000 valid configurations (seconds on one thread).
    # SIGINT comes 0.2 s after the first batch: the grid's enumeration before it polls nothing
    # (docs/python.md, "Interrupting").
    big = {"sweep.parallelism.dp": list(range(1, 65)), "sweep.parallelism.pp": [1, 2, 4, 5, 8, 10, 16, 20, 40, 80],
           "sweep.parallelism.cp": list(range(1, 129)), "sweep.parallelism.tp": [1, 2, 4, 8, 16, 32, 64]}
    s = tessera.Scenario.load(None, set=big)
    started = threading.Event()
    stamp = {}

    def fire():
        started.wait(30)
        time.sleep(0.2)
        stamp["t"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Thread(target=fire)
    timer.start()
    seen = []
    with pytest.raises(KeyboardInterrupt):
        s.run(threads=1, progress=lambda done, total, unit: (seen.append(done), started.set()))
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
