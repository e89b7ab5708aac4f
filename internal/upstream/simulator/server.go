package simulator

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configures a Server.
type Options struct {
	// SessionTTL is how long a session key lives; zero means 60 minutes.
	SessionTTL time.Duration
	// Latency and Jitter delay every /v1 answer by Latency plus up to Jitter.
	Latency, Jitter time.Duration
	// ErrorRate is the share (0..1) of /v1 requests answered with an injected error.
	ErrorRate float64
	// Bulk, when above zero, adds the user "bulk" whose one folder holds Bulk
	// businesses made on the fly, never all held in memory.
	Bulk int
	// Now is the clock, so tests can move time; nil means time.Now.
	Now func() time.Time
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
}

// Server is the stand-in credit-risk service as an http.Handler.
type Server struct {
	ds       *Dataset
	opts     Options
	log      *slog.Logger
	now      func() time.Time
	asOf     time.Time // first day of the dataset's latest month, UTC
	byID     map[int32]*Business
	accounts map[string]*account
	table    map[string]map[string]route

	mu       sync.Mutex
	sessions map[string]*session
	userKeys map[string][]string // session keys per user, oldest first
	nextID   int64
	pruned   time.Time
	windows  map[string]*window
	counts   map[string]map[string]int
	chosen   map[string]string // trade provider chosen per account
	faults   Faults
	// browserKeys holds each user's browser keys and when they expire;
	// codes holds the one-time code last sent to each user (/_sim/otp).
	browserKeys map[string]map[string]time.Time
	codes       map[string]string
}

// New builds a Server over ds, which it never modifies.
func New(ds *Dataset, opts Options) *Server {
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = 60 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		ds:          ds,
		opts:        opts,
		log:         opts.Logger,
		now:         opts.Now,
		asOf:        parseAsOf(ds.AsOf, opts.Now),
		byID:        make(map[int32]*Business, len(ds.Businesses)),
		sessions:    map[string]*session{},
		userKeys:    map[string][]string{},
		nextID:      100000,
		windows:     map[string]*window{},
		counts:      map[string]map[string]int{},
		chosen:      map[string]string{},
		browserKeys: map[string]map[string]time.Time{},
		codes:       map[string]string{},
		faults: Faults{
			Latency:     opts.Latency,
			Jitter:      opts.Jitter,
			ErrorRate:   opts.ErrorRate,
			ErrorStatus: http.StatusInternalServerError,
			ErrorPaths:  []string{},
		},
	}
	for i := range ds.Businesses {
		s.byID[ds.Businesses[i].ID] = &ds.Businesses[i]
	}
	s.accounts = s.buildAccounts()
	s.table = s.routes()
	return s
}

// parseAsOf reads the dataset's YYYY-MM; a hand-made dataset without one
// behaves as if generated last month.
func parseAsOf(asOf string, now func() time.Time) time.Time {
	if t, err := time.Parse("2006-01", asOf); err == nil {
		return t
	}
	n := now().UTC()
	return time.Date(n.Year(), n.Month()-1, 1, 0, 0, 0, 0, time.UTC)
}

// ServeHTTP routes /v1 operations and /_sim hooks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	var user string
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				s.log.Info("request aborted", "method", r.Method, "path", r.URL.Path, "user", user)
				panic(p)
			}
			// A bug must not take the process down; it shows as a 500.
			s.log.Error("request panic", "method", r.Method, "path", r.URL.Path, "err", p)
			if sw.status == 0 {
				writeError(sw, r, errf(http.StatusInternalServerError, CodeInternalError, "internal error"))
			}
			return
		}
		s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"user", user, "dur_ms", time.Since(start).Milliseconds())
	}()
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, "/_sim/"):
		s.serveHook(sw, r)
	case path == "/v1" || strings.HasPrefix(path, "/v1/"):
		user = s.serveV1(sw, r)
	default:
		writeError(sw, r, errf(http.StatusNotFound, CodeNotFound, "no operation at %s", path))
	}
}

// statusWriter remembers the status for the log and passes flushes on.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Flush passes a flush on so that downloads reach the client while streaming.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Requests returns a copy of the request counters: user -> path -> count.
func (s *Server) Requests() map[string]map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]map[string]int, len(s.counts))
	for u, paths := range s.counts {
		m := make(map[string]int, len(paths))
		for p, n := range paths {
			m[p] = n
		}
		out[u] = m
	}
	return out
}

// Reset sets request counters and rate-limit windows back to zero.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = map[string]map[string]int{}
	s.windows = map[string]*window{}
}

// maxPathsPerUser bounds the counters, which a client probing random paths
// could otherwise grow without end.
const maxPathsPerUser = 1000

// count adds one request of user to path.
func (s *Server) count(user, path string) {
	if user == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.counts[user]
	if m == nil {
		m = map[string]int{}
		s.counts[user] = m
	}
	if _, ok := m[path]; ok || len(m) < maxPathsPerUser {
		m[path]++
	}
}
