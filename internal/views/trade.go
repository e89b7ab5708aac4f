package views

import (
	"strings"

	"creditdash/internal/upstream"
)

// TradePage is /settings/trade-provider: the account's trade providers and
// a form to choose the one customer ids belong to.
type TradePage struct {
	Base
	Providers []TradeOption
	// Current names the chosen provider, "" when none is chosen.
	Current string
	// Error is the message of a refused choice, shown beside the form.
	Error   string
	Problem *Problem
	// Next is the page that asked for a provider: the form returns there.
	Next string
}

// TradeOption is one provider of the form.
type TradeOption struct {
	ID, Name string
	Current  bool
	// Checked preselects the option: the user's last pick, else the current one.
	Checked bool
}

// NewTradePage lists the providers; picked is what the user last sent ("" on
// a plain visit).
func NewTradePage(b Base, tp upstream.TradeProviders, picked string) TradePage {
	p := TradePage{Base: b}
	if picked == "" {
		picked = tp.Current
	}
	for _, pr := range tp.Providers {
		o := TradeOption{ID: pr.ID, Name: providerName(pr), Current: pr.ID == tp.Current, Checked: pr.ID == picked}
		if o.Current {
			p.Current = o.Name + " (" + pr.ID + ")"
		}
		p.Providers = append(p.Providers, o)
	}
	return p
}

func providerName(p upstream.TradeProvider) string {
	if n := strings.TrimSpace(p.Name); n != "" {
		return n
	}
	return p.ID
}

// HasProvider reports whether id is one of the account's providers.
func HasProvider(tp upstream.TradeProviders, id string) bool {
	for _, p := range tp.Providers {
		if p.ID == id {
			return true
		}
	}
	return false
}

// ChosenFlash is the confirmation after a choice, or "" when chosen is not
// the current provider (a stale or hand-made link confirms nothing).
func ChosenFlash(tp upstream.TradeProviders, chosen string) string {
	if chosen == "" || chosen != tp.Current {
		return ""
	}
	for _, p := range tp.Providers {
		if p.ID == chosen {
			return "Customer ids now belong to " + providerName(p) + " (" + p.ID + ")."
		}
	}
	return ""
}

// CheckProvider says what is wrong with a trade-provider choice, or "" when
// the account has the provider picked.
func CheckProvider(tp upstream.TradeProviders, picked string) string {
	switch {
	case len(tp.Providers) == 0:
		return "Your account has no trade providers to choose from."
	case picked == "":
		return "Choose one of the trade providers below."
	case !HasProvider(tp, picked):
		return "“" + Clip(picked, 64) + "” is not one of your account's trade providers; choose one below."
	}
	return ""
}
