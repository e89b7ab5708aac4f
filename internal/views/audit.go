package views

import (
	"net/url"
	"strconv"

	"creditdash/internal/store"
)

// NavAudit is the navigation area of the team's audit trail.
const NavAudit Nav = "audit"

// AuditForm is the audit trail's filter as the user typed it, kept on the
// page when it is refused.
type AuditForm struct {
	Account, Actor, Action string
	// From and To are dates (YYYY-MM-DD, UTC), both included.
	From, To string
}

// Query is the filter as a URL query, empty fields left out, so links
// (older entries, the CSV download) carry it.
func (f AuditForm) Query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"account": f.Account, "actor": f.Actor, "action": f.Action, "from": f.From, "to": f.To} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

// Filtered says the form narrows the log.
func (f AuditForm) Filtered() bool { return len(f.Query()) > 0 }

// AuditPage is GET /audit: the team's log, newest first, a page at a time.
type AuditPage struct {
	Base
	Form AuditForm
	// Error says what is wrong with the filter; no entries are shown then.
	Error string
	// Field is the form field at fault, for focus and aria.
	Field string
	Rows  []AuditRow
	// NewestURL leads back to the newest entries, OlderURL to the next
	// page; "" where there is none.
	NewestURL, OlderURL string
	// CSVURL downloads the log with this filter.
	CSVURL string
}

// AuditRow is one entry as the table shows it.
type AuditRow struct {
	Seq    string
	At     string
	AtISO  string
	Actor  string
	Action string
	// Account is "" for none; Business the business id, "" for none, and
	// BusinessURL its report.
	Account, Business, BusinessURL string
	Old, New, Reason               string
	// Hash is the entry's full hash, ShortHash its first 12 characters.
	Hash, ShortHash string
}

// AuditRows turns entries into table rows.
func AuditRows(entries []store.AuditEntry) []AuditRow {
	rows := make([]AuditRow, len(entries))
	for i, e := range entries {
		r := AuditRow{Seq: strconv.FormatInt(e.Seq, 10), At: DateTime(e.At), AtISO: e.At.UTC().Format(store.AuditTimeFormat),
			Actor: e.Actor, Action: e.Action, Account: e.Account, Old: e.OldValue, New: e.NewValue, Reason: e.Reason,
			Hash: e.Hash, ShortHash: e.Hash}
		if len(r.ShortHash) > 12 {
			r.ShortHash = r.ShortHash[:12]
		}
		if e.BusinessID > 0 {
			r.Business = strconv.FormatInt(int64(e.BusinessID), 10)
			r.BusinessURL = "/businesses/" + r.Business
		}
		rows[i] = r
	}
	return rows
}

// AuditURL is /audit with the query q, and before when not 0.
func AuditURL(path string, q url.Values, before int64) string {
	if before > 0 {
		q = cloneValues(q)
		q.Set("before", strconv.FormatInt(before, 10))
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// cloneValues copies q so a link's extra parameter does not leak into others.
func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// AuditVerifyPage is GET /audit/verify: whether the team's log is intact.
type AuditVerifyPage struct {
	Base
	Verdict store.AuditVerdict
	// CheckedAt is when the log was read through for the verdict; Kept
	// says the verdict was kept from then, the log's last entry (Head)
	// having stayed the same.
	CheckedAt string
	Kept      bool
	Head      int64
	// Problem is the verdict's problem as a sentence.
	Problem string
	// BrokenURL shows the log from the first entry that does not match.
	BrokenURL string
}
