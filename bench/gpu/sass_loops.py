# Sums ncu's per-instruction source page (ncu -i REP --page source --csv --print-source sass)
# over runs of instructions executed equally often (a loop's body, roughly): instructions,
# stall samples, and the counts of a few opcodes (spills, tensor-core, waits) per run.
# Usage: python3 sass_loops.py FILE.csv [min executions per warp, default 1.5]
import csv, collections, sys

rows = list(csv.reader(open(sys.argv[1])))
at = next(i for i, r in enumerate(rows) if "Source" in r)
hdr, data = rows[at], rows[at + 1:]
i_src, i_ex = hdr.index("Source"), hdr.index("Instructions Executed")
i_s = hdr.index("Warp Stall Sampling (All Samples)")
warps = max(int(r[i_ex] or 0) for r in data[:8])   # the entry's count: every warp runs it once
runs, cur = [], None
for k, r in enumerate(data):
    ex = int(r[i_ex] or 0)
    s = r[i_src].split()
    op = (s[1] if s and s[0].startswith("@") else s[0] if s else "").split(".")[0]
    if cur is None or cur["ex"] != ex:
        cur = {"ex": ex, "first": k, "n": 0, "samples": 0, "ops": collections.Counter()}
        runs.append(cur)
    cur["n"] += 1
    cur["samples"] += int(r[i_s] or 0)
    cur["ops"][op] += 1
total = sum(r["samples"] for r in runs)
lo = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
print(f"  {len(data)} instructions, {total} stall samples; runs executed >= {lo} times per warp:")
keys = ("STL", "LDL", "HGMMA", "WARPGROUP", "MUFU", "BAR", "SYNCS", "UTMALDG", "LDGSTS")
for r in runs:
    if warps and r["ex"] / warps >= lo and r["n"] >= 8:
        ops = " ".join(f"{k}={r['ops'][k]}" for k in keys if r["ops"][k])
        print(f"  @{r['first']:5d} x{r['ex'] / warps:7.2f}  {r['n']:4d} instrs  {100 * r['samples'] / max(total, 1):5.1f}% samples  {ops}")
