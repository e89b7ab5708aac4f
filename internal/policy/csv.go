package policy

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The two downloads: the figures, and the scores they are computed from,
// so anyone can recompute the first from the second.
var (
	SummaryHeader = []string{"model", "gini", "auc", "ks", "accounts", "defaults", "months"}
	ScoresHeader  = []string{"model", "account", "month", "score", "defaulted"}
)

// SummaryRecord is one model's row of validation.csv; a figure that
// cannot be computed (no default, or no good account) is empty.
func SummaryRecord(model string, f Figures) []string {
	num := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
	return []string{model, num(f.Gini), num(f.AUC), num(f.KS), strconv.Itoa(f.Accounts), strconv.Itoa(f.Defaults), strconv.Itoa(f.Months)}
}

// WriteSummary writes validation.csv: a row per model.
func WriteSummary(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(SummaryHeader)
	for _, r := range rep.Results {
		_ = cw.Write(SummaryRecord(r.Model.Name, r.Figures))
	}
	cw.Flush()
	return cw.Error()
}

// WriteScores writes validation/scores.csv: a row per model, account and
// month-end (YYYY-MM), defaulted 1 or 0. cell makes an account number
// safe for a spreadsheet.
func WriteScores(w io.Writer, rep *Report, accounts []string, cell func(string) string) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(ScoresHeader)
	months := make([]string, len(rep.Months))
	for i, m := range rep.Months {
		months[i] = fmt.Sprintf("%04d-%02d", m/100, m%100)
	}
	rec := make([]string, 5)
	for _, r := range rep.Results {
		rec[0] = r.Model.Name
		for _, o := range r.Obs {
			rec[1], rec[2], rec[3], rec[4] = cell(accounts[o.Account]), months[o.Month], strconv.Itoa(int(o.Score)), "0"
			if o.Bad {
				rec[4] = "1"
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Recompute reads a scores.csv and gives the validation.csv row of each
// of models (a model with no row of scores has empty figures), then of
// any other model met, in the order first met: the check that the
// figures come from the scores and nothing else.
func Recompute(r io.Reader, models []string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(ScoresHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("policy: scores: %w", err)
	}
	if strings.Join(head, ",") != strings.Join(ScoresHeader, ",") {
		return nil, errors.New("policy: scores: not the header " + strings.Join(ScoresHeader, ","))
	}
	order := append([]string(nil), models...)
	obs := map[string][]Obs{}
	for _, m := range models {
		obs[m] = nil
	}
	accounts, months := map[string]int32{}, map[string]int16{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("policy: scores: %w", err)
		}
		score, err := strconv.ParseInt(rec[3], 10, 32)
		if err != nil || (rec[4] != "0" && rec[4] != "1") {
			return nil, fmt.Errorf("policy: scores: line %d: a whole score and defaulted 0 or 1", len(obs)+2)
		}
		a, ok := accounts[rec[1]]
		if !ok {
			a = int32(len(accounts))
			accounts[rec[1]] = a
		}
		m, ok := months[rec[2]]
		if !ok {
			if len(months) == math.MaxInt16 {
				return nil, errors.New("policy: scores: too many months")
			}
			m = int16(len(months))
			months[rec[2]] = m
		}
		if _, ok := obs[rec[0]]; !ok {
			order = append(order, rec[0])
		}
		obs[rec[0]] = append(obs[rec[0]], Obs{Account: a, Month: m, Score: int32(score), Bad: rec[4] == "1"})
	}
	out := make([][]string, len(order))
	for i, name := range order {
		out[i] = SummaryRecord(name, Measure(obs[name]))
	}
	return out, nil
}
