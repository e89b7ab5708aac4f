package simulator

import (
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Parameter names of the operations (ours where the specification is silent).
const (
	paramID          = "id"
	paramCustomerID  = "CustomerId"
	paramSupplierID  = "SupplierId"
	paramCount       = "count"
	paramStartDate   = "StartDate"
	paramEndDate     = "EndDate"
	paramStartRow    = "StartRow"
	paramEndRow      = "EndRow"
	paramFolderID    = "FolderId"
	paramQuery       = "q"
	dateLayout       = "2006-01-02"
	isoDateTime      = "2006-01-02T15:04:05"
	maxInt32         = 1<<31 - 1
	defaultPageFirst = 1
	defaultPageLast  = 50
)

// resolveBusiness finds the business a request names. The first non-empty
// of id, CustomerId and SupplierId wins.
func (s *Server) resolveBusiness(c *call) (*Business, *apiError) {
	switch {
	case c.q.Get(paramID) != "":
		raw := c.q.Get(paramID)
		id, err := strconv.ParseInt(raw, 10, 32)
		if err != nil {
			return nil, badParam(paramID, "must be a 32-bit integer, not %q", raw)
		}
		return s.mustBusiness(int32(id), raw)
	case c.q.Get(paramCustomerID) != "":
		return s.byCustomer(c.acct, c.q.Get(paramCustomerID))
	case c.q.Get(paramSupplierID) != "":
		raw := c.q.Get(paramSupplierID)
		id, ok := c.acct.Suppliers[raw]
		if !ok {
			return nil, notFound("supplier " + raw)
		}
		return s.mustBusiness(id, raw)
	}
	return nil, errf(http.StatusBadRequest, CodeMissingIdentifier,
		"Name the business with id, CustomerId or SupplierId.")
}

// byCustomer resolves a CustomerId through the account's trade provider: the
// chosen one, or the only one when there is a single provider.
func (s *Server) byCustomer(acct *account, raw string) (*Business, *apiError) {
	tps := acct.TradeProviders
	if len(tps) == 0 {
		return nil, notFound("customer " + raw)
	}
	tp := &tps[0]
	if len(tps) > 1 {
		tp = s.chosenProvider(acct)
		if tp == nil {
			return nil, errf(http.StatusBadRequest, CodeTradeProviderNotSelected,
				"This account has several trade providers: choose one with Trade/TradeProviders first.")
		}
	}
	id, ok := tp.Customers[raw]
	if !ok {
		return nil, notFound("customer " + raw)
	}
	return s.mustBusiness(id, raw)
}

func (s *Server) mustBusiness(id int32, raw string) (*Business, *apiError) {
	if b, ok := s.business(id); ok {
		return b, nil
	}
	return nil, notFound("business " + raw)
}

func notFound(what string) *apiError {
	return errf(http.StatusNotFound, CodeBusinessNotFound, "No %s is known.", what)
}

// positiveInt reads an optional int32 parameter that must be at least 1.
func positiveInt(q url.Values, name string, def int) (int, *apiError) {
	raw := q.Get(name)
	if raw == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(raw, 10, 32)
	if err != nil || n < 1 {
		return 0, badParam(name, "must be a whole number from 1 to %d, not %q", maxInt32, raw)
	}
	return int(n), nil
}

// month counts months since year 0, so ranges are plain integer ranges.
type month int

func monthOf(year, m int) month { return month(year*12 + m - 1) }

func monthOfTime(t time.Time) month { return monthOf(t.Year(), int(t.Month())) }

func (m month) year() int  { return int(m) / 12 }
func (m month) month() int { return int(m)%12 + 1 }

// monthRange reads StartDate and EndDate (YYYY-MM-DD, inclusive) as months.
// Without them the range is the last n months up to the dataset's month.
func (s *Server) monthRange(q url.Values, n int) (from, to month, e *apiError) {
	last := monthOfTime(s.asOf)
	start, end := q.Get(paramStartDate), q.Get(paramEndDate)
	var st, et time.Time
	var err error
	if start != "" {
		if st, err = time.Parse(dateLayout, start); err != nil {
			return 0, 0, badParam(paramStartDate, "must be a date YYYY-MM-DD, not %q", start)
		}
	}
	if end != "" {
		if et, err = time.Parse(dateLayout, end); err != nil {
			return 0, 0, badParam(paramEndDate, "must be a date YYYY-MM-DD, not %q", end)
		}
	}
	if start != "" && end != "" && st.After(et) {
		return 0, 0, badParam(paramStartDate, "%s is after EndDate %s", start, end)
	}
	to = last
	if end != "" {
		to = monthOfTime(et)
	}
	from = to - month(n-1)
	if start != "" {
		from = monthOfTime(st)
	}
	if from > to {
		return 0, 0, badParam(paramStartDate, "%s is after the end of the range", start)
	}
	return from, to, nil
}

// rowRange reads StartRow and EndRow (1-based, inclusive) as 0-based [from, to).
func rowRange(q url.Values) (from, to int, e *apiError) {
	first, e := positiveInt(q, paramStartRow, defaultPageFirst)
	if e != nil {
		return 0, 0, e
	}
	// Without EndRow a page is as long as the default page 1-50.
	last, e := positiveInt(q, paramEndRow, min(first+defaultPageLast-defaultPageFirst, maxInt32))
	if e != nil {
		return 0, 0, e
	}
	if first > last {
		return 0, 0, badParam(paramStartRow, "%d is after EndRow %d", first, last)
	}
	if last-first >= maxPageRows {
		return 0, 0, badParam(paramEndRow, "a page holds at most %d rows", maxPageRows)
	}
	return first - 1, last, nil
}

// maxPageRows caps a portfolio score page (ours): a page is built in memory,
// and the bulk portfolio would otherwise let one request build a million.
const maxPageRows = 5000
