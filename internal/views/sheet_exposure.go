package views

import (
	"net/url"
	"strconv"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// SheetExposure is one of the team's accounts as a credit memo or
// summary prints it: the team's own exposure (the newest ledger's balance
// and aging, the limit in force and its use, the expected loss) beside
// what the service says, and the limit's history.
type SheetExposure struct {
	Account, Name string
	// AsOf is the ledger the figures come from; "" when the newest ledger
	// does not list the account (it owes nothing as of it).
	AsOf                                 string
	Balance, Current, D1, D31, D61, Over string
	Limit, Utilization, Band, PD, EL     string
	OverLimit                            bool
	// Limits are the limits approved for the account, newest (the one in
	// force) first; Earlier says older ones were left off the page.
	Limits  []LimitLine
	Earlier bool
	// AuditURL is the account's audit trail: every limit and decision.
	AuditURL string
}

// LimitLine is one limit approved for an account: when it was set, who
// decided it, what was asked and what approved.
type LimitLine struct {
	Set, SetISO, DecidedBy, RequestedBy, Asked, Approved string
	// InForce marks the limit in force now.
	InForce bool
	// URL is the request's page.
	URL string
}

// SheetMaxLimits is how many limits a sheet prints per account, newest
// first, so the memo still prints on two pages.
const SheetMaxLimits = 5

// SheetMaxAccounts is how many of a business's accounts a summary prints.
const SheetMaxAccounts = 3

// NewSheetExposure shapes an account's figures and its approved limit
// requests (newest first; more says older ones exist) for a sheet.
func NewSheetExposure(f credit.Figures, approved []store.LimitRequest, more bool) SheetExposure {
	e := SheetExposure{Account: f.Account.Account, Name: f.Name, AsOf: f.Account.AsOf, Balance: Amount(f.Balance),
		Current: Amount(f.Current), D1: Amount(f.Days1to30), D31: Amount(f.Days31to60), D61: Amount(f.Days61to90),
		Over: Amount(f.DaysOver90), Limit: "none", Utilization: Dash, Band: "no score known", PD: "unknown",
		EL: ELText(f.EL, f.ELOK), OverLimit: f.OverLimit(), AuditURL: "/audit?account=" + url.QueryEscape(f.Account.Account)}
	if f.Account.Limit != nil {
		e.Limit = Amount(*f.Account.Limit)
	}
	if f.UtilOK {
		e.Utilization = Fraction(f.Utilization)
	}
	if f.Band != 0 {
		e.Band = strconv.Itoa(f.Band) + " · " + RiskZone(f.Band).Label
	}
	if f.ELOK {
		e.PD = PDText(f.PD)
	}
	if f.InDefault() {
		e.Band = "in default"
	}
	if len(approved) > SheetMaxLimits {
		approved, more = approved[:SheetMaxLimits], true
	}
	for i, r := range approved {
		amount := r.Amount
		if r.Approved != nil {
			amount = *r.Approved
		}
		l := LimitLine{Set: Date(r.DecidedAt), SetISO: r.DecidedAt.UTC().Format(time.RFC3339), DecidedBy: r.DecidedBy,
			RequestedBy: r.RequestedBy, Asked: Amount(r.Amount), Approved: Amount(amount), URL: DecisionPath(r.ID)}
		// The newest approval is the limit in force unless the record's
		// limit says otherwise (one set before decisions were recorded).
		l.InForce = i == 0 && f.Account.Limit != nil && credit.Cents(amount) == credit.Cents(*f.Account.Limit)
		e.Limits = append(e.Limits, l)
	}
	e.Earlier = more
	return e
}
