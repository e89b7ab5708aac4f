package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// payTrendMonths is the span of the payment trend: the Pay score's change
// over the last six months.
const payTrendMonths = 6

// Quadrant is one of the four regions of the two-signal map.
type Quadrant int

// The quadrants, worst first: the page lists them in this order.
const (
	QuadBoth      Quadrant = iota // Z″ 2.60 or below and Pay falling
	QuadPayments                  // Pay falling, Z″ safe
	QuadFinancial                 // Z″ 2.60 or below, Pay steady or rising
	QuadNeither                   // Z″ safe, Pay steady or rising
)

// Label names the quadrant as the page shows it.
func (q Quadrant) Label() string {
	return [...]string{"Both worsening", "Payments worsening", "Financially weak", "Neither worsening"}[q]
}

// Explain says where the quadrant's businesses sit.
func (q Quadrant) Explain() string {
	return [...]string{
		"Z″ 2.60 or below (distress or grey) and Pay score fell over six months",
		"Pay score fell over six months; Z″ safe (above 2.60)",
		"Z″ 2.60 or below; Pay score steady or rising",
		"Z″ safe and Pay score steady or rising",
	}[q]
}

// QuadrantPoint is one business on the map.
type QuadrantPoint struct {
	ID, Name, URL string
	Z             float64
	PayChange     float64
	// ZText and PayText are formatted; ZZone colours Z″.
	ZText, PayText string
	ZZone          Zone
	Quadrant       Quadrant
}

// QuadrantGroup is one quadrant's businesses, worst Z″ first.
type QuadrantGroup struct {
	Quadrant Quadrant
	Label    string
	Explain  string
	Points   []QuadrantPoint
}

// QuadrantMissing is a business left off the map, and why.
type QuadrantMissing struct {
	ID, Name, URL, Reason string
}

// QuadrantView is the map's data: quadrants in order, the businesses
// missing a signal, and the chart.
type QuadrantView struct {
	Groups  []QuadrantGroup
	Missing []QuadrantMissing
	Chart   Chart
	Placed  int
}

// PlaceQuadrants places each business by its latest Z″ and its Pay score
// change over the last six months. keep, when not nil, limits the map to a
// folder's businesses.
func PlaceQuadrants(pay, z upstream.PortfolioScoreHistory, keep map[int32]bool) (QuadrantView, error) {
	type signals struct {
		name         string
		z, dPay      float64
		hasZ, hasPay bool
		payEver      bool
		// zLast, payLast are a business's newest month of the score when
		// it is older than the portfolio's: an old value is never placed
		// as the latest.
		zLast, payLast monthIndex
	}
	zNewest, payNewest := newestMonth(z), newestMonth(pay)
	all := map[int32]*signals{}
	var order []int32
	get := func(b upstream.PortfolioBusinessScores) *signals {
		s, ok := all[b.BusinessID]
		if !ok {
			s = &signals{name: businessLabel(b.BusinessName, b.BusinessID)}
			all[b.BusinessID] = s
			order = append(order, b.BusinessID)
		}
		return s
	}
	for _, b := range z.Businesses {
		if keep != nil && !keep[b.BusinessID] {
			continue
		}
		s := get(b)
		if v, m, ok := latestScore(b.Scores); ok && m == zNewest {
			s.z, s.hasZ = v, true
		} else if ok {
			s.zLast = m
		}
	}
	for _, b := range pay.Businesses {
		if keep != nil && !keep[b.BusinessID] {
			continue
		}
		s := get(b)
		if v, m, ok := latestScore(b.Scores); ok && m == payNewest {
			s.payEver = true
			if then, ok := scoreAt(b.Scores, m-payTrendMonths); ok {
				s.dPay, s.hasPay = v-then, true
			}
		} else if ok {
			s.payEver, s.payLast = true, m
		}
	}
	var v QuadrantView
	groups := make([]QuadrantGroup, 4)
	for q := range groups {
		groups[q] = QuadrantGroup{Quadrant: Quadrant(q), Label: Quadrant(q).Label(), Explain: Quadrant(q).Explain()}
	}
	for _, id := range order {
		s := all[id]
		sid := strconv.Itoa(int(id))
		url := "/businesses/" + sid
		switch {
		case s.zLast != 0:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Z″ for " + zNewest.String() + ": the latest is from " + s.zLast.String()})
			continue
		case !s.hasZ && !s.payEver:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Z″ (private company) and no Pay score (thin trade file)"})
			continue
		case !s.hasZ:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Z″: private company"})
			continue
		case s.payLast != 0:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Pay score for " + payNewest.String() + ": the latest is from " + s.payLast.String()})
			continue
		case !s.payEver:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Pay score: thin trade file"})
			continue
		case !s.hasPay:
			v.Missing = append(v.Missing, QuadrantMissing{sid, s.name, url, "no Pay score six months before the latest"})
			continue
		}
		p := QuadrantPoint{ID: sid, Name: s.name, URL: url, Z: s.z, PayChange: s.dPay,
			ZText: Decimal(s.z, 2), PayText: Signed(s.dPay, 0), ZZone: ZScoreZone(s.z)}
		p.Quadrant = placeQuadrant(s.z, s.dPay)
		groups[p.Quadrant].Points = append(groups[p.Quadrant].Points, p)
		v.Placed++
	}
	for q := range groups {
		slices.SortStableFunc(groups[q].Points, func(a, b QuadrantPoint) int { return cmp.Compare(a.Z, b.Z) })
	}
	v.Groups = groups
	if v.Placed == 0 {
		return v, nil
	}
	c, err := quadrantChart(groups)
	v.Chart = c
	return v, err
}

// placeQuadrant puts a business in its quadrant.
func placeQuadrant(z, payChange float64) Quadrant {
	// Weak is what the zone word says: not safe (distress or grey, 2.60
	// itself grey), so a row never reads "grey" in the "safe" quadrant.
	weak, falling := ZScoreZone(z).Level != credit.Level5, payChange < 0
	switch {
	case weak && falling:
		return QuadBoth
	case falling:
		return QuadPayments
	case weak:
		return QuadFinancial
	default:
		return QuadNeither
	}
}

// newestMonth is the newest month any business of h has a score for.
func newestMonth(h upstream.PortfolioScoreHistory) monthIndex {
	var newest monthIndex
	for _, b := range h.Businesses {
		if _, m, ok := latestScore(b.Scores); ok && m > newest {
			newest = m
		}
	}
	return newest
}

// latestScore is the newest month with a score.
func latestScore(scores []upstream.MonthlyScore) (float64, monthIndex, bool) {
	var best monthIndex
	var val float64
	found := false
	for _, s := range scores {
		if !s.Score.OK || math.IsNaN(s.Score.V) {
			continue
		}
		if m := monthIndexOf(s.Year, s.Month); !found || m > best {
			best, val, found = m, s.Score.V, true
		}
	}
	return val, best, found
}

// scoreAt is the score of month m.
func scoreAt(scores []upstream.MonthlyScore, m monthIndex) (float64, bool) {
	for _, s := range scores {
		if monthIndexOf(s.Year, s.Month) == m && s.Score.OK && !math.IsNaN(s.Score.V) {
			return s.Score.V, true
		}
	}
	return 0, false
}

var quadrantColours = [...]string{"#b3261e", "#c0561c", "#d9a31c", "#2e7d4f"}

// quadrantChart draws one scatter series per quadrant (so the legend names
// them) with the Z″ zone lines; each point's name is its tooltip. Each text
// has a place of its own however narrow the chart: the legend under the
// plot, the y axis's name along the axis, the lines' labels along the
// lines (1.10 and 2.60 lie close together on a phone).
func quadrantChart(groups []QuadrantGroup) (Chart, error) {
	sc := &ecOption{
		Title:   &ecTitle{Text: "Z″ against Pay score change", Left: "left", TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:  &ecLegend{Show: true, Bottom: "0", Left: "center"},
		Tooltip: &ecTooltip{Show: true, Trigger: "item", Formatter: "{b}"},
		Grid:    []ecGrid{{Top: "40", Bottom: "88", Left: "40", Right: "24", ContainLabel: true}},
		XAxis:   []ecAxis{{Name: "Z″ (latest)", Type: "value", NameLocation: "middle", NameGap: 28}},
		YAxis:   []ecAxis{{Name: "Pay change, 6 months", Type: "value", MinInterval: 1, NameLocation: "middle", NameGap: 32}},
	}
	lined := false
	for i, g := range groups {
		data := make([]ecPoint, 0, len(g.Points))
		for _, p := range g.Points {
			data = append(data, ecPoint{Name: p.Name + " · Z″ " + p.ZText + " · Pay " + p.PayText + " · " + g.Label,
				Value: [2]float64{round(p.Z, 2), p.PayChange}, Symbol: "circle", SymbolSize: 9})
		}
		s := ecSeries{Name: g.Label, Type: "scatter", Data: data, ItemStyle: &ecItemStyle{Color: quadrantColours[i]}}
		if !lined && len(g.Points) > 0 {
			// The zone lines once, on a series that is drawn: on every
			// series they were drawn four times over.
			s.MarkLine = zoneMarkLine(true, "insideEndTop")
			lined = true
		}
		sc.Series = append(sc.Series, s)
	}
	c, err := newChart("chart-quadrant", "Each business by latest Z″ and Pay score change; the table lists every one by quadrant", sc)
	c.Size = "tall"
	return c, err
}

// QuadrantPage is /portfolio/quadrant: the two signals of every business.
type QuadrantPage struct {
	Base
	// Folders choose the folder; Folder is the chosen id or "".
	Folders []FolderChoice
	Folder  string
	// Error tells why ?folder= was refused (every business shown).
	Error   string
	Problem *Problem
	View    QuadrantView
	// Capped says the histories hold only the first MovesCompared
	// businesses by name, so later ones are neither placed nor listed.
	Capped bool
	// Empty, when set, says there is no business to place at all.
	Empty string
}

// FolderChoice is one folder of the folder selector.
type FolderChoice struct {
	ID, Name string
}
