package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/credit"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Decision is a limit request and what became of it.
type Decision struct {
	// ID is a string: ids are 63-bit, past what a JSON number keeps
	// exactly in most languages.
	ID            string  `json:"id"`
	Account       string  `json:"account"`
	BusinessID    *int32  `json:"business_id"`
	Amount        Amount  `json:"amount"`
	PreviousLimit *Amount `json:"previous_limit"`
	Reason        string  `json:"reason"`
	RequestedBy   string  `json:"requested_by"`
	RequestedAt   string  `json:"requested_at"`
	// Authority is the requester's authority when asked: at or above the
	// amount, the request was approved at once.
	Authority Amount  `json:"authority"`
	Status    string  `json:"status"`
	DecidedBy *string `json:"decided_by"`
	DecidedAt *string `json:"decided_at"`
	Note      *string `json:"note"`
	// URL is the decision's page for people.
	URL string `json:"url"`
}

// stamp writes a time as the API does: RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// newDecision writes a store request for the API.
func newDecision(r store.LimitRequest) Decision {
	d := Decision{ID: strconv.FormatInt(r.ID, 10), Account: r.Account, Amount: r.Amount, PreviousLimit: r.OldLimit,
		Reason: r.Reason, RequestedBy: r.RequestedBy, RequestedAt: stamp(r.RequestedAt), Authority: r.Authority,
		Status: r.Status, URL: "/decisions/" + strconv.FormatInt(r.ID, 10)}
	if r.BusinessID > 0 {
		d.BusinessID = &r.BusinessID
	}
	if r.Status != store.StatusPending {
		at := stamp(r.DecidedAt)
		d.DecidedBy, d.DecidedAt, d.Note = &r.DecidedBy, &at, &r.Note
	}
	return d
}

// DecisionPage is a page of decisions, newest first.
type DecisionPage struct {
	Decisions  []Decision `json:"decisions"`
	NextCursor *string    `json:"next_cursor"`
	Next       *string    `json:"next"`
}

// requestCursor writes and reads a page of requests' cursor.
func requestCursor(r store.LimitRequest) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "r:%d:%d", r.RequestedAt.UnixMicro(), r.ID))
}

func beforeOf(cursor string) (store.RequestCursor, bool) {
	var c store.RequestCursor
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return c, false
	}
	_, err = fmt.Sscanf(string(b), "r:%d:%d", &c.At, &c.ID)
	return c, err == nil && c.At > 0
}

// statuses are the statuses a request can have.
var statuses = []string{store.StatusPending, store.StatusApproved, store.StatusDeclined, store.StatusWithdrawn}

// listDecisions is GET /api/v1/decisions: the team's limit requests,
// newest first, by account and status.
func (a *API) listDecisions(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	var errs []FieldError
	n := pageSize(c, &errs)
	f := store.RequestFilter{Account: c.QueryParam("account"), Status: c.QueryParam("status")}
	if f.Status != "" && !contains(statuses, f.Status) {
		errs = append(errs, FieldError{Field: "status", Detail: "one of " + strings.Join(statuses, ", ")})
	}
	var before store.RequestCursor
	if cur := c.QueryParam("cursor"); cur != "" {
		var ok bool
		if before, ok = beforeOf(cur); !ok {
			errs = append(errs, FieldError{Field: "cursor", Detail: "not a cursor this API gave; start again without one"})
		}
	}
	if errs != nil {
		return invalid(errs)
	}
	reqs, more, err := a.store.RequestsPage(c.Request().Context(), a.analyst(c), f, before, n)
	if err != nil {
		return err
	}
	page := DecisionPage{Decisions: make([]Decision, 0, len(reqs))}
	for _, r := range reqs {
		page.Decisions = append(page.Decisions, newDecision(r))
	}
	if more {
		cur := requestCursor(reqs[len(reqs)-1])
		q := c.Request().URL.Query()
		q.Set("cursor", cur)
		next := Prefix + "/decisions?" + q.Encode()
		page.NextCursor, page.Next = &cur, &next
	}
	return c.JSON(http.StatusOK, page)
}

// showDecision is GET /api/v1/decisions/{id}.
func (a *API) showDecision(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return problem(http.StatusNotFound, "There is no such decision in this team.")
	}
	r, err := a.store.Request(c.Request().Context(), a.analyst(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, newDecision(r))
}

// LimitRequest is the body of POST /api/v1/limit-requests.
type LimitRequest struct {
	Account string `json:"account"`
	// Amount is a JSON number, or a string as a person types it
	// ("25,000"), read as the pages read amounts.
	Amount json.RawMessage `json:"amount"`
	Reason string          `json:"reason"`
}

// maxJSONBody bounds a JSON request's body.
const maxJSONBody = 64 << 10

// readJSON decodes the body into v: one JSON object, no unknown members.
func readJSON(c *echo.Context, v any) error {
	if ct := c.Request().Header.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return problem(http.StatusUnsupportedMediaType, "Send the body as application/json.")
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxJSONBody+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || len(body) > maxJSONBody:
		return problem(http.StatusRequestEntityTooLarge, "The body is over 64 KB.")
	case err != nil:
		return problem(http.StatusBadRequest, "The body could not be read.")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid([]FieldError{{Field: "body", Detail: "not the JSON object openapi.json describes: " + err.Error()}})
	}
	if dec.More() {
		return invalid([]FieldError{{Field: "body", Detail: "one JSON object, nothing after it"}})
	}
	return nil
}

// readAmount reads a request's amount: a number, or a string typed as on
// the pages (internal/amount), where ambiguous separators are refused.
func readAmount(raw json.RawMessage) (float64, string) {
	var text string
	var v float64
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return 0, "give the limit asked for, such as 25000"
	case json.Unmarshal(raw, &v) == nil:
	case json.Unmarshal(raw, &text) == nil:
		var ok bool
		var err error
		if v, ok, err = amount.Typed(text); err != nil {
			return 0, strings.TrimPrefix(err.Error(), "amount: ")
		} else if !ok {
			return 0, "give the limit asked for, such as 25000"
		}
	default:
		return 0, "a number, or a string such as \"25,000\""
	}
	if err := store.CheckAmount(v, false); err != nil {
		return 0, "from 0 to 10,000,000,000,000"
	}
	return v, ""
}

// submitLimitRequest is POST /api/v1/limit-requests: a limit asked for
// under the token holder's role and authority, with the pages' rules:
// within the authority it is approved at once, above it it waits for a
// manager who is not its requester (four eyes).
func (a *API) submitLimitRequest(c *echo.Context) error {
	if err := a.may(c, roles.RequestLimit); err != nil {
		return err
	}
	var body LimitRequest
	if err := readJSON(c, &body); err != nil {
		return err
	}
	var errs []FieldError
	body.Account = strings.TrimSpace(body.Account)
	if body.Account == "" {
		errs = append(errs, FieldError{Field: "account", Detail: "the team's account number the limit is for"})
	}
	v, msg := readAmount(body.Amount)
	if msg != "" {
		errs = append(errs, FieldError{Field: "amount", Detail: msg})
	}
	body.Reason = strings.TrimSpace(body.Reason)
	switch n := utf8.RuneCountInString(body.Reason); {
	case n == 0:
		errs = append(errs, FieldError{Field: "reason", Detail: "say why the limit should be this amount"})
	case n > store.MaxRequestReasonLen:
		errs = append(errs, FieldError{Field: "reason", Detail: "at most 2,000 characters"})
	}
	if errs != nil {
		return invalid(errs)
	}
	t := tokenOf(c)
	// The team's credit policy holds here as on the pages.
	rule, err := credit.RequestRule(c.Request().Context(), a.store, a.analyst(c), body.Account)
	if err != nil {
		return err
	}
	r, err := a.store.RequestLimit(c.Request().Context(), a.analyst(c), store.RequestSpec{Account: body.Account, Amount: v,
		Reason: body.Reason, Authority: float64(a.member(c.Request().Context(), t.User).Authority), Policy: rule})
	var ve *store.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return invalid([]FieldError{{Field: "account", Detail: "this team has no account " + strconv.Quote(body.Account)}})
	case errors.As(err, &ve):
		return invalid([]FieldError{{Field: ve.Field, Detail: ve.Message}})
	case errors.Is(err, store.ErrRequestsFull):
		return problem(http.StatusConflict, "%s", strings.TrimPrefix(err.Error(), "store: "))
	case err != nil:
		return err
	}
	c.Response().Header().Set("Location", Prefix+"/decisions/"+strconv.FormatInt(r.ID, 10))
	return c.JSON(http.StatusCreated, newDecision(r))
}

// contains says list holds s.
func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
