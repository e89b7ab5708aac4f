package handlers_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"creditdash/internal/apptest"
)

// goEchartsOption is a chart's option object in go-echarts' types, which
// the views built it with before they wrote plain structs of their own.
type goEchartsOption struct {
	Animation bool                  `json:"animation"`
	Title     *opts.Title           `json:"title,omitempty"`
	Legend    *opts.Legend          `json:"legend,omitempty"`
	Tooltip   *opts.Tooltip         `json:"tooltip,omitempty"`
	Grid      []opts.Grid           `json:"grid,omitempty"`
	DataZoom  []opts.DataZoom       `json:"dataZoom,omitempty"`
	VisualMap []opts.VisualMap      `json:"visualMap,omitempty"`
	Aria      *opts.Aria            `json:"aria,omitempty"`
	XAxis     []opts.XAxis          `json:"xAxis,omitempty"`
	YAxis     []opts.YAxis          `json:"yAxis,omitempty"`
	Series    []charts.SingleSeries `json:"series"`
}

// strictDecode decodes b into v, refusing any field v's type lacks.
func strictDecode(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// withoutNulls is v decoded from JSON without its null members, which
// go-echarts writes for options it leaves to ECharts.
func withoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != nil {
				out[k] = withoutNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutNulls(e)
		}
		return out
	}
	return v
}

// Every chart of every kind of page is an ECharts option that go-echarts'
// types hold field for field: decoded into them with no field left over
// (so every name is one go-echarts knows, with a value of its type),
// encoded again by go-echarts' types, it is the same option.
func TestChartOptionsFitGoEchartsTypes(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	kinds := map[string]bool{}
	for _, path := range []string{"/businesses/1001", "/businesses/1001/payments", "/businesses/1001/financials",
		"/portfolio/scores", "/portfolio/scores?score=z", "/portfolio/quadrant", "/portfolio/stress", "/compare?ids=1001,1002,1005"} {
		p := u.Get(path)
		scripts := p.Doc.Find(`script[type="application/json"][id$="-options"]`)
		if scripts.Length() == 0 {
			t.Errorf("%s: no chart options", path)
		}
		for i := range scripts.Length() {
			s := scripts.Eq(i)
			id, _ := s.Attr("id")
			sent := []byte(s.Text())
			var o goEchartsOption
			if err := strictDecode(sent, &o); err != nil {
				t.Errorf("%s %s: not go-echarts' option: %v", path, id, err)
				continue
			}
			for j, ser := range o.Series {
				kinds[ser.Type] = true
				raw, _ := json.Marshal(ser.Data)
				var err error
				switch ser.Type {
				case "line":
					err = strictDecode(raw, new([]opts.LineData))
				case "bar":
					err = strictDecode(raw, new([]opts.BarData))
				case "heatmap":
					err = strictDecode(raw, new([]opts.HeatMapData))
				case "scatter":
					err = strictDecode(raw, new([]opts.ScatterData))
				default:
					t.Errorf("%s %s: series %d of an unknown type %q", path, id, j, ser.Type)
				}
				if err != nil {
					t.Errorf("%s %s: series %d's data is not go-echarts' %s data: %v", path, id, j, ser.Type, err)
				}
			}
			again, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			_ = json.Unmarshal(sent, &want)
			_ = json.Unmarshal(again, &got)
			if !reflect.DeepEqual(withoutNulls(want), withoutNulls(got)) {
				t.Errorf("%s %s: go-echarts' types change the option:\nsent %s\nthen %s", path, id, sent, again)
			}
		}
	}
	for _, k := range []string{"line", "bar", "heatmap", "scatter"} {
		if !kinds[k] {
			t.Errorf("no %s chart checked", k)
		}
	}
}
