// Package demohistory makes the demo portfolio's 36 month-end ledgers
// (issue 45): the history a team would hold after three years, for
// validating a credit policy in demo mode. It is made from the stand-in's
// demo data, so each account's arrears follow its business's scores: they
// grow a few months after Risk and Pay fall and shrink when they recover.
package demohistory

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream/simulator"
)

// Months is how many month-ends the history holds: the team's bound.
const Months = store.MaxLedgers

// How the arrears follow the scores; tuned so that 6–12 accounts default
// and the Risk score alone ranks them with an AUC of about 0.7–0.85.
var (
	levelWeight = 0.02
	fallWeight  = 0.05
	baseOver90  = 0.5
)

// Month is one month-end's ledger.
type Month struct {
	AsOf  time.Time
	Lines []store.LedgerLine
}

// account is one of the history's accounts and what drives it.
type account struct {
	line     store.LedgerLine
	business simulator.Business
	balance  float64 // its usual balance
	lag      int     // months between a score's fall and the arrears
	// fragility scales how hard a fall hits: businesses at one score
	// pay their suppliers differently.
	fragility float64
	// open and close are the months (indexes) it is listed from and to.
	open, close int
	// dispute, when at least 0, is the month a disputed invoice starts
	// five months of arrears whatever the scores say.
	dispute int
}

// Build makes the history from the demo data (simulator.Generate): the
// demo user's businesses, one account each as the demo ledger has them
// (the same account numbers, names and links), month-ends of the 36
// months up to the data's latest. Limits are left out: in the history
// they come from the team's dated decisions, never from a ledger.
func Build(data *simulator.Dataset) []Month {
	latest, _ := time.Parse("2006-01", data.AsOf)
	byID := map[int32]simulator.Business{}
	for _, b := range data.Businesses {
		byID[b.ID] = b
	}
	var ids []int32
	for _, u := range data.Users {
		if u.Username != "demo" {
			continue
		}
		for _, f := range u.Folders {
			for _, id := range f.BusinessIDs {
				if !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	slices.Sort(ids)
	r := rand.New(rand.NewPCG(uint64(data.Seed), 45))
	var accts []*account
	for i, id := range ids {
		if i == 100 {
			break
		}
		b := byID[id]
		ac := &account{business: b, balance: math.Round(5000 * math.Pow(400, r.Float64())), lag: 2 + r.IntN(3),
			fragility: math.Exp(0.8 * r.NormFloat64()), close: Months - 1, dispute: -1}
		ac.line = store.LedgerLine{Account: "C" + strconv.Itoa(10000+i*7), Name: b.Name, BusinessID: id}
		if i%17 == 5 { // linked by the supplier id only, as in the demo ledger
			ac.line.BusinessID, ac.line.SupplierID = 0, "S-"+strconv.Itoa(int(id))
		}
		terms := []int{30, 30, 45, 60}[r.IntN(4)]
		ac.line.Terms = &terms
		switch {
		case b.Story != "": // the scenario companies stay the whole time
		case i%23 == 7:
			ac.open = 6 + i%14 // a customer won along the way
		case i%29 == 11:
			ac.close = 18 + i%12 // one that left
		case i%31 == 13:
			ac.dispute = 8 + i%15
		}
		accts = append(accts, ac)
	}
	out := make([]Month, Months)
	for m := range out {
		month := latest.AddDate(0, m-(Months-1), 0)
		out[m].AsOf = month.AddDate(0, 1, -1) // its last day
		for _, ac := range accts {
			if m < ac.open || m > ac.close {
				continue
			}
			out[m].Lines = append(out[m].Lines, ac.lineAt(m, month, latest, r))
		}
	}
	return out
}

// lineAt is the account's ledger line at the end of month m.
func (ac *account) lineAt(m int, month, latest time.Time, r *rand.Rand) store.LedgerLine {
	l := ac.line
	balance := ac.balance * (0.85 + 0.3*r.Float64()) * (1 + 0.1*math.Sin(float64(month.Month())*math.Pi/6))
	pct := ac.profile(month)
	// The team is one supplier among many: its share of the trade
	// file's oldest arrears is smaller.
	pct[0] += pct[4] * (1 - baseOver90)
	pct[4] *= baseOver90
	// Arrears follow the score of a few months back: its level (nothing
	// at 5 and above) and how far it fell over the year before it.
	then := score(ac.business, month.AddDate(0, -ac.lag, 0))
	level := math.Max(0, 4.5-then)
	fall := math.Max(0, score(ac.business, month.AddDate(0, -ac.lag-12, 0))-then)
	extra := (levelWeight*level*level + fallWeight*fall) * ac.fragility
	if ac.dispute >= 0 && m >= ac.dispute && m < ac.dispute+5 {
		extra += 0.3
	}
	extra = math.Min(extra*(0.9+0.2*r.Float64()), 0.85)
	// The extra arrears come out of current, most of them past 90 days
	// and the rest on their way there.
	pct[4] += extra * 0.7
	pct[3] += extra * 0.15
	pct[2] += extra * 0.15
	pct[0] = math.Max(0, 1-pct[1]-pct[2]-pct[3]-pct[4])
	var sum float64
	for _, p := range pct {
		sum += p
	}
	var buckets [5]float64
	var aged float64
	for i := 1; i < 5; i++ {
		buckets[i] = math.Round(balance*pct[i]/sum*100) / 100
		aged += buckets[i]
	}
	l.Balance = math.Round(balance*100) / 100
	buckets[0] = math.Round((l.Balance-aged)*100) / 100
	l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.DaysOver90 = buckets[0], buckets[1], buckets[2], buckets[3], buckets[4]
	return l
}

// profile is the business's aging shares (current, 1–30, 31–60, 61–90,
// over 90) reported for the month, or the nearest month reported.
func (ac *account) profile(month time.Time) [5]float64 {
	rows := ac.business.PaymentsMonthly // newest first
	if len(rows) == 0 {
		return [5]float64{1, 0, 0, 0, 0}
	}
	want := month.Format("2006-01")
	p := rows[len(rows)-1]
	for _, row := range rows {
		if row.MonthReported <= want {
			p = row
			break
		}
	}
	return [5]float64{(p.CurrentAmountPercent + p.OtherAmountPercent) / 100, p.PastDue30DaysPercent / 100,
		p.PastDue60DaysPercent / 100, p.PastDue90DaysPercent / 100, p.PastDueOver90DaysPercent / 100}
}

// score is the business's Risk in the month (Pay when it has no Risk),
// or its earliest known before its history starts; 10 when it has none.
func score(b simulator.Business, month time.Time) float64 {
	v := 10.0
	for _, s := range b.Scores { // oldest first
		if s.Year*100+s.Month > month.Year()*100+int(month.Month()) {
			break
		}
		switch {
		case s.Risk != nil:
			v = float64(*s.Risk)
		case s.Pay != nil:
			v = float64(*s.Pay)
		}
	}
	if len(b.Scores) > 0 && b.Scores[0].Year*100+b.Scores[0].Month > month.Year()*100+int(month.Month()) {
		if s := b.Scores[0]; s.Risk != nil {
			v = float64(*s.Risk)
		} else if s.Pay != nil {
			v = float64(*s.Pay)
		}
	}
	return v
}
