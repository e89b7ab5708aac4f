package upstream

import (
	"context"
	"strconv"
)

// PeerQuery chooses the period and the peers of PeerAnalysis; zero fields
// are left out, so the service's defaults apply: the latest year with
// statements, quarter 4, peers sharing the business's main SIC code.
type PeerQuery struct {
	Year    int // 0: the latest year with statements
	Quarter int // 1-4; 0: the service's default (4)
	// SICCode is a four-digit SIC code to compare against instead of the
	// business's main one.
	SICCode string
	// SICPrimary matches peers by their main SIC code only, not any code.
	SICPrimary bool
	// FolderID keeps only peers in this folder of the portfolio.
	FolderID int
	// TargetCountry keeps only peers in this country (two letters).
	TargetCountry string
	// RiskLevel, ZScore, PayScore and DBT are filter codes (see RiskLevelAny
	// and the constants beside it in contract.go).
	RiskLevel, ZScore, PayScore, DBT string
}

// PeerAnalysis benchmarks a business's financial ratios against its
// industry peers. A business without statements has PeerCount 0 and no
// ratios; bad filter values are an ErrBadRequest.
func (u *User) PeerAnalysis(ctx context.Context, ref BusinessRef, pq PeerQuery) (PeerAnalysis, error) {
	cl, err := businessCall("Business/PeerAnalysis", pathPeerAnalysis, ref, 11)
	if err != nil {
		return PeerAnalysis{}, err
	}
	q := &cl.query
	setInt := func(name string, n int) {
		if n != 0 {
			q.Set(name, strconv.Itoa(n))
		}
	}
	setText := func(name, s string) {
		if s != "" {
			q.Set(name, s)
		}
	}
	setInt(paramYear, pq.Year)
	setInt(paramQuarter, pq.Quarter)
	setInt(paramFolderID, pq.FolderID)
	setText(paramSICCode, pq.SICCode)
	if pq.SICPrimary {
		q.Set(paramSICPrimary, sicPrimaryYes)
	}
	setText(paramTargetCountry, pq.TargetCountry)
	setText(paramRiskLevelFilter, pq.RiskLevel)
	setText(paramZScoreFilter, pq.ZScore)
	setText(paramPayScoreFilter, pq.PayScore)
	setText(paramDBTFilter, pq.DBT)
	var out PeerAnalysis
	if err := u.do(ctx, cl, &out); err != nil {
		return PeerAnalysis{}, err
	}
	if out.Ratios == nil {
		out.Ratios = []PeerRatio{}
	}
	return out, nil
}
