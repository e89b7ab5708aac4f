package credit

import "creditdash/internal/store"

// AccountFires decides whether a rule on the team's accounts fires on one
// account's figures; a rule of any other scope never does.
func AccountFires(r store.RuleSpec, f Figures) bool {
	if r.Scope != store.ScopeAccounts {
		return false
	}
	switch r.Condition {
	case store.OverLimit:
		return f.OverLimit()
	case store.Over90Above:
		// A credit balance (zero or below) owes nothing overdue.
		return f.Balance > 0 && f.DaysOver90/f.Balance*100 > r.Threshold
	case store.UtilAbove:
		return f.UtilOK && f.Utilization*100 > r.Threshold
	}
	return false
}
