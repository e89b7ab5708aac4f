package views

import (
	"strconv"

	"creditdash/internal/upstream"
)

// HomePage is the start page: the portfolio at a glance (folders, biggest
// score moves, industry headlines), the business lookup and search. Each
// section carries its own problem, so one failing call blanks only itself.
type HomePage struct {
	Base
	// Worklist is the team's worklist at a glance; nil when nothing on it.
	Worklist *WorklistSummary
	// Outcomes are the signed-in analyst's limit requests decided since
	// they last marked them seen; nil when none.
	Outcomes *Outcomes
	Lookup   LookupForm
	// SearchOffered is false once the service has said it has no search.
	SearchOffered bool
	Query         string
	Results       []SearchRow
	// MoreResults: more businesses match than Results lists.
	MoreResults   bool
	SearchProblem *Problem

	Folders        []FolderRow
	FoldersProblem *Problem
	Moves          []Move
	// MovesCapped says the moves compare only the first MovesCompared
	// businesses by name: the portfolio has more.
	MovesCapped  bool
	MovesProblem *Problem
	Headlines    []NewsItem
	// HeadlinesProblem is nil also when the service offers no industry news.
	HeadlinesProblem *Problem
}

// HomeHeadlines is how many industry stories the home page shows.
const HomeHeadlines = 5

// LookupForm is the "open a business" form with what the user typed.
type LookupForm struct {
	By    string // auto, id, customer or supplier
	Value string
	Error string
}

// SearchRow is one business found by name.
type SearchRow struct {
	Name     string
	Location string
	URL      string
	ID       string
	// Known are the scores the analyst already has for it ("Risk 9 · low
	// risk"), none asked for; empty when none is known.
	Known []KnownScore
	id    int32
}

// KnownScore is one known score of a search result.
type KnownScore struct {
	Label string
	Cell  ScoreCell
}

// SearchRows turns search results into rows linking to each report.
func SearchRows(found []upstream.SearchResult) []SearchRow {
	rows := make([]SearchRow, 0, len(found))
	for _, f := range found {
		id := strconv.FormatInt(int64(f.BusinessID), 10)
		rows = append(rows, SearchRow{
			Name:     f.BusinessName,
			Location: Location(f.City, f.State, ""),
			URL:      "/businesses/" + id,
			ID:       id,
			id:       f.BusinessID,
		})
	}
	return rows
}

// Location joins city, state and country, skipping the empty ones.
func Location(city, state, country string) string {
	out := ""
	for _, part := range []string{city, state, country} {
		if part == "" {
			continue
		}
		if out != "" {
			out += ", "
		}
		out += part
	}
	return out
}

// SearchTooLong is the search box's message for text past its limit.
func SearchTooLong() *Problem {
	return &Problem{Status: 400, Title: "Search text too long",
		Message: "Search for at most 100 characters of a business name."}
}

// LookupFault is why the "open a business" form could not be followed.
type LookupFault int

// The lookup form's faults.
const (
	LookupOK          LookupFault = iota
	LookupEmpty                   // nothing typed
	LookupBadID                   // not a business id
	LookupBadKind                 // neither id, customer nor supplier
	LookupBadCode                 // not a customer or supplier id
	LookupUnknownKind             // "detect" could not tell the kind
)

// Message says what to correct.
func (f LookupFault) Message() string {
	switch f {
	case LookupEmpty:
		return "Enter a business id, customer id or supplier id."
	case LookupBadID:
		return "A business id is a whole number without a sign or leading zeros, such as 1001."
	case LookupBadKind:
		return "Choose whether you typed a business id, customer id or supplier id."
	case LookupUnknownKind:
		return "That is not a kind of id the dashboard can tell: business ids are digits (1001), supplier ids start with S- (S-1001), customer ids with C and a provider number (C1-1001). Choose the identifier type, or search by name."
	case LookupBadCode:
		return "Customer and supplier ids are codes of up to 64 characters without spaces, such as S-1001."
	}
	return ""
}
