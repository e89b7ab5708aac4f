package views

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"creditdash/internal/upstream"
)

// NewsFeed is one feed of stories the dashboard already holds: a folder's
// news or the industry news, with where to read it whole.
type NewsFeed struct {
	Label string // "Folder “High-risk review”", "Industry news"
	URL   string
	Items []upstream.NewsItem
}

// ReportNews is the report's "News and events": the stories of the feeds
// already fetched that name the business, and the credit event (a
// bankruptcy filing, insolvency or receivership) the newest of them
// reports within 12 months.
type ReportNews struct {
	// Name is the business name the stories were matched on; "" when the
	// service gave none, so nothing could be matched.
	Name    string
	Stories []EventStory
	// Event is the newest credit event reported within 12 months, or nil.
	Event *CreditEvent
	// Searched names the feeds looked through; Unread those the analyst
	// has not opened lately, which may hold more (links to open them).
	Searched []string
	Unread   []NavLink
}

// EventStory is a story naming the business, and the feed it came from.
type EventStory struct {
	NewsItem
	Source string
	// Event is the kind of credit event the story reports, or "".
	Event string
}

// CreditEvent is a reported bankruptcy, insolvency or receivership.
type CreditEvent struct {
	Kind      string // "Chapter 11 filing"
	Published time.Time
	Title     string
	URL       string
	Source    string
}

// Banner is the event's one line: "Chapter 11 filing reported Sep 14,
// 2026 — from news".
func (e CreditEvent) Banner() string {
	return e.Kind + " reported " + Date(e.Published) + " — from news"
}

// RiskNote replaces a Risk or Pay card's bankruptcy probability: a score's
// probability of failing within 12 months says nothing once it has.
func (e CreditEvent) RiskNote() string {
	what := e.Kind
	if !strings.HasPrefix(what, "Chapter") {
		what = strings.ToLower(what)
	}
	article := "A "
	if strings.ContainsRune("AEIOUaeiou", rune(what[0])) {
		article = "An "
	}
	return article + what + " was reported " + Date(e.Published) +
		" (from news): the 12-month bankruptcy probability of this band no longer applies."
}

// Bounds of the section: stories listed, and how far back an event counts.
const (
	MaxReportStories = 12
	eventWindow      = 365 * 24 * time.Hour
)

// creditEvents are the words of credit events, most specific first: a
// story about a Chapter 11 filing also says "bankruptcy".
var creditEvents = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"Chapter 11 filing", regexp.MustCompile(`(?i)\bchapter\s+11\b`)},
	{"Chapter 7 filing", regexp.MustCompile(`(?i)\bchapter\s+7\b`)},
	{"Receivership", regexp.MustCompile(`(?i)\breceivers?hip\b|\breceiver\s+(was\s+)?appointed\b`)},
	{"Insolvency", regexp.MustCompile(`(?i)\binsolven(cy|t)\b`)},
	{"Bankruptcy", regexp.MustCompile(`(?i)\bbankrupt(cy)?\b`)},
}

// eventKind is the credit event text reports, or "".
func eventKind(text string) string {
	for _, e := range creditEvents {
		if e.re.MatchString(text) {
			return e.kind
		}
	}
	return ""
}

// legalSuffixes are dropped from a business name to match stories that
// leave them out ("Harbor Freight Logistics" for "... Logistics Inc").
var legalSuffixes = []string{"inc", "incorporated", "corp", "corporation", "co", "company", "llc", "ltd", "limited", "plc", "lp", "llp", "holdings", "group"}

// nameForms are the forms of a business name a story may use: as given,
// and without its legal suffix when enough remains to be distinctive.
func nameForms(name string) []string {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return nil
	}
	forms := []string{strings.ToLower(name)}
	words := strings.Fields(strings.ToLower(strings.NewReplacer(",", " ", ".", " ").Replace(name)))
	for len(words) > 1 && slices.Contains(legalSuffixes, words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	if short := strings.Join(words, " "); short != forms[0] && (len(words) >= 2 || len(short) >= 8) {
		forms = append(forms, short)
	}
	return forms
}

// names reports whether the texts, read as one, name the business in one
// of its forms, as whole words. It runs for every story on every report
// built, so the texts are folded (lower case, runs of white space as one
// space) into a pooled buffer rather than new strings.
func names(forms []string, texts ...string) bool {
	buf := foldBuffers.Get().(*[]byte)
	defer foldBuffers.Put(buf)
	text := append((*buf)[:0], ' ')
	for _, t := range texts {
		for _, r := range t {
			if unicode.IsSpace(r) {
				if text[len(text)-1] != ' ' {
					text = append(text, ' ')
				}
				continue
			}
			text = utf8.AppendRune(text, unicode.ToLower(r))
		}
		if text[len(text)-1] != ' ' {
			text = append(text, ' ')
		}
	}
	*buf = text
	for _, f := range forms {
		for i := bytes.Index(text, []byte(f)); i >= 0; {
			before, after := text[i-1], byte(' ')
			if j := i + len(f); j < len(text) {
				after = text[j]
			}
			if !isWordByte(before) && !isWordByte(after) {
				return true
			}
			k := bytes.Index(text[i+1:], []byte(f))
			if k < 0 {
				break
			}
			i += 1 + k
		}
	}
	return false
}

// foldBuffers hold the folded texts of names.
var foldBuffers = sync.Pool{New: func() any { return new([]byte) }}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}

// NewReportNews finds the stories of feeds that name the business, newest
// first (a story in two feeds once), and the newest credit event among
// those within 12 months of now.
func NewReportNews(name string, feeds []NewsFeed, unread []NavLink, now time.Time) ReportNews {
	rn := ReportNews{Name: name, Unread: unread}
	forms := nameForms(name)
	seen := map[string]bool{}
	for _, f := range feeds {
		rn.Searched = append(rn.Searched, f.Label)
		if len(forms) == 0 {
			continue
		}
		for _, n := range f.Items {
			title, body := PlainText(n.Title), PlainText(n.Description)
			if !names(forms, title, body) {
				continue
			}
			key := title + "\x00" + n.PubDate
			if seen[key] {
				continue
			}
			seen[key] = true
			s := EventStory{NewsItem: newsItem(n, now), Source: f.Label, Event: eventKind(title + " " + body)}
			rn.Stories = append(rn.Stories, s)
		}
	}
	slices.SortStableFunc(rn.Stories, func(a, b EventStory) int { return b.Published.Compare(a.Published) })
	for _, s := range rn.Stories {
		if s.Event == "" || s.Published.IsZero() || now.Sub(s.Published) > eventWindow || s.Published.After(now.Add(24*time.Hour)) {
			continue
		}
		rn.Event = &CreditEvent{Kind: s.Event, Published: s.Published, Title: s.Title, URL: s.URL, Source: s.Source}
		break
	}
	if len(rn.Stories) > MaxReportStories {
		rn.Stories = rn.Stories[:MaxReportStories]
	}
	return rn
}

// WithEvent turns the Risk and Pay cards' bankruptcy probability into the
// event's note: the cards themselves are left as they are.
func WithEvent(cards []ScoreCard, e *CreditEvent) {
	if e == nil {
		return
	}
	for i := range cards {
		if cards[i].short == ScoreRisk.short() || cards[i].short == ScorePay.short() {
			if cards[i].Band != "" {
				cards[i].Band = e.RiskNote()
			}
		}
	}
}

// JoinLabels lists labels in a sentence: "a, b and c".
func JoinLabels(labels []string) string {
	switch len(labels) {
	case 0:
		return ""
	case 1:
		return labels[0]
	}
	return strings.Join(labels[:len(labels)-1], ", ") + " and " + labels[len(labels)-1]
}

// SearchedText says where the stories were looked for.
func (n ReportNews) SearchedText() string {
	if len(n.Searched) == 0 {
		return "Stories are matched by the business name in the news your pages have already fetched; none is at hand, and nothing is asked of the service for this section."
	}
	return "Stories are matched by the business name in the news your pages have already fetched (" + JoinLabels(n.Searched) + "); nothing is asked of the service for this section."
}

// TeamName is a business the team's accounts are linked to, with the
// names it goes by (the service's and the ledger's), for FilingsIn.
type TeamName struct {
	ID    int32
	forms []string
}

// NewTeamName gathers the forms of a business's names.
func NewTeamName(id int32, names ...string) TeamName {
	t := TeamName{ID: id}
	for _, n := range names {
		for _, f := range nameForms(n) {
			if !slices.Contains(t.forms, f) {
				t.forms = append(t.forms, f)
			}
		}
	}
	return t
}

// Filing is a credit event a story reports of one of the team's
// businesses.
type Filing struct {
	BusinessID int32
	Kind       string
	Title, URL string
	Published  time.Time
}

// FilingsIn finds the stories among items that report a credit event
// within 12 months of now and name a business of the team: the event
// words first (few stories have them), then the names, so a feed without
// a filing costs no name matching. A story naming two businesses counts
// for both; a business's newest story only.
func FilingsIn(items []upstream.NewsItem, team []TeamName, now time.Time) []Filing {
	var out []Filing
	at := map[int32]int{}
	for _, n := range items {
		title, body := PlainText(n.Title), PlainText(n.Description)
		kind := eventKind(title + " " + body)
		if kind == "" {
			continue
		}
		t, ok := n.Published()
		if !ok || now.Sub(t) > eventWindow || t.After(now.Add(24*time.Hour)) {
			continue
		}
		for _, b := range team {
			if len(b.forms) == 0 || !names(b.forms, title, body) {
				continue
			}
			f := Filing{BusinessID: b.ID, Kind: kind, Title: Clip(title, maxNewsTitle), URL: SafeLink(n.Link), Published: t.UTC()}
			if i, seen := at[b.ID]; seen {
				if out[i].Published.Before(f.Published) {
					out[i] = f
				}
				continue
			}
			at[b.ID] = len(out)
			out = append(out, f)
		}
	}
	return out
}
