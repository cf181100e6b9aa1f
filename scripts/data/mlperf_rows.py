#!/usr/bin/env python3
"""Rows of data/measurements-serving.csv read from MLPerf Inference result logs (data/README.md
"measurements-serving.csv").

Reads a local git mirror of github.com/mlcommons/inference_results_v4.1 at one commit and prints
CSV rows (the columns of data/measurements.csv) for the Llama-2-70B and Mixtral-8x7B closed
datacenter results: Offline 'Tokens per second', Server 'Completed tokens per second', and the
Server run's mean first-token latency and mean time to output token. Every value is copied from
the named mlperf_log_summary.txt; the system description (framework, accelerator, count) from
systems/<system>.json; tensor parallelism and use_fp8 from the submitter's
configs/<benchmark>/<Scenario>/__init__.py class for the system, where the submitter published
one (else left blank / 'not stated in the files read').

Usage: mlperf_rows.py MIRROR_GIT_DIR COMMIT FIRST_ID > rows.csv
"""
import csv
import json
import re
import subprocess
import sys

GIT, COMMIT, FIRST = sys.argv[1], sys.argv[2], int(sys.argv[3])
BENCH = {"llama2-70b-99": "Llama-2-70B (chat)", "llama2-70b-99.9": "Llama-2-70B (chat)",
         "mixtral-8x7b": "Mixtral-8x7B-Instruct-v0.1"}


def show(path):
    r = subprocess.run(["git", "--git-dir", GIT, "show", f"{COMMIT}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def files():
    r = subprocess.run(["git", "--git-dir", GIT, "ls-tree", "-r", "--name-only", COMMIT, "closed"],
                       capture_output=True, text=True, check=True)
    return r.stdout.split("\n")


def summary(text):
    out = {}
    for line in text.split("\n"):
        if ":" in line:
            k, v = line.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def config_attrs(sub, bench, scen, system):
    """use_fp8 / tensor_parallelism / pipeline_parallelism / gpu_batch_size of the system's class."""
    b = bench.split("-99")[0]
    text = show(f"closed/{sub}/configs/{b}/{scen}/__init__.py")
    custom = show(f"closed/{sub}/configs/{b}/{scen}/custom.py")
    if text and custom:
        text += "\n" + custom
    if not text:
        return None, None
    classes = {}
    cur = None
    for line in text.split("\n"):
        m = re.match(r"class (\w+)\(([\w, ]+)\):", line)
        if m:
            cur = m.group(1)
            classes[cur] = {"_parents": [p.strip() for p in m.group(2).split(",")]}
            continue
        m = re.match(r"\s+(use_fp8|tensor_parallelism|pipeline_parallelism|gpu_batch_size|precision)\s*=\s*(.+)$", line)
        if m and cur:
            classes[cur][m.group(1)] = m.group(2).split("#")[0].strip()
    # The class is named after the system id without the software suffix, or after its GPU part
    # ("DGX-H100_H100-SXM-80GBx8_TRT" -> H100_SXM_80GBx8); the 99.9 % target has its own
    # `<class>_HighAccuracy` where the file defines one.
    full = re.sub(r"_TRT.*$", "", system).replace("-", "_")
    m = re.search(r"((?:H100|H200|B200)-SXM[-_].*x\d+)(?:_TRT|$)", system)
    gpu = m.group(1).replace("-", "_") if m else None
    names = []
    cands = [full, gpu]
    m2 = re.match(r"H100_SXM_80GBx(\d+)$", gpu or "")
    if m2 and int(m2.group(1)) % 2 == 0:
        cands.append(f"H100_SXM_80GB_TP2x{int(m2.group(1)) // 2}")  # NVIDIA's llama2-70b H100 classes: TP2
    for base_name in cands:
        if base_name:
            if bench.endswith("99.9"):
                names.append(base_name + "_HighAccuracy")
            names.append(base_name)
    lower = {c.lower(): c for c in classes}
    name = next((lower[n.lower()] for n in names if n.lower() in lower), None)
    if name is None:
        return None, f"configs/{b}/{scen}/__init__.py"

    def get(c, k, seen=()):
        if c not in classes or c in seen:
            return None
        if k in classes[c]:
            return classes[c][k]
        for p in classes[c]["_parents"]:
            v = get(p, k, seen + (c,))
            if v is not None:
                return v
        return None

    init = show(f"closed/{sub}/configs/{b}/{scen}/__init__.py") or ""
    fname = "__init__.py" if re.search(r"^class " + name + r"\(", init, re.M) else "custom.py"
    attrs = {k: get(name, k) for k in ("use_fp8", "tensor_parallelism", "pipeline_parallelism", "gpu_batch_size",
                                        "precision")}
    return attrs, f"configs/{b}/{scen}/{fname} class {name}"


def main():
    w = csv.writer(sys.stdout, lineterminator="\n")
    rid = FIRST
    pat = re.compile(r"closed/([^/]+)/results/([^/]+)/(llama2-70b-99(?:\.9)?|mixtral-8x7b)/(Offline|Server)/"
                     r"performance/run_1/mlperf_log_summary.txt$")
    for path in sorted(files()):
        m = pat.match(path)
        if not m:
            continue
        sub, system, bench, scen = m.groups()
        s = summary(show(path))
        if s.get("Result is") != "VALID":
            continue
        sysj = json.loads(show(f"closed/{sub}/systems/{system}.json") or "{}")
        n = int(sysj.get("accelerators_per_node", 0)) * int(sysj.get("number_of_nodes", 1) or 1)
        acc = sysj.get("accelerator_model_name", "")
        # Only accelerators with a shipped machine file (H100 SXM, H200 SXM, B200, MI300X): L40S,
        # H100 NVL/PCIe and GH200 results are left out of this file.
        if not re.search(r"H100-SXM|H200-SXM|B200|MI300X", acc) or "GH200" in acc:
            continue
        mem = sysj.get("accelerator_memory_capacity", "")
        hardware = f"{acc} ({mem}, {n} per system; {sysj.get('system_name', '')})"
        software = sysj.get("framework", "")
        b = bench.split("-99")[0]
        readme = show(f"closed/{sub}/code/{b}/tensorrt/README.md") or ""
        if "TRTLLM" in readme and acc.startswith("NVIDIA"):
            # The submitter's code/<benchmark>/tensorrt/README.md builds TensorRT-LLM (TRTLLM) and
            # quantizes with --qformat fp8 --kv_cache_dtype fp8.
            software = (f"NVIDIA MLPerf harness on TensorRT-LLM (closed/{sub}/code/{b}/tensorrt builds TRTLLM; "
                        f"systems json framework '{software}')")
        attrs, where = config_attrs(sub, bench, scen, system)
        tp = pp = ""
        precision = "not stated in the files read"
        cfg_note = "No config class for this system in the submitter's configs (precision and parallelism not stated in the files read)."
        if attrs:
            tp = attrs["tensor_parallelism"] or ""
            pp = attrs["pipeline_parallelism"] or ""
            if attrs["use_fp8"] == "True":
                precision = "fp8 (use_fp8=True)"
                if "--kv_cache_dtype fp8" in readme:
                    precision = "fp8 (use_fp8=True; weights, activations, KV)"
            cfg_note = (f"Config closed/{sub}/{where}: tensor_parallelism={tp or 'not set'}, "
                        f"pipeline_parallelism={pp or 'not set'}, use_fp8={attrs['use_fp8']}, "
                        f"gpu_batch_size={attrs['gpu_batch_size']}; KV-cache dtype not stated in the files read.")
        if sub == "AMD" or ("MI300X" in acc and "vLLM" in software):
            # closed/AMD/code/llama2-70b-99.9/test_VllmFp8/test_VllmFp8_{Offline,SyncServer}_perf.sh:
            # TP=1, DP=8, --quantization fp8 (Quark w_fp8_a_fp8_o_fp8), --kv-cache-dtype fp8.
            if sub == "AMD":
                tp, pp = "1", "1"
                precision = "fp8 (weights, activations, KV)"
                cfg_note = ("closed/AMD/code/llama2-70b-99.9/test_VllmFp8/test_VllmFp8_" +
                            ("Offline" if scen == "Offline" else "SyncServer") +
                            "_perf.sh: TP=1 (one engine per GPU; DP defaults to 8), --quantization fp8 with Quark "
                            "w_fp8_a_fp8_o_fp8 weights, --kv-cache-dtype fp8.")
        if n == 1 and not tp:
            tp = "1"
        model = BENCH[bench]
        data = ("Dataset: MLPerf " + ("llama2-70b OpenOrca subset (24,576 samples)" if "llama" in bench else
                "mixtral-8x7b mix of OpenOrca, GSM8K and MBXP (15,000 samples)") +
                ", variable input/output lengths.")
        loc = f"github mlcommons/inference_results_v4.1 @{COMMIT} ; {path}"
        source = f"MLPerf Inference v4.1 Datacenter (closed), {sub} submission result logs (mlperf_log_summary.txt)"
        acc_target = f"accuracy target {bench.split('-')[-1]} %" if bench.startswith("llama") else ""
        base = [source, None, software, model, precision, hardware, str(n), tp, pp, "", "", "", ""]
        if scen == "Offline":
            rows = [("Tokens per second", "mlperf_offline_throughput", "tok/s",
                     f"Offline scenario, whole system, generated tokens per second (samples/s "
                     f"{s['Samples per second']}); {acc_target}. {cfg_note} {data}")]
        else:
            qps = s.get("target_qps", "")
            done = s.get("Completed samples per second", "")
            run = (f"Server scenario (Poisson arrivals, target_qps {qps}, completed {done} samples/s), result VALID "
                   f"under p99 TTFT and TPOT limits (ttft_latency {s.get('ttft_latency (ns)', '')} ns, tpot_latency "
                   f"{s.get('tpot_latency (ns)', '')} ns); {acc_target}.")
            rows = [("Completed tokens per second", "mlperf_server_throughput", "tok/s", f"{run} {cfg_note} {data}"),
                    ("Mean First Token latency (ns)", "ttft", "ns",
                     f"Mean over requests of the Server run under offered load (target_qps {qps}); value in ns as "
                     f"loadgen prints it. {run} {data}"),
                    ("Mean Time to Output Token (ns)", "tpot", "ns",
                     f"Mean over requests of loadgen's per-sample TPOT, Server run under offered load (target_qps "
                     f"{qps}); value in ns as loadgen prints it. {run} {data}")]
        for field, metric, unit, notes in rows:
            if field not in s:
                continue
            val = s[field]
            r = [str(rid)] + base[:]
            r[2] = f"{loc} ('{field}')"
            w.writerow(r[:1] + r[1:] + [metric, val, unit, " ".join(notes.split())])
            rid += 1


main()
