// Package deploytest checks what ships beside the Go code for running the
// dashboard: scripts/ensure-tools.sh (make test's first step) and
// deploy/nginx.conf, the latter on Debian's nginx in front of two replicas.
package deploytest
