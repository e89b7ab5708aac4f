package browsertest

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// The ECharts the dashboard serves is a custom build (static/src/echarts.js)
// holding only the chart types and components the pages use. A build that
// lacks one does not fail: ECharts keeps the option it cannot use as a plain
// setting, getOption() still returns it, and the chart draws without it. So
// these tests compare, chart by chart, what the server's option JSON asks
// for with the models and views the live instance built from it.

// auditChart inspects the chart in the container with the given id and
// returns an audit: the parts the options asked for and the instance has
// (Checked), those it lacks (Problems), and every component type the
// instance holds (Has), for the failure message.
//
// Top-level keys are ECharts components unless they are plain settings
// (settingKeys) or need a check of their own: series (chart types and the
// markers inside them) and aria (a visual with no component model of its
// own). For each component the instance must hold a model of the same
// subtype with a view, and every scalar the option set must read back from
// the model, so an option that was dropped or ignored shows.
const auditChart = `((id) => {
	// Settings, not components: they need nothing from the build.
	const settingKeys = new Set(['animation', 'backgroundColor', 'color', 'textStyle']);
	const el = document.getElementById(id);
	const out = {ID: id, Checked: [], Problems: [], Has: []};
	const check = (ok, what, why) => ok ? out.Checked.push(what) : out.Problems.push(what + ': ' + why);
	const chart = window.echarts && echarts.getInstanceByDom(el);
	if (!chart) {
		out.Problems.push('no ECharts instance on #' + id);
		return out;
	}
	const sent = JSON.parse(document.getElementById(el.getAttribute('data-chart')).textContent);
	const model = chart.getModel();
	const has = new Set();
	model.eachComponent((mainType) => has.add(mainType));
	out.Has = Array.from(has).sort();
	check(chart.getZr().painter.getType() === 'canvas', 'canvas renderer', 'the chart is not drawn on a canvas');

	// drawn lists the texts on the chart's display list (what zrender paints).
	const drawn = () => chart.getZr().storage.getDisplayList(true, true)
		.map((e) => e.style && e.style.text).filter((t) => typeof t === 'string');

	// sameValues compares the scalars of an option with what cmpt reads back,
	// descending into objects; arrays compare by length.
	const sameValues = (cmpt, opt, path) => {
		const bad = [];
		for (const [k, v] of Object.entries(opt)) {
			const p = path.concat(k);
			if (k === 'type' || v === null || v === undefined) continue;
			const got = cmpt.get(p);
			if (Array.isArray(v)) {
				if (!Array.isArray(got) || got.length !== v.length) bad.push(p.join('.') + ' has ' + JSON.stringify(got && got.length) + ' items, want ' + v.length);
			} else if (typeof v === 'object') {
				bad.push(...sameValues(cmpt, v, p));
			} else if (got !== v) {
				bad.push(p.join('.') + ' = ' + JSON.stringify(got) + ', want ' + JSON.stringify(v));
			}
		}
		return bad;
	};

	const components = (key, value) => {
		(Array.isArray(value) ? value : [value]).forEach((opt, i) => {
			const what = key + '[' + i + ']' + (opt && typeof opt.type === 'string' ? ' (' + opt.type + ')' : '');
			// go-echarts always sends an empty toolbox; without a feature a
			// toolbox draws nothing, so the build leaves ToolboxComponent out.
			if (key === 'toolbox' && !(opt && opt.feature)) return;
			const cmpt = model.getComponent(key, i);
			if (!cmpt) return check(false, what, 'asked for by the options, missing from the live chart (not in the ECharts build?)');
			if (opt && typeof opt.type === 'string' && cmpt.subType !== opt.type) return check(false, what, 'the live chart built a ' + cmpt.subType);
			if (!chart.getViewOfComponentModel(cmpt)) return check(false, what, 'has a model but no view');
			const bad = opt && typeof opt === 'object' ? sameValues(cmpt, opt, []) : [];
			check(bad.length === 0, what, bad.join('; '));
		});
	};

	const series = (list) => list.forEach((opt, i) => {
		const what = 'series[' + i + '] (' + opt.type + ')';
		const sm = model.getSeriesByIndex(i);
		if (!sm || sm.subType !== opt.type) return check(false, what, 'asked for by the options, the live chart has ' + (sm ? sm.subType : 'no series') + ' (chart type not in the ECharts build?)');
		if (!chart.getViewOfSeriesModel(sm)) return check(false, what, 'has a model but no view');
		const n = (opt.data || []).length;
		check(sm.getRawData().count() === n, what, sm.getRawData().count() + ' data items, want ' + n);
		for (const marker of ['markPoint', 'markLine', 'markArea']) {
			if (!opt[marker]) continue;
			const m = model.getComponent(marker);
			if (!m || !chart.getViewOfComponentModel(m)) {
				check(false, what + ' ' + marker, 'asked for by the options, missing from the live chart (not in the ECharts build?)');
				continue;
			}
			// Named marks with a shown label must be painted.
			const names = (opt[marker].data || []).map((d) => d.name).filter((s) => s);
			const texts = drawn();
			const unpainted = opt[marker].label && opt[marker].label.show ? names.filter((s) => !texts.includes(s)) : [];
			check(unpainted.length === 0, what + ' ' + marker, 'labels not painted: ' + unpainted.join(', '));
		}
	});

	// aria is a setting in the model: with the aria part of the build it
	// sets a decal (pattern) visual on every series; without it, nothing.
	const aria = (opt) => {
		if (!opt || opt.enabled === false || !(opt.decal && opt.decal.show)) return;
		model.eachSeries((sm) => {
			const d = sm.getData();
			check(!!(d.getVisual('decal') || (d.count() > 0 && d.getItemVisual(0, 'decal'))),
				'aria decal on series[' + sm.componentIndex + ']', 'no decal pattern (AriaComponent not in the ECharts build?)');
		});
	};

	// A chart that failed half-way (ECharts throws on some missing parts)
	// has a half-built model: report what breaks and check the rest.
	const guard = (what, fn) => {
		try {
			fn();
		} catch (e) {
			check(false, what, 'the check threw ' + e);
		}
	};
	for (const [key, value] of Object.entries(sent)) {
		if (settingKeys.has(key)) continue;
		if (key === 'series') guard('series', () => series(value));
		else if (key === 'aria') guard('aria', () => aria(value));
		else guard(key, () => components(key, value));
	}
	// What a reader sees: the title, the legend's items (a scrolling
	// legend's first page at least) and the visual map's pieces are painted.
	const texts = drawn();
	const painted = (what, want) => {
		const missing = want.filter((s) => !texts.includes(s));
		check(missing.length === 0, what, 'not on the canvas: ' + missing.map((s) => JSON.stringify(s)).join(', '));
	};
	guard('title painted', () => {
		const title = model.getComponent('title');
		if (title && title.get('text')) painted('title painted', [title.get('text')]);
	});
	guard('legend painted', () => model.eachComponent('legend', (legend) => {
		if (!legend.get('show')) return;
		const names = legend.getData().map((m) => m.get('name'));
		painted('legend painted', legend.subType === 'scroll' ? names.slice(0, 1) : names);
	}));
	guard('visualMap pieces painted', () => model.eachComponent('visualMap', (vm) => {
		if (vm.get('show') !== false && vm.getPieceList) painted('visualMap pieces painted', vm.getPieceList().map((p) => p.text));
	}));
	return out;
})`

// audit is what auditChart returns for one chart.
type audit struct {
	ID       string
	Checked  []string
	Problems []string
	Has      []string
}

// auditCharts waits for the page's charts to draw, audits each and fails t
// for every part a chart's options ask for that its instance lacks, then
// checks that all want charts drew. The audit comes first because a build
// lacking a part can also stop a chart from drawing, and the audit names
// the part. It returns the parts checked, each prefixed by the chart's id.
func auditCharts(t *testing.T, b *Browser, want int) []string {
	t.Helper()
	drawn := waitCharts(b, fmt.Sprintf("%d charts drawn", want), func(n int) bool { return n == want })
	ids := Eval[[]string](b, `Array.from(document.querySelectorAll('[data-chart]:not([data-chart-deferred])'), (el) => el.id)`)
	var checked []string
	for _, id := range ids {
		a := Eval[audit](b, auditChart+"("+jsString(id)+")")
		for _, p := range a.Problems {
			t.Errorf("%s %s: %s (the instance has %s)", b.URL(), id, p, strings.Join(a.Has, ", "))
		}
		for _, c := range a.Checked {
			checked = append(checked, id+" "+c)
		}
	}
	if drawn != want {
		t.Fatalf("%s: charts drawn: %d, want %d (negative: that many never drew)", b.URL(), drawn, want)
	}
	checkChartsDrawn(t, b, want) // now at once: the painted pixels
	return checked
}

// bundleParts are what the pages' options use today, as auditChart names
// them: the custom build was cut to exactly these. A part missing here means
// a page stopped using it (update the list, and drop it from the build if no
// chart needs it any more).
var bundleParts = []string{
	"canvas renderer",
	"series[0] (line)", "series[0] (bar)", "series[0] (heatmap)",
	"title[0]", "title painted", "legend[0]", "legend[0] (scroll)", "legend painted", "tooltip[0]",
	"grid[0]", "xAxis[0] (category)", "yAxis[0] (value)", "yAxis[0] (category)",
	"visualMap[0] (piecewise)", "visualMap pieces painted", "series[0] (line) markLine", "aria decal on series[0]",
}

func TestEchartsBuildHasEveryPartTheChartsAskFor(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	checked := auditCharts(t, b, 5)

	if status := b.ClickNavigate(`nav.tabs a[href="/businesses/1001/payments"]`); status != http.StatusOK {
		t.Fatalf("payments tab: status %d", status)
	}
	checked = append(checked, auditCharts(t, b, 4)...) // aging, DBT by category, heat map, toward a category

	if status := b.Navigate(app.URL + "/portfolio/scores"); status != http.StatusOK {
		t.Fatalf("GET /portfolio/scores: status %d", status)
	}
	checked = append(checked, auditCharts(t, b, 1)...)

	// Guard against an audit that checks nothing: every part the build was
	// cut for was seen on some chart.
	for _, part := range bundleParts {
		if !slices.ContainsFunc(checked, func(c string) bool { return strings.HasSuffix(c, " "+part) }) {
			t.Errorf("no chart on the three pages checked %q", part)
		}
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// TestEchartsAuditNoticesMissingParts proves the audit can fail: a chart
// whose options ask for a chart type and a component the build leaves out is
// reported for both, although its getOption() still holds them. A sunburst
// on polar axes is far from anything a credit dashboard draws, so the probe
// should keep asking for parts the build lacks.
func TestEchartsAuditNoticesMissingParts(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/businesses/1001")
	checkChartsDrawn(t, b, 5)

	// Runs in the page: a new chart with its options in a JSON element, as
	// the server renders them, drawn the way js/charts.js draws.
	type probe struct {
		Audit audit
		// Kept says getOption() still holds polar, which the build lacks.
		Kept bool
	}
	p := Eval[probe](b, `(() => {
		const option = {
			polar: {}, angleAxis: {type: 'category', data: ['a', 'b']}, radiusAxis: {},
			series: [{type: 'sunburst', data: [{name: 'a', value: 1}]}],
		};
		const el = document.createElement('div');
		el.id = 'probe-chart';
		el.style.width = '300px';
		el.style.height = '200px';
		el.setAttribute('data-chart', 'probe-chart-options');
		const src = document.createElement('script');
		src.type = 'application/json';
		src.id = 'probe-chart-options';
		src.textContent = JSON.stringify(option);
		document.body.append(el, src);
		const chart = echarts.init(el, null, {renderer: 'canvas'});
		chart.setOption(option);
		return {Audit: `+auditChart+`('probe-chart'), Kept: 'polar' in chart.getOption()};
	})()`)
	for _, want := range []string{"series[0] (sunburst)", "polar[0]", "angleAxis[0] (category)"} {
		if !slices.ContainsFunc(p.Audit.Problems, func(s string) bool { return strings.HasPrefix(s, want+":") }) {
			t.Errorf("the audit of a chart asking for parts the build lacks did not report %s; problems: %q", want, p.Audit.Problems)
		}
	}
	if !p.Kept {
		t.Error("getOption() of the probe dropped polar; the trap this audit guards against is that it keeps what the build cannot draw")
	}
}
