package store

import (
	"errors"
	"fmt"
)

// The sentinels handlers turn into pages; each says what happened in words
// an analyst can read after the "store: " prefix is cut.
var (
	// ErrNotFound: no such note, rule, alert or snapshot for this analyst.
	// Another analyst's row is "not found" too, never "forbidden", so ids
	// reveal nothing.
	ErrNotFound = errors.New("store: not found")
	// ErrWatchListFull: the analyst already watches MaxWatches businesses.
	ErrWatchListFull = fmt.Errorf("store: a watch list holds at most %s businesses", grouped(MaxWatches))
	// ErrNotesFull: the analyst already has MaxNotes notes.
	ErrNotesFull = fmt.Errorf("store: at most %s notes can be kept", grouped(MaxNotes))
	// ErrRulesFull: the analyst already has MaxRules alert rules.
	ErrRulesFull = fmt.Errorf("store: at most %s alert rules can be kept", grouped(MaxRules))
	// ErrSnapshotsFull: the analyst already keeps MaxSnapshots snapshots.
	ErrSnapshotsFull = fmt.Errorf("store: at most %s dated copies can be kept; delete some first", grouped(MaxSnapshots))
)

// ValidationError is input the store refuses; nothing was written. Field
// names the form field at fault and Message says why, for the form.
type ValidationError struct {
	Field   string
	Message string
}

// Error implements error.
func (e *ValidationError) Error() string { return "store: " + e.Field + ": " + e.Message }

// invalid builds a *ValidationError.
func invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// grouped writes n with thousands separators, as the messages show it.
func grouped(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
