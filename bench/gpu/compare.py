"""Joins the tritonc and Triton CSVs of bench/gpu and prints a Markdown table of ratios
(tritonc throughput / Triton throughput: > 1 means tritonc is faster; for launch and cold
compile, Triton time / tritonc time)."""
import sys
from collections import defaultdict

rows = defaultdict(dict)
for path in sys.argv[1:]:
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = line.split(",")
        if len(f) < 7:
            continue
        tool, kernel, shape, nw, ms, gbs, check = f[:7]
        rows[(kernel, shape, nw)][tool] = (float(ms) if ms not in ("", "nan") else float("nan"), gbs, check)

print("| kernel | shape | num_warps | tritonc ms | Triton ms | tritonc GB/s | Triton GB/s | ratio | check |")
print("|---|---|---|---|---|---|---|---|---|")
best = {}
for key in sorted(rows, key=lambda k: (k[0], k[1], int(k[2]))):
    r = rows[key]
    t = r.get("tritonc")
    p = r.get("triton")
    ratio = p[0] / t[0] if t and p and t[0] > 0 else float("nan")
    kb = (key[0], key[1])
    if t and p:
        bt = best.setdefault(kb, [float("inf"), float("inf")])
        bt[0] = min(bt[0], t[0])
        bt[1] = min(bt[1], p[0])
    print(f"| {key[0]} | {key[1]} | {key[2]} | {t[0] if t else '-'} | {p[0] if p else '-'} | "
          f"{t[1] if t else '-'} | {p[1] if p else '-'} | {ratio:.3f} | {(t[2] if t else '-')}/{(p[2] if p else '-')} |")
print()
print("Best configuration of each tool per shape (ratio = Triton best ms / tritonc best ms):")
print()
print("| kernel | shape | tritonc best ms | Triton best ms | ratio |")
print("|---|---|---|---|---|")
for kb, (t, p) in sorted(best.items()):
    print(f"| {kb[0]} | {kb[1]} | {t:.5f} | {p:.5f} | {p / t:.3f} |")
