package views

import (
	"math"
	"strconv"
	"strings"

	"creditdash/internal/upstream"
)

// StatementYear is the newest fiscal year among statements (their
// FiscalYear point, as a number or as text), 0 when none names one: what
// the team keeps so that a new statement year brings a review forward.
func StatementYear(stmts []upstream.AnnualFinancials) int {
	newest := 0
	for _, s := range stmts {
		dp, ok := s.Values[keyFiscalYear]
		if !ok {
			continue
		}
		y := 0
		switch {
		case dp.Value.OK && dp.Value.V == math.Trunc(dp.Value.V) && dp.Value.V >= 1900 && dp.Value.V <= 9999:
			y = int(dp.Value.V)
		case dp.Text != "":
			if n, err := strconv.Atoi(strings.TrimSpace(dp.Text)); err == nil && n >= 1900 && n <= 9999 {
				y = n
			}
		}
		newest = max(newest, y)
	}
	return newest
}
