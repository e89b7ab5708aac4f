package views

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"creditdash/internal/digest"
	"creditdash/internal/store"
)

// NewDigestBody words a digest: each section under its heading, each line
// leading to its page under public (the dashboard's address), and the
// unsubscribe link ("" on the preview page).
func NewDigestBody(c digest.Content, public, unsubscribe string) DigestBody {
	b := DigestBody{Title: "Your CreditDash digest", Since: Date(c.Since), Now: Date(c.Now),
		PreviewURL: public + "/digest/preview", SettingsURL: public + "/settings/digest", UnsubscribeURL: unsubscribe}
	link := func(path string) string {
		if path == "" {
			return ""
		}
		return public + path
	}
	b.Sections = append(b.Sections, digestAlerts(c, link)...)
	sec := DigestSection{Title: "Decisions waiting for you", None: "No limit request waits for your decision.", More: c.Waiting.More}
	for _, r := range c.Waiting.List {
		sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s: limit %s asked by %s on %s%s", r.Account, Amount(r.Amount),
			r.RequestedBy, Date(r.RequestedAt), recordFacts(c, r.Account)), URL: link(DecisionPath(r.ID))})
	}
	b.Sections = append(b.Sections, sec)
	sec = DigestSection{Title: "Your limit requests decided", None: "None of your limit requests was decided.", More: c.Decided.More}
	for _, o := range NewOutcomes(c.Decided.List, len(c.Decided.List)).List() {
		sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s: %s by %s on %s — %s", o.Account, o.What, o.Who, o.When, o.Note), URL: link(o.URL)})
	}
	b.Sections = append(b.Sections, sec)
	if c.Ledgers == 0 {
		b.Sections = append(b.Sections, DigestSection{Title: "Accounts", None: "The team has imported no ledger yet."})
		return b
	}
	for _, rs := range []struct {
		title, none string
		items       digest.Items[digest.Review]
	}{
		{"Reviews overdue", "No review is overdue.", c.Overdue},
		{"Reviews due this week", "No review is due this week.", c.DueSoon},
	} {
		sec = DigestSection{Title: rs.title, None: rs.none, More: rs.items.More}
		for _, r := range rs.items.List {
			sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s, %s: review %s (%s)%s", r.Account, r.Name, Date(r.Due), r.Why,
				recordFacts(c, r.Account)),
				URL: link("/accounts/" + url.PathEscape(r.Account) + "/review")})
		}
		b.Sections = append(b.Sections, sec)
	}
	sec = DigestSection{Title: "Accounts newly over limit", None: "No account went over its limit.", More: c.NewlyOver.More}
	for _, f := range c.NewlyOver.List {
		sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s, %s: balance %s over limit %s", f.Account.Account, f.Name,
			Amount(f.Balance), Amount(*f.Account.Limit)), URL: link("/accounts?over=1")})
	}
	b.Sections = append(b.Sections, sec)
	sec = DigestSection{Title: "Accounts newly at risk", None: "No account's limit newly exceeds what the calculator implies.", More: c.NewlyAtRisk.More}
	for _, d := range c.NewlyAtRisk.List {
		sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s, %s: limit %s, implied %s (gap %s)", d.Account, d.Name,
			Amount(d.Limit), Amount(d.Implied), Amount(d.Gap)), URL: link("/portfolio/exposure")})
	}
	b.Sections = append(b.Sections, sec)
	b.Sections = append(b.Sections, digestWatched(c, link))
	b.Sections = append(b.Sections, digestBridge(c, link))
	return b
}

// digestAlerts are the alerts raised in two sections: on customers (a
// business with an account in the team's record), each with its accounts'
// balance, limit and owner, then on the other businesses. Alerts past the
// digest's bound cannot be told apart, so the second section counts them
// with a link to the alerts page.
func digestAlerts(c digest.Content, link func(string) string) []DigestSection {
	cust := DigestSection{Title: "Alerts raised on your customers", None: "No alert was raised on a business with an account in the team's record."}
	other := DigestSection{Title: "Alerts raised on other businesses", None: "No alert was raised on a business without an account in the team's record."}
	for _, al := range c.Alerts.List {
		text := fmt.Sprintf("%s (%d): %s — %s %d, %s", al.BusinessName, al.BusinessID, RuleText(al.Rule),
			al.Month, al.Year, strconv.FormatFloat(al.New, 'f', -1, 64))
		line := DigestLine{URL: link(reportURL(al.BusinessID))}
		cu, ok := c.Customers[al.BusinessID]
		if !ok {
			line.Text = text + " · no account in the team's record"
			other.Lines = append(other.Lines, line)
			continue
		}
		var accts []string
		for _, acc := range cu.Accounts {
			accts = append(accts, "account "+acc.Account+AccountFacts(acc))
		}
		if cu.More > 0 {
			accts = append(accts, fmt.Sprintf("and %d more accounts", cu.More))
		}
		line.Text = text + " · " + strings.Join(accts, "; ")
		cust.Lines = append(cust.Lines, line)
	}
	if n := c.Alerts.More; n > 0 {
		other.Lines = append(other.Lines, DigestLine{Text: fmt.Sprintf("and %d more alerts past the digest's %d lines, on customers or not: see them all on the alerts page", n, digest.MaxLines),
			URL: link("/alerts")})
	}
	return []DigestSection{cust, other}
}

// AccountFacts words an account of the team's record as the accounts
// page shows it: ", balance $12,500, limit $50,000, owner sam"; an account
// the newest ledger does not list has no balance, not a zero one.
func AccountFacts(acc store.Account) string {
	balance := "no balance in the newest ledger"
	if acc.InLedger() {
		balance = "balance " + Amount(acc.Balance)
		if acc.Balance < 0 {
			balance += " (a credit balance: the team owes the customer)"
		}
	}
	limit := "no limit in force"
	if acc.Limit != nil {
		limit = "limit " + Amount(*acc.Limit)
	}
	owner := "no owner"
	if acc.Owner != "" {
		owner = "owner " + acc.Owner
	}
	return ", " + balance + ", " + limit + ", " + owner
}

// recordFacts is AccountFacts of an account the digest's record holds, in
// parentheses; "" for one it does not.
func recordFacts(c digest.Content, account string) string {
	acc, ok := c.Record[account]
	if !ok {
		return ""
	}
	return " (" + strings.TrimPrefix(AccountFacts(acc), ", ") + ")"
}

// digestWatched is the section of the accounts the analyst's rules on the
// team's accounts match: each with its balance, its limit in force and
// the rules it matches.
func digestWatched(c digest.Content, link func(string) string) DigestSection {
	sec := DigestSection{Title: "Accounts your rules watch", None: "No account matches your rules on the team's accounts.", More: c.Watched.More}
	for _, w := range c.Watched.List {
		var why []string
		for _, r := range w.Rules {
			why = append(why, AccountRuleText(r))
		}
		sec.Lines = append(sec.Lines, DigestLine{Text: fmt.Sprintf("Account %s, %s: %s — %s", w.Account.Account, w.Name,
			strings.TrimPrefix(AccountFacts(w.Account), ", "), strings.Join(why, "; ")), URL: link("/accounts")})
	}
	return sec
}

// digestBridge is the section of the change in expected loss: its total,
// its four causes and its largest movers, as many lines as the digest
// kept.
func digestBridge(c digest.Content, link func(string) string) DigestSection {
	sec := DigestSection{Title: "Change in expected loss"}
	if c.Ledgers < 2 {
		sec.None = "The bridge compares two ledger dates: a second ledger is needed."
		return sec
	}
	br := c.Bridge
	v := NewBridgeView(br.From, br.To, br.Bridge, br.Names)
	lines := []DigestLine{
		{Text: fmt.Sprintf("Expected loss %s on %s, %s on %s: %s", v.Old, br.From, v.New, br.To, v.Change),
			URL: link("/portfolio/exposure?from=" + br.From + "&to=" + br.To)},
		{Text: fmt.Sprintf("Bridge: risk migration %s, exposure %s, new and closed accounts %s, scores newly known or lost %s",
			v.Migration, v.Exposure, v.NewClosed, v.Coverage)},
	}
	for _, m := range v.Movers {
		lines = append(lines, DigestLine{Text: fmt.Sprintf("Account %s, %s: %s (%s)", m.Account, m.Name, m.Change, m.Cause)})
	}
	sec.Lines, sec.More = lines[:min(br.Lines, len(lines))], br.More
	return sec
}

// Subject is the digest mail's subject.
func (b DigestBody) Subject() string { return "CreditDash digest, " + b.Now }

// Text is the digest's plain-text part.
func (b DigestBody) Text() string {
	var t strings.Builder
	fmt.Fprintf(&t, "%s\nChanges from %s to %s.\n", b.Title, b.Since, b.Now)
	for _, sec := range b.Sections {
		fmt.Fprintf(&t, "\n%s\n%s\n", sec.Title, strings.Repeat("-", len([]rune(sec.Title))))
		if len(sec.Lines) == 0 && sec.More == 0 {
			fmt.Fprintf(&t, "%s\n", sec.None)
		}
		for _, l := range sec.Lines {
			fmt.Fprintf(&t, "- %s\n", l.Text)
			if l.URL != "" {
				fmt.Fprintf(&t, "  %s\n", l.URL)
			}
		}
		if sec.More > 0 {
			fmt.Fprintf(&t, "- and %d more\n", sec.More)
		}
	}
	fmt.Fprintf(&t, "\nSee it all: %s\nSettings: %s\nUnsubscribe: %s\n", b.PreviewURL, b.SettingsURL, b.UnsubscribeURL)
	return t.String()
}

// NewVerifyMail words the verification mail.
func NewVerifyMail(v digest.Verification) VerifyMail {
	return VerifyMail{User: v.User, Link: v.Link, Hours: v.Hours}
}

// Subject is the verification mail's subject.
func (VerifyMail) Subject() string { return "Confirm your CreditDash digest address" }

// Text is the verification mail's plain-text part.
func (v VerifyMail) Text() string {
	return fmt.Sprintf("Someone signed in to CreditDash as %s asked for digests at this address.\n\nConfirm it within %d hours: %s\n\nIf it was not you, ignore this mail.\n", v.User, v.Hours, v.Link)
}
