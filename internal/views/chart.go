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
	// OptionJSON is the ECharts option object as go-echarts builds it,
	// encoded once by encoding/json, which escapes <, > and &, so it can
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

// echartsChart is what every go-echarts chart type offers.
type echartsChart interface {
	Validate()
	JSON() map[string]interface{}
}

// NewChart finishes a go-echarts chart into a Chart, encoding its options
// once, here. The options are plain JSON, parsed by the browser, never run:
// no view builds go-echarts' JavaScript functions, which would need eval,
// and TestChartsBuildNoFunctions keeps it so. (Options used to be scanned
// for go-echarts' function marker here, which also refused service text
// that merely held it and turned the page into a 500.)
func NewChart(id, label string, c echartsChart) (Chart, error) {
	c.Validate()
	b, err := json.Marshal(c.JSON())
	if err != nil {
		return Chart{}, fmt.Errorf("views: chart %s: %w", id, err)
	}
	return Chart{ID: id, Label: label, OptionJSON: b}, nil
}
