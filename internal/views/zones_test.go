package views

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/credit"
)

func TestRiskZone(t *testing.T) {
	cases := []struct {
		score int
		label string
		class string
	}{
		{0, "unknown", "zone-none"}, {11, "unknown", "zone-none"},
		{1, "severe", "zone-1"}, {2, "severe", "zone-1"},
		{3, "high", "zone-2"}, {4, "high", "zone-2"},
		{5, "elevated", "zone-3"},
		{6, "moderate", "zone-4"}, {7, "moderate", "zone-4"},
		{8, "low", "zone-5"}, {10, "low", "zone-5"},
	}
	for _, c := range cases {
		z := RiskZone(c.score)
		if z.Label != c.label || z.Class() != c.class {
			t.Errorf("RiskZone(%d) = %q %q, want %q %q", c.score, z.Label, z.Class(), c.label, c.class)
		}
	}
}

func TestRiskProbability(t *testing.T) {
	cases := map[int]string{0: "", 11: "", 1: "9.99–50%", 5: "0.87–1.40%", 10: "0–0.12%"}
	for s, want := range cases {
		if got := RiskProbability(s); got != want {
			t.Errorf("RiskProbability(%d) = %q, want %q", s, got, want)
		}
	}
}

// TestZoneColoursMatchCSSAndReadWell keeps the charts' zone colours equal to
// the stylesheet's --zone-* variables and checks the text on each reaches
// WCAG AA (4.5:1): white on every zone but 3, which carries dark ink.
func TestZoneColoursMatchCSSAndReadWell(t *testing.T) {
	css, err := os.ReadFile(filepath.Join("..", "..", "static", "css", "app.css"))
	if err != nil {
		t.Fatal(err)
	}
	const ink = "#1d2433"
	for level, colour := range zoneColours {
		name := "--zone-none"
		if credit.Level(level) != credit.LevelNone {
			name = "--zone-" + strconv.Itoa(level)
		}
		m := regexp.MustCompile(regexp.QuoteMeta(name) + `:\s*(#[0-9a-fA-F]{6})\s*;`).FindSubmatch(css)
		if m == nil {
			t.Errorf("app.css defines no %s", name)
		} else if got := strings.ToLower(string(m[1])); got != colour {
			t.Errorf("app.css %s = %s, the charts use %s", name, got, colour)
		}
		text, textName := "#ffffff", "white"
		if credit.Level(level) == credit.Level3 {
			text, textName = ink, "ink"
		}
		if r := contrast(colour, text); r < 4.5 {
			t.Errorf("%s text on %s (%s): contrast %.2f:1, want at least 4.5:1", textName, name, colour, r)
		}
	}
}

// contrast is the WCAG 2 contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	var rgb [3]float64
	for i := range rgb {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.04045 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
}
