package views

import (
	"html"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maypok86/otter/v2"
	"github.com/microcosm-cc/bluemonday"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"creditdash/internal/upstream"
)

// MaxIndustryNews is how many industry stories a page shows at most (the
// service's own cap, enforced again so a service that sends more cannot
// stretch the page).
const MaxIndustryNews = 20

// NewsItem is one story as pages show it. Every field is safe to display:
// Title is plain text, URL is "" unless it is an absolute http(s) URL, and
// DescriptionHTML is the output of the sanitiser, nothing else.
type NewsItem struct {
	Title string
	// URL is the article's address; "" shows the title as plain text.
	URL string
	// Published is zero when the service's date could not be read; then
	// RawDate holds its text as sent.
	Published time.Time
	RawDate   string
	Ago       string // "3 days ago", "2 months ago"
	Absolute  string // "Sep 20, 2026 08:41 UTC"
	Datetime  string // for <time datetime>, RFC 3339 in UTC
	// DescriptionHTML is sanitised HTML: text, paragraphs, a few inline
	// tags and http(s) links that open in a new tab. Only this field may be
	// rendered unescaped.
	DescriptionHTML string
}

// descriptionPolicy keeps what news feeds use for layout and drops the rest:
// no scripts, no styles, no attributes but href, no URL schemes but http(s).
// A bluemonday policy is safe for concurrent use once built.
var descriptionPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "b", "strong", "i", "em")
	p.AllowAttrs("href").OnElements("a")
	// A link with a user name ("https://bank.example@evil.example/") is
	// a phishing trick: dropped, as SafeLink drops it from titles.
	for _, scheme := range []string{"http", "https"} {
		p.AllowURLSchemeWithCustomPolicy(scheme, func(u *url.URL) bool { return u.User == nil })
	}
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false) // a relative link would point into the dashboard
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // also adds rel="noopener"
	p.AddSpaceWhenStrippingTag(true)            // "a<div>b" must not read "ab"
	return p
}()

// textPolicy strips every tag, for fields shown as plain text.
var textPolicy = bluemonday.StrictPolicy().AddSpaceWhenStrippingTag(true)

// NewsItems turns the service's stories into display items, in the order
// given (the service sends newest first), keeping at most limit (0: all).
func NewsItems(items []upstream.NewsItem, now time.Time, limit int) []NewsItem {
	if limit > 0 && len(items) > limit {
		items = items[:limit]
	}
	out := make([]NewsItem, 0, len(items))
	for _, n := range items {
		out = append(out, newsItem(n, now))
	}
	return out
}

// Bounds of a story's text: a feed's titles and descriptions are a line
// and a paragraph or two; more would stretch every news page.
const (
	maxNewsTitle       = 300  // characters shown
	maxNewsDescription = 8000 // bytes of HTML read
)

func newsItem(n upstream.NewsItem, now time.Time) NewsItem {
	v := NewsItem{
		Title:           Clip(PlainText(n.Title), maxNewsTitle),
		URL:             SafeLink(n.Link),
		DescriptionHTML: SanitizeDescription(n.Description),
	}
	if v.Title == "" {
		v.Title = "(untitled story)"
	}
	if t, ok := n.Published(); ok {
		t = t.UTC()
		v.Published = t
		v.Ago = Ago(t, now)
		v.Absolute = DateTime(t)
		v.Datetime = t.Format(time.RFC3339)
	} else {
		v.RawDate = PlainText(n.PubDate)
	}
	return v
}

// PlainText reduces text that may carry markup or entities (as feed titles
// do) to plain text: tags are dropped, "&amp;" becomes "&". The template
// escapes the result again, so nothing in it can become markup.
func PlainText(s string) string {
	return remembered(plainTexts, s, func(s string) string {
		return strings.Join(strings.Fields(html.UnescapeString(textPolicy.Sanitize(s))), " ")
	})
}

// SanitizeDescription is the only source of HTML from the service that a
// page renders unescaped. Only its first maxNewsDescription bytes are read,
// and every element it opens is closed within it: an unclosed link must not
// wrap the rest of the page.
func SanitizeDescription(s string) string {
	if len(s) > maxNewsDescription {
		s = strings.ToValidUTF8(s[:maxNewsDescription], "") + "…"
	}
	return remembered(descriptions, s, func(s string) string {
		return balanced(strings.TrimSpace(descriptionPolicy.Sanitize(s)))
	})
}

// balanced re-writes sanitised HTML with every element closed, as a
// browser would read it inside the story's own element.
func balanced(s string) string {
	ctx := &nethtml.Node{Type: nethtml.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := nethtml.ParseFragment(strings.NewReader(s), ctx)
	if err != nil {
		return html.EscapeString(s) // unreachable for a strings.Reader; text is safe
	}
	var b strings.Builder
	for _, n := range nodes {
		if err := nethtml.Render(&b, n); err != nil {
			return html.EscapeString(s)
		}
	}
	return b.String()
}

// Sanitizing parses the HTML on every call, and the same stories reach
// every analyst of an industry on every visit to the news and home pages,
// so the results for recent inputs are kept, bounded by their bytes.
var (
	plainTexts   = newSanitizedCache()
	descriptions = newSanitizedCache()
)

// sanitizedBytes bounds each cache of sanitized text.
const sanitizedBytes = 1 << 20

func newSanitizedCache() *otter.Cache[string, string] {
	return otter.Must(&otter.Options[string, string]{
		MaximumWeight: sanitizedBytes,
		Weigher:       func(in, out string) uint32 { return uint32(len(in) + len(out) + 64) },
	})
}

// remembered is clean(s), from the cache when s was cleaned lately.
func remembered(c *otter.Cache[string, string], s string, clean func(string) string) string {
	if out, ok := c.GetIfPresent(s); ok {
		return out
	}
	out := clean(s)
	c.Set(s, out)
	return out
}

// SafeLink returns the link in a canonical form if it is an absolute http or
// https URL with a host, else "". Feeds sometimes carry javascript: or data:
// links; those must never become an href.
func SafeLink(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > 2048 || strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return ""
	}
	return u.String()
}

// Ago says how long ago t was, going on past a month where Relative gives
// the date: news pages show the absolute date beside it anyway.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	if d < 30*24*time.Hour {
		return Relative(t, now)
	}
	months := monthsBetween(t, now)
	switch {
	case months < 2:
		return "a month ago"
	case months < 12:
		return strconv.Itoa(months) + " months ago"
	case months < 24:
		return "a year ago"
	default:
		return strconv.Itoa(months/12) + " years ago"
	}
}

// monthsBetween counts whole calendar months from t to now.
func monthsBetween(t, now time.Time) int {
	m := (now.Year()-t.Year())*12 + int(now.Month()) - int(t.Month())
	if now.Day() < t.Day() {
		m--
	}
	return max(m, 1)
}
