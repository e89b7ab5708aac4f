package api

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Account is one of the team's accounts as the API writes it.
type Account struct {
	Account    string  `json:"account"`
	Name       string  `json:"name"`
	BusinessID *int32  `json:"business_id"`
	CustomerID string  `json:"customer_id"`
	SupplierID string  `json:"supplier_id"`
	Owner      string  `json:"owner"`
	Status     string  `json:"status"`
	Limit      *Amount `json:"limit"`
	// ERPLimit is the newest ledger's limit (the ERP's), shown beside the
	// limit in force, never adopted without a decision.
	ERPLimit *Amount `json:"erp_limit"`
	Ledger   *Ledger `json:"ledger"`
}

// Amount is money in the team's currency, to the cent.
type Amount = float64

// Ledger is an account's line of the newest ledger.
type Ledger struct {
	AsOf       string `json:"as_of"`
	Balance    Amount `json:"balance"`
	Current    Amount `json:"current"`
	Days1to30  Amount `json:"days_1_30"`
	Days31to60 Amount `json:"days_31_60"`
	Days61to90 Amount `json:"days_61_90"`
	DaysOver90 Amount `json:"days_over_90"`
	TermsDays  *int   `json:"terms_days"`
}

// newAccount writes a store account for the API.
func newAccount(a store.Account) Account {
	out := Account{Account: a.Account, Name: a.Name, CustomerID: a.CustomerID, SupplierID: a.SupplierID,
		Owner: a.Owner, Status: a.Status, Limit: a.Limit}
	if a.BusinessID > 0 {
		out.BusinessID = &a.BusinessID
	}
	if a.InLedger() {
		out.ERPLimit = a.ERPLimit
		out.Ledger = &Ledger{AsOf: a.AsOf, Balance: a.Balance, Current: a.Current, Days1to30: a.Days1to30,
			Days31to60: a.Days31to60, Days61to90: a.Days61to90, DaysOver90: a.DaysOver90, TermsDays: a.Terms}
	}
	return out
}

// AccountPage is a page of accounts and where the next one starts.
type AccountPage struct {
	Accounts []Account `json:"accounts"`
	// NextCursor continues the walk (the same filters apply); null on the
	// last page. Next is the next page's path with its query.
	NextCursor *string `json:"next_cursor"`
	Next       *string `json:"next"`
}

// cursorOf and afterOf write and read a page's cursor: opaque to callers,
// the last account's number underneath.
func cursorOf(account string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("a:" + account))
}

func afterOf(cursor string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || !strings.HasPrefix(string(b), "a:") || !utf8.Valid(b) {
		return "", false
	}
	return string(b[2:]), true
}

// pageSize reads limit (1 to store.MaxPage, store.MaxPage when absent).
func pageSize(c *echo.Context, errs *[]FieldError) int {
	s := c.QueryParam("limit")
	if s == "" {
		return store.MaxPage
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > store.MaxPage {
		*errs = append(*errs, FieldError{Field: "limit", Detail: "a whole number from 1 to 100"})
	}
	return n
}

// flag reads a filter that is "true" or absent.
func flag(c *echo.Context, name string, errs *[]FieldError) bool {
	switch c.QueryParam(name) {
	case "":
		return false
	case "true":
		return true
	}
	*errs = append(*errs, FieldError{Field: name, Detail: "true, or leave it out"})
	return false
}

// listAccounts is GET /api/v1/accounts: the team's accounts in number
// order, a page at a time, with filters.
func (a *API) listAccounts(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	var errs []FieldError
	n := pageSize(c, &errs)
	f := store.AccountFilter{Owner: c.QueryParam("owner"), Linked: c.QueryParam("linked"), Query: strings.TrimSpace(c.QueryParam("q")),
		OverLimit: flag(c, "over_limit", &errs), PastDue: flag(c, "past_due", &errs)}
	if f.Linked != "" && f.Linked != "true" && f.Linked != "false" {
		errs = append(errs, FieldError{Field: "linked", Detail: "true, false, or leave it out"})
	}
	if s := c.QueryParam("business_id"); s != "" {
		id, err := strconv.ParseInt(s, 10, 32)
		if err != nil || id < 1 {
			errs = append(errs, FieldError{Field: "business_id", Detail: "a business id, a whole number from 1"})
		}
		f.Business = int32(id)
	}
	if utf8.RuneCountInString(f.Query) > 100 || utf8.RuneCountInString(f.Owner) > 256 {
		errs = append(errs, FieldError{Field: "q", Detail: "at most 100 characters (owner: 256)"})
	}
	after := ""
	if cur := c.QueryParam("cursor"); cur != "" {
		var ok bool
		if after, ok = afterOf(cur); !ok {
			errs = append(errs, FieldError{Field: "cursor", Detail: "not a cursor this API gave; start again without one"})
		}
	}
	if errs != nil {
		return invalid(errs)
	}
	accts, more, err := a.store.AccountsPage(c.Request().Context(), a.analyst(c), f, after, n)
	if err != nil {
		return err
	}
	page := AccountPage{Accounts: make([]Account, 0, len(accts))}
	for _, acc := range accts {
		page.Accounts = append(page.Accounts, newAccount(acc))
	}
	if more {
		cur := cursorOf(accts[len(accts)-1].Account)
		q := c.Request().URL.Query()
		q.Set("cursor", cur)
		next := Prefix + "/accounts?" + q.Encode()
		page.NextCursor, page.Next = &cur, &next
	}
	return c.JSON(http.StatusOK, page)
}

// AccountRecord is one account with its record: calculator inputs, last
// review and its newest limit requests.
type AccountRecord struct {
	Account
	Inputs *Inputs `json:"limit_inputs"`
	Review *Review `json:"last_review"`
	// Decisions are the account's newest limit requests, at most 20;
	// /api/v1/decisions?account= pages through them all.
	Decisions []Decision `json:"decisions"`
}

// Inputs are the limit calculator's inputs saved for the account.
type Inputs struct {
	MonthlySales  Amount  `json:"monthly_sales"`
	MonthsAllowed float64 `json:"months_allowed"`
	LossBudget    Amount  `json:"loss_budget"`
	SavedAt       string  `json:"saved_at"`
	SavedBy       string  `json:"saved_by"`
}

// Review is an account's credit review.
type Review struct {
	At      string `json:"at"`
	By      string `json:"by"`
	Outcome string `json:"outcome"`
	Note    string `json:"note"`
}

// accountDecisions is how many requests an account's record lists.
const accountDecisions = 20

// showAccount is GET /api/v1/accounts/{account}.
func (a *API) showAccount(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	key, err := url.PathUnescape(c.Param("account"))
	if err != nil {
		return problem(http.StatusNotFound, "There is no such account in this team.")
	}
	ctx, an := c.Request().Context(), a.analyst(c)
	acc, err := a.store.Account(ctx, an, key)
	if err != nil {
		return err
	}
	rec := AccountRecord{Account: newAccount(acc), Decisions: []Decision{}}
	if in := acc.Inputs; in != nil {
		rec.Inputs = &Inputs{MonthlySales: in.MonthlySales, MonthsAllowed: in.MonthsAllowed, LossBudget: in.LossBudget,
			SavedAt: stamp(in.SavedAt), SavedBy: in.SavedBy}
	}
	reviews, err := a.store.LastReviews(ctx, an)
	if err != nil {
		return err
	}
	if r, ok := reviews[acc.Account]; ok {
		rec.Review = &Review{At: stamp(r.At), By: r.By, Outcome: r.Outcome, Note: r.Note}
	}
	reqs, _, err := a.store.RequestsPage(ctx, an, store.RequestFilter{Account: acc.Account}, store.RequestCursor{}, accountDecisions)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		rec.Decisions = append(rec.Decisions, newDecision(r))
	}
	return c.JSON(http.StatusOK, rec)
}
