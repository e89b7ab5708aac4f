package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// A comparison leads with what changed, on every tab a copy can hold: the
// changed facts in the first table with the parts that differ marked, the
// count in words, and the unchanged facts folded in a <details> below,
// none of them in the first table. Each copy is edited as it would have
// been before a change: another name, and one change of the tab's own.
func TestSnapshotCompareChangesFirst(t *testing.T) {
	cases := []struct {
		tab, path string
		// edit changes the copy's data; it returns the label of the
		// tab's own changed fact and the text of its one marked part.
		edit func(t *testing.T, d map[string]any) (label, marked string)
	}{
		{"overview", "/businesses/1001", func(t *testing.T, d map[string]any) (string, string) {
			d["summary"].(map[string]any)["Text"] = "An older summary."
			return "Summary", "An older summary."
		}},
		{"payments", "/businesses/1001/payments", func(t *testing.T, d map[string]any) (string, string) {
			monthly := d["monthly"].([]any)
			row := monthly[len(monthly)/2].(map[string]any)
			row["TotalDue"] = row["TotalDue"].(float64) + 1000
			month, err := time.Parse("2006-01", row["MonthReported"].(string))
			if err != nil {
				t.Fatal(err)
			}
			return month.Format("Jan 2006"), "total due "
		}},
		{"financials", "/businesses/1001/financials?count=3&sort=A", func(t *testing.T, d map[string]any) (string, string) {
			d["comments"].(map[string]any)["Text"] = "Older comments."
			return "Financial comments", "Older comments."
		}},
		{"officers", "/businesses/1001/officers", func(t *testing.T, d map[string]any) (string, string) {
			o := d["officers"].([]any)[0].(map[string]any)
			o["Title"] = "Chair of the board"
			return "Officer ", "Chair of the board"
		}},
	}
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.tab, func(t *testing.T) {
			to := mustRedirect(t, "save "+tc.tab, u.Submit(u.Get(tc.path), ".snapshot-form"))
			id, _ := strconv.ParseInt(strings.TrimPrefix(to, "/snapshots/"), 10, 64)
			s, err := app.Store.Snapshot(ctx, a, id)
			if err != nil {
				t.Fatal(err)
			}
			var d map[string]any
			if err := json.Unmarshal(s.Data, &d); err != nil {
				t.Fatal(err)
			}
			d["ident"].(map[string]any)["BusinessName"] = "Westbridge Stores"
			label, marked := tc.edit(t, d)
			data, _ := json.Marshal(d)
			info, err := app.Store.SaveSnapshot(ctx, a, store.SnapshotSpec{BusinessID: 1001, BusinessName: s.BusinessName,
				Tab: tc.tab, Fetched: s.Fetched, Data: data})
			if err != nil {
				t.Fatal(err)
			}
			cmp := u.Get("/snapshots/" + strconv.FormatInt(info.ID, 10) + "/compare")
			if cmp.Status != http.StatusOK {
				t.Fatalf("compare: status = %d", cmp.Status)
			}
			if got := cmp.Text(".compare-summary"); !strings.HasPrefix(got, "2 changed · ") || !strings.Contains(got, " unchanged") {
				t.Errorf("summary = %q, want 2 changed and the unchanged counted", got)
			}
			first := cmp.Doc.Find("main table").First()
			if !first.HasClass("compare-changes") {
				t.Fatalf("the first table is not the changes: %q", clip(first.Text()))
			}
			rows := first.Find("tbody tr")
			if rows.Length() != 2 || rows.Filter(".changed").Length() != 2 {
				t.Fatalf("changed rows: %q, want the name and %q", clip(rows.Text()), label)
			}
			if rows.Eq(0).Find("th").Text() != "Name" || rows.Eq(0).Find("td.then mark").Text() != "Westbridge Stores" {
				t.Errorf("first change = %q, want the name with the copy's marked", rows.Eq(0).Text())
			}
			own := rows.Eq(1)
			if l := own.Find("th").Text(); !strings.HasPrefix(l, label) {
				t.Errorf("second change is %q, want %q", l, label)
			}
			marks := own.Find("td.then mark")
			if marks.Length() != 1 || !strings.HasPrefix(marks.Text(), marked) || own.Find("td.now mark").Length() != 1 {
				t.Errorf("%s: marked then %q (%d), now %q; want only %q", label, marks.Text(), marks.Length(), own.Find("td.now mark").Text(), marked)
			}
			if own.Find(".change-word").Text() != "changed" {
				t.Errorf("%s: change word %q", label, own.Find(".change-word").Text())
			}
			folded := cmp.Doc.Find("details.compare-unchanged")
			if folded.Length() != 1 || folded.AttrOr("open", "closed") != "closed" {
				t.Fatalf("unchanged values are not folded in one closed details")
			}
			n := folded.Find("table.compare-same tbody tr").Length()
			if want := strconv.Itoa(n) + " unchanged value"; !strings.HasPrefix(folded.Find("summary").Text(), want) ||
				!strings.Contains(cmp.Text(".compare-summary"), strconv.Itoa(n)+" unchanged") {
				t.Errorf("folded summary %q, page summary %q, want %d unchanged", folded.Find("summary").Text(), cmp.Text(".compare-summary"), n)
			}
			folded.Find("tbody th").Each(func(_ int, th *goquery.Selection) {
				if th.Text() == "Name" || th.Text() == own.Find("th").Text() {
					t.Errorf("a changed fact %q is among the unchanged ones", th.Text())
				}
			})
			if folded.Find("mark").Length() != 0 {
				t.Errorf("an unchanged value is marked")
			}
		})
	}
}
