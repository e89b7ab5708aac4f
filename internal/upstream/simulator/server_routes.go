package simulator

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// call is one authenticated request on its way to an operation.
type call struct {
	acct     *account
	r        *http.Request
	q        url.Values
	folderID string // the {FolderId} of Portfolio/Folders/{FolderId}/News
}

// route is one operation: data answers go in an envelope, raw ones (the
// download) write their own body and return an error only before writing.
type route struct {
	data func(c *call) (any, *apiError)
	raw  func(w http.ResponseWriter, c *call) *apiError
}

const (
	pathLogin        = "/v1/Users/Login"
	pathTwoFactorKey = "/v1/Users/2FAKey"
	folderPrefix     = "/v1/Portfolio/Folders/"
	folderNewsTail   = "/News"
	folderNewsPath   = folderPrefix + "{FolderId}" + folderNewsTail
	maxFormBytes     = 64 << 10
)

// routeTable maps path -> method -> operation. Each area's file lists
// its own operations in a literal table beside their handlers
// (handlers_business.go, handlers_portfolio.go, ...), so the stand-in of
// an operation is its handler and its row, in one file.
type routeTable = map[string]map[string]route

// getOp is an operation answering GET with data.
func getOp(f func(*call) (any, *apiError)) map[string]route {
	return map[string]route{http.MethodGet: {data: f}}
}

// routes is every area's table in one; a path routed by two areas is a
// mistake in the code and fails when the server is made.
func (s *Server) routes() routeTable {
	table := routeTable{}
	for _, area := range []routeTable{s.businessRoutes(), s.peerRoutes(), s.portfolioRoutes(), s.newsRoutes(),
		s.searchRoutes(), s.tradeRoutes(), s.downloadRoutes()} {
		for path, ops := range area {
			if _, dup := table[path]; dup {
				panic("simulator: " + path + " is routed twice")
			}
			table[path] = ops
		}
	}
	return table
}

// match finds the operations of path; folder is the {FolderId} segment.
func (s *Server) match(path string) (ops map[string]route, folder string) {
	if ops, ok := s.table[path]; ok {
		return ops, ""
	}
	if rest, ok := strings.CutPrefix(path, folderPrefix); ok {
		if id, ok := strings.CutSuffix(rest, folderNewsTail); ok && id != "" && !strings.Contains(id, "/") {
			return s.table[folderNewsPath], id
		}
	}
	return nil, ""
}

// serveV1 answers one /v1 request and returns the user it names, for the log.
func (s *Server) serveV1(w http.ResponseWriter, r *http.Request) string {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	path := r.URL.Path
	switch path {
	case pathLogin:
		return s.serveLogin(w, r)
	case pathTwoFactorKey:
		return s.serveTwoFactorKey(w, r)
	}
	acct, user, authErr := s.authenticate(r)
	s.count(user, path)
	if !s.delay(r) {
		return user
	}
	ops, folder := s.match(path)
	rt, ok := ops[r.Method]
	if !ok && authErr == nil {
		// A signed-in call to a wrong path or method still counts.
		if e := s.limit(w, acct); e != nil {
			writeError(w, r, e)
			return user
		}
	}
	if ops == nil {
		writeError(w, r, errf(http.StatusNotFound, CodeNotFound, "no operation at %s", path))
		return user
	}
	if !ok {
		methods := make([]string, 0, len(ops))
		for m := range ops {
			methods = append(methods, m)
		}
		slices.Sort(methods)
		w.Header().Set("Allow", strings.Join(methods, ", "))
		writeError(w, r, errf(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			"%s does not accept %s", path, r.Method))
		return user
	}
	if authErr != nil {
		writeError(w, r, authErr)
		return user
	}
	if e := s.limit(w, acct); e != nil {
		writeError(w, r, e)
		return user
	}
	if e := s.injected(path); e != nil {
		writeError(w, r, e)
		return user
	}
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			writeError(w, r, badParam("body", "cannot read the form: %v", err))
			return user
		}
	}
	c := &call{acct: acct, r: r, q: r.URL.Query(), folderID: folder}
	if rt.raw != nil {
		if e := rt.raw(w, c); e != nil {
			writeError(w, r, e)
		}
		return user
	}
	data, e := rt.data(c)
	if e != nil {
		writeError(w, r, e)
		return user
	}
	writeData(w, r, data)
	return user
}
