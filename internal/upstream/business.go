package upstream

import (
	"context"
	"strconv"
	"time"
)

// businessCall validates ref and builds a call for a business operation,
// kept as report data, with room for more parameters.
func businessCall(op, path string, ref BusinessRef, more int) (call, error) {
	if err := ref.Validate(); err != nil {
		return call{}, &Error{Op: op, Kind: ErrInvalidReference, Err: err}
	}
	q := make(query, 0, 1+more)
	ref.addTo(&q)
	return call{op: op, path: path, query: q, kind: KindReport}, nil
}

// getBusiness runs a business operation that takes only the reference.
func getBusiness[T any](ctx context.Context, u *User, op, path string, ref BusinessRef) (T, error) {
	var out T
	cl, err := businessCall(op, path, ref, 0)
	if err != nil {
		return out, err
	}
	err = u.do(ctx, cl, &out)
	return out, err
}

// StatementsQuery narrows LatestAnnualStatements; zero fields are left out.
type StatementsQuery struct {
	Count        int    // number of fiscal years; 0 for all
	StandardYear int    // one fiscal year; 0 for any
	SortOrder    string // SortDescending or SortAscending; "" for the service's default
}

// LatestAnnualStatements returns annual statements, one element per fiscal year.
func (u *User) LatestAnnualStatements(ctx context.Context, ref BusinessRef, sq StatementsQuery) ([]AnnualFinancials, error) {
	cl, err := businessCall("Business/LatestAnnualStatements", "/v1/Business/LatestAnnualStatements", ref, 3)
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
	return out, u.do(ctx, cl, &out)
}

// PaymentSummaryMonthly returns the monthly trade-payment aging, newest first.
func (u *User) PaymentSummaryMonthly(ctx context.Context, ref BusinessRef) ([]PaymentSummaryRow, error) {
	return getBusiness[[]PaymentSummaryRow](ctx, u, "Business/PaymentSummary/Monthly", "/v1/Business/PaymentSummary/Monthly", ref)
}

// PaymentSummarySIC returns the monthly aging per SIC supplier category.
func (u *User) PaymentSummarySIC(ctx context.Context, ref BusinessRef) ([]PaymentSummaryRow, error) {
	return getBusiness[[]PaymentSummaryRow](ctx, u, "Business/PaymentSummary/SIC", "/v1/Business/PaymentSummary/SIC", ref)
}

// CreditScoreHistory returns monthly scores between from and to (inclusive
// dates; zero values leave the service's default of the last 24 months).
func (u *User) CreditScoreHistory(ctx context.Context, ref BusinessRef, from, to time.Time) ([]CreditScoreHistoryRow, error) {
	cl, err := businessCall("Business/CreditScoreHistory", "/v1/Business/CreditScoreHistory", ref, 2)
	if err != nil {
		return nil, err
	}
	setDate(&cl.query, paramStartDate, from)
	setDate(&cl.query, paramEndDate, to)
	var out []CreditScoreHistoryRow
	return out, u.do(ctx, cl, &out)
}

// RiskHistory returns the most recent count months of the average risk
// score, newest first (count 0: all).
func (u *User) RiskHistory(ctx context.Context, ref BusinessRef, count int) ([]RiskHistoryRow, error) {
	cl, err := businessCall("Business/RiskHistory", "/v1/Business/RiskHistory", ref, 1)
	if err != nil {
		return nil, err
	}
	if count > 0 {
		cl.query.Set(paramCount, strconv.Itoa(count))
	}
	var out []RiskHistoryRow
	return out, u.do(ctx, cl, &out)
}

// Officers returns the officers of a business.
func (u *User) Officers(ctx context.Context, ref BusinessRef) ([]Officer, error) {
	return getBusiness[[]Officer](ctx, u, "Business/Officers", "/v1/Business/Officers", ref)
}

// NAICSCodes returns the industry codes of a business.
func (u *User) NAICSCodes(ctx context.Context, ref BusinessRef) ([]NAICSCode, error) {
	return getBusiness[[]NAICSCode](ctx, u, "Business/NAICSCodes", "/v1/Business/NAICSCodes", ref)
}

// Summary returns the summary text of a business.
func (u *User) Summary(ctx context.Context, ref BusinessRef) (BusinessSummary, error) {
	return getBusiness[BusinessSummary](ctx, u, "Business/Summary", "/v1/Business/Summary", ref)
}

// WordFill returns the latest financial comments of a business.
func (u *User) WordFill(ctx context.Context, ref BusinessRef) (WordFill, error) {
	return getBusiness[WordFill](ctx, u, "Business/WordFill", "/v1/Business/WordFill", ref)
}

// IdentificationGroup names and locates a business; it also turns a
// CustomerId or SupplierId into the service's id. A service without this
// operation answers ErrNotFound.
func (u *User) IdentificationGroup(ctx context.Context, ref BusinessRef) (Identification, error) {
	return getBusiness[Identification](ctx, u, OpIdentificationGroup, pathIdentificationGroup, ref)
}

// Search finds businesses by name, best matches first (count 0: the
// service's default).
func (u *User) Search(ctx context.Context, text string, count int) ([]SearchResult, error) {
	q := query{{paramQuery, text}}
	if count > 0 {
		q.Set(paramCount, strconv.Itoa(count))
	}
	var out []SearchResult
	return out, u.do(ctx, call{op: OpSearch, path: pathSearch, query: q, kind: KindSearch}, &out)
}

func setDate(q *query, name string, t time.Time) {
	if !t.IsZero() {
		q.Set(name, t.Format(dateParamLayout))
	}
}
