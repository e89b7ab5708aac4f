package upstream

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// businessCall validates ref and builds a call for a business operation.
func businessCall(op, path, key string, ref BusinessRef) (call, error) {
	if err := ref.Validate(); err != nil {
		return call{}, &Error{Op: op, Kind: ErrInvalidReference, Err: err}
	}
	q := url.Values{}
	ref.addTo(q)
	return call{op: op, path: path, key: key, query: q}, nil
}

// getBusiness runs a business operation that takes only the reference.
func getBusiness[T any](ctx context.Context, c *Client, op, path, key string, ref BusinessRef) (T, error) {
	var out T
	cl, err := businessCall(op, path, key, ref)
	if err != nil {
		return out, err
	}
	err = c.do(ctx, cl, &out)
	return out, err
}

// StatementsQuery narrows LatestAnnualStatements; zero fields are left out.
type StatementsQuery struct {
	Count        int    // number of fiscal years; 0 for all
	StandardYear int    // one fiscal year; 0 for any
	SortOrder    string // SortDescending or SortAscending; "" for the service's default
}

// LatestAnnualStatements returns annual statements, one element per fiscal year.
func (c *Client) LatestAnnualStatements(ctx context.Context, key string, ref BusinessRef, sq StatementsQuery) ([]AnnualFinancials, error) {
	cl, err := businessCall("Business/LatestAnnualStatements", pathLatestAnnualStatements, key, ref)
	if err != nil {
		return nil, err
	}
	if sq.Count > 0 {
		cl.query.Set(paramCount, strconv.Itoa(sq.Count))
	}
	if sq.StandardYear > 0 {
		cl.query.Set(paramStandardYear, strconv.Itoa(sq.StandardYear))
	}
	if sq.SortOrder != "" {
		cl.query.Set(paramSortOrder, sq.SortOrder)
	}
	var out []AnnualFinancials
	return out, c.do(ctx, cl, &out)
}

// PaymentSummaryMonthly returns the monthly trade-payment aging, newest first.
func (c *Client) PaymentSummaryMonthly(ctx context.Context, key string, ref BusinessRef) ([]PaymentSummaryRow, error) {
	return getBusiness[[]PaymentSummaryRow](ctx, c, "Business/PaymentSummary/Monthly", pathPaymentSummaryMonthly, key, ref)
}

// PaymentSummarySIC returns the monthly aging per SIC supplier category.
func (c *Client) PaymentSummarySIC(ctx context.Context, key string, ref BusinessRef) ([]PaymentSummaryRow, error) {
	return getBusiness[[]PaymentSummaryRow](ctx, c, "Business/PaymentSummary/SIC", pathPaymentSummarySIC, key, ref)
}

// CreditScoreHistory returns monthly scores between from and to (inclusive
// dates; zero values leave the service's default of the last 24 months).
func (c *Client) CreditScoreHistory(ctx context.Context, key string, ref BusinessRef, from, to time.Time) ([]CreditScoreHistoryRow, error) {
	cl, err := businessCall("Business/CreditScoreHistory", pathCreditScoreHistory, key, ref)
	if err != nil {
		return nil, err
	}
	setDate(cl.query, paramStartDate, from)
	setDate(cl.query, paramEndDate, to)
	var out []CreditScoreHistoryRow
	return out, c.do(ctx, cl, &out)
}

// RiskHistory returns the most recent count months of the average risk
// score, newest first (count 0: all).
func (c *Client) RiskHistory(ctx context.Context, key string, ref BusinessRef, count int) ([]RiskHistoryRow, error) {
	cl, err := businessCall("Business/RiskHistory", pathRiskHistory, key, ref)
	if err != nil {
		return nil, err
	}
	if count > 0 {
		cl.query.Set(paramCount, strconv.Itoa(count))
	}
	var out []RiskHistoryRow
	return out, c.do(ctx, cl, &out)
}

// Officers returns the officers of a business.
func (c *Client) Officers(ctx context.Context, key string, ref BusinessRef) ([]Officer, error) {
	return getBusiness[[]Officer](ctx, c, "Business/Officers", pathOfficers, key, ref)
}

// NAICSCodes returns the industry codes of a business.
func (c *Client) NAICSCodes(ctx context.Context, key string, ref BusinessRef) ([]NAICSCode, error) {
	return getBusiness[[]NAICSCode](ctx, c, "Business/NAICSCodes", pathNAICSCodes, key, ref)
}

// Summary returns the summary text of a business.
func (c *Client) Summary(ctx context.Context, key string, ref BusinessRef) (BusinessSummary, error) {
	return getBusiness[BusinessSummary](ctx, c, "Business/Summary", pathSummary, key, ref)
}

// WordFill returns the latest financial comments of a business.
func (c *Client) WordFill(ctx context.Context, key string, ref BusinessRef) (WordFill, error) {
	return getBusiness[WordFill](ctx, c, "Business/WordFill", pathWordFill, key, ref)
}

// IdentificationGroup names and locates a business; it also turns a
// CustomerId or SupplierId into the service's id. A service without this
// operation answers ErrNotFound.
func (c *Client) IdentificationGroup(ctx context.Context, key string, ref BusinessRef) (Identification, error) {
	return getBusiness[Identification](ctx, c, "Business/IdentificationGroup", pathIdentificationGroup, key, ref)
}

// Search finds businesses by name, best matches first (count 0: the
// service's default).
func (c *Client) Search(ctx context.Context, key, text string, count int) ([]SearchResult, error) {
	q := url.Values{paramQuery: {text}}
	if count > 0 {
		q.Set(paramCount, strconv.Itoa(count))
	}
	var out []SearchResult
	return out, c.do(ctx, call{op: "Business/Search", path: pathSearch, key: key, query: q}, &out)
}

func setDate(q url.Values, name string, t time.Time) {
	if !t.IsZero() {
		q.Set(name, t.Format(dateParamLayout))
	}
}
