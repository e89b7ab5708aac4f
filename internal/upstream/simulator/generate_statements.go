package simulator

// Statement data-point keys. FiscalYear and PeriodEndDate are data points
// too, so a row is self-describing whatever subset of keys a user sees.
const (
	KeyFiscalYear         = "FiscalYear"
	KeyPeriodEndDate      = "PeriodEndDate"
	KeySales              = "Sales"
	KeyCostOfSales        = "CostOfSales"
	KeyGrossProfit        = "GrossProfit"
	KeyEBIT               = "EBIT"
	KeyNetIncome          = "NetIncome"
	KeyTotalAssets        = "TotalAssets"
	KeyCurrentAssets      = "CurrentAssets"
	KeyCashAndEquivalents = "CashAndEquivalents"
	KeyCurrentLiabilities = "CurrentLiabilities"
	KeyTotalLiabilities   = "TotalLiabilities"
	KeyWorkingCapital     = "WorkingCapital"
	KeyRetainedEarnings   = "RetainedEarnings"
	KeyShareholdersEquity = "ShareholdersEquity"
)

// genStatementLabels gives each key its label, in display order.
var genStatementLabels = [...][2]string{
	{KeyFiscalYear, "Fiscal year"},
	{KeyPeriodEndDate, "Period end date"},
	{KeySales, "Sales"},
	{KeyCostOfSales, "Cost of sales"},
	{KeyGrossProfit, "Gross profit"},
	{KeyEBIT, "Earnings before interest and taxes"},
	{KeyNetIncome, "Net income"},
	{KeyTotalAssets, "Total assets"},
	{KeyCurrentAssets, "Current assets"},
	{KeyCashAndEquivalents, "Cash and equivalents"},
	{KeyCurrentLiabilities, "Current liabilities"},
	{KeyTotalLiabilities, "Total liabilities"},
	{KeyWorkingCapital, "Working capital"},
	{KeyRetainedEarnings, "Retained earnings"},
	{KeyShareholdersEquity, "Shareholders' equity"},
}

// StatementKeys lists every statement data-point key in display order.
func StatementKeys() []string {
	keys := make([]string, len(genStatementLabels))
	for i, kl := range genStatementLabels {
		keys[i] = kl[0]
	}
	return keys
}

// APIOnlyKeys names the statement keys an API-Only user sees; every other
// key is withheld (absent), per the access model. It returns a new slice on
// each call, so callers may keep or change it.
func APIOnlyKeys() []string {
	return []string{KeyFiscalYear, KeyPeriodEndDate, KeySales, KeyNetIncome, KeyTotalAssets}
}

// statementList renders the fiscal years, newest first; values are whole
// dollars (rounded to thousands), and the Z-Score of the quarter holding
// each period end is computed from exactly these values.
func (c *genCore) statementList() []Statement {
	out := make([]Statement, c.nFY)
	for k := range out {
		f := &c.fy[k]
		end := f.end.first().AddDate(0, 1, -1).Format(LayoutDateTime)
		v := map[string]DataPoint{}
		add := func(key string, x float64) {
			v[key] = DataPoint{Label: genStatementLabel(key), Value: &x}
		}
		add(KeyFiscalYear, float64(f.year))
		v[KeyPeriodEndDate] = DataPoint{Label: genStatementLabel(KeyPeriodEndDate), Text: end}
		add(KeySales, f.sales)
		add(KeyCostOfSales, f.cogs)
		add(KeyGrossProfit, f.gross)
		add(KeyEBIT, f.ebit)
		add(KeyNetIncome, f.net)
		add(KeyTotalAssets, f.assets)
		add(KeyCurrentAssets, f.current)
		add(KeyCurrentLiabilities, f.curLiab)
		add(KeyTotalLiabilities, f.liab)
		add(KeyWorkingCapital, f.workingCapital())
		add(KeyRetainedEarnings, f.retained)
		add(KeyShareholdersEquity, f.equity())
		if f.cashMissing {
			// Real filings have gaps: the key is there, the value is not.
			v[KeyCashAndEquivalents] = DataPoint{Label: genStatementLabel(KeyCashAndEquivalents)}
		} else {
			add(KeyCashAndEquivalents, f.cash)
		}
		out[k] = Statement{FiscalYear: f.year, PeriodEndDate: end, Values: v}
	}
	return out
}

// genStatementLabel returns the label of a key.
func genStatementLabel(key string) string {
	for _, kl := range genStatementLabels {
		if kl[0] == key {
			return kl[1]
		}
	}
	return key
}
