package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// A rule on the whole portfolio is checked against the home page's Pay and
// Z″ histories only, so one on Risk or DBT could never fire: the form
// refuses it with a reason, keeps what was chosen and typed, and stores
// nothing; the same rule on one business, or a portfolio rule on Pay or
// Z″, is taken.
func TestWorkspacePortfolioRuleOnlyOnPayOrZ(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		for _, c := range []struct{ score, condition, threshold string }{
			{"risk", "below", "5"},
			{"dbt", "above", "60"},
			{"risk", "worse_zone", ""},
			{"dbt", "fall", "10"},
		} {
			p := u.post("/alerts/rules", "scope", "portfolio", "business", "", "score", c.score,
				"condition", c.condition, "threshold", c.threshold)
			what := "portfolio " + c.score + " " + c.condition
			if p.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s: status = %d, want 422", what, p.Status)
				continue
			}
			msg := p.Text(".rule-form .form-error")
			if !strings.Contains(msg, "Pay") || !strings.Contains(msg, "Z″") || !strings.Contains(msg, "one business") {
				t.Errorf("%s: message %q does not say portfolio rules watch Pay or Z″ and Risk or DBT needs one business", what, msg)
			}
			for sel, want := range map[string]string{
				"#rule-scope option[selected]":     "portfolio",
				"#rule-score option[selected]":     c.score,
				"#rule-condition option[selected]": c.condition,
			} {
				if got, _ := p.Doc.Find(sel).Attr("value"); got != want {
					t.Errorf("%s: %s = %q, want %q kept", what, sel, got, want)
				}
			}
			if v, _ := p.Doc.Find("#rule-threshold").Attr("value"); v != c.threshold {
				t.Errorf("%s: threshold field = %q, want %q kept", what, v, c.threshold)
			}
		}
		if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
			t.Fatalf("refused portfolio rules were stored: %d", n)
		}

		// What is allowed still is.
		mustRedirect(t, "Risk below 5 on one business", u.post("/alerts/rules", "scope", "business", "business", "1001",
			"score", "risk", "condition", "below", "threshold", "5"))
		mustRedirect(t, "Pay below 4 on the portfolio", u.post("/alerts/rules", "scope", "portfolio",
			"score", "pay", "condition", "below", "threshold", "4"))
		mustRedirect(t, "Z″ worse zone on the portfolio", u.post("/alerts/rules", "scope", "portfolio",
			"score", "z", "condition", "worse_zone"))
		rules := u.Get("/alerts").Text("ul.rules")
		for _, want := range []string{"Risk below 5 on", "Pay below 4 anywhere in the portfolio", "Z″ enters a worse zone anywhere in the portfolio"} {
			if !strings.Contains(rules, want) {
				t.Errorf("rules %q lack %q", rules, want)
			}
		}
	})
}
