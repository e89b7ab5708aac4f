package views

import (
	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// AccountPanel is a report overview's "Account" tile: the team's accounts
// linked to the business, with the same figures as /accounts.
type AccountPanel struct {
	AsOf string
	Rows []AccountRow
	// Balance, Limit, Utilization and EL are the accounts' together.
	Balance, Limit, Utilization, EL string
	OverLimit                       bool
	PDNote                          string
	CalcURL                         string
}

// NewAccountPanel builds the tile from the accounts and the scores the
// page itself received; nil when the team has no account of the business.
func NewAccountPanel(business int32, accts []store.Account, known map[store.Score]store.KnownScore) *AccountPanel {
	if len(accts) == 0 {
		return nil
	}
	p := &AccountPanel{AsOf: accts[0].AsOf, PDNote: credit.PDAssumption, CalcURL: reportURL(business) + "/limit",
		Limit: Dash, Utilization: Dash}
	var bal, limit, el float64
	limits, elOK := true, true
	for _, a := range accts {
		f := credit.NewFigures(a, known)
		p.Rows = append(p.Rows, NewAccountRow(f))
		bal += a.Balance
		if a.Limit == nil {
			limits = false
		} else {
			limit += *a.Limit
		}
		el += f.EL
		elOK = elOK && f.ELOK
	}
	p.Balance = Amount(bal)
	if limits {
		p.Limit = Amount(limit)
		if u, ok := credit.Utilization(bal, &limit); ok {
			p.Utilization, p.OverLimit = Fraction(u), bal > limit
		}
	}
	p.EL = ELText(el, elOK)
	return p
}
