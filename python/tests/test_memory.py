"""Repeated runs do not leak: RSS grows at most 1 MB over 1,000 runs after 100 warm-up runs."""
import tessera


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def test_rss_flat_over_1000_runs(small):
    s = tessera.Scenario.load(small, set={"sweep.parallelism.cp": [1], "sweep.parallelism.tp": [1, 2, 4, 8], "sweep.parallelism.pp": [1, 2],
                                          "sweep.parallelism.dp": [1]})
    for _ in range(100):
        s.run(threads=1)
    before = _rss_kb()
    for _ in range(1000):
        s.run(threads=1)
    assert _rss_kb() - before <= 1024
