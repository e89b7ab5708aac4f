package views

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/upstream"
)

// PortfolioPage is /portfolio: the folders and the export of everything.
type PortfolioPage struct {
	Base
	Folders        []FolderRow
	FoldersProblem *Problem
	// ShowCounts is false when the service does not list folder members
	// (it answered 404) or the listing failed; the column is then hidden.
	ShowCounts    bool
	CountsProblem *Problem
	Export        ExportForm
}

// FolderRow is one folder in a list, linking to its page.
type FolderRow struct {
	Name, URL             string
	Created, Updated      string // "Mar 4, 2024"
	CreatedISO, UpdateISO string // for <time datetime>, "" when unknown
	// Count is the number of businesses, "" when not known.
	Count string
}

// FolderURL is the page of a folder.
func FolderURL(id int) string { return "/portfolio/folders/" + strconv.Itoa(id) }

// FolderRows lists folders in the service's order. members is the listing
// of PortfolioBusinesses for the whole portfolio; counted is false when
// there is none, and the rows then carry no count.
func FolderRows(folders []upstream.Folder, members []upstream.PortfolioBusiness, counted bool) []FolderRow {
	counts := map[int]int{}
	for _, m := range members {
		counts[m.FolderID]++
	}
	rows := make([]FolderRow, 0, len(folders))
	for _, f := range folders {
		r := FolderRow{
			Name: folderName(f), URL: FolderURL(f.FolderID),
			Created: Date(f.DateCreated.Time), Updated: Date(f.DateUpdated.Time),
			CreatedISO: isoDate(f.DateCreated.Time), UpdateISO: isoDate(f.DateUpdated.Time),
		}
		if counted {
			r.Count = Int(int64(counts[f.FolderID]))
		}
		rows = append(rows, r)
	}
	return rows
}

// folderName is the folder's name as text, or "Folder 12" when it has none.
func folderName(f upstream.Folder) string {
	if n := strings.TrimSpace(f.FolderName); n != "" {
		return n
	}
	return "Folder " + strconv.Itoa(f.FolderID)
}

// FolderLabel is the folder's name as text, or "Folder 12" when it has none.
func FolderLabel(f upstream.Folder) string { return folderName(f) }

// businessLabel is a business's name as text, or "Business 1001" when the
// service sent none (an empty link is no link to a screen reader).
func businessLabel(name string, id int32) string {
	if n := strings.TrimSpace(name); n != "" {
		return n
	}
	return "Business " + strconv.FormatInt(int64(id), 10)
}

// FolderName finds the folder's display name; ok is false when the
// portfolio has no folder with that id.
func FolderName(folders []upstream.Folder, id int) (name string, ok bool) {
	for _, f := range folders {
		if f.FolderID == id {
			return folderName(f), true
		}
	}
	return "", false
}

func isoDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

// FolderNewsPerPage is how many stories a folder page shows at once: the
// service sends up to a hundred, which buried the folder's businesses.
const FolderNewsPerPage = 10

// FolderPage is one folder: its news and its businesses.
type FolderPage struct {
	Base
	Name string
	// News is one page of the folder's stories, FolderNewsPerPage at a
	// time; NewsPager links the others (?news=2 ...).
	News        []NewsItem
	NewsPager   Pager
	NewsProblem *Problem
	// BusinessesOffered is false when the service does not list folder
	// members; the section is then left out.
	BusinessesOffered bool
	Businesses        []FolderBusiness
	// MoreBusinesses counts members beyond those listed.
	MoreBusinesses    int
	BusinessesProblem *Problem
	Export            ExportForm
	// Triage is the businesses with their latest scores, sortable.
	Triage Triage
}

// FolderBusiness is a business of a folder, linking to its report.
type FolderBusiness struct {
	Name, URL, ID string
}

// MaxFolderBusinesses is how many businesses a folder page lists.
const MaxFolderBusinesses = 500

// FolderBusinesses lists a folder's businesses by name: the first limit in
// the service's order, sorted; more counts the rest.
func FolderBusinesses(members []upstream.PortfolioBusiness, limit int) (list []FolderBusiness, more int) {
	seen := map[int32]bool{}
	for _, m := range members {
		if seen[m.BusinessID] {
			continue
		}
		seen[m.BusinessID] = true
		if len(list) == limit {
			more++
			continue
		}
		id := strconv.FormatInt(int64(m.BusinessID), 10)
		name := businessLabel(m.BusinessName, m.BusinessID)
		list = append(list, FolderBusiness{Name: name, URL: reportURL(m.BusinessID), ID: id})
	}
	slices.SortStableFunc(list, func(a, b FolderBusiness) int { return strings.Compare(a.Name, b.Name) })
	return list, more
}

// NewsPage is /news/industry.
type NewsPage struct {
	Base
	Items   []NewsItem
	Problem *Problem
}
