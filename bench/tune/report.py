"""Writes bench/results/tune-<date>.md from a scripts/gpu-tune-check.sh work directory:
tritonc's time to tune and chosen configs (process 1), the reuse in a second process, and
Triton's autotuner on the same configs, side by side.

Usage: python3 bench/tune/report.py WORKDIR SIZE ROWS COLS COMMAND
"""
import datetime
import json
import os
import re
import subprocess
import sys


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def field(text, prefix):
    for line in text.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):].strip()
    return "?"


def tune_seconds(text):
    m = re.search(r"benchmarked on .* in ([0-9.]+) s at", text)
    return m.group(1) if m else "?"


def skipped(text):
    return sum(1 for line in text.splitlines() if re.match(r"\[\d+/\d+\] .*: skipped", line))


def bench_line(text):
    rows = [l for l in text.splitlines() if re.match(r"^\d+\s+\d+\s+[0-9.]+", l)]
    return rows[-1].split() if rows else []


def main():
    w, size, rows, cols, command = sys.argv[1:6]
    times = {}
    for line in read(os.path.join(w, "times.txt")).splitlines():
        parts = line.split()
        if len(parts) >= 3:
            times[parts[0]] = (parts[1], parts[2])
    tri = [json.loads(l) for l in read(os.path.join(w, "triton.jsonl")).splitlines() if l.startswith("{")]
    meta = tri[0] if tri and "triton" in tri[0] else {}
    tk = {d.get("kernel"): d for d in tri if "kernel" in d}
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:
        smi = "?"
    out = []
    out.append(f"# Autotuning: tritonc vs Triton's autotuner ({datetime.date.today().isoformat()})\n")
    out.append(f"GPU: {smi}; Triton {meta.get('triton', '?')}, PyTorch {meta.get('torch', '?')}.")
    out.append(f"Command: `{command}` (SIZE={size}, ROWS={rows}, COLS={cols}); empty tritonc and Triton "
               "caches, so compiling every config is part of the time to tune for both. "
               "Both time configs with do_bench (25 ms warm-up, 100 ms repetitions, 256 MB L2 flush). "
               "tritonc compiles the configs one after another before timing; Triton compiles each "
               "inside its first timed call. tritonc's tl.dot is an FMA loop for now, so its matmul "
               "times are not comparable with Triton's tensor-core ones: compare the tuning "
               "mechanics (time to tune, reuse), not the kernels.\n")
    out.append("| kernel | size | tritonc: time to tune (process wall / tuning) | tritonc: configs skipped | "
               "tritonc: best config | Triton: time to tune (first call) | Triton: best config |")
    out.append("|---|---|---|---|---|---|---|")
    for name, key, sz in (("matmul_kernel", "mm", f"{size}^3 fp16"), ("softmax_kernel", "sm", f"{rows}x{cols} fp32")):
        t1 = read(os.path.join(w, f"{key}1.txt"))
        wall = times.get(f"{key}1", ("?", "?"))[0]
        d = tk.get(name, {})
        out.append(f"| {name} | {sz} | {wall} s / {tune_seconds(t1)} s | {skipped(t1)} | "
                   f"`{field(t1, 'best config:')}` | {d.get('tune_s', float('nan')):.2f} s | `{d.get('best', '?')}` |")
    out.append("")
    out.append("Second process (the choice read from the on-disk tuning cache, no benchmarking) and "
               "the chosen config timed by `tritonc bench` / `triton.testing.do_bench`:\n")
    out.append("| kernel | tritonc 2nd process wall | says | tritonc chosen config median ms | Triton 2nd call (s) | Triton chosen config median ms |")
    out.append("|---|---|---|---|---|---|")
    for name, key in (("matmul_kernel", "mm"), ("softmax_kernel", "sm")):
        t2 = read(os.path.join(w, f"{key}2.txt"))
        says = "no benchmarking" if "no benchmarking now" in t2 else "BENCHMARKED AGAIN"
        b = bench_line(read(os.path.join(w, f"{key}b.txt")))
        d = tk.get(name, {})
        out.append(f"| {name} | {times.get(f'{key}2', ('?',))[0]} s | {says} | {b[2] if len(b) > 2 else '?'} | "
                   f"{d.get('again_s', float('nan')):.4f} | {d.get('best_ms', float('nan')):.4f} |")
    out.append("")
    for key, title in (("mm1", "tritonc tune matmul_kernel (process 1)"), ("sm1", "tritonc tune softmax_kernel (process 1)"),
                       ("mm2", "process 2 (matmul)"), ("sm2", "process 2 (softmax)"),
                       ("sweep", "tritonc bench: num_warps sweep of vector add, 2^24 fp32")):
        out.append(f"## {title}\n\n```")
        out.append(read(os.path.join(w, f"{key}.txt")).rstrip())
        out.append("```\n")
    out.append("## Triton\n\n```")
    out.append(read(os.path.join(w, "triton.jsonl")).rstrip())
    out.append("```")
    print("\n".join(out))


if __name__ == "__main__":
    main()
