// Package simulator is a stand-in for the credit-risk data service: the same
// paths, envelope, errors, limits and formats, over a generated or loaded
// dataset. It imports nothing from the client so that contract tests catch
// drift on either side.
package simulator

// Dataset is everything the stand-in serves. It is what -dump writes and -data
// reads, so every field is plain JSON and a test can hand-craft one.
type Dataset struct {
	// Seed is the seed the dataset was generated from (0 for a hand-made one).
	Seed int64 `json:"seed"`
	// AsOf is the latest month with data, as YYYY-MM.
	AsOf string `json:"asOf"`
	// Businesses holds every business the service knows, ordered by ID.
	Businesses []Business `json:"businesses"`
	// Users holds the accounts that can sign in.
	Users []User `json:"users"`
	// IndustryNews maps a two-digit NAICS sector to its top stories, newest first.
	IndustryNews map[string][]NewsItem `json:"industryNews"`
}

// Business is one business with everything the service can say about it.
type Business struct {
	ID      int32  `json:"id"`
	Name    string `json:"name"`
	Address string `json:"address"`
	City    string `json:"city"`
	State   string `json:"state"`
	Country string `json:"country"`
	Ticker  string `json:"ticker,omitempty"`
	Public  bool   `json:"public"`
	// Story names the scenario a fixed business plays out ("" for most):
	// one of the Story* constants. Private businesses with a thin trade file
	// carry StoryThinTradeFile too, so the reason a Pay score is missing is
	// known.
	Story string `json:"story,omitempty"`

	NAICS             []NAICSCode  `json:"naics"`
	Summary           Summary      `json:"summary"`
	FinancialComments string       `json:"financialComments"`
	Statements        []Statement  `json:"statements"`      // newest fiscal year first
	PaymentsMonthly   []PaymentRow `json:"paymentsMonthly"` // newest month first
	PaymentsSIC       []PaymentRow `json:"paymentsSIC"`     // newest month first, then by category
	Scores            []ScoreMonth `json:"scores"`          // oldest month first
	Officers          []Officer    `json:"officers"`
	News              []NewsItem   `json:"news"` // newest first
}

// NAICSCode is an industry classification code and its title.
type NAICSCode struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Summary is the business description and the date it was filed.
type Summary struct {
	DateFiled string `json:"dateFiled"` // ISO 8601 without zone
	Text      string `json:"text"`
}

// Statement is one fiscal year of annual financial statements.
type Statement struct {
	FiscalYear    int    `json:"fiscalYear"`
	PeriodEndDate string `json:"periodEndDate"` // ISO 8601 without zone
	// Values maps a data-point key (Sales, NetIncome, ...; the Key*
	// constants, FiscalYear and PeriodEndDate included) to its value.
	// Amounts are whole US dollars.
	Values map[string]DataPoint `json:"values"`
}

// DataPoint is one statement value; a nil Value means the service has none.
type DataPoint struct {
	Label string   `json:"label"`
	Value *float64 `json:"value"`
	Text  string   `json:"text,omitempty"`
}

// PaymentRow is one month of trade-payment aging, overall or for one category.
// Amounts are whole US dollars and the six buckets add up to TotalDue
// (CreditBalance is apart); percents are of TotalDue with two decimals;
// DBTIndex is (1-30 x 15 + 31-60 x 45 + 61-90 x 75 + 91+ x 105) / TotalDue,
// rounded.
type PaymentRow struct {
	CategoryName             string  `json:"categoryName"`
	CategoryCode             string  `json:"categoryCode"`
	MonthReported            string  `json:"monthReported"` // YYYY-MM
	Accounts                 int     `json:"accounts"`
	DBTIndex                 *int    `json:"dbtIndex"`
	AverageDBTIndex          *int    `json:"averageDbtIndex"`
	TotalDue                 int64   `json:"totalDue"`
	CurrentAmount            int64   `json:"currentAmount"`
	PastDue30Days            int64   `json:"pastDue30Days"`
	PastDue60Days            int64   `json:"pastDue60Days"`
	PastDue90Days            int64   `json:"pastDue90Days"`
	PastDueOver90Days        int64   `json:"pastDueOver90Days"`
	OtherAmount              int64   `json:"otherAmount"`
	CreditBalance            int64   `json:"creditBalance"`
	CurrentAmountPercent     float64 `json:"currentAmountPercent"`
	PastDue30DaysPercent     float64 `json:"pastDue30DaysPercent"`
	PastDue60DaysPercent     float64 `json:"pastDue60DaysPercent"`
	PastDue90DaysPercent     float64 `json:"pastDue90DaysPercent"`
	PastDueOver90DaysPercent float64 `json:"pastDueOver90DaysPercent"`
	OtherAmountPercent       float64 `json:"otherAmountPercent"`
}

// ScoreMonth is one month of a business's scores; nil means no score that month.
// Z is quarterly: the months of a calendar quarter carry the same value, and
// the quarter holding a fiscal year's period end carries the Z″ of that
// year's statements, rounded to two decimals.
type ScoreMonth struct {
	Year        int      `json:"year"`
	Month       int      `json:"month"`
	Risk        *int     `json:"risk"`
	AverageRisk *float64 `json:"averageRisk"`
	Pay         *int     `json:"pay"`
	DBT         *int     `json:"dbt"`
	Z           *float64 `json:"z"`
}

// Officer is a person holding a title at a business.
type Officer struct {
	FirstName     string `json:"firstName"`
	MiddleInitial string `json:"middleInitial"`
	LastName      string `json:"lastName"`
	Age           int    `json:"age"`
	Title         string `json:"title"`
	DateOfTitle   string `json:"dateOfTitle"` // ISO 8601 without zone
	DateOfHire    string `json:"dateOfHire"`  // ISO 8601 without zone
}

// NewsItem is one news story, as an RSS feed would carry it.
type NewsItem struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Link        string `json:"link"`
	Description string `json:"description"`
	PubDate     string `json:"pubDate"` // RFC 1123
}

// User is an account that can sign in.
type User struct {
	Username string `json:"username"`
	Password string `json:"password"`
	UserID   int    `json:"userId"`
	// Type is the user type that sets the hourly limit: Ordinary, APIDeveloper or APIUser.
	Type string `json:"type"`
	// Access is the access model: Full or APIOnly.
	Access  string   `json:"access"`
	Folders []Folder `json:"folders"`
	// Suppliers maps a SupplierId of the user's supplier list to a business id.
	Suppliers map[string]int32 `json:"suppliers,omitempty"`
	// TradeProviders lists the trade provider ids of the account with their customers.
	TradeProviders []TradeProvider `json:"tradeProviders,omitempty"`
	// TwoFactor makes sign-in send a one-time code that 2FAKey must confirm.
	TwoFactor bool `json:"twoFactor,omitempty"`
	// BrowserVerification (with TwoFactor) hands out a browser key on a
	// right code; a Login that sends it back within 30 days skips the code.
	BrowserVerification bool `json:"browserVerification,omitempty"`
}

// Folder is a named group of businesses in a user's portfolio.
type Folder struct {
	FolderID    int     `json:"folderId"`
	FolderName  string  `json:"folderName"`
	DateCreated string  `json:"dateCreated"` // ISO 8601 without zone
	DateUpdated string  `json:"dateUpdated"` // ISO 8601 without zone
	BusinessIDs []int32 `json:"businessIds"`
}

// TradeProvider is one trade provider id of an account and its customer ids.
type TradeProvider struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Customers maps a CustomerId under this provider to a business id.
	Customers map[string]int32 `json:"customers"`
}

// User types, which set the hourly request limit.
const (
	UserOrdinary     = "Ordinary"
	UserAPIDeveloper = "APIDeveloper"
	UserAPIUser      = "APIUser"
)

// Access models.
const (
	AccessFull    = "Full"
	AccessAPIOnly = "APIOnly"
)
