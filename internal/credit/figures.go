package credit

import "creditdash/internal/store"

// Figures are one account's numbers as every page, download and digest
// reads them: the ledger's, the team's known scores, and what follows.
type Figures struct {
	store.Account
	// Utilization is balance / limit (UtilOK false without a limit).
	Utilization float64
	UtilOK      bool
	// Band is the known Risk band (0 none), PD its probability, EL the
	// expected loss (ELOK false without a band).
	Band int
	PD   float64
	EL   float64
	ELOK bool
	Risk *store.KnownScore
	Pay  *store.KnownScore
	DBT  *store.KnownScore
	Z    *store.KnownScore
	// Calc is the calculator's answer with the saved inputs.
	Calc Limit
	// Implied is the calculator's result with the inputs saved for the
	// account (ImpliedOK false when none are saved or no cap applies).
	Implied   float64
	ImpliedOK bool
}

// InDefault reports an account whose business has a filing in force.
func (f Figures) InDefault() bool { return f.Account.Default.InForce() }

// DefaultLoss is the expected loss of an account in default: its exposure
// times the team's loss given default.
func DefaultLoss(balance, lgd float64) float64 { return Exposure(balance) * lgd }

// OverLimit reports a balance above a given limit.
func (f Figures) OverLimit() bool { return f.Account.Limit != nil && f.Balance > *f.Account.Limit }

// Linked reports an account linked to a service business.
func (f Figures) Linked() bool { return f.BusinessID != 0 }

// NewFigures works out an account's figures from its ledger line and the
// team's known scores of its business.
func NewFigures(a store.Account, known map[store.Score]store.KnownScore) Figures {
	f := Figures{Account: a}
	f.Utilization, f.UtilOK = Utilization(a.Balance, a.Limit)
	pick := func(s store.Score) *store.KnownScore {
		if k, ok := known[s]; ok {
			return &k
		}
		return nil
	}
	if a.BusinessID != 0 {
		f.Risk, f.Pay, f.DBT, f.Z = pick(store.ScoreRisk), pick(store.ScorePay), pick(store.ScoreDBT), pick(store.ScoreZ)
	}
	if f.Risk != nil {
		f.Band = Band(f.Risk.Value)
		f.PD, f.ELOK = PD(f.Band)
		f.EL = ExpectedLoss(a.Balance, f.PD)
	}
	if a.Default.InForce() {
		// A filing outweighs the band: the account is in default.
		f.PD, f.ELOK = 1, true
		f.EL = DefaultLoss(a.Balance, a.Default.LGD)
	}
	if in := a.Inputs; in != nil {
		var z *float64
		if f.Z != nil {
			z = &f.Z.Value
		}
		f.Calc = savedCalc(in, f.Band, z)
		f.Implied, f.ImpliedOK = f.Calc.Recommended, f.Calc.Available
	}
	return f
}

// savedCalc is the calculator's answer on saved inputs, with the Risk
// band and Z″ (nil unknown) known.
func savedCalc(in *store.LimitInputs, band int, z *float64) Limit {
	sheet := Cap{Name: "Balance-sheet cap", Rationale: "Skipped: the statements gave no figures when the inputs were saved."}
	if in.SheetCap != nil {
		sheet = Cap{Name: "Balance-sheet cap", Value: max(*in.SheetCap, 0), Available: true,
			Rationale: "As worked out from the statements when the inputs were saved."}
	}
	return Calculate(LimitInputs{MonthlySales: in.MonthlySales, MonthsAllowed: in.MonthsAllowed, LossBudget: in.LossBudget}, band, z, sheet)
}
