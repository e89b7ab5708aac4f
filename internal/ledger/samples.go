package ledger

import (
	"embed"
	"errors"
)

// samples are the demo portfolio's ledgers the product ships, which the
// import page offers in demo mode (the test beside it makes them from the
// demo data).
//
//go:embed samples/*.csv
var samples embed.FS

// The sample ledgers: this quarter's, and one three months older, so the
// expected-loss bridge and limit drift have two dates to compare.
const (
	SampleCurrent = "demo-ledger-current.csv"
	SampleOlder   = "demo-ledger-3-months-earlier.csv"
)

// Sample is a sample ledger's bytes.
func Sample(name string) ([]byte, error) {
	if name != SampleCurrent && name != SampleOlder {
		return nil, errors.New("ledger: no such sample")
	}
	return samples.ReadFile("samples/" + name)
}
