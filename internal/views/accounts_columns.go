package views

import "slices"

// AccountColumn is one column of /accounts an analyst may show or hide;
// the account's own column (number and name) is always shown.
type AccountColumn struct {
	// Key is the column's name as the form posts it and the store keeps it.
	Key, Label string
	// Shown says the analyst sees it.
	Shown bool
}

// The columns' keys, in the table's order.
const (
	ColBalance     = "balance"
	ColCurrent     = "current"
	ColDays1       = "days_1_30"
	ColDays31      = "days_31_60"
	ColDays61      = "days_61_90"
	ColOver90      = "days_over_90"
	ColLimit       = "limit"
	ColERPLimit    = "erp_limit"
	ColUtilization = "utilization"
	ColRisk        = "risk"
	ColPD          = "pd"
	ColEL          = "expected_loss"
	ColImplied     = "implied_limit"
	ColOwner       = "owner"
)

// accountColumns are every choosable column, in the table's order.
var accountColumns = []AccountColumn{
	{Key: ColBalance, Label: "Balance"}, {Key: ColCurrent, Label: "Current"}, {Key: ColDays1, Label: "1–30"},
	{Key: ColDays31, Label: "31–60"}, {Key: ColDays61, Label: "61–90"}, {Key: ColOver90, Label: "Over 90"},
	{Key: ColLimit, Label: "Limit in force"}, {Key: ColERPLimit, Label: "ERP limit (file)"},
	{Key: ColUtilization, Label: "Utilization"}, {Key: ColRisk, Label: "Risk band"}, {Key: ColPD, Label: "PD"},
	{Key: ColEL, Label: "Expected loss"}, {Key: ColImplied, Label: "Implied limit"}, {Key: ColOwner, Label: "Owner"},
}

// DefaultAccountColumns are what an analyst who never chose sees: what a
// credit decision reads (balance, what is over 90 days, the limit and its
// use, the risk, its PD and what it costs, whose account it is), narrow enough
// for a 1366 px laptop. The aging buckets and the ERP's limit are a
// click away in the chooser.
var DefaultAccountColumns = []string{ColBalance, ColOver90, ColLimit, ColUtilization, ColRisk, ColPD, ColEL, ColImplied, ColOwner}

// AccountColumns are the page's columns with the analyst's choice
// applied: chosen is what the store keeps (nil: the defaults). Names no
// column has (a column since removed) are ignored; a choice that leaves
// none shown falls back to the defaults, so the table never loses its
// figures to a stale setting.
type AccountColumns []AccountColumn

// NewAccountColumns applies chosen to the page's columns.
func NewAccountColumns(chosen []string) AccountColumns {
	keep := KnownAccountColumns(chosen)
	if len(keep) == 0 {
		keep = DefaultAccountColumns
	}
	out := slices.Clone(accountColumns)
	for i := range out {
		out[i].Shown = slices.Contains(keep, out[i].Key)
	}
	return out
}

// KnownAccountColumns keeps the names of chosen that are columns, once
// each, in the table's order: what a form's choice is stored as.
func KnownAccountColumns(chosen []string) []string {
	var out []string
	for _, c := range accountColumns {
		if slices.Contains(chosen, c.Key) {
			out = append(out, c.Key)
		}
	}
	return out
}

// Shown reports whether the column key is shown.
func (cs AccountColumns) Shown(key string) bool {
	for _, c := range cs {
		if c.Key == key {
			return c.Shown
		}
	}
	return false
}

// Default reports whether the columns shown are the defaults.
func (cs AccountColumns) Default() bool {
	var shown []string
	for _, c := range cs {
		if c.Shown {
			shown = append(shown, c.Key)
		}
	}
	return slices.Equal(shown, KnownAccountColumns(DefaultAccountColumns))
}
