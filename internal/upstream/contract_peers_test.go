package upstream_test

import (
	"context"
	"encoding/xml"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func TestContractPeerAnalysisValues(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	pa, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(1001), upstream.PeerQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pa.Ratios) != 12 || pa.PeerCount < 2 || len(pa.SIC) != 4 || pa.IndustryName == "" || pa.PeerQuarter != 4 {
		t.Fatalf("PeerAnalysis(1001) = %+v", pa)
	}
	// The business's value is the one its statements give.
	st, err := s.client.As(key).LatestAnnualStatements(ctx, upstream.ByID(1001), upstream.StatementsQuery{StandardYear: pa.PeerYear})
	if err != nil || len(st) != 1 {
		t.Fatalf("statements of %d: %d, %v", pa.PeerYear, len(st), err)
	}
	v := st[0].Values
	want := math.Round(v["CurrentAssets"].Value.V/v["CurrentLiabilities"].Value.V*1e4) / 1e4
	cur := pa.Ratios[0]
	if cur.Ratio != upstream.RatioCurrent || !cur.Value.OK || cur.Value.V != want || !cur.Rank.OK || !cur.Min.OK {
		t.Errorf("current ratio %+v, want value %v from the statements", cur, want)
	}
	for _, r := range pa.Ratios {
		if r.Count > pa.PeerCount || (r.Rank.OK && (r.Rank.V < 1 || r.Rank.V > r.Count)) {
			t.Errorf("%s: rank %v of %d, %d peers", r.Ratio, r.Rank, r.Count, pa.PeerCount)
		}
	}

	dev := s.login(t, "developer")
	limited, err := s.client.As(dev).PeerAnalysis(ctx, upstream.ByID(1001), upstream.PeerQuery{})
	if err != nil || len(limited.Ratios) != 3 {
		t.Errorf("API-Only: %d ratios, %v; want 3", len(limited.Ratios), err)
	}
	empty, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(1007), upstream.PeerQuery{})
	if err != nil || empty.PeerCount != 0 || empty.Ratios == nil || len(empty.Ratios) != 0 {
		t.Errorf("1007 without statements = %+v, %v; want no peers and an empty list", empty, err)
	}
	same, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(1001), upstream.PeerQuery{RiskLevel: upstream.RiskLevelSame, SICPrimary: true})
	if err != nil || same.PeerCount < 1 || same.PeerCount > pa.PeerCount {
		t.Errorf("same risk level: %d peers of %d, %v", same.PeerCount, pa.PeerCount, err)
	}
}

func TestContractPeerAnalysisRefusals(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	key := s.login(t, "demo")
	for _, pq := range []upstream.PeerQuery{
		{Quarter: 5}, {Year: -1}, {SICCode: "12"}, {TargetCountry: "USA"},
		{RiskLevel: "F11"}, {ZScore: "Q"}, {PayScore: "HH"}, {DBT: "0"},
	} {
		_, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(1001), pq)
		if ue := expectKind(t, "bad filter", err, upstream.ErrBadRequest, "InvalidParameter"); ue != nil && ue.Message == "" {
			t.Errorf("%+v: no message from the service", pq)
		}
	}
	_, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(1001), upstream.PeerQuery{FolderID: 987654})
	expectKind(t, "unknown folder", err, upstream.ErrNotFound, "FolderNotFound")
}

// xmlPeers mirrors PeerAnalysis in the stand-in's XML (element names are
// the JSON field names; list items are named after their type).
type xmlPeers struct {
	Data struct {
		PeerYear     int    `xml:"PeerYear"`
		PeerQuarter  int    `xml:"PeerQuarter"`
		SIC          string `xml:"SIC"`
		IndustryName string `xml:"IndustryName"`
		PeerCount    int    `xml:"PeerCount"`
		Ratios       []struct {
			Ratio  string    `xml:"Ratio"`
			Value  xmlNumber `xml:"Value"`
			Max    xmlNumber `xml:"Max"`
			Min    xmlNumber `xml:"Min"`
			Median xmlNumber `xml:"Median"`
			Count  int       `xml:"Count"`
			Rank   xmlNumber `xml:"Rank"`
		} `xml:"Ratios>PeerRatio"`
	} `xml:"Data"`
}

// xmlNumber is an element holding a number, or xsi:nil for null.
type xmlNumber struct {
	Text string `xml:",chardata"`
	Nil  string `xml:"nil,attr"`
}

func (n xmlNumber) float(t *testing.T) upstream.Num[float64] {
	if n.Nil == "true" {
		return upstream.Num[float64]{}
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	if err != nil {
		t.Fatalf("XML number %q: %v", n.Text, err)
	}
	return upstream.Some(f)
}

// The XML answer says value for value what the client read from JSON.
func TestContractPeerAnalysisXMLMatchesJSON(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	for _, user := range []string{"demo", "developer"} {
		key := s.login(t, user)
		for _, id := range []int32{1001, 1006, 1007} {
			got, err := s.client.As(key).PeerAnalysis(ctx, upstream.ByID(id), upstream.PeerQuery{})
			if err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodGet, s.url+"/v1/Business/PeerAnalysis?type=xml&id="+strconv.Itoa(int(id)), nil)
			req.Header.Set("Authorization", "Bearer "+key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var x xmlPeers
			err = xml.NewDecoder(resp.Body).Decode(&x)
			resp.Body.Close()
			if err != nil {
				t.Fatalf("%s %d: XML: %v", user, id, err)
			}
			fromXML := upstream.PeerAnalysis{PeerYear: x.Data.PeerYear, PeerQuarter: x.Data.PeerQuarter, SIC: x.Data.SIC,
				IndustryName: x.Data.IndustryName, PeerCount: x.Data.PeerCount, Ratios: []upstream.PeerRatio{}}
			for _, r := range x.Data.Ratios {
				pr := upstream.PeerRatio{Ratio: r.Ratio, Value: r.Value.float(t), Max: r.Max.float(t), Min: r.Min.float(t),
					Median: r.Median.float(t), Count: r.Count}
				if rank, ok := r.Rank.float(t).Get(); ok {
					pr.Rank = upstream.Some(int(rank))
				}
				fromXML.Ratios = append(fromXML.Ratios, pr)
			}
			if !reflect.DeepEqual(got, fromXML) {
				t.Errorf("%s %d: JSON %+v\nXML %+v", user, id, got, fromXML)
			}
		}
	}
}
