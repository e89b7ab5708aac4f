package simulator

// Wire types: what the service puts in an envelope's Data. Field names are
// the specification's, verbatim. A Go type named wireX is written in XML as an
// element named X when it is a list item, which is how CONTRACT-CHOICES names
// list items (<PaymentSummaryRow>, <NewsItem>, ...). Slices are never nil so
// that an empty list is [] in JSON, not null.

// wireLogin is Data of a successful sign-in.
type wireLogin struct {
	SessionKey                      string `json:"SessionKey"`
	Username                        string `json:"Username"`
	SessionId                       int64  `json:"SessionId"`
	TwoFactorAuthenticationRequired bool   `json:"TwoFactorAuthenticationRequired"`
	Key                             string `json:"Key"`
}

// wireAnnualFinancials is one fiscal year of statements.
type wireAnnualFinancials struct {
	Values map[string]wireDataPoint `json:"values"`
}

// wireDataPoint is one statement value; Value is null when there is none.
type wireDataPoint struct {
	Label string   `json:"Label"`
	Value *float64 `json:"Value"`
	Text  string   `json:"Text"`
}

// wirePaymentSummaryRow is one month (and category) of trade-payment aging.
type wirePaymentSummaryRow struct {
	CategoryName             string  `json:"CategoryName"`
	CategoryCode             string  `json:"CategoryCode"`
	MonthReported            string  `json:"MonthReported"`
	Accounts                 int     `json:"Accounts"`
	DBTIndex                 *int    `json:"DBTIndex"`
	AverageDBTIndex          *int    `json:"AverageDBTIndex"`
	TotalDue                 int64   `json:"TotalDue"`
	CurrentAmount            int64   `json:"CurrentAmount"`
	PastDue30Days            int64   `json:"PastDue30Days"`
	PastDue60Days            int64   `json:"PastDue60Days"`
	PastDue90Days            int64   `json:"PastDue90Days"`
	PastDueOver90Days        int64   `json:"PastDueOver90Days"`
	OtherAmount              int64   `json:"OtherAmount"`
	CreditBalance            int64   `json:"CreditBalance"`
	CurrentAmountPercent     float64 `json:"CurrentAmountPercent"`
	PastDue30DaysPercent     float64 `json:"PastDue30DaysPercent"`
	PastDue60DaysPercent     float64 `json:"PastDue60DaysPercent"`
	PastDue90DaysPercent     float64 `json:"PastDue90DaysPercent"`
	PastDueOver90DaysPercent float64 `json:"PastDueOver90DaysPercent"`
	OtherAmountPercent       float64 `json:"OtherAmountPercent"`
}

// wireCreditScoreHistoryRow is one month of the four scores; absent ones are null.
type wireCreditScoreHistoryRow struct {
	RiskScore *int     `json:"RiskScore"`
	DBTScore  *int     `json:"DBTScore"`
	ZScore    *float64 `json:"ZScore"`
	PayScore  *int     `json:"PayScore"`
	Year      int      `json:"Year"`
	Month     int      `json:"Month"`
	Quarter   int      `json:"Quarter"`
}

// wireRiskHistoryRow is one month of the average risk score.
type wireRiskHistoryRow struct {
	Year             int     `json:"Year"`
	Month            int     `json:"Month"`
	AverageRiskScore float64 `json:"AverageRiskScore"`
}

// wirePortfolioScoreHistory is Data of PayScoreHistory and ZScoreHistory.
type wirePortfolioScoreHistory struct {
	TotalResults int                           `json:"TotalResults"`
	ScoreType    string                        `json:"ScoreType"`
	Businesses   []wirePortfolioBusinessScores `json:"Businesses"`
}

// wirePortfolioBusinessScores is one business of a portfolio score history.
type wirePortfolioBusinessScores struct {
	BusinessId   int32              `json:"BusinessId"`
	BusinessName string             `json:"BusinessName"`
	Scores       []wireMonthlyScore `json:"Scores"`
}

// wireMonthlyScore is one month of one score.
type wireMonthlyScore struct {
	Year  int     `json:"Year"`
	Month int     `json:"Month"`
	Score float64 `json:"Score"`
}

// wireOfficer is an officer of a business.
type wireOfficer struct {
	FirstName     string `json:"FirstName"`
	MiddleInitial string `json:"MiddleInitial"`
	LastName      string `json:"LastName"`
	Age           int    `json:"Age"`
	Title         string `json:"Title"`
	DateOfTitle   string `json:"DateOfTitle"`
	DateOfHire    string `json:"DateOfHire"`
}

// wireNewsItem is one news story; the specification spells these fields in lower case.
type wireNewsItem struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Link        string `json:"link"`
	Description string `json:"description"`
	PubDate     string `json:"pubDate"`
}

// wireFolder is one portfolio folder.
type wireFolder struct {
	FolderId    int    `json:"FolderId"`
	UserId      int    `json:"UserId"`
	FolderName  string `json:"FolderName"`
	DateCreated string `json:"DateCreated"`
	DateUpdated string `json:"DateUpdated"`
}

// wireNaicsCode is one industry classification code.
type wireNaicsCode struct {
	Code string `json:"Code"`
	Name string `json:"Name"`
}

// wireBusinessSummary is Data of Summary.
type wireBusinessSummary struct {
	DateFiled string `json:"DateFiled"`
	Text      string `json:"Text"`
}

// wireWordFill is Data of WordFill.
type wireWordFill struct {
	Text string `json:"Text"`
}

// wireIdentificationGroup is Data of IdentificationGroup (shape is ours).
type wireIdentificationGroup struct {
	BusinessId   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	Address      string `json:"Address"`
	City         string `json:"City"`
	State        string `json:"State"`
	Country      string `json:"Country"`
	Ticker       string `json:"Ticker"`
	Public       bool   `json:"Public"`
}

// wireSearchResult is one hit of Search (shape is ours).
type wireSearchResult struct {
	BusinessId   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	City         string `json:"City"`
	State        string `json:"State"`
}

// wirePortfolioBusiness is one folder membership of Portfolio/Businesses (shape is ours).
type wirePortfolioBusiness struct {
	BusinessId   int32  `json:"BusinessId"`
	BusinessName string `json:"BusinessName"`
	FolderId     int    `json:"FolderId"`
}

// wireTradeProviders is Data of GET TradeProviders (shape is ours).
type wireTradeProviders struct {
	Current        string              `json:"Current"`
	TradeProviders []wireTradeProvider `json:"TradeProviders"`
}

// wireTradeProvider is one trade provider id of the account.
type wireTradeProvider struct {
	TradeProviderId string `json:"TradeProviderId"`
	Name            string `json:"Name"`
}

// wirePeerAnalysis is Data of PeerAnalysis.
type wirePeerAnalysis struct {
	PeerYear     int             `json:"PeerYear"`
	PeerQuarter  int             `json:"PeerQuarter"`
	SIC          string          `json:"SIC"`
	IndustryName string          `json:"IndustryName"`
	PeerCount    int             `json:"PeerCount"`
	Ratios       []wirePeerRatio `json:"Ratios"`
}

// wirePeerRatio is one ratio of the business against its peers; Value and
// Rank are null where the business lacks the inputs, Min, Median and Max
// when no peer has the ratio.
type wirePeerRatio struct {
	Ratio  string   `json:"Ratio"`
	Value  *float64 `json:"Value"`
	Max    *float64 `json:"Max"`
	Min    *float64 `json:"Min"`
	Median *float64 `json:"Median"`
	Count  int      `json:"Count"`
	Rank   *int     `json:"Rank"`
}
