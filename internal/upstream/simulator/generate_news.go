package simulator

import (
	"fmt"
	"html"
	"slices"
	"sort"
	"strings"
	"time"
)

// genNewsMonths is how many months of news a business has.
const genNewsMonths = 12

// News classes (DEMO-DATA "News").
const (
	genNewsEarnings = iota
	genNewsRating
	genNewsDeal
	genNewsLitigation
	genNewsLayoffs
	genNewsDefault
)

// How many stories a month (0-5) and of which class, by the month's Risk:
// troubled companies are in the news more, and for worse reasons.
var (
	genNewsCountHealthy  = []float64{0.40, 0.30, 0.15, 0.09, 0.04, 0.02}
	genNewsCountTroubled = []float64{0.15, 0.25, 0.25, 0.17, 0.10, 0.08}
	genNewsClassByBand   = [3][]float64{
		{0.22, 0.25, 0.06, 0.15, 0.20, 0.12}, // Risk 1-2
		{0.35, 0.20, 0.12, 0.15, 0.18, 0},    // Risk 3-5
		{0.45, 0.12, 0.25, 0.12, 0.06, 0},    // Risk 6-10
	}
)

// genStory is one generated story before it becomes a NewsItem.
type genStory struct {
	at          time.Time
	item        NewsItem
	title, text string
}

// news lists 0-5 stories a month over the last year, newest first. Their
// tone follows the Risk score of the month and its three-month trend; the
// Chapter 11 scenario's filing is among them.
func (c *genCore) news(r *genRand, name string) []NewsItem {
	var stories []genStory
	for ago := genNewsMonths - 1; ago >= 0; ago-- {
		mo := c.asOf - genMonth(ago)
		i := int(mo - c.start())
		risk, trend := c.risk[i], c.risk[i]-c.risk[max(0, i-3)]
		counts, band := genNewsCountHealthy, 2
		switch {
		case risk <= 2:
			counts, band = genNewsCountTroubled, 0
		case risk <= 5:
			counts, band = genNewsCountTroubled, 1
		}
		n := r.weighted(counts)
		for k := 0; k < n; k++ {
			class := r.weighted(genNewsClassByBand[band])
			title, text := c.storyText(r, name, class, risk, trend)
			at := genDate(mo, 1+r.intn(mo.days()), r.between(6*3600, 21*3600))
			stories = append(stories, genStory{at: at, title: title, text: text})
		}
		if c.sc != nil && c.sc.story == StoryChapter11 && ago == 1 {
			title, text := genChapter11Story(name)
			stories = append(stories, genStory{at: genDate(mo, 14, 13*3600), title: title, text: text})
		}
	}
	out := make([]NewsItem, len(stories))
	for k := range stories {
		id := int64(c.id)*1000 + int64(k)
		s := &stories[k]
		s.item = genNewsItem(r, id, s.at, s.title, s.text)
	}
	// Newest first; among stories of the same second, the later id first.
	sort.Slice(stories, func(i, j int) bool {
		if !stories[i].at.Equal(stories[j].at) {
			return stories[i].at.After(stories[j].at)
		}
		return stories[i].item.ID > stories[j].item.ID
	})
	for k := range stories {
		out[k] = stories[k].item
	}
	return out
}

// genNewsItem wraps a story as a feed item. Descriptions come in the shapes
// real feeds use: plain text, a paragraph, a paragraph with a source link,
// or text with an inline link; markup carries entities (&amp;, &#39;).
func genNewsItem(r *genRand, id int64, at time.Time, title, text string) NewsItem {
	slug := genSlug(title)
	var link string
	switch r.intn(3) {
	case 0:
		link = fmt.Sprintf("https://news.example.com/%d/%02d/%s-%d", at.Year(), at.Month(), slug, id)
	case 1:
		link = fmt.Sprintf("http://wire.example.org/story/%d", id)
	default:
		link = fmt.Sprintf("https://www.example.net/business/%s?id=%d&src=feed", slug, id)
	}
	source := genNewsSources[r.intn(len(genNewsSources))]
	var desc string
	switch r.intn(4) {
	case 0:
		desc = text
	case 1:
		desc = "<p>" + html.EscapeString(text) + "</p>"
	case 2:
		desc = fmt.Sprintf(`<p>%s</p><p>Source: <a href="%s">%s</a></p>`,
			html.EscapeString(text), html.EscapeString(link), html.EscapeString(source))
	default:
		desc = fmt.Sprintf(`%s <a href="%s">Read more</a>`, html.EscapeString(text), html.EscapeString(link))
	}
	return NewsItem{ID: id, Title: title, Link: link, Description: desc, PubDate: at.Format(LayoutPubDate)}
}

// genNewsSources are the outlets stories are credited to.
var genNewsSources = []string{"Market Wire", "Business Journal Daily", "Trade & Credit News", "Regional Ledger", "Supply Chain Dispatch"}

// genSlug turns a title into a lowercase, hyphenated URL path segment.
func genSlug(title string) string {
	var b strings.Builder
	dash := false
	for _, ch := range strings.ToLower(title) {
		if ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' {
			b.WriteRune(ch)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// genIndustryNews makes 20 headlines for every sector the generator can
// assign (so on-the-fly bulk businesses are covered too), newest first,
// dated within the as-of month and the one before.
func genIndustryNews(seed int64, asOf genMonth) map[string][]NewsItem {
	keys := make([]string, 0, len(genSectors))
	for k := range genSectors {
		keys = append(keys, k)
	}
	slices.Sort(keys) // never depend on map order
	out := make(map[string][]NewsItem, len(keys))
	for _, key := range keys {
		sec := genSectors[key]
		num := int64(key[0]-'0')*10 + int64(key[1]-'0')
		r := newGenRand(seed, num, genStreamIndustry)
		combos := make([]int, len(genIndustryHeadlines)*len(sec.topics))
		for i := range combos {
			combos[i] = i
		}
		r.shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		items := make([]NewsItem, 20)
		at := (asOf + 1).first()
		for k := range items {
			at = at.Add(-time.Duration(r.between(1800, 5*3600)) * time.Second * 6)
			tpl := genIndustryHeadlines[combos[k]/len(sec.topics)]
			topic := sec.topics[combos[k]%len(sec.topics)]
			title := tpl(sec, topic)
			text := fmt.Sprintf("%s: %s. Analysts following %s say %s will shape credit quality over the next two quarters.",
				sec.title, title, sec.crowd, topic)
			items[k] = genNewsItem(&r, 9_000_000_000_000+num*1000+int64(k), at, title, text)
		}
		out[key] = items
	}
	return out
}
