package views

import (
	"creditdash/internal/credit"
)

// CoverageView is the coverage as the plan and the exposure page show it.
type CoverageView struct {
	// Shown is false without a ledger.
	Shown                             bool
	Share, Fresh, Total, Unlinked     string
	FreshAccounts, Accounts, Sentence string
	// Low marks coverage under half, which the page says plainly.
	Low bool
}

// NewCoverageView words a coverage.
func NewCoverageView(c credit.ScoreCoverage) CoverageView {
	v := CoverageView{Shown: c.Accounts > 0, Share: Percent(c.Share() * 100), Fresh: Amount(c.Fresh), Total: Amount(c.Total),
		Unlinked: Amount(c.Unlinked), FreshAccounts: Plural(c.FreshAccounts, "account"), Accounts: Plural(c.Accounts, "account"),
		Low: c.Total > 0 && c.Share() < 0.5}
	switch {
	case c.Total <= 0:
		v.Sentence = "of nothing: the ledger's accounts owe nothing, so there is no exposure to cover."
	default:
		v.Sentence = "of the exposure (" + v.Fresh + " of " + v.Total + ", " + v.FreshAccounts +
			") has scores fetched in the last 7 days."
	}
	return v
}
