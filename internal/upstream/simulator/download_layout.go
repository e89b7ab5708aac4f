package simulator

import (
	"fmt"
	"strconv"
)

// rowFiller fills vals (one per column) for one folder membership.
type rowFiller func(vals []cell, f *Folder, b *Business)

// layout gives the columns of a layout and the function that fills a row.
func (s *Server) layout(name string) ([]string, rowFiller) {
	if name == layoutScores {
		return s.scoresLayout()
	}
	return standardLayout()
}

func standardLayout() ([]string, rowFiller) {
	cols := []string{
		"BusinessId", "BusinessName", "FolderId", "FolderName", "City", "State", "Country",
		"NAICSCode", "NAICSTitle", "Public", "RiskScore", "PayScore", "DBTScore", "ZScore",
	}
	return cols, func(v []cell, f *Folder, b *Business) {
		naics := NAICSCode{}
		if len(b.NAICS) > 0 {
			naics = b.NAICS[0]
		}
		v[0], v[1] = num(int64(b.ID)), str(b.Name)
		v[2], v[3] = num(int64(f.FolderID)), str(f.FolderName)
		v[4], v[5], v[6] = str(b.City), str(b.State), str(b.Country)
		v[7], v[8] = str(naics.Code), str(naics.Name)
		v[9] = cell{cellBool, strconv.FormatBool(b.Public)}
		risk, pay, dbt, z := latestScores(b.Scores)
		v[10], v[11], v[12], v[13] = intCell(risk), intCell(pay), intCell(dbt), floatCell(z)
	}
}

// latestScores finds each score's most recent value within latestLookback
// months of the business's latest month.
func latestScores(in []ScoreMonth) (risk, pay, dbt *int, z *float64) {
	scores := sortedScores(in)
	if len(scores) == 0 {
		return
	}
	last := scores[len(scores)-1]
	newest := monthOf(last.Year, last.Month)
	for i := len(scores) - 1; i >= 0; i-- {
		sm := &scores[i]
		if newest-monthOf(sm.Year, sm.Month) >= latestLookback {
			break
		}
		risk, pay, dbt = firstInt(risk, sm.Risk), firstInt(pay, sm.Pay), firstInt(dbt, sm.DBT)
		if z == nil {
			z = sm.Z
		}
	}
	return
}

func firstInt(have, next *int) *int {
	if have != nil {
		return have
	}
	return next
}

// scoresLayout spans the dataset's last scoreMonths months.
func (s *Server) scoresLayout() ([]string, rowFiller) {
	last := monthOfTime(s.asOf)
	first := last - scoreMonths + 1
	cols := []string{"BusinessId", "BusinessName", "FolderId"}
	for _, prefix := range []string{"PayScore", "ZScore"} {
		for m := first; m <= last; m++ {
			cols = append(cols, fmt.Sprintf("%s_%04d-%02d", prefix, m.year(), m.month()))
		}
	}
	return cols, func(v []cell, f *Folder, b *Business) {
		v[0], v[1], v[2] = num(int64(b.ID)), str(b.Name), num(int64(f.FolderID))
		for i := 3; i < len(v); i++ {
			v[i] = cell{}
		}
		for i := range b.Scores {
			sm := &b.Scores[i]
			m := monthOf(sm.Year, sm.Month)
			if m < first || m > last {
				continue
			}
			k := int(m - first)
			v[3+k] = intCell(sm.Pay)
			v[3+scoreMonths+k] = floatCell(sm.Z)
		}
	}
}
