package simulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Faults are the faults injected into /v1 requests. As JSON (POST and GET
// /_sim/faults) durations are Go duration strings such as "200ms".
type Faults struct {
	// Latency and Jitter delay each answer by Latency plus up to Jitter.
	Latency time.Duration
	Jitter  time.Duration
	// ErrorRate is the share (0..1) of requests answered with ErrorStatus.
	ErrorRate float64
	// ErrorPaths, when not empty, limits ErrorRate to these exact /v1 paths,
	// so that a test can fail one section of a page.
	ErrorPaths []string
	// ErrorStatus is the injected status: 500 (default), 429, 502 or 503.
	ErrorStatus int
	// DownloadFailAfter, when above zero, makes Download send that many bytes
	// of its body and then abort the connection, as a dropped link would.
	DownloadFailAfter int64
}

// faultsJSON is the wire form; pointers tell a field left out from a zero.
type faultsJSON struct {
	Latency           *string   `json:"latency,omitempty"`
	Jitter            *string   `json:"jitter,omitempty"`
	ErrorRate         *float64  `json:"error_rate,omitempty"`
	ErrorPaths        *[]string `json:"error_paths,omitempty"`
	ErrorStatus       *int      `json:"error_status,omitempty"`
	DownloadFailAfter *int64    `json:"download_fail_after,omitempty"`
}

var injectedCodes = map[int]string{
	http.StatusInternalServerError: CodeInternalError,
	http.StatusTooManyRequests:     CodeRateLimitExceeded,
	http.StatusBadGateway:          CodeBadGateway,
	http.StatusServiceUnavailable:  CodeUnavailable,
}

// MarshalJSON writes every field, durations as strings.
func (f Faults) MarshalJSON() ([]byte, error) {
	lat, jit := f.Latency.String(), f.Jitter.String()
	paths := f.ErrorPaths
	if paths == nil {
		paths = []string{}
	}
	return json.Marshal(struct {
		Latency           string   `json:"latency"`
		Jitter            string   `json:"jitter"`
		ErrorRate         float64  `json:"error_rate"`
		ErrorPaths        []string `json:"error_paths"`
		ErrorStatus       int      `json:"error_status"`
		DownloadFailAfter int64    `json:"download_fail_after"`
	}{lat, jit, f.ErrorRate, paths, f.ErrorStatus, f.DownloadFailAfter})
}

// patch returns f with the fields present in data changed; fields left out
// keep their value. Out-of-range values are refused as a whole.
func (f Faults) patch(data []byte) (Faults, error) {
	var p faultsJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return f, fmt.Errorf("simulator: faults: %w", err)
	}
	var err error
	dur := func(name string, s *string, d *time.Duration) {
		if s == nil || err != nil {
			return
		}
		v, perr := time.ParseDuration(*s)
		if perr != nil || v < 0 {
			err = fmt.Errorf("simulator: faults: %s must be a duration like 200ms, not %q", name, *s)
			return
		}
		*d = v
	}
	dur("latency", p.Latency, &f.Latency)
	dur("jitter", p.Jitter, &f.Jitter)
	if err != nil {
		return f, err
	}
	if p.ErrorRate != nil {
		if *p.ErrorRate < 0 || *p.ErrorRate > 1 {
			return f, errors.New("simulator: faults: error_rate must be between 0 and 1")
		}
		f.ErrorRate = *p.ErrorRate
	}
	if p.ErrorPaths != nil {
		for _, path := range *p.ErrorPaths {
			if !strings.HasPrefix(path, "/v1/") {
				return f, fmt.Errorf("simulator: faults: error_paths must be /v1 paths, not %q", path)
			}
		}
		f.ErrorPaths = slices.Clone(*p.ErrorPaths)
	}
	if p.ErrorStatus != nil {
		if _, ok := injectedCodes[*p.ErrorStatus]; !ok {
			return f, fmt.Errorf("simulator: faults: error_status must be 500, 429, 502 or 503, not %d", *p.ErrorStatus)
		}
		f.ErrorStatus = *p.ErrorStatus
	}
	if p.DownloadFailAfter != nil {
		if *p.DownloadFailAfter < 0 {
			return f, errors.New("simulator: faults: download_fail_after must not be negative")
		}
		f.DownloadFailAfter = *p.DownloadFailAfter
	}
	return f, nil
}

// SetFaults replaces the injected faults, as POST /_sim/faults does.
func (s *Server) SetFaults(f Faults) {
	if _, ok := injectedCodes[f.ErrorStatus]; !ok {
		f.ErrorStatus = http.StatusInternalServerError
	}
	f.ErrorPaths = slices.Clone(f.ErrorPaths)
	if f.ErrorPaths == nil {
		f.ErrorPaths = []string{}
	}
	s.mu.Lock()
	s.faults = f
	s.mu.Unlock()
}

// patchFaults changes the fields present in body under one lock, so that
// concurrent posts do not lose each other's fields.
func (s *Server) patchFaults(body []byte) (Faults, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.faults.patch(body)
	if err != nil {
		return Faults{}, err
	}
	s.faults = f
	f.ErrorPaths = slices.Clone(f.ErrorPaths)
	return f, nil
}

// Faults returns the injected faults in force.
func (s *Server) Faults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults
	f.ErrorPaths = slices.Clone(f.ErrorPaths)
	return f
}

// delay sleeps for the configured latency; it reports false when the
// client gave up first, in which case nothing should be written.
func (s *Server) delay(r *http.Request) bool {
	s.mu.Lock()
	d, jitter := s.faults.Latency, s.faults.Jitter
	s.mu.Unlock()
	if jitter > 0 {
		d += rand.N(jitter)
	}
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// injected decides whether this request of path fails on purpose.
func (s *Server) injected(path string) *apiError {
	s.mu.Lock()
	rate, status := s.faults.ErrorRate, s.faults.ErrorStatus
	hit := len(s.faults.ErrorPaths) == 0 || slices.Contains(s.faults.ErrorPaths, path)
	s.mu.Unlock()
	if rate <= 0 || !hit || rand.Float64() >= rate {
		return nil
	}
	return errf(status, injectedCodes[status], "Injected fault: the service failed on purpose.")
}

// downloadFailAfter is the byte count after which a download aborts (0: never).
func (s *Server) downloadFailAfter() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.DownloadFailAfter
}
