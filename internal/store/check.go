package store

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// checkBusiness refuses ids the service never uses (it numbers businesses
// from 1).
func checkBusiness(id int32) error {
	if id <= 0 {
		return invalid("business", "not a business id")
	}
	return nil
}

// tidyName makes a display name fit to keep: trimmed, NULs and invalid
// bytes replaced, cut to maxNameLen characters with an ellipsis. Names come
// from the service, never typed by the analyst, so one the store would
// refuse would only turn off what carries it (an alert, a dated copy); an
// empty one is kept (pages then show the id).
func tidyName(s string) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= maxNameLen {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:maxNameLen-1])) + "…"
}

// wrap names the operation on a driver error; nil stays nil.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("store: %s: %w", op, err)
}
