package validation

import (
	"context"
	"errors"
	"strconv"

	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// Scorecard names the scorecard a run validated: a version of the team's
// policy, or the starting scorecard when none is in force.
type Scorecard struct {
	// Version is the policy's version number, 0 for the starting
	// scorecard.
	Version int
	// Active says the version is the one in force.
	Active bool
	// Policy is the version's policy (policy.Starting for the starting
	// scorecard): its scorecard is validated, its limit rules replayed.
	Policy policy.Policy
}

// Label is the scorecard's name on the page.
func (s Scorecard) Label() string {
	switch {
	case s.Version == 0:
		return "Starting scorecard (no version in force)"
	case s.Active:
		return "Team scorecard (version " + strconv.Itoa(s.Version) + ", in force)"
	}
	return "Team scorecard (version " + strconv.Itoa(s.Version) + ", not in force)"
}

// Run is one validation of the team's history: what was read and what
// came of it. It is shared by every page that asks at the same team
// version: read it, never change it.
type Run struct {
	// History is nil when the team has no ledger.
	History   *History
	Scorecard Scorecard
	// Report is nil when the history is too short (policy.ErrShortHistory).
	Report *policy.Report
	// Versions are the numbers of the team's saved versions, newest first,
	// so the page can offer each for validation.
	Versions []int
	// Replay is every past approved limit decision put through the
	// policy (policy.Replay), on the calculator's figures of its day
	// rebuilt from the inputs saved by then and the scores known then,
	// oldest first; Decisions how many the team made; LGD the team's loss
	// given default it used.
	Replay    []policy.Replayed
	Decisions int
	LGD       float64
}

// ErrNoVersion: the team saved no version of that number.
var ErrNoVersion = errors.New("validation: the team has no version of its policy of that number")

// chooseScorecard is version's scorecard (0: the one in force, else the
// starting one) and the team's version numbers.
func chooseScorecard(ctx context.Context, st *store.Store, a store.Analyst, version int) (Scorecard, []int, error) {
	vs, err := st.Policies(ctx, a)
	if err != nil {
		return Scorecard{}, nil, err
	}
	numbers := make([]int, len(vs))
	for i, v := range vs {
		numbers[i] = v.Version
	}
	for _, v := range vs {
		if version == 0 && v.Active || version != 0 && v.Version == version {
			p, err := policy.Parse(v.Body)
			if err != nil {
				return Scorecard{}, nil, err
			}
			return Scorecard{Version: v.Version, Active: v.Active, Policy: p}, numbers, nil
		}
	}
	if version != 0 {
		return Scorecard{}, nil, ErrNoVersion
	}
	return Scorecard{Policy: policy.Starting()}, numbers, nil
}

// Models are the three models side by side: the scorecard, the Risk score
// alone, the Pay score alone.
func Models(s Scorecard) []policy.Model {
	return []policy.Model{
		s.Policy.Scorecard.Model("scorecard", s.Label()),
		policy.ScoreModel("risk", "Risk score alone", policy.FactorRisk),
		policy.ScoreModel("pay", "Pay score alone", policy.FactorPay),
	}
}

// Validate reads the team's history and validates version's scorecard (0:
// the one in force, else the starting one) beside the Risk and Pay scores
// alone, against the version's own default definition (the team's share
// is part of the policy validated).
func Validate(ctx context.Context, st *store.Store, a store.Analyst, version int) (*Run, error) {
	sc, numbers, err := chooseScorecard(ctx, st, a, version)
	if err != nil {
		return nil, err
	}
	def := sc.Policy.Definition()
	run := &Run{Scorecard: sc, Versions: numbers}
	var limits *limitBook
	if run.History, limits, err = readHistory(ctx, st, a); err != nil || run.History == nil {
		return run, err
	}
	run.Report, err = policy.Validate(run.History.History, def, Models(sc))
	if errors.Is(err, policy.ErrShortHistory) {
		return run, nil
	}
	if err != nil {
		return run, err
	}
	if run.LGD, err = st.LGD(ctx, a); err != nil {
		return run, err
	}
	ds := limits.decisions(run.History.Months)
	run.Decisions = len(ds)
	run.Replay, err = policy.Replay(run.History.History, def, &sc.Policy, run.Report.Results[0].Classes, run.LGD, ds, limits.figuresAt())
	return run, err
}

// Weight is about the bytes a run holds, for the team's cache: its
// history's lines and each model's observations.
func (r *Run) Weight() int {
	n := 256
	if r.History != nil {
		n += len(r.History.Accounts)*24 + len(r.History.Business)*4 + len(r.History.Filed)*8
		for _, ls := range r.History.Lines {
			n += len(ls) * 72
		}
	}
	if r.Report != nil {
		for _, res := range r.Report.Results {
			n += len(res.Obs)*12 + len(res.Classes)*40
		}
	}
	n += len(r.Replay) * 128
	return n
}
