package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"creditdash/internal/figures"
)

// overviewOps are the operations the overview tab shows: the header's two
// and its own three.
var overviewOps = []string{
	"/v1/Business/IdentificationGroup",
	"/v1/Business/NAICSCodes",
	"/v1/Business/Summary",
	"/v1/Business/CreditScoreHistory",
	"/v1/Business/RiskHistory",
}

// tabOps are the operations of all four tabs of one business together.
var tabOps = append(slices.Clone(overviewOps),
	"/v1/Business/PaymentSummary/Monthly",
	"/v1/Business/PaymentSummary/SIC",
	"/v1/Business/LatestAnnualStatements",
	"/v1/Business/WordFill",
	"/v1/Business/PeerAnalysis",
	"/v1/Business/Officers",
)

// tabPaths are the four tabs of the report.
var tabPaths = []string{reportPath, reportPath + "/payments", reportPath + "/financials", reportPath + "/officers"}

// serviceCalls measures figure 3 from the stand-in's counters of the demo
// user, reset after sign-in so that only the pages' calls count. Each cold
// measure gets a new dashboard; the warm one follows the cold overview in
// the same dashboard.
func (l *lab) serviceCalls(ctx context.Context) {
	err := l.withDashboard(ctx, "", func(web *figures.Child) error {
		b := newBrowser(web.URL, 1)
		if err := b.signIn(ctx, demoUser, demoPassword); err != nil {
			return err
		}
		cold, err := l.countCalls(ctx, b, reportPath)
		if err != nil {
			return err
		}
		l.checkOnce(3, "service calls: overview cold", cold, overviewOps)
		warm, err := l.countCalls(ctx, b, reportPath)
		if err != nil {
			return err
		}
		n := total(warm)
		l.rep.Check(3, "service calls: overview warm", fmt.Sprint(n), "0", n == 0)
		if n != 0 {
			l.rep.Note(3, "overview warm called %s", describe(warm))
		}
		return nil
	})
	if err != nil {
		l.rep.Broken(3, "service calls: overview", err)
	}
	err = l.withDashboard(ctx, "", func(web *figures.Child) error {
		b := newBrowser(web.URL, 1)
		if err := b.signIn(ctx, demoUser, demoPassword); err != nil {
			return err
		}
		tabs, err := l.countCalls(ctx, b, tabPaths...)
		if err != nil {
			return err
		}
		l.checkOnce(3, "service calls: four tabs cold", tabs, tabOps)
		return nil
	})
	if err != nil {
		l.rep.Broken(3, "service calls: four tabs", err)
	}
	l.rep.Note(3, "counted by the stand-in for user %s, reset after sign-in; the overview shows %s; the four tabs (opened one after another) add %s",
		demoUser, shortNames(overviewOps), shortNames(tabOps[len(overviewOps):]))
}

// countCalls resets the counters, opens the pages in turn and returns what
// the demo user's visits cost the service.
func (l *lab) countCalls(ctx context.Context, b *browser, paths ...string) (map[string]int, error) {
	if err := l.sim.Reset(ctx); err != nil {
		return nil, err
	}
	for _, p := range paths {
		if _, err := b.getOK(ctx, p, true); err != nil {
			return nil, err
		}
	}
	all, err := l.sim.Requests(ctx)
	if all[demoUser] == nil {
		return map[string]int{}, err
	}
	return all[demoUser], err
}

// checkOnce adds a line: want, each called exactly once, and nothing else.
func (l *lab) checkOnce(fig int, what string, got map[string]int, want []string) {
	ok := len(got) == len(want)
	for _, op := range want {
		ok = ok && got[op] == 1
	}
	target := fmt.Sprintf("%d (each op once)", len(want))
	l.rep.Check(fig, what, fmt.Sprint(total(got)), target, ok)
	if !ok {
		l.rep.Note(fig, "%s called %s; want once each: %s", what, describe(got), shortNames(want))
	}
}

func total(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// describe lists per-path counts, e.g. "NAICSCodes×4, Summary×1".
func describe(counts map[string]int) string {
	if len(counts) == 0 {
		return "nothing"
	}
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s×%d", short(p), counts[p]))
	}
	return strings.Join(parts, ", ")
}

func shortNames(ops []string) string {
	var out []string
	for _, op := range ops {
		out = append(out, short(op))
	}
	return strings.Join(out, ", ")
}

// short drops the common prefix of business operations.
func short(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, "/v1/Business/"), "/v1/")
}
