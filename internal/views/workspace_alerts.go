package views

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// AlertsPage lists the rules, the form for a new one and triggered alerts.
type AlertsPage struct {
	Base
	Form   RuleForm
	Rules  []RuleRow
	Alerts []AlertRow
	Unread int
	// NewestShown is when the newest alert listed fired (microseconds),
	// for "Mark all read" to stop there; More says older ones are not listed.
	NewestShown string
	More        bool
}

// RuleForm is the new-rule form with what the analyst chose.
type RuleForm struct {
	Scope, Business, Folder, Score, Condition, Threshold string
	// Category and Steady are a divergence rule's supplier SIC code (blank:
	// the analyst's own) and the most the overall DBT may move.
	Category, Steady string
	Error            string
	// Editing is the id of the rule being changed; "" for a new rule.
	Editing string
	// For names the business an "Alert me" came from, for the legend.
	For string
	// Folders are the analyst's folders to choose from; none when they
	// are not loaded, and the form then takes a folder's id.
	Folders []FolderOption
	// FoldersProblem tells why the folders are not listed (left unloaded
	// to save requests, or the service failed).
	FoldersProblem *Problem
}

// FolderOption is one of the analyst's folders in the rule form.
type FolderOption struct {
	ID, Name string
}

// RuleFolders lists the folders the rule form offers, in the service's
// order (the order /portfolio shows).
func RuleFolders(folders []upstream.Folder) []FolderOption {
	out := make([]FolderOption, 0, len(folders))
	for _, f := range folders {
		out = append(out, FolderOption{ID: strconv.Itoa(f.FolderID), Name: folderName(f)})
	}
	return out
}

// FoldersOf maps each business of the portfolio to the folders holding
// it, from the portfolio's memberships (one entry per business and
// folder), so a folder rule knows whom it watches.
func FoldersOf(members []upstream.PortfolioBusiness) map[int32][]int {
	out := make(map[int32][]int, len(members))
	for _, m := range members {
		if !slices.Contains(out[m.BusinessID], m.FolderID) {
			out[m.BusinessID] = append(out[m.BusinessID], m.FolderID)
		}
	}
	return out
}

// RuleRow is one stored rule.
type RuleRow struct {
	ID   string
	Text string
}

// DeleteAction is the rule's delete form's target.
func (r RuleRow) DeleteAction() string { return "/alerts/rules/" + r.ID + "/delete" }

// AlertRow is one triggered alert.
type AlertRow struct {
	ID        string
	Business  string
	URL       string
	Rule      string
	Month     string
	Old, New  string
	NewZone   Zone
	Triggered string
	Unread    bool
}

// ReadAction is the alert's mark-read form's target.
func (a AlertRow) ReadAction() string { return "/alerts/" + a.ID + "/read" }

// RuleText describes a rule in words: "Risk below 3 on Acme Inc".
func RuleText(r store.RuleSpec) string {
	var what string
	switch r.Condition {
	case store.Below:
		what = r.Score.Name() + " below " + formatScore(r.Score, r.Threshold)
	case store.Above:
		what = r.Score.Name() + " above " + formatScore(r.Score, r.Threshold)
	case store.Fall:
		// Worse, as the form says: DBT worsens upwards, the others down.
		n := formatScore(r.Score, r.Threshold)
		unit := "points"
		if r.Score == store.ScoreDBT {
			unit = "days"
		}
		if n == "1" {
			unit = strings.TrimSuffix(unit, "s") // "1 point", "1 day"
		}
		what = r.Score.Name() + " worsens by at least " + n + " " + unit + " in a month"
	case store.WorseZone:
		what = r.Score.Name() + " enters a worse zone"
	case store.Divergence:
		what = divergenceText(r)
	}
	if r.Scope == store.ScopeAccounts {
		return AccountRuleText(r) + " on any of the team's accounts"
	}
	switch r.Scope {
	case store.ScopeBusiness:
		name := r.TargetName
		if name == "" {
			name = "business " + strconv.FormatInt(int64(r.BusinessID), 10)
		}
		return what + " on " + name
	case store.ScopeFolder:
		name := r.TargetName
		if name == "" {
			name = strconv.Itoa(r.FolderID)
		}
		return what + " in folder " + name
	}
	return what + " anywhere in the portfolio"
}

// AccountRuleText words the condition of a rule on the team's accounts.
func AccountRuleText(r store.RuleSpec) string {
	pct := strconv.FormatFloat(r.Threshold, 'f', -1, 64) + " %"
	switch r.Condition {
	case store.OverLimit:
		return "balance over the limit in force"
	case store.Over90Above:
		return "share of balance over 90 days above " + pct
	case store.UtilAbove:
		return "utilisation above " + pct
	}
	return string(r.Condition)
}

func formatScore(s store.Score, v float64) string {
	if s.Whole() {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return Decimal(v, 2)
}

// RuleRows formats the stored rules. A business rule saved without the
// business's name (made before its report was opened) takes the name its
// alerts carry.
func RuleRows(rules []store.Rule, alerts []store.Alert) []RuleRow {
	names := map[int32]string{}
	for _, a := range alerts {
		if n := strings.TrimSpace(a.BusinessName); n != "" {
			names[a.BusinessID] = n
		}
	}
	out := make([]RuleRow, 0, len(rules))
	for _, r := range rules {
		out = append(out, RuleRow{ID: strconv.FormatInt(r.ID, 10), Text: RuleText(withName(r.RuleSpec, names[r.BusinessID]))})
	}
	return out
}

// withName gives a business rule saved without a name the one given.
// Rules saved before names were left empty hold "business 1004" instead.
func withName(r store.RuleSpec, name string) store.RuleSpec {
	byID := "business " + strconv.FormatInt(int64(r.BusinessID), 10)
	if t := strings.TrimSpace(r.TargetName); r.Scope == store.ScopeBusiness && (t == "" || t == byID) && strings.TrimSpace(name) != "" {
		r.TargetName = strings.TrimSpace(name)
	}
	return r
}

// NewestShown is when the newest of alerts fired, in microseconds, for
// "Mark all read" to stop there; "" for none.
func NewestShown(alerts []store.Alert) string {
	var newest int64
	for _, a := range alerts {
		newest = max(newest, a.Created.UnixMicro())
	}
	if newest == 0 {
		return ""
	}
	return strconv.FormatInt(newest, 10)
}

// AlertRows formats triggered alerts, newest first as the store gives them.
func AlertRows(alerts []store.Alert) []AlertRow {
	out := make([]AlertRow, 0, len(alerts))
	for _, a := range alerts {
		row := AlertRow{ID: strconv.FormatInt(a.ID, 10), Business: businessLabel(a.BusinessName, a.BusinessID), URL: reportURL(a.BusinessID),
			Rule: RuleText(withName(a.Rule, a.BusinessName)), Month: Month(a.Year, int(a.Month)), New: formatScore(a.Rule.Score, a.New),
			NewZone: scoreZone(a.Rule.Score, a.New), Triggered: DateTime(a.Created), Unread: a.Unread()}

		if a.Old != nil {
			row.Old = formatScore(a.Rule.Score, *a.Old)
		} else {
			row.Old = "none"
		}
		out = append(out, row)
	}
	return out
}
