"""Run by test_mpi.py as `mpirun -np N python3 mpi_script.py SCENARIOS` (and without mpirun):
each rank prints its rank and a digest of four studies' documents, which must be the same on
every rank and for every rank count (docs/mpi.md "Python")."""
import hashlib, json, sys, tessera
S = sys.argv[1]
docs = {
    "run": tessera.Scenario.load(S + "/llama3.1-70b-decode-4k-h100.yaml").run(threads=1).raw,
    "explore": tessera.Scenario.load(S + "/llama3.1-8b-sram-capacity-explore.yaml").explore(threads=1).raw,
    "serve": tessera.Scenario.load(S + "/llama3.1-70b-serve-4k1k-h100.yaml").serve(threads=1).raw,
    "sensitivity": tessera.Scenario.load(S + "/llama3.1-8b-decode-4k-h100.yaml").sensitivity(threads=1).raw,
}
for d in docs.values():
    d.pop("provenance", None)
digest = hashlib.sha256(json.dumps(docs, sort_keys=True).encode()).hexdigest()[:16]
print(f"rank {tessera.mpi_rank()} {digest}")
