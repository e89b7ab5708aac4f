#!/usr/bin/env bash
# make test beside a CPU-bound neighbour (issue 47.7): one busy loop per
# core (two by default, HOG_LOOPS to change), stopped on any exit, then
# make test; prints its wall time and exit status and exits with it.
set -u
loops=${HOG_LOOPS:-2}
pids=()
stop_hogs() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait "${pids[@]}" 2>/dev/null
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$loops"); do
	sh -c 'while :; do :; done' &
	pids+=($!)
done
echo "test-beside-hog: ${#pids[@]} busy loops (pids ${pids[*]}); load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
start=$(date +%s)
make test "$@"
rc=$?
end=$(date +%s)
echo "test-beside-hog: make test took $((end - start)) s with ${#pids[@]} busy loops beside it; rc $rc"
exit "$rc"
