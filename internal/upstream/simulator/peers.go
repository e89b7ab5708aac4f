package simulator

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Parameters of Business/PeerAnalysis (all named by the public docs).
const (
	paramYear            = "Year"
	paramQuarter         = "Quarter"
	paramSICCode         = "SICCode"
	paramSICPrimary      = "SICPrimary"
	paramTargetCountry   = "TargetCountry"
	paramRiskLevelFilter = "RiskLevelFilter"
	paramZScoreFilter    = "ZScoreFilter"
	paramPayScoreFilter  = "PayScoreFilter"
	paramDBTFilter       = "DBTFilter"
)

var (
	sicShape     = regexp.MustCompile(`^[0-9]{4}$`)
	countryShape = regexp.MustCompile(`^[A-Za-z]{2}$`)
)

// peerQuery is a read PeerAnalysis request.
type peerQuery struct {
	year, quarter int // year 0: the business's latest year with statements
	sic           string
	primaryOnly   bool
	folder        *Folder
	country       string
	risk, z, pay  scoreMatch
	dbt           scoreMatch
}

// peerRoutes are the peer analysis's operation.
func (s *Server) peerRoutes() routeTable {
	return routeTable{"/v1/Business/PeerAnalysis": getOp(s.peerAnalysis)}
}

// readPeerQuery reads and checks the parameters; bad values are a 400
// InvalidParameter, an unknown folder a 404.
func readPeerQuery(c *call) (peerQuery, *apiError) {
	q := c.q
	pq := peerQuery{quarter: 4}
	var e *apiError
	if pq.year, e = intParam(q, paramYear, 1, 9999, 0); e != nil {
		return pq, e
	}
	if pq.quarter, e = intParam(q, paramQuarter, 1, 4, 4); e != nil {
		return pq, e
	}
	if pq.sic = q.Get(paramSICCode); pq.sic != "" && !sicShape.MatchString(pq.sic) {
		return pq, badParam(paramSICCode, "must be a four-digit SIC code, not %q", pq.sic)
	}
	switch raw := q.Get(paramSICPrimary); strings.ToUpper(raw) {
	case "", "N":
	case "Y":
		pq.primaryOnly = true
	default:
		return pq, badParam(paramSICPrimary, "must be Y or N, not %q", raw)
	}
	if raw := q.Get(paramFolderID); raw != "" {
		if pq.folder, e = findFolder(c.acct, raw); e != nil {
			return pq, e
		}
	}
	if pq.country = q.Get(paramTargetCountry); pq.country != "" && !countryShape.MatchString(pq.country) {
		return pq, badParam(paramTargetCountry, "must be a two-letter country code, not %q", pq.country)
	}
	var ok bool
	if pq.risk, ok = parseRiskFilter(q.Get(paramRiskLevelFilter)); !ok {
		return pq, badParam(paramRiskLevelFilter, "must be NS, FS, F1-F10, FH, FM, FL or H1-H5, not %q", q.Get(paramRiskLevelFilter))
	}
	if pq.z, ok = parseBandFilter(q.Get(paramZScoreFilter), zBand); !ok {
		return pq, badParam(paramZScoreFilter, "must be N, S, H, M or L, not %q", q.Get(paramZScoreFilter))
	}
	if pq.pay, ok = parseBandFilter(q.Get(paramPayScoreFilter), payBand); !ok {
		return pq, badParam(paramPayScoreFilter, "must be N, S, H, M or L, not %q", q.Get(paramPayScoreFilter))
	}
	if pq.dbt, ok = parseDBTFilter(q.Get(paramDBTFilter)); !ok {
		return pq, badParam(paramDBTFilter, "must be N, S, P, W, D or 1-9, not %q", q.Get(paramDBTFilter))
	}
	return pq, nil
}

// intParam reads an optional integer parameter in lo..hi.
func intParam(q url.Values, name string, lo, hi, def int) (int, *apiError) {
	raw := q.Get(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, badParam(name, "must be a whole number from %d to %d, not %q", lo, hi, raw)
	}
	return n, nil
}

// peerAnalysis answers Business/PeerAnalysis. Peers are the dataset's
// businesses (never the bulk user's, which are made on the fly) whose main
// SIC code (SICPrimary=Y) or any SIC code matches, that pass every filter
// and have a statement for the period; the business itself always counts.
// Ratios come from the same statements LatestAnnualStatements serves.
func (s *Server) peerAnalysis(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	pq, e := readPeerQuery(c)
	if e != nil {
		return nil, e
	}
	sics := sicCodes(b)
	if pq.sic == "" && len(sics) > 0 {
		pq.sic = sics[0]
	}
	if pq.year == 0 {
		pq.year = latestYear(b)
	}
	out := wirePeerAnalysis{PeerYear: pq.year, PeerQuarter: pq.quarter, SIC: pq.sic,
		IndustryName: sicTitle(pq.sic), Ratios: []wirePeerRatio{}}
	if len(b.Statements) == 0 {
		return out, nil
	}
	end := quarterEnd(pq.year, pq.quarter)
	// A period that ends after the latest a filing can be in (the year
	// still running) compares with what the peers have filed by the as-of
	// month: each one's latest statement of the twelve months up to then.
	// Otherwise a business that files early in the year would have no
	// peers until December's filers catch up. The business is measured the
	// same way, or it would drop out of its own comparison.
	peerEnd := min(end, monthOfTime(s.asOf)-genFilingMonths)
	own := statementAt(b, peerEnd)
	peers := s.peers(b, pq, peerEnd)
	if own != nil {
		peers = append(peers, own)
	}
	out.PeerCount = len(peers)
	for _, r := range visibleRatios(c.acct.Access) {
		var values []float64
		for _, st := range peers {
			if v, ok := r.value(st); ok {
				values = append(values, v)
			}
		}
		var mine *float64
		if own != nil {
			if v, ok := r.value(own); ok {
				mine = &v
			}
		}
		out.Ratios = append(out.Ratios, r.stats(mine, values))
	}
	return out, nil
}

// peers returns the statements for the period of every other business that
// belongs to b's peer group.
func (s *Server) peers(b *Business, pq peerQuery, end month) []*Statement {
	if pq.sic == "" {
		return nil
	}
	mine := scoresOf(b)
	var out []*Statement
	for i := range s.ds.Businesses {
		p := &s.ds.Businesses[i]
		if p.ID == b.ID || len(p.Statements) == 0 {
			continue
		}
		sics := sicCodes(p)
		if len(sics) == 0 || (pq.primaryOnly && sics[0] != pq.sic) || !slices.Contains(sics, pq.sic) {
			continue
		}
		if pq.folder != nil && !slices.Contains(pq.folder.BusinessIDs, p.ID) {
			continue
		}
		if pq.country != "" && !strings.EqualFold(alpha2(p.Country), pq.country) {
			continue
		}
		theirs := scoresOf(p)
		if !pq.risk(mine.risk, theirs.risk) || !pq.z(mine.z100, theirs.z100) ||
			!pq.pay(mine.pay, theirs.pay) || !pq.dbt(mine.dbt, theirs.dbt) {
			continue
		}
		if st := statementAt(p, end); st != nil {
			out = append(out, st)
		}
	}
	return out
}

// countryCodes turns the country names and three-letter codes a dataset
// may hold (the generator writes USA and Canada) into the two letters
// TargetCountry takes.
var countryCodes = map[string]string{
	"USA": "US", "UNITED STATES": "US", "CAN": "CA", "CANADA": "CA", "MEX": "MX", "MEXICO": "MX",
	"BRA": "BR", "BRAZIL": "BR", "GBR": "GB", "UNITED KINGDOM": "GB",
}

// alpha2 is a business's country as two letters, or as stored when unknown.
func alpha2(country string) string {
	if c, ok := countryCodes[strings.ToUpper(country)]; ok {
		return c
	}
	return country
}
