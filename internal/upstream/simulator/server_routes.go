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

// routes maps path -> method -> operation.
func (s *Server) routes() map[string]map[string]route {
	get := func(f func(*call) (any, *apiError)) map[string]route {
		return map[string]route{http.MethodGet: {data: f}}
	}
	return map[string]map[string]route{
		"/v1/Business/LatestAnnualStatements": get(s.statements),
		"/v1/Business/PaymentSummary/Monthly": get(s.paymentsMonthly),
		"/v1/Business/PaymentSummary/SIC":     get(s.paymentsSIC),
		"/v1/Business/CreditScoreHistory":     get(s.creditScoreHistory),
		"/v1/Business/RiskHistory":            get(s.riskHistory),
		"/v1/Business/Officers":               get(s.officers),
		"/v1/Business/NAICSCodes":             get(s.naicsCodes),
		"/v1/Business/Summary":                get(s.summary),
		"/v1/Business/WordFill":               get(s.wordFill),
		"/v1/Business/IdentificationGroup":    get(s.identificationGroup),
		"/v1/Business/PeerAnalysis":           get(s.peerAnalysis),
		"/v1/Business/Search":                 get(s.search),
		"/v1/Portfolio/PayScoreHistory":       get(s.payScoreHistory),
		"/v1/Portfolio/ZScoreHistory":         get(s.zScoreHistory),
		"/v1/Portfolio/Folders":               get(s.folders),
		"/v1/Portfolio/Businesses":            get(s.portfolioBusinesses),
		folderNewsPath:                        get(s.folderNews),
		"/v1/Industries/News":                 get(s.industryNews),
		"/v1/News":                            get(s.news),
		"/v1/Portfolio/Download":              {http.MethodGet: {raw: s.download}},
		"/v1/Trade/TradeProviders": {
			http.MethodGet:  {data: s.tradeProviders},
			http.MethodPost: {data: s.chooseTradeProvider},
		},
	}
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
