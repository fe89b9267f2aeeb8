#!/bin/sh
# check-layers.sh BUILD_DIR — the layers of src/ point one way. Each folder has a rank; a
# file may call (undefined symbols of its object) and include (its #include lines) only
# files of its own folder or of folders of a lower rank, and folders of one rank never
# use each other. Prints every violation and exits 1 when there is one.
set -eu
B=${1:-build}
cd "$(dirname "$0")/.."
rank() {
    case $1 in
        base) echo 0 ;; driver) echo 1 ;; front) echo 2 ;; ir) echo 3 ;; trace) echo 4 ;;
        interp|gpu) echo 5 ;; runtime) echo 6 ;; aot|tune) echo 7 ;; api) echo 8 ;;
        *) echo "check-layers: unknown folder $1" >&2; exit 2 ;;
    esac
}
layer_of() {  # src/ir/opt.c -> ir ; src/api.c -> api
    p=${1#src/}; case $p in */*) echo "${p%%/*}" ;; *) echo "${p%.[ch]}" ;; esac
}
bad=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# symbols defined by each object: "symbol layer"
for o in $(find "$B/obj" -name '*.o' | sort); do
    rel=${o#"$B/obj/"}; src="src/${rel%.o}.c"; [ -f "$src" ] || continue
    l=$(layer_of "$src")
    nm --defined-only "$o" | awk -v l="$l" '$2 ~ /^[TDBRC]$/ {print $3, l}' >> "$tmp/defs"
    nm -u "$o" | awk -v l="$l" -v f="$src" '{print $2, l, f}' >> "$tmp/uses"
done
sort -u "$tmp/defs" > "$tmp/defs.s"; sort "$tmp/uses" > "$tmp/uses.s"
join "$tmp/uses.s" "$tmp/defs.s" > "$tmp/edges"
while read -r sym from file to; do
    [ "$from" = "$to" ] && continue
    rf=$(rank "$from"); rt=$(rank "$to")
    if [ "$rt" -ge "$rf" ]; then
        echo "layers: $file ($from) calls $sym of $to"; bad=1
    fi
done < "$tmp/edges"
for f in $(find src -name '*.[ch]' | sort); do
    from=$(layer_of "$f"); rf=$(rank "$from")
    for inc in $(sed -n 's/^#include "\([a-z_]*\)\/[a-z_]*\.h"$/\1/p' "$f"); do
        [ "$inc" = "$from" ] && continue
        ri=$(rank "$inc")
        if [ "$ri" -ge "$rf" ]; then echo "layers: $f ($from) includes a header of $inc"; bad=1; fi
    done
done
[ $bad = 0 ] && echo "layers: ok ($(wc -l < "$tmp/edges") calls between files checked)"
exit $bad
