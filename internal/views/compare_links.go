package views

import (
	"net/url"
	"strconv"
	"strings"
)

// compareParam carries the businesses being compared on the pages an
// analyst visits between comparisons, so "Add to compare" keeps them.
const compareParam = "compare"

// CompareWith is the compare page of the ids pageURL carries in ?compare=
// plus id: the "Add to compare" link of a search result or report. The
// compare page itself names what it cannot compare (a sixth id, say).
func CompareWith(pageURL, id string) string {
	ids := comparedIDs(pageURL)
	if !containsID(ids, id) {
		ids = append(ids, id)
	}
	return "/compare?ids=" + strings.Join(ids, ",")
}

// ComparedIDs is the list of ids pageURL carries in ?compare=, read as
// CompareWith reads it: "1001,1002", or "".
func ComparedIDs(pageURL string) string { return strings.Join(comparedIDs(pageURL), ",") }

func comparedIDs(pageURL string) []string {
	var ids []string
	if u, err := url.Parse(pageURL); err == nil {
		for _, s := range strings.Split(u.Query().Get(compareParam), ",") {
			if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32); err == nil && n > 0 && len(ids) < MaxCompared {
				if t := strconv.FormatInt(n, 10); !containsID(ids, t) {
					ids = append(ids, t)
				}
			}
		}
	}
	return ids
}

// TabURL is a tab's address, keeping the ids being compared, so that
// reading another tab does not lose the comparison.
func (h BusinessHeader) TabURL(t TabLink) string {
	return WithCompare(t.URL, ComparedIDs(h.ShareURL))
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// CompareURL is the header's "Add to compare" link, or "" when the
// business's id is not known (a CustomerId page without IdentificationGroup).
func (h BusinessHeader) CompareURL() string {
	for _, f := range h.Facts {
		if id, ok := strings.CutPrefix(f, "Business id "); ok {
			return CompareWith(h.ShareURL, id)
		}
	}
	return ""
}

// WithCompare is a report's URL that keeps the ids being compared.
func WithCompare(path, ids string) string {
	if ids == "" {
		return path
	}
	return path + "?" + compareParam + "=" + ids
}
