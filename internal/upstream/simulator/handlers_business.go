package simulator

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// businessRoutes are the operations on one business.
func (s *Server) businessRoutes() routeTable {
	return routeTable{
		"/v1/Business/LatestAnnualStatements": getOp(s.statements),
		"/v1/Business/PaymentSummary/Monthly": getOp(s.paymentsMonthly),
		"/v1/Business/PaymentSummary/SIC":     getOp(s.paymentsSIC),
		"/v1/Business/CreditScoreHistory":     getOp(s.creditScoreHistory),
		"/v1/Business/RiskHistory":            getOp(s.riskHistory),
		"/v1/Business/Officers":               getOp(s.officers),
		"/v1/Business/NAICSCodes":             getOp(s.naicsCodes),
		"/v1/Business/Summary":                getOp(s.summary),
		"/v1/Business/WordFill":               getOp(s.wordFill),
		"/v1/Business/IdentificationGroup":    getOp(s.identificationGroup),
	}
}

// statements answers Business/LatestAnnualStatements: one element per fiscal
// year, newest first unless SortOrder=A, filtered by StandardYear, cut to count.
func (s *Server) statements(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	count, e := positiveInt(c.q, paramCount, 0)
	if e != nil {
		return nil, e
	}
	year := 0
	if raw := c.q.Get("StandardYear"); raw != "" {
		y, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, badParam("StandardYear", "must be a year, not %q", raw)
		}
		year = int(y)
	}
	ascending := false
	switch raw := c.q.Get("SortOrder"); strings.ToUpper(raw) {
	case "", "D":
	case "A":
		ascending = true
	default:
		return nil, badParam("SortOrder", "must be A or D, not %q", raw)
	}
	var allowed map[string]bool
	if c.acct.Access == AccessAPIOnly {
		allowed = map[string]bool{}
		for _, k := range APIOnlyKeys() {
			allowed[k] = true
		}
	}
	stmts := slices.Clone(b.Statements)
	slices.SortStableFunc(stmts, func(x, y Statement) int {
		if ascending {
			return cmp.Compare(x.FiscalYear, y.FiscalYear)
		}
		return cmp.Compare(y.FiscalYear, x.FiscalYear)
	})
	out := []wireAnnualFinancials{}
	for _, st := range stmts {
		if year != 0 && st.FiscalYear != year {
			continue
		}
		if count > 0 && len(out) == count {
			break
		}
		out = append(out, wireAnnualFinancials{Values: statementValues(st, allowed)})
	}
	return out, nil
}

// statementValues gives the data points of one year; allowed (when not nil)
// is the subset an API-Only user may see. FiscalYear and PeriodEndDate are
// always there, from the data or made from the statement, so that every
// element says which year it is.
func statementValues(st Statement, allowed map[string]bool) map[string]wireDataPoint {
	values := make(map[string]wireDataPoint, len(st.Values)+2)
	for k, dp := range st.Values {
		if allowed == nil || allowed[k] || k == keyFiscalYear || k == keyPeriodEndDate {
			values[k] = wireDataPoint(dp)
		}
	}
	if _, ok := values[keyFiscalYear]; !ok {
		fy := float64(st.FiscalYear)
		values[keyFiscalYear] = wireDataPoint{Label: "Fiscal year", Value: &fy, Text: strconv.Itoa(st.FiscalYear)}
	}
	if _, ok := values[keyPeriodEndDate]; !ok {
		values[keyPeriodEndDate] = wireDataPoint{Label: "Period end date", Text: st.PeriodEndDate}
	}
	return values
}

// The two data points every statement element carries.
const (
	keyFiscalYear    = "FiscalYear"
	keyPeriodEndDate = "PeriodEndDate"
)

// paymentsMonthly answers Business/PaymentSummary/Monthly, newest month first.
func (s *Server) paymentsMonthly(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	return paymentRows(b.PaymentsMonthly), nil
}

// paymentsSIC answers Business/PaymentSummary/SIC: a row per category per month.
func (s *Server) paymentsSIC(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	return paymentRows(b.PaymentsSIC), nil
}

func paymentRows(rows []PaymentRow) []wirePaymentSummaryRow {
	out := make([]wirePaymentSummaryRow, 0, len(rows))
	for _, p := range rows {
		out = append(out, wirePaymentSummaryRow(p))
	}
	return out
}

// creditScoreHistory answers Business/CreditScoreHistory: monthly rows of
// the four scores from StartDate to EndDate, oldest first.
func (s *Server) creditScoreHistory(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	from, to, e := s.monthRange(c.q, 24)
	if e != nil {
		return nil, e
	}
	out := []wireCreditScoreHistoryRow{}
	for _, sm := range sortedScores(b.Scores) {
		if m := monthOf(sm.Year, sm.Month); m < from || m > to {
			continue
		}
		out = append(out, wireCreditScoreHistoryRow{
			RiskScore: sm.Risk, DBTScore: sm.DBT, ZScore: sm.Z, PayScore: sm.Pay,
			Year: sm.Year, Month: sm.Month, Quarter: (sm.Month-1)/3 + 1,
		})
	}
	return out, nil
}

// riskHistory answers Business/RiskHistory: the most recent count months,
// newest first; months without a risk score are left out.
func (s *Server) riskHistory(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	count, e := positiveInt(c.q, paramCount, 0)
	if e != nil {
		return nil, e
	}
	scores := sortedScores(b.Scores)
	// count is the most recent N months of the calendar, not N rows: months
	// without a score leave gaps rather than reaching further back.
	var cutoff time.Time
	if count > 0 {
		cutoff = s.asOf.AddDate(0, 1-count, 0)
	}
	out := []wireRiskHistoryRow{}
	for i := len(scores) - 1; i >= 0; i-- {
		sm := scores[i]
		if count > 0 && time.Date(sm.Year, time.Month(sm.Month), 1, 0, 0, 0, 0, time.UTC).Before(cutoff) {
			break
		}
		avg := sm.AverageRisk
		if avg == nil && sm.Risk != nil {
			f := float64(*sm.Risk)
			avg = &f
		}
		if avg != nil {
			out = append(out, wireRiskHistoryRow{Year: sm.Year, Month: sm.Month, AverageRiskScore: *avg})
		}
	}
	return out, nil
}

// sortedScores returns the score months oldest first, whatever order they came in.
func sortedScores(in []ScoreMonth) []ScoreMonth {
	if slices.IsSortedFunc(in, compareScoreMonths) {
		return in
	}
	out := slices.Clone(in)
	slices.SortStableFunc(out, compareScoreMonths)
	return out
}

func compareScoreMonths(a, b ScoreMonth) int {
	return cmp.Compare(monthOf(a.Year, a.Month), monthOf(b.Year, b.Month))
}

// officers answers Business/Officers.
func (s *Server) officers(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	out := make([]wireOfficer, 0, len(b.Officers))
	for _, o := range b.Officers {
		out = append(out, wireOfficer(o))
	}
	return out, nil
}

// naicsCodes answers Business/NAICSCodes.
func (s *Server) naicsCodes(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	out := make([]wireNaicsCode, 0, len(b.NAICS))
	for _, n := range b.NAICS {
		out = append(out, wireNaicsCode(n))
	}
	return out, nil
}

// summary answers Business/Summary.
func (s *Server) summary(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	return wireBusinessSummary(b.Summary), nil
}

// wordFill answers Business/WordFill with the latest financial comments.
func (s *Server) wordFill(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	return wireWordFill{Text: b.FinancialComments}, nil
}

// identificationGroup answers Business/IdentificationGroup (shape is ours).
func (s *Server) identificationGroup(c *call) (any, *apiError) {
	b, e := s.resolveBusiness(c)
	if e != nil {
		return nil, e
	}
	return wireIdentificationGroup{
		BusinessId: b.ID, BusinessName: b.Name, Address: b.Address, City: b.City,
		State: b.State, Country: b.Country, Ticker: b.Ticker, Public: b.Public,
	}, nil
}
