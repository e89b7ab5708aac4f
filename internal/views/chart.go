package views

import (
	"encoding/json"
	"fmt"
)

// Chart is one chart of a page: a container the bootstrap script draws into,
// the ECharts options as JSON data (never code), and a text alternative.
type Chart struct {
	// ID is unique on the page; the options script element gets ID+"-options".
	ID string
	// Label describes the chart for screen readers (role="img").
	Label string
	// Size is "", "tall" or "short" (CSS classes that set the height).
	Size string
	// OptionJSON is the ECharts option object (see echart.go), encoded
	// once by encoding/json, which escapes <, > and &, so it can
	// stand inside a script element as it is.
	OptionJSON []byte
}

// OptionsID is the id of the script element holding the chart's options.
func (c Chart) OptionsID() string { return c.ID + "-options" }

// Class is the container's CSS class.
func (c Chart) Class() string {
	if c.Size == "" {
		return "chart"
	}
	return "chart " + c.Size
}

// newChart finishes a chart's options into a Chart, encoding them once,
// here. The options are plain JSON, parsed by the browser, never run: no
// option holds a JavaScript function, which would need eval.
// encoding/json escapes <, > and & in the service's text, so the options
// can stand inside a script element as they are.
func newChart(id, label string, o *ecOption) (Chart, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return Chart{}, fmt.Errorf("views: chart %s: %w", id, err)
	}
	return Chart{ID: id, Label: label, OptionJSON: b}, nil
}
