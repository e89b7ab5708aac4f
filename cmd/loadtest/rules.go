package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/figures"
)

// rulesFigure is the figure of the home page with broad rules (issue 29).
const rulesFigure = 6

// rulesTarget: the home page of an analyst with twenty broad rules costs
// at most this many times the same page without rules, since an
// evaluation that finds nothing new must cost little however many alerts
// are held.
const rulesTarget = 3.0

// rulesTime bounds the timed home pages of one run in time, as
// opts.rulesPages bounds them in count.
const rulesTime = 60 * time.Second

// ruleSpec is one alert rule as the dashboard's form sends it.
type ruleSpec struct{ score, condition, threshold string }

// broadRules are twenty distinct portfolio rules, Z″ above -3.99 to
// -3.80: each fires for nearly every business of the bulk user's that has
// a Z″, so together they raise more than the 10,000 alerts kept, as an
// honest analyst's twenty broad rules can (issue 29).
func broadRules() []ruleSpec {
	var out []ruleSpec
	for i := range 20 {
		out = append(out, ruleSpec{"z", "above", fmt.Sprintf("%.2f", -3.99+float64(i)/100)})
	}
	return out
}

// form is the rule as the POST /alerts/rules body.
func (r ruleSpec) form(csrf string) url.Values {
	return url.Values{"_csrf": {csrf}, "scope": {"portfolio"}, "score": {r.score},
		"condition": {r.condition}, "threshold": {r.threshold}}
}

// rulesRow is the row of the figure: the median home page with rules over
// the median without, against rulesTarget.
func rulesRow(with, without time.Duration) (measured, target string, ok bool) {
	ratio := float64(with) / float64(max(without, time.Microsecond))
	return fmt.Sprintf("%.2f× (%s / %s)", ratio, ms64text(with), ms64text(without)),
		fmt.Sprintf("<= %.0f×", rulesTarget), ratio <= rulesTarget
}

// ms64text is a duration in milliseconds with one decimal: home pages
// of a warm cache take a few.
func ms64text(d time.Duration) string { return fmt.Sprintf("%.1f ms", ms64(d)) }

// broadRulesHome measures figure 6 against a stand-in of its own, whose
// bulk user holds opts.rulesBulk businesses: opts.rulesPages home pages of
// the bulk user without rules, then twenty broad portfolio rules made
// through the dashboard's form, one home page to raise their alerts, and
// as many home pages again.
func (l *lab) broadRulesHome(ctx context.Context) {
	const what = "bulk home page with 20 broad rules"
	o := l.opts
	err := func() error {
		sim, err := figures.StartStandIn(ctx, o.simulator, filepath.Join(l.dir, "simulator-rules.log"),
			[]string{"-analysts", "1", "-bulk", fmt.Sprint(o.rulesBulk), "-latency", o.latency.String()}, 60*time.Second)
		if err != nil {
			return err
		}
		defer sim.Stop()
		web, err := startDashboard(ctx, o, sim.URL, l.dir, "web-rules")
		if err != nil {
			return err
		}
		defer web.Stop()
		b := newBrowser(web.URL, requestTimeout)
		defer b.close()
		if err := b.signIn(ctx, "bulk"); err != nil {
			return err
		}
		// The first page fills the cache with the portfolio's scores.
		if _, err := b.home(ctx); err != nil {
			return fmt.Errorf("loadtest: first home page: %w", err)
		}
		without, err := b.homes(ctx, o.rulesPages)
		if err != nil {
			return err
		}
		if err := b.addRules(ctx, broadRules()); err != nil {
			return err
		}
		settle, err := b.home(ctx)
		if err != nil {
			return fmt.Errorf("loadtest: home page raising the alerts: %w", err)
		}
		unread, err := b.unreadAlerts(ctx)
		if err != nil {
			return err
		}
		if unread == "0" {
			return fmt.Errorf("loadtest: the broad rules raised no alert, so the figure would measure nothing")
		}
		with, err := b.homes(ctx, o.rulesPages)
		if err != nil {
			return err
		}
		if exitErr := web.Failed(); exitErr != nil {
			return exitErr
		}
		mw, mo := figures.Median(with), figures.Median(without)
		measured, target, ok := rulesRow(mw, mo)
		l.rep.Check(rulesFigure, "bulk home page: 20 broad rules / none (p50)", measured, target, ok)
		l.rep.Info(rulesFigure, "bulk home page: first with the rules", ms64text(settle))
		l.rep.Note(rulesFigure, "user bulk (%d businesses) signed in through the form; after one home page to fill the cache, %d home pages one after another without rules, then %d portfolio rules made through POST /alerts/rules (%s), one home page to raise their alerts (%s unread on /alerts after it), and %d home pages again; p50 compared, longest %s without and %s with",
			o.rulesBulk, len(without), len(broadRules()), rulesText(broadRules()), unread, len(with),
			ms64text(longest(without)), ms64text(longest(with)))
		return nil
	}()
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		l.rep.Broken(rulesFigure, what, err)
	}
}

// rulesText lists rules briefly, e.g. "pay below 2, z below 1".
func rulesText(rules []ruleSpec) string {
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = r.score + " " + r.condition + " " + r.threshold
	}
	return strings.Join(parts, ", ")
}

// longest is the largest of ds, 0 for none.
func longest(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// home loads the home page and says how long it took; anything but 200
// is an error.
func (b *browser) home(ctx context.Context) (time.Duration, error) {
	o := b.get(ctx, "/")
	if o.err != nil || o.status != http.StatusOK {
		return o.elapsed, fmt.Errorf("loadtest: GET /: status %d to %q (%v)", o.status, o.location, o.err)
	}
	return o.elapsed, nil
}

// homes times up to n home pages one after another, for rulesTime at most.
func (b *browser) homes(ctx context.Context, n int) ([]time.Duration, error) {
	deadline := time.Now().Add(rulesTime)
	var out []time.Duration
	for i := 0; i < n && time.Now().Before(deadline) && ctx.Err() == nil; i++ {
		d, err := b.home(ctx)
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("loadtest: no home page timed")
	}
	return out, nil
}

// addRules makes each rule through the alerts page's form, as an analyst
// does: the CSRF token from the page, then one POST per rule, each of
// which must lead back to /alerts.
func (b *browser) addRules(ctx context.Context, rules []ruleSpec) error {
	csrf, err := b.formToken(ctx, "/alerts", "/alerts/rules")
	if err != nil {
		return err
	}
	for _, r := range rules {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/alerts/rules", strings.NewReader(r.form(csrf).Encode()))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := b.http.Do(req)
		if err != nil {
			return fmt.Errorf("loadtest: rule %s: %w", rulesText([]ruleSpec{r}), err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/alerts" {
			return fmt.Errorf("loadtest: rule %s: status %d to %q, want 303 to /alerts", rulesText([]ruleSpec{r}), resp.StatusCode, loc)
		}
	}
	return nil
}

// unreadAlerts reads the count of unread alerts /alerts shows, as text
// ("10,000").
func (b *browser) unreadAlerts(ctx context.Context) (string, error) {
	doc, err := b.page(ctx, "/alerts")
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(doc.Find("#alerts-title .muted").First().Text())
	n, ok := strings.CutSuffix(strings.TrimPrefix(text, "("), " unread)")
	if !ok || n == "" {
		return "", fmt.Errorf("loadtest: GET /alerts: no unread count in %q", text)
	}
	return n, nil
}

// page GETs a page that must answer 200 and parses it.
func (b *browser) page(ctx context.Context, path string) (*goquery.Document, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("loadtest: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(io.LimitReader(resp.Body, 8<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("loadtest: GET %s: status %d (%v), want 200", path, resp.StatusCode, err)
	}
	return doc, nil
}

// formToken reads the _csrf field of the form posting to action on page.
func (b *browser) formToken(ctx context.Context, page, action string) (string, error) {
	doc, err := b.page(ctx, page)
	if err != nil {
		return "", err
	}
	token, ok := doc.Find(`form[action="` + action + `"] input[name="_csrf"]`).Attr("value")
	if !ok || token == "" {
		return "", fmt.Errorf("loadtest: GET %s: no _csrf field in the form to %s", page, action)
	}
	return token, nil
}
