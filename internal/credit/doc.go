// Package credit is the team's domain: the rules that decide, pure and
// without I/O, so that pages, alerts, digests and jobs decide alike.
//
// It decides
//   - what a score means: its zone, how it is rounded when compared, and
//     a series' latest value and the one before it (zones.go, series.go);
//   - when an analyst's alert rule fires, and when a supplier category's
//     DBT diverges from the overall DBT (rules.go, divergence.go);
//   - what a report tells the team: the known scores kept for accounts
//     and the readings remembered as seen (observe.go);
//   - an account's figures: probability of default by Risk band, expected
//     loss, utilization, the limit calculator and its implied limit
//     (pd.go, limit.go, figures.go);
//   - which limits drift from what the calculator implies, the exposure
//     breakdowns and the expected-loss bridge (drift.go, exposure.go,
//     bridge.go);
//   - when an account is next reviewed and why it is on the worklist
//     (review.go, worklist.go);
//   - which linked businesses an analyst's hourly requests are best spent
//     refreshing, and how much of the exposure has fresh scores
//     (refresh_plan.go).
//
// It shapes nothing: labels, formats and charts belong to internal/views,
// which imports this package, never the other way round.
package credit
