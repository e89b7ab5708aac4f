package views

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"creditdash/internal/upstream"
)

var newsNow = time.Date(2026, time.October, 31, 12, 0, 0, 0, time.UTC)

func TestSafeLink(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://news.example.com/a?b=1&c=2", "https://news.example.com/a?b=1&c=2"},
		{"http://wire.example.org/story/1", "http://wire.example.org/story/1"},
		{"  https://example.com/x  ", "https://example.com/x"},
		{"HTTPS://Example.com/x", "https://Example.com/x"},
		{"javascript:alert(1)", ""},
		{"JavaScript:alert(1)", ""},
		{" javascript:alert(1)", ""},
		{"java\tscript:alert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"vbscript:msgbox(1)", ""},
		{"//evil.example.com/x", ""},
		{"/relative/path", ""},
		{"https://user:pw@example.com/", ""},
		{"https:///nohost", ""},
		{"", ""},
		{"https://example.com/\x00", ""},
	}
	for _, c := range cases {
		if got := SafeLink(c.in); got != c.want {
			t.Errorf("SafeLink(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPlainText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"AT&amp;T cuts guidance", "AT&T cuts guidance"},
		{"Profits &lt;b&gt;up&lt;/b&gt;", "Profits <b>up</b>"}, // shown as text, escaped by the template
		{"<b>Bold</b> move", "Bold move"},
		{"Evil <script>alert(1)</script>Corp", "Evil Corp"},
		{`<img src=x onerror=alert(1)>Story`, "Story"},
		{"  many   spaces\n", "many spaces"},
		{"Caf&eacute; chain", "Café chain"},
	}
	for _, c := range cases {
		if got := PlainText(c.in); got != c.want {
			t.Errorf("PlainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSanitizeDescriptionKeepsTextAndSafeLinks(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string // substrings that must be in the output
		refuse   []string // substrings that must not
	}{
		{"paragraphs and entities", "<p>Sales &amp; margins</p>", []string{"<p>Sales &amp; margins</p>"}, nil},
		{"http link opens in a new tab", `<a href="https://news.example.com/x">Wire</a>`,
			[]string{`href="https://news.example.com/x"`, `target="_blank"`, "noopener", "noreferrer", ">Wire</a>"}, nil},
		{"script dropped with its content", `ok<script>alert(1)</script>`, []string{"ok"}, []string{"<script", "alert"}},
		{"event handlers dropped", `<p onclick="alert(1)">x</p><img src=x onerror=alert(2)>`, []string{"<p>x</p>"},
			[]string{"onclick", "onerror", "<img"}},
		{"javascript link loses its href", `<a href="javascript:alert(1)">click</a>`, []string{"click"}, []string{"javascript", "href"}},
		{"data link loses its href", `<a href="data:text/html;base64,PHNjcmlwdD4=">d</a>`, []string{"d"}, []string{"data:", "href"}},
		{"relative link dropped", `<a href="/logout">x</a>`, []string{"x"}, []string{"href"}},
		{"style and iframe dropped", `<style>body{}</style><iframe src="https://e.com"></iframe><span style="color:red">t</span>`,
			[]string{"t"}, []string{"style", "iframe", "body{}"}},
		{"svg dropped", `<svg onload=alert(1)><circle/></svg>n`, []string{"n"}, []string{"svg", "onload"}},
	}
	for _, c := range cases {
		got := SanitizeDescription(c.in)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: SanitizeDescription(%q) = %q, lacks %q", c.name, c.in, got, w)
			}
		}
		for _, r := range c.refuse {
			if strings.Contains(got, r) {
				t.Errorf("%s: SanitizeDescription(%q) = %q, holds %q", c.name, c.in, got, r)
			}
		}
		checkInert(t, c.name, got)
	}
}

// checkInert parses HTML and fails on any script, on* attribute or href
// that is not http(s).
func checkInert(t *testing.T, name, s string) {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(s), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "script" || n.Data == "iframe" || n.Data == "object" || n.Data == "embed" {
				t.Errorf("%s: <%s> survived in %q", name, n.Data, s)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") || a.Key == "style" || a.Key == "src" {
					t.Errorf("%s: attribute %s survived in %q", name, a.Key, s)
				}
				if a.Key == "href" && SafeLink(a.Val) == "" {
					t.Errorf("%s: href %q survived in %q", name, a.Val, s)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
}

func TestNewsItems(t *testing.T) {
	in := []upstream.NewsItem{
		{ID: 3, Title: "Merger &amp; acquisition", Link: "https://news.example.com/3",
			Description: "<p>Deal</p>", PubDate: "Fri, 30 Oct 2026 22:45:30 GMT"},
		{ID: 2, Title: "<script>x</script>", Link: "javascript:alert(1)", PubDate: "Sun, 20 Sep 2026 08:41:14 GMT"},
		{ID: 1, Title: "Odd date", Link: "http://wire.example.org/1", PubDate: "sometime <b>soon</b>"},
	}
	got := NewsItems(in, newsNow, 0)
	if len(got) != 3 {
		t.Fatalf("got %d items, want 3", len(got))
	}
	a := got[0]
	if a.Title != "Merger & acquisition" || a.URL != "https://news.example.com/3" || a.DescriptionHTML != "<p>Deal</p>" {
		t.Errorf("first item = %+v", a)
	}
	if a.Ago != "13 hours ago" || a.Absolute != "Oct 30, 2026 22:45 UTC" || a.Datetime != "2026-10-30T22:45:30Z" {
		t.Errorf("first item dates: ago %q absolute %q datetime %q", a.Ago, a.Absolute, a.Datetime)
	}
	if b := got[1]; b.URL != "" || b.Title != "(untitled story)" || b.Ago != "a month ago" {
		t.Errorf("hostile item = %+v, want no URL, a stand-in title and 'a month ago'", b)
	}
	if c := got[2]; !c.Published.IsZero() || c.RawDate != "sometime soon" || c.Datetime != "" {
		t.Errorf("unreadable date: %+v, want the raw text without markup and no datetime", c)
	}
	if n := len(NewsItems(in, newsNow, 2)); n != 2 {
		t.Errorf("limit 2 kept %d items", n)
	}
}

func TestAgo(t *testing.T) {
	cases := []struct {
		t    time.Time
		want string
	}{
		{newsNow.Add(-5 * time.Minute), "5 minutes ago"},
		{newsNow.Add(-30 * time.Hour), "yesterday"},
		{newsNow.AddDate(0, 0, -10), "10 days ago"},
		{newsNow.AddDate(0, -1, -2), "a month ago"},
		{newsNow.AddDate(0, -3, 0), "3 months ago"},
		{newsNow.AddDate(-1, -1, 0), "a year ago"},
		{newsNow.AddDate(-3, 0, 0), "3 years ago"},
	}
	for _, c := range cases {
		if got := Ago(c.t, newsNow); got != c.want {
			t.Errorf("Ago(%s) = %q, want %q", c.t, got, c.want)
		}
	}
}

// Kept results never cross policies: the same input read as plain text and
// as a description, twice each, gives each policy's own answer.
func TestSanitizedResultsStayWithTheirPolicy(t *testing.T) {
	in := `<b>Quarterly</b> results <script>x()</script>`
	for range 2 {
		if got := PlainText(in); got != "Quarterly results" {
			t.Fatalf("PlainText = %q", got)
		}
		if got := SanitizeDescription(in); got != "<b>Quarterly</b> results" {
			t.Fatalf("SanitizeDescription = %q", got)
		}
	}
}

// A description that leaves elements open closes them within itself: the
// next story is never inside its link or its bold.
func TestSanitizeDescriptionClosesWhatItOpens(t *testing.T) {
	out := SanitizeDescription(`Read <a href="https://evil.example.com/phish">more <b><i>`)
	page := `<ul><li><div>` + out + `</div></li><li id="next">Second story</li></ul>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var next *html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		for _, a := range n.Attr {
			if a.Key == "id" && a.Val == "next" {
				next = n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if next == nil {
		t.Fatalf("the next story is gone: %q", out)
	}
	for p := next; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && (p.Data == "a" || p.Data == "b" || p.Data == "i") {
			t.Errorf("the next story is inside <%s> of the description %q", p.Data, out)
		}
	}
	if !strings.Contains(out, `href="https://evil.example.com/phish"`) {
		t.Errorf("the description's own link is gone: %q", out)
	}
}

// Links with a user name are dropped from descriptions, as from titles;
// long titles and descriptions are cut.
func TestNewsTextBounds(t *testing.T) {
	if out := SanitizeDescription(`<a href="https://bank.example@evil.example/">log in</a>`); strings.Contains(out, "href") {
		t.Errorf("a link with a user name survived: %q", out)
	}
	items := NewsItems([]upstream.NewsItem{{Title: strings.Repeat("long ", 20000), Description: strings.Repeat("<p>para</p>", 20000)}}, time.Now(), 0)
	if n := utf8.RuneCountInString(items[0].Title); n > maxNewsTitle+1 || !strings.HasSuffix(items[0].Title, "…") {
		t.Errorf("title of %d characters, want at most %d and an ellipsis", n, maxNewsTitle+1)
	}
	if n := len(items[0].DescriptionHTML); n > 2*maxNewsDescription {
		t.Errorf("description of %d bytes, want it cut near %d", n, maxNewsDescription)
	}
}
