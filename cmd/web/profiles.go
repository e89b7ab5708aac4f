package main

import (
	"fmt"
	"net/http"
	"runtime/pprof"
	"strconv"
	"time"
)

// The two profiles PPROF serves on the operators' listener, written with
// runtime/pprof alone: net/http/pprof's index, traces and symbol pages
// are not needed by make loadtest, and their packages add to every
// process's resident memory.

// maxProfileSeconds bounds a CPU profile's length.
const maxProfileSeconds = 120

// serveCPUProfile writes a CPU profile of the next ?seconds= (default 30).
func serveCPUProfile(w http.ResponseWriter, r *http.Request) {
	sec := 30
	if v := r.URL.Query().Get("seconds"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxProfileSeconds {
			http.Error(w, fmt.Sprintf("seconds: a whole number from 1 to %d", maxProfileSeconds), http.StatusBadRequest)
			return
		}
		sec = n
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	if err := pprof.StartCPUProfile(w); err != nil {
		// Another profile is running.
		http.Error(w, "a CPU profile is already running", http.StatusConflict)
		return
	}
	select {
	case <-time.After(time.Duration(sec) * time.Second):
	case <-r.Context().Done():
	}
	pprof.StopCPUProfile()
}

// serveHeapProfile writes the heap profile as of the last collection.
func serveHeapProfile(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	_ = pprof.Lookup("heap").WriteTo(w, 0)
}
