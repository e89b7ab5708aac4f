package upstream

import "time"

// LoginResult is what a successful sign-in or two-factor code returns.
type LoginResult struct {
	// SessionKey is the session key; while TwoFactorAuthenticationRequired
	// is set it is a pending key, good for TwoFactorKey only.
	SessionKey                      string `json:"SessionKey"`
	Username                        string `json:"Username"`
	SessionID                       int64  `json:"SessionId"`
	TwoFactorAuthenticationRequired bool   `json:"TwoFactorAuthenticationRequired"`
	// BrowserKey (the service's Key) lets this browser skip the code at
	// later sign-ins, for accounts with browser verification; "" otherwise.
	BrowserKey string `json:"Key"`
}

// AnnualFinancials is one fiscal year of a business's annual statements.
type AnnualFinancials struct {
	// Values maps a data-point name to its value; which names appear depends
	// on the access model, and a withheld point is simply absent.
	Values map[string]DataPoint `json:"values"`
}

// DataPoint is one statement value; Value is not OK when the service has none.
type DataPoint struct {
	Label string       `json:"Label"`
	Value Num[float64] `json:"Value"`
	Text  string       `json:"Text"`
}

// PaymentSummaryRow is one month of trade-payment aging, overall or for one
// SIC category. Amounts are whole currency units.
type PaymentSummaryRow struct {
	CategoryName             string   `json:"CategoryName"`
	CategoryCode             string   `json:"CategoryCode"`
	MonthReported            string   `json:"MonthReported"`
	Accounts                 int      `json:"Accounts"`
	DBTIndex                 Num[int] `json:"DBTIndex"`
	AverageDBTIndex          Num[int] `json:"AverageDBTIndex"`
	TotalDue                 int64    `json:"TotalDue"`
	CurrentAmount            int64    `json:"CurrentAmount"`
	PastDue30Days            int64    `json:"PastDue30Days"`
	PastDue60Days            int64    `json:"PastDue60Days"`
	PastDue90Days            int64    `json:"PastDue90Days"`
	PastDueOver90Days        int64    `json:"PastDueOver90Days"`
	OtherAmount              int64    `json:"OtherAmount"`
	CreditBalance            int64    `json:"CreditBalance"`
	CurrentAmountPercent     float64  `json:"CurrentAmountPercent"`
	PastDue30DaysPercent     float64  `json:"PastDue30DaysPercent"`
	PastDue60DaysPercent     float64  `json:"PastDue60DaysPercent"`
	PastDue90DaysPercent     float64  `json:"PastDue90DaysPercent"`
	PastDueOver90DaysPercent float64  `json:"PastDueOver90DaysPercent"`
	OtherAmountPercent       float64  `json:"OtherAmountPercent"`
}

// Month reads MonthReported (monthLayout, "2026-10"); ok is false when the
// service sent something else. It is read by hand, as time.Parse would
// read it: a payments page sorts and labels hundreds of rows by month.
func (r PaymentSummaryRow) Month() (t time.Time, ok bool) {
	s := r.MonthReported
	if len(s) != len(monthLayout) || s[4] != '-' {
		return time.Time{}, false
	}
	n := 0
	for i := range len(s) {
		if i == 4 {
			continue
		}
		if s[i] < '0' || s[i] > '9' {
			return time.Time{}, false
		}
		n = n*10 + int(s[i]-'0')
	}
	year, month := n/100, n%100
	if month < 1 || month > 12 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC), true
}

// CreditScoreHistoryRow is one month of a business's scores; a score not OK
// means the service has none for that month.
type CreditScoreHistoryRow struct {
	RiskScore Num[int]     `json:"RiskScore"`
	DBTScore  Num[int]     `json:"DBTScore"`
	ZScore    Num[float64] `json:"ZScore"`
	PayScore  Num[int]     `json:"PayScore"`
	Year      int          `json:"Year"`
	Month     int          `json:"Month"`
	Quarter   int          `json:"Quarter"`
}

// RiskHistoryRow is one month's average risk score.
type RiskHistoryRow struct {
	Year             int          `json:"Year"`
	Month            int          `json:"Month"`
	AverageRiskScore Num[float64] `json:"AverageRiskScore"`
}

// PortfolioScoreHistory is one page of monthly scores of the portfolio.
type PortfolioScoreHistory struct {
	TotalResults int                           `json:"TotalResults"`
	ScoreType    string                        `json:"ScoreType"`
	Businesses   Rows[PortfolioBusinessScores] `json:"Businesses"`
}

// PortfolioBusinessScores is the monthly score history of one business.
type PortfolioBusinessScores struct {
	BusinessID   int32              `json:"BusinessId"`
	BusinessName string             `json:"BusinessName"`
	Scores       Rows[MonthlyScore] `json:"Scores"`
}

// MonthlyScore is one month's score of a business in the portfolio.
type MonthlyScore struct {
	Year  int          `json:"Year"`
	Month int          `json:"Month"`
	Score Num[float64] `json:"Score"`
}

// Officer is a person holding a title at a business.
type Officer struct {
	FirstName     string   `json:"FirstName"`
	MiddleInitial string   `json:"MiddleInitial"`
	LastName      string   `json:"LastName"`
	Age           Num[int] `json:"Age"`
	Title         string   `json:"Title"`
	DateOfTitle   DateTime `json:"DateOfTitle"`
	DateOfHire    DateTime `json:"DateOfHire"`
}

// NewsItem is one news story. PubDate is kept as sent; Published parses it.
type NewsItem struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Link        string `json:"link"`
	Description string `json:"description"`
	PubDate     string `json:"pubDate"`
}

// Published parses PubDate; ok is false when no known layout matches.
func (n NewsItem) Published() (t time.Time, ok bool) {
	for _, layout := range pubDateLayouts {
		if t, err := time.Parse(layout, n.PubDate); err == nil {
			return withRSSZone(t), true
		}
	}
	return time.Time{}, false
}

// rssZones are the zone names RFC 822 dates may carry, in hours from UTC.
var rssZones = map[string]int{"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7}

// withRSSZone gives t the offset of its zone name when Go read the name
// without one: Go knows by name only UTC and the machine's own zone, and
// puts every other at +0000, which would move a US story by hours.
func withRSSZone(t time.Time) time.Time {
	name, offset := t.Zone()
	if h, ok := rssZones[name]; ok && offset == 0 {
		return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.FixedZone(name, h*3600))
	}
	return t
}

// Folder is a folder of the user's portfolio.
type Folder struct {
	FolderID    int      `json:"FolderId"`
	UserID      int      `json:"UserId"`
	FolderName  string   `json:"FolderName"`
	DateCreated DateTime `json:"DateCreated"`
	DateUpdated DateTime `json:"DateUpdated"`
}

// NAICSCode is an industry classification code and its title.
type NAICSCode struct {
	Code string `json:"Code"`
	Name string `json:"Name"`
}

// BusinessSummary is the summary text of a business and its filing date.
type BusinessSummary struct {
	DateFiled DateTime `json:"DateFiled"`
	Text      string   `json:"Text"`
}

// WordFill is the latest financial comments summary of a business.
type WordFill struct {
	Text string `json:"Text"`
}

// Identification names and locates a business (IdentificationGroup).
type Identification struct {
	BusinessID   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	Address      string `json:"Address"`
	City         string `json:"City"`
	State        string `json:"State"`
	Country      string `json:"Country"`
	Ticker       string `json:"Ticker"`
	Public       bool   `json:"Public"`
}

// SearchResult is one business found by name.
type SearchResult struct {
	BusinessID   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	City         string `json:"City"`
	State        string `json:"State"`
}

// PortfolioBusiness is a business in the user's portfolio.
type PortfolioBusiness struct {
	BusinessID   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	FolderID     int    `json:"FolderId"`
}

// TradeProviders lists the account's trade providers and the chosen one.
type TradeProviders struct {
	// Current is the chosen provider's id, or "" when none is chosen.
	Current   string              `json:"Current"`
	Providers Rows[TradeProvider] `json:"TradeProviders"`
}

// TradeProvider is one trade provider id of the account.
type TradeProvider struct {
	ID   string `json:"TradeProviderId"`
	Name string `json:"Name"`
}

// PeerAnalysis is where a business stands among its industry peers in one
// period: one entry per ratio.
type PeerAnalysis struct {
	PeerYear     int    `json:"PeerYear"`
	PeerQuarter  int    `json:"PeerQuarter"`
	SIC          string `json:"SIC"`
	IndustryName string `json:"IndustryName"`
	// PeerCount is how many businesses were compared, the business included.
	PeerCount int             `json:"PeerCount"`
	Ratios    Rows[PeerRatio] `json:"Ratios"`
}

// PeerRatio is one ratio of the business against its peers. Value and Rank
// are not OK where the business lacks the inputs; Min, Median and Max are not OK
// when no peer has the ratio.
type PeerRatio struct {
	Ratio  string       `json:"Ratio"`
	Value  Num[float64] `json:"Value"`
	Max    Num[float64] `json:"Max"`
	Min    Num[float64] `json:"Min"`
	Median Num[float64] `json:"Median"`
	// Count is how many peers have the ratio; Rank 1 is the best of them.
	Count int      `json:"Count"`
	Rank  Num[int] `json:"Rank"`
}

// HigherIsBetter says which way the ratio's rank runs.
func (r PeerRatio) HigherIsBetter() bool { return !lowerIsBetter[r.Ratio] }
