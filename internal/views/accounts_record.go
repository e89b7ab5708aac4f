package views

import (
	"strconv"
	"strings"

	"creditdash/internal/store"
)

// The account's record (issue 43): what an import would do, the kept
// versions of the ledgers, and an account added by hand.

// NamedAccounts is a count of accounts with the first few named.
type NamedAccounts struct {
	N int
	// Names lists them, with "and N more" when not all are named.
	Names string
}

func namedAccounts(n store.Named) NamedAccounts {
	s := strings.Join(n.Names, ", ")
	if n.N > len(n.Names) {
		s += ", and " + Int(int64(n.N-len(n.Names))) + " more"
	}
	return NamedAccounts{N: n.N, Names: s}
}

// List is ": A-1, A-2" after the count, "" when there are none.
func (n NamedAccounts) List() string {
	if n.N == 0 {
		return ""
	}
	return ": " + n.Names
}

// DiffList is ": A-1: ERP $5,000, in force none; ..." after the count,
// "" when no limit differs.
func (p *ImportPlanView) DiffList() string {
	if p.ERPDiffers == 0 {
		return ""
	}
	s := ": " + strings.Join(p.Diffs, "; ")
	if p.ERPDiffers > len(p.Diffs) {
		s += "; and " + Int(int64(p.ERPDiffers-len(p.Diffs))) + " more"
	}
	return s
}

// ImportPlanView is what importing the previewed file would do, counted
// and named.
type ImportPlanView struct {
	AsOf  string
	Lines int
	// Replaces describes the date's ledger the import would keep as a
	// version, "" when the date has none.
	Replaces string
	// Base is the date the balances are compared with, "" when none.
	Base                  string
	New, Missing, Changed NamedAccounts
	// ERPDiffers counts the lines whose ERP limit is not the limit in
	// force; Diffs describe the first few.
	ERPDiffers int
	Diffs      []string
	// Total is the sum of the balances the import would bring in.
	Total string
}

// NewImportPlanView formats a plan.
func NewImportPlanView(p store.ImportPlan) *ImportPlanView {
	v := &ImportPlanView{AsOf: p.AsOf, Lines: p.Lines, Base: p.Base, New: namedAccounts(p.New), Missing: namedAccounts(p.Missing),
		Changed: namedAccounts(p.Changed), ERPDiffers: p.ERPDiffers, Total: Amount(p.Total)}
	if p.Replaces {
		v.Replaces = Plural(p.ReplacesLines, "account") + ", imported by " + p.ReplacesBy + " on " + p.ReplacesAt.UTC().Format("Jan 2, 2006 15:04 UTC")
	}
	for _, d := range p.Diffs {
		inForce := "none"
		if d.InForce != nil {
			inForce = Amount(*d.InForce)
		}
		v.Diffs = append(v.Diffs, d.Account+": ERP "+Amount(d.ERP)+", in force "+inForce)
	}
	return v
}

// LedgerVersionRow is a kept version as the import page lists it.
type LedgerVersionRow struct {
	ID               int64
	AsOf, File, Made string
	Lines            int
	Replaced         string
}

// NewLedgerVersionRows formats the kept versions.
func NewLedgerVersionRows(vs []store.LedgerVersion) []LedgerVersionRow {
	out := make([]LedgerVersionRow, 0, len(vs))
	for _, v := range vs {
		r := LedgerVersionRow{ID: v.ID, AsOf: v.AsOf, File: Clip(v.File, 80), Lines: v.Lines,
			Made:     "imported by " + v.ImportedBy + " on " + v.ImportedAt.UTC().Format("Jan 2, 2006 15:04 UTC"),
			Replaced: "replaced by " + v.ReplacedBy + " on " + v.ReplacedAt.UTC().Format("Jan 2, 2006 15:04 UTC") + " (" + v.ReplacedHow + ")"}
		if r.File == "" {
			r.File = "import " + strconv.FormatInt(v.ImportID, 10)
		}
		out = append(out, r)
	}
	return out
}

// RestorePath is where a kept version's restore is posted.
func RestorePath(id int64) string {
	return "/accounts/ledgers/versions/" + strconv.FormatInt(id, 10) + "/restore"
}

// NewAccountPage is the form that adds an account by hand.
type NewAccountPage struct {
	Base
	Account, Name, BusinessID, Owner, Reason string
	// The fields' refusals; Error is the form's own.
	AccountError, NameError, BusinessError, OwnerError, ReasonError, Error string
}

// KeptVersions is how many replaced ledgers of a date the team keeps.
const KeptVersions = store.MaxVersionsPerDate
