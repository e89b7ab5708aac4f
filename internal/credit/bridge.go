package credit

import (
	"cmp"
	"slices"
)

// BridgeLine is one account in one ledger: its balance and its Risk band
// as of the ledger's date (0: no score known then).
type BridgeLine struct {
	Account string
	Name    string
	// BusinessID is the service business the account is linked to, 0 when
	// none: an account renumbered between the ledgers is the same customer.
	BusinessID int32
	Balance    float64
	Band       int
}

// Mover is one account's part in the change.
type Mover struct {
	Account string
	Name    string
	// Change is the account's change in expected loss, in cents; Cause
	// names the part it went to.
	Change int64
	Cause  string
}

// Bridge splits the change in total expected loss between two ledgers.
// Every figure is in cents, and each account's expected loss is rounded to
// cents before it is added, so the parts add up to the change exactly.
type Bridge struct {
	Old, New int64
	// Migration is band changes of accounts in both ledgers (at the new
	// balance); Exposure is their balance changes at the old band;
	// NewClosed is accounts only in one ledger; Coverage is accounts whose
	// score appeared or vanished between the two.
	Migration, Exposure, NewClosed, Coverage int64
	// Movers are the five accounts that moved it most.
	Movers []Mover
}

// Change is New − Old, which the four parts add up to.
func (b Bridge) Change() int64 { return b.New - b.Old }

// el is an account's expected loss in cents; no band counts as none.
func el(balance float64, band int) int64 {
	pd, ok := PD(band)
	if !ok {
		return 0
	}
	return Cents(ExpectedLoss(balance, pd))
}

// NewBridge compares the old ledger with the new one. An account is the
// same in both under the same account key or, when its key is in one
// ledger only, under another key of only one ledger linked to the same
// business: a customer renumbered in the ERP has neither opened nor
// closed an account.
func NewBridge(old, cur []BridgeLine) Bridge {
	var b Bridge
	before := make(map[string]BridgeLine, len(old))
	for _, l := range old {
		before[l.Account] = l
		b.Old += el(l.Balance, l.Band)
	}
	now := make(map[string]bool, len(cur))
	for _, n := range cur {
		now[n.Account] = true
	}
	// gone are the old accounts whose key the new ledger lacks, by business.
	gone := map[int32][]BridgeLine{}
	for _, o := range old {
		if !now[o.Account] && o.BusinessID != 0 {
			gone[o.BusinessID] = append(gone[o.BusinessID], o)
		}
	}
	seen := make(map[string]bool, len(cur))
	for _, n := range cur {
		seen[n.Account] = true
		b.New += el(n.Balance, n.Band)
		o, ok := before[n.Account]
		if g := gone[n.BusinessID]; !ok && n.BusinessID != 0 && len(g) > 0 {
			o, ok, gone[n.BusinessID] = g[0], true, g[1:]
			seen[o.Account] = true
		}
		m := Mover{Account: n.Account, Name: n.Name}
		switch {
		case !ok:
			m.Change, m.Cause = el(n.Balance, n.Band), "new account"
			b.NewClosed += m.Change
		case (o.Band == 0) != (n.Band == 0):
			m.Change = el(n.Balance, n.Band) - el(o.Balance, o.Band)
			m.Cause = "score appeared"
			if n.Band == 0 {
				m.Cause = "score vanished"
			}
			b.Coverage += m.Change
		default:
			mig := el(n.Balance, n.Band) - el(n.Balance, o.Band)
			exp := el(n.Balance, o.Band) - el(o.Balance, o.Band)
			b.Migration += mig
			b.Exposure += exp
			m.Change = mig + exp
			m.Cause = "balance"
			if abs(mig) > abs(exp) {
				m.Cause = "band"
			}
		}
		b.keepMover(m)
	}
	for _, o := range old {
		if !seen[o.Account] {
			m := Mover{Account: o.Account, Name: o.Name, Change: -el(o.Balance, o.Band), Cause: "closed account"}
			b.NewClosed += m.Change
			b.keepMover(m)
		}
	}
	return b
}

// keepMover puts m among the five movers when it moved the total more
// than one of them (ties by account number): a pass over the accounts
// instead of sorting 50,000 of them for five.
func (b *Bridge) keepMover(m Mover) {
	if m.Change == 0 {
		return
	}
	i, _ := slices.BinarySearchFunc(b.Movers, m, func(x, y Mover) int {
		return cmp.Or(cmp.Compare(abs(y.Change), abs(x.Change)), cmp.Compare(x.Account, y.Account))
	})
	if i >= 5 {
		return
	}
	if len(b.Movers) == 5 {
		b.Movers = b.Movers[:4]
	}
	b.Movers = slices.Insert(b.Movers, i, m)
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
