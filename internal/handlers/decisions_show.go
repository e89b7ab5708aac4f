package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// decision reads the request the route names.
func (h *Handler) decision(c *echo.Context) (store.LimitRequest, error) {
	id, err := rowID(c)
	if err != nil {
		return store.LimitRequest{}, err
	}
	r, err := h.store.Request(c.Request().Context(), h.analyst(c), id)
	if err != nil {
		return r, decisionsError(err)
	}
	return r, nil
}

// decisionPage is a request's page as the signed-in user sees it.
func (h *Handler) decisionPage(c *echo.Context, r store.LimitRequest) views.DecisionPage {
	p := views.DecisionPage{ID: fmt.Sprint(r.ID), Account: r.Account, Status: views.StatusLabel(r.Status),
		AccountURL: "/audit?account=" + url.QueryEscape(r.Account), Amount: views.Amount(r.Amount), OldLimit: views.Dash,
		Reason: r.Reason, Steps: views.NewDecisionSteps(r), Approved: views.ApprovedText(r), ApproveAmount: plainAmount(r.Amount), Policy: r.Policy}
	if r.OldLimit != nil {
		p.OldLimit = views.Amount(*r.OldLimit)
	}
	if r.BusinessID != 0 {
		p.BusinessURL = views.BusinessPath(upstream.ByID(r.BusinessID), views.TabOverview)
	}
	if r.Calculator != "" {
		p.Calculator = strings.Split(r.Calculator, "\n")
	}
	p.MemoURL = memoPath(r.ID)
	for _, e := range r.Evidence {
		label, href := e.Tab, views.DecisionPath(r.ID)+"/evidence/"+e.Tab
		if t, ok := views.ParseBusinessTab(e.Tab); ok {
			label = t.Label()
		} else if e.Tab == notesEvidence {
			// The notes have no tab of their own: the memo prints them.
			label, href = "Requester's notes on the business", memoPath(r.ID)+"#sheet-notes-part"
		}
		p.Evidence = append(p.Evidence, views.EvidenceLink{URL: href, Label: label,
			AsOf: views.DateTime(e.Fetched), AsOfISO: e.Fetched.UTC().Format(time.RFC3339)})
	}
	if r.Status == store.StatusPending {
		p.Waits = h.whyItWaits(c, r)
		user := session.Must(c).User
		p.Withdraw = user == r.RequestedBy
		if rule := h.decideRule(c, user, r); rule == "" {
			p.Decide = true
		} else if !p.Withdraw {
			p.WhyNot = rule
		}
	}
	p.Base = h.base(c, nil, "Limit request "+p.ID+" · "+r.Account, views.NavAccounts)
	return p
}

// whyItWaits words why a pending request waits and who may decide it:
// the managers the roles name whose authority covers the amount, its
// requester left out (four eyes).
func (h *Handler) whyItWaits(c *echo.Context, r store.LimitRequest) string {
	t := h.rolesNow(c)
	as := t.Of(r.RequestedBy)
	s := fmt.Sprintf("%s is above the authority of its requester, %s (%s, up to %s).",
		views.Amount(r.Amount), r.RequestedBy, as.Role, views.Amount(r.Authority))
	if r.Amount <= r.Authority {
		s = fmt.Sprintf("%s is within the authority of its requester, %s (%s, up to %s), but not what the team's credit policy in force lets be decided at once for the account: above its class's at-once amount or its policy limit (see /policy and the policy's words here).",
			views.Amount(r.Amount), r.RequestedBy, as.Role, views.Amount(r.Authority))
	}
	var who []string
	for _, name := range t.Named() {
		if m := t.Of(name); name != r.RequestedBy && m.Role.May(roles.Decide) && float64(m.Authority) >= r.Amount {
			who = append(who, name+" (up to "+views.Money(m.Authority)+")")
		}
	}
	if len(who) == 0 {
		return s + " No manager's authority covers it: the request can only be withdrawn, or a manager's authority raised."
	}
	return s + " A manager other than the requester decides it: " + strings.Join(who, ", ") + "."
}

// decideRule is the rule that keeps user from approving or declining r,
// "" when none does: managers only, within their authority, never their
// own request.
func (h *Handler) decideRule(c *echo.Context, user string, r store.LimitRequest) string {
	as := h.rolesNow(c).Of(user)
	switch {
	case !as.Role.May(roles.Decide):
		return as.Role.Rule(roles.Decide)
	case user == r.RequestedBy:
		return "Four eyes: a request above its requester's authority is decided by another manager, never by its requester."
	case float64(as.Authority) < r.Amount:
		return fmt.Sprintf("A manager decides requests within their own authority: %s is above your %s.",
			views.Amount(r.Amount), views.Money(as.Authority))
	}
	return ""
}

// showDecision is /decisions/{id}: the request, its evidence and steps.
func (h *Handler) showDecision(c *echo.Context) error {
	r, err := h.decision(c)
	if err != nil {
		return err
	}
	p := h.decisionPage(c, r)
	switch c.QueryParam("done") {
	case store.StatusApproved, store.StatusDeclined, store.StatusWithdrawn:
		if r.Status == c.QueryParam("done") {
			p.Flash = "Request " + views.StatusLabel(r.Status) + "."
		}
	}
	return h.render(c, http.StatusOK, templates.Decision(p))
}

// showEvidence shows a dated copy a request keeps, with today's template
// of its tab, without a service call.
func (h *Handler) showEvidence(c *echo.Context) error {
	r, err := h.decision(c)
	if err != nil {
		return err
	}
	tab, ok := views.ParseBusinessTab(c.Param("tab"))
	if !ok {
		return echo.ErrNotFound
	}
	e, err := h.store.RequestEvidence(c.Request().Context(), h.analyst(c), r.ID, tab.Name())
	if err != nil {
		return decisionsError(err)
	}
	d, err := readCopy(tab, e.Data)
	if err != nil {
		return fmt.Errorf("handlers: request %d evidence %s: %w", r.ID, tab.Name(), err)
	}
	hd := d.header()
	ref := upstream.ByID(r.BusinessID)
	header := views.NewBusinessHeader(ref, hd.identification(), hd.naics, tab, c.Scheme()+"://"+c.Request().Host+views.BusinessPath(ref, tab))
	base := h.base(c, nil, header.Name+" · "+tab.Label()+" · as of "+views.Date(e.Fetched)+" · evidence of request "+fmt.Sprint(r.ID), views.NavAccounts)
	base.Workspace.Snapshot = &views.SnapshotMark{Name: header.Name, BusinessID: r.BusinessID, Tab: tab.Name(), TabLabel: tab.Label(),
		AsOf: views.DateTime(e.Fetched), AsOfISO: e.Fetched.UTC().Format(time.RFC3339), Saved: views.DateTime(r.RequestedAt),
		EvidenceOf: views.DecisionPath(r.ID)}
	page, err := d.page(h, c, base, header, e.Fetched)
	if err != nil {
		return err
	}
	return h.render(c, http.StatusOK, page)
}

// submitApprove, submitDecline and submitWithdraw decide a pending request.
func (h *Handler) submitApprove(c *echo.Context) error  { return h.decide(c, store.Approve) }
func (h *Handler) submitDecline(c *echo.Context) error  { return h.decide(c, store.Decline) }
func (h *Handler) submitWithdraw(c *echo.Context) error { return h.decide(c, store.Withdraw) }

// decide checks the rules only the handler knows (role, authority, four
// eyes: refused with the rule named and logged), then asks the store,
// where of two deciders at once exactly one wins; the other sees what
// happened (409).
func (h *Handler) decide(c *echo.Context, o store.Outcome) error {
	r, err := h.decision(c)
	if err != nil {
		return err
	}
	user := session.Must(c).User
	asked := string(o) + " request " + fmt.Sprint(r.ID)
	if o == store.Withdraw {
		if user != r.RequestedBy {
			return h.refuse(c, asked, r.Account, r.BusinessID, "Only the requester withdraws a request, while it waits.")
		}
	} else if rule := h.decideRule(c, user, r); rule != "" {
		return h.refuse(c, asked, r.Account, r.BusinessID, rule)
	}
	note := strings.TrimSpace(c.FormValue("note"))
	p := views.DecisionPage{}
	p.Note, p.NoteFor = views.Clip(note, store.MaxRequestReasonLen+100), string(o)
	if o != store.Withdraw || note != "" {
		switch n := utf8.RuneCountInString(note); {
		case n == 0 && o == store.Approve:
			p.NoteError = "Say why the limit is approved: the note is kept with the decision and printed on the memo."
		case n == 0:
			p.NoteError = "Say why the request is declined: the reason is kept with the decision and shown to its requester."
		case n > store.MaxRequestReasonLen:
			p.NoteError = "Keep the note to 2,000 characters."
		}
	}
	approved := r.Amount
	if o == store.Approve {
		approved, p.ApproveAmount, p.AmountError = readApproved(c.FormValue("amount"), r.Amount)
	}
	if p.NoteError != "" || p.AmountError != "" {
		typed := p
		p = h.decisionPage(c, r)
		p.Note, p.NoteFor, p.NoteError, p.ApproveAmount, p.AmountError = typed.Note, typed.NoteFor, typed.NoteError, typed.ApproveAmount, typed.AmountError
		return h.render(c, http.StatusUnprocessableEntity, templates.Decision(p))
	}
	var got store.LimitRequest
	if o == store.Approve {
		got, err = h.store.ApproveAmount(c.Request().Context(), h.analyst(c), r.ID, approved, note)
	} else {
		got, err = h.store.Decide(c.Request().Context(), h.analyst(c), r.ID, o, note)
	}
	var decided *store.ErrDecided
	if errors.As(err, &decided) {
		p := h.decisionPage(c, decided.Request)
		p.Notice = fmt.Sprintf("Nothing was changed: this request was already %s by %s at %s.", decided.Request.Status,
			decided.Request.DecidedBy, views.DateTime(decided.Request.DecidedAt))
		return h.render(c, http.StatusConflict, templates.Decision(p))
	}
	if err != nil {
		return decisionsError(err)
	}
	if h.apps != nil {
		// An application waiting on this request was decided with it.
		h.apps.RequestDecided(c.Request().Context(), h.analyst(c), got.ID)
	}
	return redirect(c, views.DecisionPath(got.ID)+"?done="+got.Status)
}

// readApproved reads the amount a manager approves: the amount asked when
// left empty, otherwise typed through the one parser and at most the
// amount asked. It returns the amount, the field as typed (to show again)
// and what is wrong with it, "" when nothing is.
func readApproved(raw string, asked float64) (float64, string, string) {
	raw = strings.TrimSpace(raw)
	typed := views.Clip(raw, 40)
	v, ok, err := amount.Typed(raw)
	switch {
	case !ok && err == nil:
		return asked, typed, ""
	case err != nil:
		return 0, typed, sentence(err.Error())
	case store.CheckAmount(v, false) != nil:
		return 0, typed, "Give an amount from 0 up to the " + views.Amount(asked) + " asked."
	case v > asked:
		return 0, typed, "Approve at most the " + views.Amount(asked) + " asked; for more, the requester asks again."
	}
	return v, typed, ""
}
