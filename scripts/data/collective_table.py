"""The collective rows `tessera validate-data` maps, as dictionaries (for the fit scripts beside
this file): id, machine, collective, ranks, bytes, algorithm, measured, predicted, unit, group,
and the CSV row's source and hardware. Only the first latency model's table is read: collectives
are priced alike by every model. Stops with the reason when validate-data fails.
"""
import csv
import subprocess
import sys

CSV = "data/measurements-collectives.csv"
UNITS = {"B": 1, "KiB": 1024, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def collective_rows(tessera, csv_path=CSV):
    ran = subprocess.run([tessera, "validate-data", csv_path], capture_output=True, text=True)
    if ran.returncode != 0:
        sys.exit(f"{tessera} validate-data {csv_path} failed (exit {ran.returncode}): {ran.stderr.strip()[-400:]}")
    table = {r["id"]: r for r in csv.DictReader(open(csv_path))}
    rows, seen, on = [], set(), False
    for line in ran.stdout.splitlines():
        if line.startswith("collective rows"):
            on = True
            continue
        if line.startswith("== latency model") and seen:
            break
        f = line.split()
        # id machine collective n M(2 fields) algorithm t(2) measured predicted unit APE(2) group...
        if not on or len(f) < 15 or not f[0].isdigit() or f[0] in seen or f[5] not in UNITS:
            continue
        seen.add(f[0])
        rows.append({"id": f[0], "machine": f[1], "collective": f[2], "ranks": int(f[3]),
                     "bytes": float(f[4]) * UNITS[f[5]], "algorithm": f[6], "measured": float(f[9]),
                     "predicted": float(f[10]), "unit": f[11], "group": " ".join(f[14:]),
                     "source": table[f[0]]["source"], "hardware": table[f[0]]["hardware"]})
    return rows
