package simulator

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDataOfficers(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		asOf, _ := genParseMonth(d.AsOf)
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if n := len(b.Officers); b.ID != 1007 && (n < 3 || n > 6) {
				e.Errorf("business %d: %d officers, want 3-6", b.ID, n)
			}
			titles := map[string]bool{}
			for k, o := range b.Officers {
				hire, err1 := time.Parse(LayoutDateTime, o.DateOfHire)
				title, err2 := time.Parse(LayoutDateTime, o.DateOfTitle)
				switch {
				case err1 != nil || err2 != nil:
					e.Errorf("business %d officer %d: dates %q, %q not ISO 8601 without zone", b.ID, k, o.DateOfHire, o.DateOfTitle)
				case title.Before(hire):
					e.Errorf("business %d officer %d: title date %s before hire date %s", b.ID, k, o.DateOfTitle, o.DateOfHire)
				case genMonthOf(title) > asOf:
					e.Errorf("business %d officer %d: title date %s after %s", b.ID, k, o.DateOfTitle, d.AsOf)
				case o.Age < 35 || o.Age > 75:
					e.Errorf("business %d officer %d: age %d, want 35-75", b.ID, k, o.Age)
				case asOf.year()-o.Age+24 > hire.Year()+1:
					e.Errorf("business %d officer %d: hired in %d at about %d", b.ID, k, hire.Year(), hire.Year()-(asOf.year()-o.Age))
				case o.FirstName == "" || o.LastName == "" || len(o.MiddleInitial) > 1:
					e.Errorf("business %d officer %d: name %q %q %q", b.ID, k, o.FirstName, o.MiddleInitial, o.LastName)
				case titles[o.Title]:
					e.Errorf("business %d: two officers titled %q", b.ID, o.Title)
				}
				titles[o.Title] = true
			}
			if len(b.Officers) > 0 && (b.Officers[0].Title != TitleCEO || b.Officers[1].Title != TitleCFO) {
				e.Errorf("business %d: first officers %q, %q; want the CEO and the CFO", b.ID, b.Officers[0].Title, b.Officers[1].Title)
			}
		}
	}
}

func TestDataIdentity(t *testing.T) {
	d := genTestDataset(t)
	e := &genErrs{t: t}
	names := map[string]int32{}
	sixDigits := regexp.MustCompile(`^\d{6}$`)
	for i := range d.Businesses {
		b := &d.Businesses[i]
		if prev, dup := names[b.Name]; dup {
			e.Errorf("businesses %d and %d share the name %q", prev, b.ID, b.Name)
		}
		names[b.Name] = b.ID
		if len(strings.Fields(b.Name)) < 3 || strings.Contains(b.Name, "Business ") {
			e.Errorf("business %d: name %q does not look like a company", b.ID, b.Name)
		}
		if b.Address == "" || b.City == "" || b.State == "" || b.Country == "" {
			e.Errorf("business %d: incomplete location %q, %q, %q, %q", b.ID, b.Address, b.City, b.State, b.Country)
		}
		if (b.Ticker != "") != b.Public {
			e.Errorf("business %d: ticker %q for public = %v", b.ID, b.Ticker, b.Public)
		}
		if n := len(b.NAICS); n < 1 || n > 3 {
			e.Errorf("business %d: %d NAICS codes, want 1-3", b.ID, n)
		}
		seen := map[string]bool{}
		for _, c := range b.NAICS {
			k := genIndustryIndex(c.Code)
			if !sixDigits.MatchString(c.Code) || k < 0 || genIndustries[k].title != c.Name || seen[c.Code] {
				e.Errorf("business %d: NAICS %q %q unknown or repeated", b.ID, c.Code, c.Name)
			}
			seen[c.Code] = true
		}
		filed, err := time.Parse(LayoutDateTime, b.Summary.DateFiled)
		if err != nil || !strings.HasPrefix(b.Summary.Text, b.Name+" is a ") || filed.After(genTestAsOf.AddDate(0, 1, 0)) {
			e.Errorf("business %d: summary %q filed %q", b.ID, b.Summary.Text, b.Summary.DateFiled)
		}
	}
}

func TestDataNews(t *testing.T) {
	d := genTestDataset(t)
	e := &genErrs{t: t}
	ids := map[int64]bool{}
	markup := map[string]int{}
	link := regexp.MustCompile(`^https?://[a-z.]+/\S*$`)
	checkItem := func(where string, n NewsItem) time.Time {
		at, err := time.Parse(LayoutPubDate, n.PubDate)
		if err != nil || !strings.HasSuffix(n.PubDate, " GMT") {
			e.Errorf("%s: pubDate %q is not RFC 1123 GMT", where, n.PubDate)
		}
		if ids[n.ID] {
			e.Errorf("%s: news id %d repeated", where, n.ID)
		}
		ids[n.ID] = true
		if !link.MatchString(n.Link) || n.Title == "" || n.Description == "" {
			e.Errorf("%s: item %+v", where, n)
		}
		for _, m := range []string{"<p>", `<a href="http`, "&amp;"} {
			if strings.Contains(n.Description, m) {
				markup[m]++
			}
		}
		return at
	}
	asOf, _ := genParseMonth(d.AsOf)
	for i := range d.Businesses {
		b := &d.Businesses[i]
		perMonth := map[genMonth]int{}
		var prev time.Time
		for k, n := range b.News {
			at := checkItem("business news", n)
			if k > 0 && at.After(prev) {
				e.Errorf("business %d: news not newest first at %d", b.ID, k)
			}
			prev = at
			mo := genMonthOf(at)
			if mo > asOf || mo <= asOf-genNewsMonths {
				e.Errorf("business %d: story dated %s outside the last year", b.ID, n.PubDate)
			}
			perMonth[mo]++
		}
		for mo, n := range perMonth {
			if n > 5 && b.Story != StoryChapter11 {
				e.Errorf("business %d: %d stories in %s, want 0-5", b.ID, n, mo)
			}
		}
	}
	for _, m := range []string{"<p>", `<a href="http`, "&amp;"} {
		if markup[m] < 50 {
			e.Errorf("only %d descriptions carry %q; feeds mix markup and entities in", markup[m], m)
		}
	}
	sectors := map[string]bool{}
	for i := range d.Businesses {
		for _, c := range d.Businesses[i].NAICS {
			sectors[c.Code[:2]] = true
		}
	}
	for s := range sectors {
		items := d.IndustryNews[s]
		if len(items) != 20 {
			e.Errorf("industry news for sector %s: %d items, want 20", s, len(items))
		}
		titles := map[string]bool{}
		var prev time.Time
		for k, n := range items {
			at := checkItem("industry news "+s, n)
			if (k > 0 && at.After(prev)) || titles[n.Title] {
				e.Errorf("industry news %s: item %d out of order or repeated: %q", s, k, n.Title)
			}
			prev, titles[n.Title] = at, true
		}
	}
}

// TestDataEmptyListsNotNull checks that the dataset never holds a nil
// list, which WriteJSON would write as null: the service must answer [] for
// a business with nothing to show.
func TestDataEmptyListsNotNull(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		if d.Businesses == nil || d.Users == nil || d.IndustryNews == nil {
			e.Errorf("seed %d: nil top-level list", d.Seed)
		}
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if b.NAICS == nil || b.Statements == nil || b.PaymentsMonthly == nil || b.PaymentsSIC == nil ||
				b.Scores == nil || b.Officers == nil || b.News == nil {
				e.Errorf("business %d: a nil list", b.ID)
			}
			for _, s := range b.Statements {
				if s.Values == nil {
					e.Errorf("business %d FY%d: nil values", b.ID, s.FiscalYear)
				}
			}
		}
		for _, u := range d.Users {
			if u.Folders == nil {
				e.Errorf("user %s: nil folders", u.Username)
			}
			for _, f := range u.Folders {
				if f.BusinessIDs == nil {
					e.Errorf("user %s folder %d: nil businessIds", u.Username, f.FolderID)
				}
			}
		}
	}
	out := string(genTestJSON(t))
	if !strings.Contains(out, `"officers": []`) || strings.Contains(out, `"officers": null`) {
		t.Error(`WriteJSON: want "officers": [] for 1007 and never null`)
	}
}
