package views

import (
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func story(title, body string, at time.Time) upstream.NewsItem {
	return upstream.NewsItem{Title: title, Description: body, PubDate: at.Format(time.RFC1123Z), Link: "https://news.example/a"}
}

func TestNewReportNews(t *testing.T) {
	now := time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC)
	feeds := []NewsFeed{
		{Label: "Folder “A”", Items: []upstream.NewsItem{
			story("Harbor Freight Logistics Inc files for Chapter 11 bankruptcy protection", "", now.AddDate(0, -1, -6)),
			story("Harbor Freightliner wins award", "", now.AddDate(0, 0, -2)),                            // another name
			story("Analysts on Harbor Freight Logistics", "insolvency fears fade", now.AddDate(0, 0, -3)), // short form
		}},
		{Label: "Industry news", Items: []upstream.NewsItem{
			story("Harbor Freight Logistics Inc files for Chapter 11 bankruptcy protection", "", now.AddDate(0, -1, -6)), // the same story again
			story("Truckers face receivership wave", "", now.AddDate(0, 0, -1)),                                          // names no business
		}},
	}
	rn := NewReportNews("Harbor Freight Logistics Inc", feeds, nil, now)
	if len(rn.Stories) != 2 {
		t.Fatalf("%d stories, want 2 (the filing once and the short-form story): %+v", len(rn.Stories), rn.Stories)
	}
	if rn.Stories[0].Title != "Analysts on Harbor Freight Logistics" || rn.Stories[0].Event != "Insolvency" {
		t.Errorf("newest story = %q (%q)", rn.Stories[0].Title, rn.Stories[0].Event)
	}
	// The newest event wins: the insolvency mention of three days ago.
	if rn.Event == nil || rn.Event.Kind != "Insolvency" {
		t.Fatalf("event = %+v, want the newest, Insolvency", rn.Event)
	}
	if got := rn.Event.Banner(); got != "Insolvency reported Oct 17, 2026 — from news" {
		t.Errorf("banner = %q", got)
	}

	filing := NewReportNews("Harbor Freight Logistics Inc", []NewsFeed{{Label: "F", Items: feeds[0].Items[:1]}}, nil, now)
	if filing.Event == nil || filing.Event.Banner() != "Chapter 11 filing reported Sep 14, 2026 — from news" {
		t.Errorf("filing event = %+v", filing.Event)
	}
	old := NewReportNews("Harbor Freight Logistics Inc", []NewsFeed{{Label: "F", Items: feeds[0].Items[:1]}}, nil, now.AddDate(1, 1, 0))
	if old.Event != nil || len(old.Stories) != 1 {
		t.Errorf("a filing 13 months old: event %+v, %d stories; want the story without a banner", old.Event, len(old.Stories))
	}
	if none := NewReportNews("", feeds, nil, now); len(none.Stories) != 0 || none.Event != nil {
		t.Error("stories matched without a name")
	}
}

func TestEventKind(t *testing.T) {
	for text, want := range map[string]string{
		"X files for Chapter 11 bankruptcy protection": "Chapter 11 filing",
		"X converts case to chapter 7":                 "Chapter 7 filing",
		"Court places X in receivership":               "Receivership",
		"X declared insolvent":                         "Insolvency",
		"X goes bankrupt":                              "Bankruptcy",
		"X reports chapter 110 of its history":         "",
		"X tops quarterly forecasts":                   "",
	} {
		if got := eventKind(text); got != want {
			t.Errorf("eventKind(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestWithEventReplacesTheProbability(t *testing.T) {
	cards := []ScoreCard{{short: ScoreRisk.short(), Band: "9.99–50 % chance"}, {short: ScoreDBT.short()}, {short: ScorePay.short()}}
	WithEvent(cards, &CreditEvent{Kind: "Chapter 11 filing", Published: time.Date(2026, 9, 14, 0, 0, 0, 0, time.UTC)})
	if want := "A Chapter 11 filing was reported Sep 14, 2026 (from news): the 12-month bankruptcy probability of this band no longer applies."; cards[0].Band != want {
		t.Errorf("Risk band = %q, want %q", cards[0].Band, want)
	}
	if cards[1].Band != "" || cards[2].Band != "" {
		t.Error("a card without a probability got one")
	}
}

// TestNamesReadsWholeWords: a name is found in any case and spacing, as
// whole words, across the title and the body, and not inside a longer word.
func TestNamesReadsWholeWords(t *testing.T) {
	forms := nameForms("Harbor Freight Logistics, Inc.")
	for _, c := range []struct {
		texts []string
		want  bool
	}{
		{[]string{"HARBOR   freight\tlogistics inc. files"}, true},
		{[]string{"News of Harbor Freight", "Logistics today"}, true},
		{[]string{"(harbor freight logistics)"}, true},
		{[]string{"harbor freight logisticsx"}, false},
		{[]string{"xharbor freight logistics"}, false},
		{[]string{"harbor freight"}, false},
		{[]string{""}, false},
		{nil, false},
	} {
		if got := names(forms, c.texts...); got != c.want {
			t.Errorf("names(%q) = %v, want %v", c.texts, got, c.want)
		}
	}
	if !names(nameForms("Ölwerke Süd GmbH"), "Die ÖLWERKE SÜD GMBH meldet") {
		t.Error("a name with capitals beyond ASCII was not found")
	}
}
