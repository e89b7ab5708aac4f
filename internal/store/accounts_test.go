package store

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// date is a ledger date for tests.
func date(s string) time.Time {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// sortedAccounts orders Accounts' answer by account number, as the
// handlers do.
func sortedAccounts(list []Account, err error) ([]Account, error) {
	slices.SortFunc(list, func(a, b Account) int { return strings.Compare(a.Account, b.Account) })
	return list, err
}

// line is a ledger line with its balance all current.
func line(account string, business int32, balance float64) LedgerLine {
	return LedgerLine{Account: account, Name: "Name " + account, BusinessID: business, Balance: balance, Current: balance,
		ERPLimit: ptr(2 * balance), Terms: ptr(30), Owner: "alice"}
}

// TestAccountsAreTheTeams: an import by one analyst is seen by another of
// the same service and by no one of another service; it is logged with
// who imported it.
func TestAccountsAreTheTeams(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		rec, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "aging.csv", Skipped: 2,
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 0, 500)}})
		must(t, err)
		if rec.Imported != 2 || rec.Skipped != 2 || rec.Replaced || rec.By != "alice" {
			t.Errorf("import record = %+v", rec)
		}
		for _, a := range []Analyst{alice, bob} {
			list, err := sortedAccounts(s.Accounts(ctx, a, ""))
			must(t, err)
			if len(list) != 2 || list[0].Account != "A-1" || list[0].BusinessID != 1001 || list[0].Limit != nil ||
				*list[0].ERPLimit != 2000 || !list[0].ERPDiffers() || list[0].AsOf != "2026-10-31" {
				t.Fatalf("%s: Accounts = %+v", a.User, list)
			}
			got, err := s.Import(ctx, a, rec.ID)
			must(t, err)
			if got.File != "aging.csv" || got.By != "alice" || got.Imported != 2 {
				t.Errorf("%s: Import = %+v", a.User, got)
			}
		}
		list, err := sortedAccounts(s.Accounts(ctx, aliceElse, ""))
		must(t, err)
		if len(list) != 0 {
			t.Errorf("another service's analyst sees %d accounts", len(list))
		}
		// The team's data outlives the workspace of the analyst who imported.
		must(t, s.DeleteAnalyst(ctx, alice))
		if list, _ := s.Accounts(ctx, bob, ""); len(list) != 2 {
			t.Errorf("after alice deleted her workspace bob sees %d accounts, want 2", len(list))
		}
		_, err = s.Import(ctx, aliceElse, rec.ID)
		wantErr(t, "another team's import", err, ErrNotFound)
	})
}

// TestLedgerDates: re-importing a date replaces it; an older ledger
// imported later keeps the newer names; past MaxLedgers the oldest dates
// go and the import says which; the accounts stay in the record.
func TestLedgerDates(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
		must(t, err)
		again := line("A-1", 1001, 700)
		again.Name = "Renamed"
		rec, err := s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{again, line("A-3", 1003, 10)}})
		must(t, err)
		if !rec.Replaced {
			t.Error("a second import of a date does not say it replaced the first")
		}
		older := line("A-1", 1001, 300)
		older.Name = "Old name"
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-07-31"), Lines: []LedgerLine{older, line("A-9", 1009, 5)}})
		must(t, err)
		list, err := sortedAccounts(s.Accounts(ctx, alice, ""))
		must(t, err)
		if len(list) != 3 || list[0].Balance != 700 || list[0].Name != "Renamed" || list[2].Account != "A-9" ||
			list[2].InLedger() || list[2].Balance != 0 {
			t.Fatalf("record = %+v, want A-1 at 700 named Renamed, A-3, and A-9 (July only) owing nothing as of October", list)
		}
		old, err := sortedAccounts(s.Accounts(ctx, alice, "2026-07-31"))
		must(t, err)
		if len(old) != 2 || old[0].Balance != 300 || old[0].Name != "Renamed" {
			t.Fatalf("July ledger = %+v, want A-1 at 300 (names are the newest)", old)
		}
		// The bridge's light read of a ledger says the same of each line.
		bals, err := s.LedgerBalances(ctx, bob, "2026-07-31")
		must(t, err)
		slices.SortFunc(bals, func(a, b LedgerBalance) int { return strings.Compare(a.Account, b.Account) })
		want := []LedgerBalance{{Account: "A-1", Name: "Renamed", BusinessID: 1001, Balance: 300}, {Account: "A-9", Name: "Name A-9", BusinessID: 1009, Balance: 5}}
		if !slices.Equal(bals, want) {
			t.Errorf("LedgerBalances(July) = %+v, want %+v", bals, want)
		}
		if bals, err := s.LedgerBalances(ctx, bob, ""); err != nil || len(bals) != 2 || bals[0].Balance+bals[1].Balance != 710 {
			t.Errorf("LedgerBalances(newest) = %+v, %v; want A-1 at 700 and A-3 at 10", bals, err)
		}
		if bals, err := s.LedgerBalances(ctx, aliceElse, "2026-07-31"); err != nil || len(bals) != 0 {
			t.Errorf("another service's analyst reads %d lines (%v)", len(bals), err)
		}
		// 35 later months: the July ledger is the oldest of 37 and goes;
		// the account only it held stays in the record.
		start := date("2026-11-30")
		var last ImportRecord
		for i := range 35 {
			d := start.AddDate(0, i, 0)
			last, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: d, Lines: []LedgerLine{line("A-1", 1001, float64(i))}})
			must(t, err)
		}
		dates, err := s.LedgerDates(ctx, alice)
		must(t, err)
		if len(dates) != MaxLedgers || dates[len(dates)-1] != "2026-10-31" {
			t.Fatalf("%d ledger dates, oldest %v; want %d, oldest 2026-10-31", len(dates), dates[len(dates)-1], MaxLedgers)
		}
		if len(last.Dropped) != 1 || last.Dropped[0] != "2026-07-31" {
			t.Error("the import past the bound does not say which dates it dropped")
		}
		if n := countWhere(t, s, "team_accounts", "account = 'A-9'"); n != 1 {
			t.Errorf("account A-9, in no kept ledger, left the record (%d)", n)
		}
	})
}

// countWhere counts rows of a team table.
func countWhere(t *testing.T, s *Store, table, cond string) int {
	t.Helper()
	var n int
	must(t, s.r.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+table+" WHERE "+cond).Scan(&n))
	return n
}

// TestImportRefusesBadLines: every refused line names its field, and
// nothing is written.
func TestImportRefusesBadLines(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		bad := func(f func(l *LedgerLine)) []LedgerLine {
			l := line("A-1", 1001, 100)
			f(&l)
			return []LedgerLine{line("A-0", 1000, 1), l}
		}
		for _, c := range []struct {
			field string
			lines []LedgerLine
		}{
			{"balance", bad(func(l *LedgerLine) { l.Balance = math.NaN() })},
			{"days_over_90", bad(func(l *LedgerLine) { l.DaysOver90 = math.Inf(1) })},
			{"balance", bad(func(l *LedgerLine) { l.Balance = 2e13 })},
			{"credit_limit", bad(func(l *LedgerLine) { l.ERPLimit = ptr(-1.0) })},
			{"terms_days", bad(func(l *LedgerLine) { l.Terms = ptr(-5) })},
			{"account", bad(func(l *LedgerLine) { l.Account = " " })},
			{"account", bad(func(l *LedgerLine) { l.Account = "A-0" })},
		} {
			_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: c.lines})
			wantInvalid(t, c.field, err, c.field)
		}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{Lines: []LedgerLine{line("A-1", 1, 1)}})
		wantInvalid(t, "no date", err, "as_of")
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: make([]LedgerLine, MaxAccounts+1)})
		wantErr(t, "too many", err, ErrAccountsFull)
		if n := countWhere(t, s, "ledgers", "1 = 1"); n != 0 {
			t.Errorf("%d ledgers after refused imports", n)
		}
		// A credit balance is a negative balance, and is kept.
		credit := line("A-5", 1005, -250)
		credit.ERPLimit = ptr(0.0)
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{credit}})
		must(t, err)
	})
}

// TestLimitInputsAndLinks: inputs are saved per account and read with it;
// a resolution links only an unlinked account, and survives a newer
// ledger with the same identifiers.
func TestLimitInputsAndLinks(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		cust := line("C-1", 0, 100)
		cust.CustomerID = "C1-1002"
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), Lines: []LedgerLine{line("A-1", 1001, 1000), cust}})
		must(t, err)
		must(t, s.SaveLimitInputs(ctx, bob, "A-1", LimitInputs{MonthlySales: 5000, MonthsAllowed: 2, LossBudget: 100, SheetCap: ptr(-3.0)}))
		wantErr(t, "unknown account", s.SaveLimitInputs(ctx, bob, "nope", LimitInputs{}), ErrNotFound)
		wantErr(t, "another team", s.SaveLimitInputs(ctx, aliceElse, "A-1", LimitInputs{}), ErrNotFound)
		wantInvalid(t, "negative", s.SaveLimitInputs(ctx, bob, "A-1", LimitInputs{LossBudget: -1}), "loss_budget")
		unl, err := s.Unlinked(ctx, alice, 10)
		must(t, err)
		if len(unl) != 1 || unl[0].Account != "C-1" {
			t.Fatalf("Unlinked = %+v, want C-1", unl)
		}
		must(t, s.LinkAccount(ctx, alice, "C-1", 1002))
		must(t, s.LinkAccount(ctx, alice, "A-1", 1999)) // already linked: kept
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 900), cust}})
		must(t, err)
		list, err := sortedAccounts(s.Accounts(ctx, alice, ""))
		must(t, err)
		if list[0].BusinessID != 1001 || list[0].Inputs == nil || list[0].Inputs.MonthlySales != 5000 || list[0].Inputs.SavedBy != "bob" || *list[0].Inputs.SheetCap != -3 {
			t.Errorf("A-1 = %+v (inputs %+v)", list[0], list[0].Inputs)
		}
		if list[1].BusinessID != 1002 {
			t.Errorf("C-1 linked to %d after a newer ledger, want 1002 kept", list[1].BusinessID)
		}
		mine, err := s.AccountsOfBusiness(ctx, bob, 1002)
		must(t, err)
		if len(mine) != 1 || mine[0].Account != "C-1" {
			t.Errorf("AccountsOfBusiness(1002) = %+v", mine)
		}
	})
}

// TestTeamScores: scores are kept only for linked businesses, a newer
// month replaces, the same copy again writes nothing, and Risk by month
// answers the band at a date.
func TestTeamScores(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		at := time.Date(2026, 10, 5, 0, 0, 0, 0, time.UTC)
		kept, err := s.RecordScores(ctx, alice, Observation{BusinessID: 1001, Latest: map[Score]KnownScore{ScoreRisk: {Value: 3, Month: 202610, Fetched: at}}})
		must(t, err)
		if kept {
			t.Error("RecordScores says it kept scores of a business no account links to")
		}
		if n := countWhere(t, s, "team_scores", "1 = 1"); n != 0 {
			t.Fatalf("%d scores kept for a business no account links to", n)
		}
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
		must(t, err)
		risk := []ScoreMonth{{202607, 6}, {202608, 5}, {202610, 3}}
		if kept, err := s.RecordScores(ctx, bob, Observation{BusinessID: 1001, Latest: map[Score]KnownScore{ScoreRisk: {Value: 3, Month: 202610, Fetched: at},
			ScoreZ: {Value: -0.5, Month: 202609, Fetched: at}}, Risk: risk, Name: "Harbor", NAICS: "445110", NAICSTitle: "Supermarkets", Fetched: at}); !kept || err != nil {
			t.Fatalf("RecordScores of a linked business: kept %v, err %v", kept, err)
		}
		_, err = s.RecordScores(ctx, bob, Observation{BusinessID: 1001, Latest: map[Score]KnownScore{ScoreRisk: {Value: 9, Month: 202609, Fetched: at.Add(time.Hour)}}})
		must(t, err)
		known, err := s.KnownScores(ctx, alice)
		must(t, err)
		if k := known[1001][ScoreRisk]; k.Value != 3 || k.Month != 202610 || !k.Fetched.Equal(at) {
			t.Errorf("Risk = %+v, want 3 of 202610 (an older month does not replace)", k)
		}
		if k := known[1001][ScoreZ]; k.Value != -0.5 {
			t.Errorf("Z = %+v", k)
		}
		asOf, err := s.RiskAsOf(ctx, alice, 202609)
		must(t, err)
		if asOf[1001] != 5 {
			t.Errorf("Risk as of 202609 = %v, want 5 (August's)", asOf[1001])
		}
		months, err := s.RiskMonths(ctx, alice, 1001)
		must(t, err)
		if len(months) != 3 || months[0].Month != 202607 {
			t.Errorf("RiskMonths = %+v", months)
		}
		tb, err := s.TeamBusinesses(ctx, bob)
		must(t, err)
		if tb[1001].NAICS != "445110" || tb[1001].Name != "Harbor" {
			t.Errorf("TeamBusinesses = %+v", tb)
		}
		other, err := s.KnownScores(ctx, aliceElse)
		must(t, err)
		if len(other) != 0 {
			t.Errorf("another service sees %d businesses' scores", len(other))
		}
		_, err = s.RecordScores(ctx, alice, Observation{BusinessID: 1001, Latest: map[Score]KnownScore{ScoreRisk: {Value: 3, Month: 202613}}})
		wantInvalid(t, "bad month", err, "score")
	})
}
