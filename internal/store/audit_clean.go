package store

import (
	"strings"
	"unicode"
)

// What enters the team's log is cleaned first, so an entry reads the same
// on every screen and in every CSV reader: a path typed with a line feed,
// a reason pasted with Windows line breaks, a name with a bidirectional
// override cannot make the log say something else than was recorded.
// Line breaks are kept where text may have lines (values and reasons),
// always as a single line feed: Go's CSV reader turns a quoted CR LF into
// LF while Python's keeps it, so the independent check of /audit.csv only
// recomputes the same hashes in both when no CR is stored. Every other
// control character (tabs included) becomes a space, and the invisible
// characters that reorder text are dropped.

// cleanAuditText is s as the log stores it; lines keeps line breaks (as
// "\n"), else they become spaces too.
func cleanAuditText(s string, lines bool) string {
	if strings.IndexFunc(s, needsCleaning) < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\r' || r == '\n' || r == '\u2028' || r == '\u2029' || r == '\u0085':
			if lines {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case unicode.IsControl(r):
			b.WriteByte(' ')
		case reordering(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsCleaning is a character cleanAuditText changes.
func needsCleaning(r rune) bool {
	return r == '\n' || r == '\u2028' || r == '\u2029' || unicode.IsControl(r) || reordering(r)
}

// reordering is an invisible character that changes the order text shows
// in: the bidirectional embeddings, overrides and isolates.
func reordering(r rune) bool {
	return r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069' || r == '\u200E' || r == '\u200F' || r == '\u061C'
}

// cleaned is the change as the log stores it (see cleanAuditText).
func (c AuditChange) cleaned() AuditChange {
	c.Actor = cleanAuditText(c.Actor, false)
	c.Account = cleanAuditText(c.Account, false)
	c.OldValue = cleanAuditText(c.OldValue, true)
	c.NewValue = cleanAuditText(c.NewValue, true)
	c.Reason = cleanAuditText(c.Reason, true)
	return c
}
