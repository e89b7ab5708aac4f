package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/figures"
)

// Figure 5's targets, in bytes.
const (
	firstVisitTarget  = 350_000
	repeatVisitTarget = 40_000
)

// pageWeight measures figure 5: the bytes a browser receives for the
// report and everything it references on a first visit, and on a repeat
// visit with the immutable assets in its cache. Each response counts its
// body as sent (gzip when the server chose it) plus its status line and
// headers; what the browser sends is left out.
func (l *lab) pageWeight(ctx context.Context) {
	err := l.withDashboard(ctx, "", func(web *figures.Child) error {
		b := newBrowser(web.URL, 4)
		if err := b.signIn(ctx, demoUser, demoPassword); err != nil {
			return err
		}
		first, err := b.getOK(ctx, reportPath, true)
		if err != nil {
			return err
		}
		html, err := plain(first)
		if err != nil {
			return err
		}
		assets, err := assetPaths(html)
		if err != nil {
			return err
		}
		firstTotal, assetTotal := wire(first), int64(0)
		var revalidated int64 // assets a browser would ask for again
		var mutable []string
		for _, p := range assets {
			r, err := b.getOK(ctx, p, true)
			if err != nil {
				return err
			}
			assetTotal += wire(r)
			if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
				mutable = append(mutable, fmt.Sprintf("%s (%q)", p, cc))
				revalidated += wire(r)
			}
		}
		firstTotal += assetTotal
		again, err := b.getOK(ctx, reportPath, true)
		if err != nil {
			return err
		}
		repeat := wire(again) + revalidated
		l.rep.Check(5, "page weight: first visit", kB(firstTotal), "<= "+kB(firstVisitTarget), firstTotal <= firstVisitTarget)
		l.rep.Check(5, "page weight: repeat visit", kB(repeat), "<= "+kB(repeatVisitTarget), repeat <= repeatVisitTarget)
		l.rep.Note(5, "first visit = HTML %s + %d assets %s; bodies as sent with Accept-Encoding: gzip plus response headers; 1 kB = 1,000 bytes",
			kB(wire(first)), len(assets), kB(assetTotal))
		if len(mutable) == 0 {
			l.rep.Note(5, "repeat visit = the HTML alone: every asset is Cache-Control: public, max-age=31536000, immutable")
		} else {
			l.rep.Note(5, "repeat visit counts these again, not immutable: %s", strings.Join(mutable, ", "))
		}
		return nil
	})
	if err != nil {
		l.rep.Broken(5, "page weight", err)
	}
}

// assetPaths lists what a browser fetches for the page: stylesheets,
// icons, scripts (and the ECharts the chart script fetches) and images on
// this site, once each.
func assetPaths(html []byte) ([]string, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(html))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	add := func(_ int, s *goquery.Selection) {
		// data-echarts: the chart script fetches ECharts itself.
		for _, attr := range []string{"href", "src", "data-echarts"} {
			if v, ok := s.Attr(attr); ok && strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	doc.Find(`link[rel~="stylesheet"], link[rel~="icon"], link[rel~="preload"], script[src], script[data-echarts], img[src]`).Each(add)
	return out, nil
}

// wire is a response's size as received: status line, headers, body.
func wire(r response) int64 {
	var h bytes.Buffer
	_ = r.header.Write(&h)
	status := fmt.Sprintf("HTTP/1.1 %d %s\r\n", r.status, http.StatusText(r.status))
	return int64(len(status) + h.Len() + len("\r\n") + len(r.body))
}
