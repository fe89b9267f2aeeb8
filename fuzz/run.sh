#!/bin/sh
# fuzz/run.sh TARGET... — runs each built libFuzzer target (build-fuzz/TARGET) for
# FUZZ_SECONDS seconds, one after the other, and fails if any of them finds a crash, a hang
# (-timeout), a leak, a sanitizer report or runs out of memory (-rss_limit_mb).
#
#   FUZZ_SECONDS   seconds per target (default 60)
#   FUZZ_DIR       where the targets were built (default build-fuzz)
#   FUZZ_JOBS      libFuzzer -jobs/-workers for each target (default 1)
#   FUZZ_NICE      nice level (default 10)
#   FUZZ_EXTRA     more libFuzzer flags
#
# The working corpus of TARGET grows in $FUZZ_DIR/corpus/TARGET (kept between runs); it is
# seeded from fuzz/corpus/TARGET, fuzz/regressions/TARGET and, for the parser and the
# tracer, every tests/kernels/*.py and examples/*.py. A finding is written to
# $FUZZ_DIR/artifacts/TARGET/; minimize it (TARGET -minimize_crash=1 -runs=10000 FILE) and
# keep it under fuzz/regressions/TARGET/ so that `make test` replays it.
set -u
S=${FUZZ_SECONDS:-60}
D=${FUZZ_DIR:-build-fuzz}
JOBS=${FUZZ_JOBS:-1}
NICE=${FUZZ_NICE:-10}
EXTRA=${FUZZ_EXTRA:-}
status=0
for t in "$@"; do
    bin="$D/$t"
    if [ ! -x "$bin" ]; then echo "fuzz/run.sh: $bin is not built" >&2; status=1; continue; fi
    corpus="$D/corpus/$t"
    seeds="$D/seeds/$t"
    art="$D/artifacts/$t"
    mkdir -p "$corpus" "$seeds" "$art"
    case "$t" in
        fuzz_parse|fuzz_trace)
            for f in tests/kernels/*.py examples/*.py; do
                [ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
            done
            maxlen=32768; dict="-dict=fuzz/python.dict" ;;
        fuzz_args) maxlen=4096; dict="-dict=fuzz/args.dict" ;;
        fuzz_cache) maxlen=8192; dict="-dict=fuzz/cache.dict" ;;
        *) maxlen=65536; dict="" ;;
    esac
    dirs="$corpus $seeds"
    [ -d "fuzz/corpus/$t" ] && dirs="$dirs fuzz/corpus/$t"
    [ -d "fuzz/regressions/$t" ] && dirs="$dirs fuzz/regressions/$t"
    quiet=""
    par=""
    [ "$JOBS" -gt 1 ] && par="-jobs=$JOBS -workers=$JOBS"
    [ "$t" = fuzz_args ] && quiet="-close_fd_mask=2"  # parse_value prints its refusals
    echo "== $t: ${S}s ($bin -max_total_time=$S -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen $dict)"
    # shellcheck disable=SC2086
    nice -n "$NICE" "$bin" -max_total_time="$S" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$maxlen" $dict -print_final_stats=1 -artifact_prefix="$art/" \
        $par $quiet $EXTRA $dirs > "$D/$t.log" 2>&1
    rc=$?
    grep -E '^(stat::|Done|#[0-9]+.*DONE)' "$D/$t.log" | tail -12
    if [ $rc -ne 0 ]; then
        echo "fuzz/run.sh: $t FAILED (exit $rc); log: $D/$t.log; artifacts:" >&2
        ls -1 "$art" >&2
        grep -E 'ERROR|SUMMARY|^fuzz_|==[0-9]+==' "$D/$t.log" | head -20 >&2
        status=1
    fi
done
exit $status
