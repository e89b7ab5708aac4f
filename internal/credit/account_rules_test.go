package credit

import (
	"testing"

	"creditdash/internal/store"
)

func TestAccountFires(t *testing.T) {
	limit := func(v float64) *float64 { return &v }
	acct := func(balance, over90 float64, lim *float64) Figures {
		line := store.LedgerLine{Account: "C-1001", Name: "Acme Tools Ltd", Balance: balance, Current: balance - over90, DaysOver90: over90}
		return NewFigures(store.Account{LedgerLine: line, Limit: lim, AsOf: "2026-10-31"}, nil)
	}
	rule := func(c store.Condition, t float64) store.RuleSpec {
		return store.RuleSpec{Scope: store.ScopeAccounts, Condition: c, Threshold: t}
	}
	for _, tc := range []struct {
		name string
		r    store.RuleSpec
		f    Figures
		want bool
	}{
		{"over its limit", rule(store.OverLimit, 0), acct(60000, 0, limit(50000)), true},
		{"at its limit", rule(store.OverLimit, 0), acct(50000, 0, limit(50000)), false},
		{"no limit in force", rule(store.OverLimit, 0), acct(60000, 0, nil), false},
		{"over 90 above 20%", rule(store.Over90Above, 20), acct(10000, 2500, limit(50000)), true},
		{"over 90 exactly 20%", rule(store.Over90Above, 20), acct(10000, 2000, limit(50000)), false},
		{"credit balance", rule(store.Over90Above, 0), acct(-500, 0, limit(50000)), false},
		{"utilisation above 80%", rule(store.UtilAbove, 80), acct(45000, 0, limit(50000)), true},
		{"utilisation below 80%", rule(store.UtilAbove, 80), acct(35000, 0, limit(50000)), false},
		{"utilisation without a limit", rule(store.UtilAbove, 0), acct(35000, 0, nil), false},
		{"a portfolio rule", store.RuleSpec{Scope: store.ScopePortfolio, Condition: store.OverLimit}, acct(60000, 0, limit(50000)), false},
	} {
		if got := AccountFires(tc.r, tc.f); got != tc.want {
			t.Errorf("%s: AccountFires = %v, want %v", tc.name, got, tc.want)
		}
	}
}
