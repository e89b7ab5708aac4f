package simulator

import (
	"fmt"
	"math"
	"strings"
)

// address is a street address at the head office.
func (c *genCore) address(r *genRand) string {
	a := fmt.Sprintf("%d %s", r.between(100, 9899), genStreets[r.intn(len(genStreets))])
	if r.chance(0.3) {
		a += fmt.Sprintf(", Suite %d", 100*r.between(1, 24))
	}
	return a
}

// ticker is a three- or four-letter symbol for a public company, made from
// the name's parts as exchanges' symbols usually are.
func (c *genCore) ticker(r *genRand) string {
	if !c.public {
		return ""
	}
	var parts []string
	if c.sc != nil {
		parts = strings.Fields(c.sc.name)
	} else {
		p1, p2 := genBaseParts(c.nameBase)
		parts = append(append([]string{p1}, strings.Fields(p2)...), strings.Fields(c.nameWord)...)
	}
	var t []byte
	for _, p := range parts {
		if ch := p[0] | 0x20; len(t) < 3 && ch >= 'a' && ch <= 'z' {
			t = append(t, ch&^0x20)
		}
	}
	for i := 1; len(t) < 3 && i < len(parts[0]); i++ {
		if ch := parts[0][i] | 0x20; ch >= 'a' && ch <= 'z' {
			t = append(t, ch&^0x20)
		}
	}
	if r.chance(0.4) {
		t = append(t, byte('A'+r.intn(26)))
	}
	return string(t)
}

// summary describes the business the way a company profile does, with the
// date the profile was filed.
func (c *genCore) summary(r *genRand, b *Business) Summary {
	ind := c.primary()
	sec := genSectorOf(ind.code)
	kind := "privately held"
	if c.public {
		kind = "publicly traded"
	}
	staff := r.logUniform(40, 4000)
	if c.nFY > 0 {
		staff = c.fy[0].sales / sec.employeeRv * r.uniform(0.7, 1.4)
	}
	text := fmt.Sprintf("%s is a %s company based in %s, %s, that %s. Founded in %d, it employs about %s people.",
		b.Name, kind, b.City, b.State, ind.activity, c.asOf.year()-r.between(8, 120), genCount(staff))
	if c.nIndustry > 1 {
		text += fmt.Sprintf(" It also reports activity in %s.", strings.ToLower(genIndustries[c.industries[1]].title))
	}
	filed := r.randomDate(c.asOf-24, c.asOf)
	return Summary{DateFiled: filed.Format(LayoutDateTime), Text: text}
}

// comments is the analyst's note (WordFill). Every figure and every word of
// direction in it comes from the two newest fiscal years, the latest
// payment month and the DBT a year before it, so the note and the numbers
// agree.
func (c *genCore) comments(b *Business) string {
	var s strings.Builder
	if c.nFY >= 2 {
		cur, prev := &c.fy[0], &c.fy[1]
		growth := math.Round((cur.sales-prev.sales)/prev.sales*1000) / 10
		switch {
		case growth > 0:
			fmt.Fprintf(&s, "Revenue rose %.1f%% to %s in fiscal %d. ", growth, genMoney(cur.sales), cur.year)
		case growth < 0:
			fmt.Fprintf(&s, "Revenue fell %.1f%% to %s in fiscal %d. ", -growth, genMoney(cur.sales), cur.year)
		default:
			fmt.Fprintf(&s, "Revenue was flat at %s in fiscal %d. ", genMoney(cur.sales), cur.year)
		}
		m0, m1 := genPercent1(cur.ebit/cur.sales), genPercent1(prev.ebit/prev.sales)
		switch {
		case m0 > m1:
			fmt.Fprintf(&s, "The EBIT margin improved to %.1f%% from %.1f%%", m0, m1)
		case m0 < m1:
			fmt.Fprintf(&s, "The EBIT margin slipped to %.1f%% from %.1f%%", m0, m1)
		default:
			fmt.Fprintf(&s, "The EBIT margin held at %.1f%%", m0)
		}
		if cur.net < 0 {
			fmt.Fprintf(&s, ", and the company posted a net loss of %s. ", genMoney(-cur.net))
		} else {
			fmt.Fprintf(&s, ", and net income came to %s. ", genMoney(cur.net))
		}
		cr, crPrev := cur.current/cur.curLiab, prev.current/prev.curLiab
		level := 0 // tight, adequate, strong
		switch {
		case cr >= 1.5:
			level = 2
		case cr >= 1:
			level = 1
		}
		s.WriteString([3]string{"Liquidity is tight", "Liquidity is adequate", "Liquidity is strong"}[level])
		// A move of a tenth or more in the current ratio as printed is
		// news (compared in hundredths: 1.33-1.43 is not -0.1 in floats).
		switch d := math.Round(cr*100) - math.Round(crPrev*100); {
		case d <= -10:
			fmt.Fprintf(&s, "%s weakening, with a current ratio of %.2f, down from %.2f, and ", [3]string{" and", " but", " but"}[level], cr, crPrev)
		case d >= 10:
			fmt.Fprintf(&s, "%s improving, with a current ratio of %.2f, up from %.2f, and ", [3]string{" but", " and", " and"}[level], cr, crPrev)
		default:
			fmt.Fprintf(&s, ", with a current ratio of %.2f and ", cr)
		}
		if wc := cur.workingCapital(); wc < 0 {
			fmt.Fprintf(&s, "negative working capital of %s. ", genMoney(-wc))
		} else {
			fmt.Fprintf(&s, "working capital of %s. ", genMoney(wc))
		}
		fmt.Fprintf(&s, "Liabilities are %.0f%% of total assets. ", cur.liab/cur.assets*100)
	} else {
		s.WriteString("No financial statements are on file. ")
	}
	if len(b.PaymentsMonthly) > 0 {
		p := &b.PaymentsMonthly[0]
		fmt.Fprintf(&s, "In %s, %d trade lines reported %s owed, paid on average %d days beyond terms against an industry average of %d.",
			p.MonthReported, p.Accounts, genMoney(float64(p.TotalDue)), *p.DBTIndex, *p.AverageDBTIndex)
		c.paymentTrend(&s)
		if c.thin {
			s.WriteString(" The trade file is too thin for a Pay score.")
		}
	}
	return strings.TrimSpace(s.String())
}

// paymentTrend compares the latest DBT with the DBT a year earlier (from
// the score history, which always reaches that far); three days or more
// either way is a change worth a sentence.
func (c *genCore) paymentTrend(s *strings.Builder) {
	now, then := c.dbt[c.months-1], c.dbt[c.months-13]
	switch {
	case now <= then-3:
		fmt.Fprintf(s, " Payments have improved from %d days beyond terms a year earlier.", then)
	case now >= then+3:
		fmt.Fprintf(s, " Payments have slowed from %d days beyond terms a year earlier.", then)
	default:
		fmt.Fprintf(s, " Payments are about as timely as a year earlier (%d days beyond terms).", then)
	}
}

// genPercent1 is a ratio as a percentage rounded to one decimal, the way the
// note prints it, so that direction words compare what the reader sees.
func genPercent1(x float64) float64 { return math.Round(x*1000) / 10 }

// genMoney writes a dollar amount the way analysts do: "$1.23 billion",
// "$456.7 million", "$85 thousand".
func genMoney(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1e9:
		return fmt.Sprintf("$%.2f billion", x/1e9)
	case a >= 1e6:
		return fmt.Sprintf("$%.1f million", x/1e6)
	default:
		return fmt.Sprintf("$%.0f thousand", x/1e3)
	}
}

// genCount rounds a head count to two significant digits with a thousands
// separator ("4,200").
func genCount(x float64) string {
	n := int(math.Max(10, x))
	p := 1
	for n/p >= 100 {
		p *= 10
	}
	n = (n + p/2) / p * p
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
