package simulator

// Officer titles: every business has a chief executive and a chief
// financial officer; the others vary.
const (
	TitleCEO = "Chief Executive Officer"
	TitleCFO = "Chief Financial Officer"
)

var genOtherTitles = [...]string{"Treasurer", "General Counsel", "Controller", "Vice President, Credit"}

// officers lists 3-6 officers, CEO and CFO first. Ages are 35-75; each
// was hired no younger than 24 and took the title on or after the hire date
// (a third of them were hired into it).
func (c *genCore) officers(r *genRand) []Officer {
	if c.sc != nil && c.sc.noOfficers {
		return []Officer{}
	}
	n := r.between(3, 6)
	titles := [6]string{TitleCEO, TitleCFO}
	others := genOtherTitles
	r.shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	copy(titles[2:], others[:])
	out := make([]Officer, n)
	for i := range out {
		age := r.between(35, 75)
		earliest := max(c.asOf-genMonth(12*(age-24)), c.asOf-genMonth(12*30))
		hire := r.randomDate(earliest, c.asOf-6)
		title := hire
		if !r.chance(0.35) {
			days := int(c.asOf.first().Sub(hire).Hours() / 24)
			title = hire.AddDate(0, 0, r.intn(max(1, days)))
		}
		mid := ""
		if r.chance(0.85) {
			mid = string(rune('A' + r.intn(26)))
		}
		out[i] = Officer{
			FirstName:     genFirstNames[r.intn(len(genFirstNames))],
			MiddleInitial: mid,
			LastName:      genLastNames[r.intn(len(genLastNames))],
			Age:           age,
			Title:         titles[i],
			DateOfTitle:   title.Format(LayoutDateTime),
			DateOfHire:    hire.Format(LayoutDateTime),
		}
	}
	return out
}
