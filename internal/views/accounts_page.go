package views

import (
	"net/url"
	"strconv"
	"strings"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// AccountsPage lists the team's accounts of one ledger.
type AccountsPage struct {
	Base
	// AsOf is the ledger's date; Dates every date the team keeps.
	AsOf  string
	Dates []string
	Rows  []AccountRow
	Pager Pager
	// Matching is how many accounts the filter keeps, All how many the
	// ledger has.
	Matching, All int
	Filter        AccountsFilter
	Owners        []string
	Totals        AccountTotals
	// Unscored counts linked accounts whose business has no known score;
	// Unlinked those waiting for their CustomerId or SupplierId;
	// ERPDiffers those whose ERP limit differs from the limit in force;
	// NotInLedger those the newest ledger does not list.
	Unscored, Unlinked, ERPDiffers, NotInLedger int
	PDNote                                      string
	// Columns are the table's columns as this analyst chose them.
	Columns AccountColumns
}

// AccountTotals are the sums of the accounts the filter keeps.
type AccountTotals struct {
	Balance, Exposure, EL, Unscored string
	// Credit explains a difference between balance and exposure, or "".
	Credit string
}

// AccountRow is one account as the page shows it.
type AccountRow struct {
	Account, Name string
	// URL is the business report's, "" when not linked; LinkNote then
	// says so and names the identifier waiting.
	URL, LinkNote                        string
	Balance, Current, D1, D31, D61, Over string
	Limit, Terms, Utilization, PD, EL    string
	OverLimit                            bool
	// ERPLimit is the newest ledger's limit for the account (the ERP's),
	// Dash for none; ERPDiffers flags it when it is not the limit in
	// force. NotInLedger says the newest ledger does not list the account.
	ERPLimit                string
	ERPDiffers, NotInLedger bool
	Risk                    ScoreCell
	Implied, CalcURL, Owner string
	// LinkURL is the link-by-hand page of a not-linked account, else "".
	LinkURL string
	// Unnamed is an account the ledger gave no name: Name then says
	// "Account A-9", which a label beside the number would repeat.
	Unnamed bool
}

// NewAccountRow formats one account's figures.
func NewAccountRow(f credit.Figures) AccountRow {
	r := AccountRow{Account: f.Account.Account, Name: f.Name, Balance: Amount(f.Balance), Current: Amount(f.Current),
		D1: Amount(f.Days1to30), D31: Amount(f.Days31to60), D61: Amount(f.Days61to90), Over: Amount(f.DaysOver90),
		Limit: Dash, Terms: Dash, Utilization: Dash, PD: Dash, EL: Dash, Implied: Dash, Owner: f.Owner, OverLimit: f.OverLimit(),
		ERPLimit: Dash, ERPDiffers: f.Account.ERPDiffers(), NotInLedger: !f.Account.InLedger()}
	if f.ERPLimit != nil {
		r.ERPLimit = Amount(*f.ERPLimit)
	}
	if r.Name == "" {
		r.Name, r.Unnamed = "Account "+r.Account, true
	}
	if f.Account.Limit != nil {
		r.Limit = Amount(*f.Account.Limit)
	}
	if f.Terms != nil {
		r.Terms = strconv.Itoa(*f.Terms) + " days"
	}
	if f.UtilOK {
		r.Utilization = Fraction(f.Utilization)
	}
	switch {
	case !f.Linked():
		r.LinkNote = "not linked yet"
		if f.CustomerID != "" {
			r.LinkNote += " (CustomerId " + f.CustomerID + ")"
		} else if f.SupplierID != "" {
			r.LinkNote += " (SupplierId " + f.SupplierID + ")"
		}
		r.Risk.Missing = "not linked yet"
		r.LinkURL = AccountLinkPath(r.Account)
	default:
		r.URL = reportURL(f.BusinessID)
		r.CalcURL = r.URL + "/limit"
		if f.Risk == nil {
			r.Risk.Missing = "no score known yet"
		} else {
			r.Risk = ScoreCell{Value: strconv.Itoa(f.Band), Zone: RiskZone(f.Band), Month: KnownMonth(f.Risk.Month)}
		}
	}
	if f.ELOK {
		r.PD, r.EL = PDText(f.PD), Amount(f.EL)
	}
	if f.ImpliedOK {
		r.Implied = Amount(f.Implied)
	}
	return r
}

// NewAccountTotals sums the accounts kept.
func NewAccountTotals(fs []*credit.Figures) AccountTotals {
	var t totals
	for _, f := range fs {
		t.add(f.Balance, credit.Exposure(f.Balance), *f)
	}
	return t.of()
}

// NewGroupTotals sums the accounts each group of the record keeps. A
// group's expected loss is worked out as one account's of the group's
// exposure: expected loss is exposure times the business's PD (or its
// loss given default), the same for every account of the business.
func NewGroupTotals(groups []store.RecordGroup, known map[int32]map[store.Score]store.KnownScore) AccountTotals {
	var t totals
	for _, g := range groups {
		if g.Kept == 0 {
			continue
		}
		one := store.Account{LedgerLine: store.LedgerLine{BusinessID: g.BusinessID, Balance: g.Exposure}, Default: g.Default}
		t.add(g.Balance, g.Exposure, credit.NewFigures(one, known[g.BusinessID]))
	}
	return t.of()
}

// totals are the sums behind AccountTotals.
type totals struct {
	bal, exp, el, unscored float64
	scored                 bool
}

// add sums a balance and its exposure, with f's expected loss when known.
func (t *totals) add(bal, exp float64, f credit.Figures) {
	t.bal += bal
	t.exp += exp
	if f.ELOK {
		t.el += f.EL
		t.scored = true
	} else {
		t.unscored += exp
	}
}

func (t totals) of() AccountTotals {
	return AccountTotals{Balance: Amount(t.bal), Exposure: Amount(t.exp), EL: ELText(t.el, t.scored), Unscored: Amount(t.unscored),
		Credit: CreditNote(t.bal, t.exp)}
}

// AccountsCSVHeader is the header of accounts.csv, exactly as documented.
var AccountsCSVHeader = []string{"account", "name", "business_id", "balance", "current", "days_1_30", "days_31_60", "days_61_90",
	"days_over_90", "credit_limit", "terms_days", "utilization", "risk_score", "pd", "expected_loss", "implied_limit", "next_review", "owner"}

// AccountCSVRecord is the account as a row of accounts.csv: plain numbers,
// fractions for utilization and PD, empty where unknown, text cells
// defused against spreadsheet formulas. next_review is left empty here:
// the handler fills it from the review schedule.
func AccountCSVRecord(f credit.Figures) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	opt := func(v float64, ok bool) string {
		if !ok {
			return ""
		}
		return num(v)
	}
	rec := []string{store.CSVCell(f.Account.Account), store.CSVCell(f.Name), "", num(f.Balance), num(f.Current), num(f.Days1to30),
		num(f.Days31to60), num(f.Days61to90), num(f.DaysOver90), "", "", "", "", "", "",
		opt(f.Implied, f.ImpliedOK), "", store.CSVCell(f.Owner)}
	if f.BusinessID != 0 {
		rec[2] = strconv.Itoa(int(f.BusinessID))
	}
	if f.Account.Limit != nil {
		rec[9] = num(*f.Account.Limit)
	}
	if f.Terms != nil {
		rec[10] = strconv.Itoa(*f.Terms)
	}
	if f.UtilOK {
		rec[11] = PlainDecimal(f.Utilization, 6)
	}
	if f.Risk != nil {
		rec[12] = num(f.Risk.Value)
	}
	if f.ELOK {
		rec[13] = PlainDecimal(f.PD, 6)
		rec[14] = strconv.FormatFloat(float64(credit.Cents(f.EL))/100, 'f', 2, 64)
	}
	return rec
}

// PlainDecimal writes v with at most places decimals and no trailing
// zeros, as a person would ("0.0071", not 0.0070999999999999995): files
// carry figures people read, not the float's exact binary value.
func PlainDecimal(v float64, places int) string {
	s := strconv.FormatFloat(v, 'f', places, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// Choice is one option of a select.
type Choice struct{ Value, Label string }

// BandChoices are the Risk band filter's options.
func BandChoices() []Choice {
	out := []Choice{{"none", "no score"}}
	for b := 1; b <= 10; b++ {
		out = append(out, Choice{strconv.Itoa(b), strconv.Itoa(b) + " · " + RiskZone(b).Label})
	}
	return out
}

// AccountSortChoices are the sort select's options.
func AccountSortChoices() []Choice {
	return []Choice{{"account", "account number"}, {"name", "name"}, {"balance", "balance"}, {"limit", "limit"},
		{"utilization", "utilization"}, {"risk", "Risk band"}, {"el", "expected loss"}, {"implied", "implied limit"}, {"owner", "owner"}}
}

// URLQuery is the filter as the downloads' query.
func (p AccountsPage) URLQuery() string {
	q := url.Values{}
	f := p.Filter
	for k, on := range map[string]bool{"over": f.OverLimit, "unlinked": f.NotLinked, "noscore": f.NoScore, "erp": f.ERPDiffers, "desc": f.Desc} {
		if on {
			q.Set(k, "1")
		}
	}
	for k, v := range map[string]string{"owner": f.Owner, "band": f.Band, "sort": f.Sort} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q.Encode()
}
