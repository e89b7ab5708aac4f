package upstream

import "time"

// This file holds every choice we made where the service specification is
// silent ("ours" in shared/CONTRACT-CHOICES.md): parameter names, formats,
// paths of operations the specification leaves open or names without
// shapes. Aligning the client with the real service should be a change to
// this file alone. An operation the specification spells out names its
// path beside its method (business.go, portfolio.go, ...).

// Paths of the operations whose paths are ours, relative to the base URL.
const (
	// Two-factor sign-in and peer analysis (CONTRACT-CHOICES.md).
	pathTwoFactorKey = "/v1/Users/2FAKey"
	pathPeerAnalysis = "/v1/Business/PeerAnalysis"

	// Operations the specification names without shapes; the dashboard hides
	// the feature when a service answers 404 for them.
	pathIdentificationGroup = "/v1/Business/IdentificationGroup"
	pathSearch              = "/v1/Business/Search"
	pathPortfolioBusinesses = "/v1/Portfolio/Businesses"
	pathNews                = "/v1/News"
)

// Parameter names. The business identifiers, count, StandardYear and
// SortOrder are known from the specification; the rest are ours.
const (
	paramType            = "type"
	paramID              = "id"
	paramCustomerID      = "CustomerId"
	paramSupplierID      = "SupplierId"
	paramCount           = "count"
	paramStandardYear    = "StandardYear"
	paramSortOrder       = "SortOrder"
	paramStartDate       = "StartDate" // ours
	paramEndDate         = "EndDate"   // ours
	paramStartRow        = "StartRow"  // ours
	paramEndRow          = "EndRow"    // ours
	paramFolderID        = "FolderId"  // ours
	paramLayout          = "Layout"    // ours
	paramFormat          = "format"    // ours: the spec names it but not its spelling
	paramQuery           = "q"         // ours
	paramTradeProviderID = "TradeProviderId"
	formUsername         = "Username"
	formPassword         = "Password"
	formLinkBasedMFA     = "LinkBasedMFA" // Y asks for a link, N for a code
	formKey              = "Key"          // Login: a browser key; 2FAKey: the code

	// PeerAnalysis parameters (all known).
	paramYear            = "Year"
	paramQuarter         = "Quarter"
	paramSICCode         = "SICCode"
	paramSICPrimary      = "SICPrimary"
	paramTargetCountry   = "TargetCountry"
	paramRiskLevelFilter = "RiskLevelFilter"
	paramZScoreFilter    = "ZScoreFilter"
	paramPayScoreFilter  = "PayScoreFilter"
	paramDBTFilter       = "DBTFilter"
)

// linkBasedMFANo asks for a one-time code: the dashboard has no way to follow
// a link sent by mail.
const linkBasedMFANo = "N"

// Two-factor sign-in limits (ours).
const (
	// TwoFactorMaxAttempts is how many codes one pending key may try; the
	// last wrong one locks it.
	TwoFactorMaxAttempts = 5
	// TwoFactorPendingLifetime is how long a pending key waits for its code.
	TwoFactorPendingLifetime = 5 * time.Minute
	// BrowserKeyLifetime is how long a browser key skips the code.
	BrowserKeyLifetime = 30 * 24 * time.Hour
)

// Formats on the wire.
const (
	// dateParamLayout formats dates sent as parameters (ours).
	dateParamLayout = "2006-01-02"
	// monthLayout is the layout of PaymentSummaryRow.MonthReported (ours).
	monthLayout = "2006-01"
	// responseFormat is the value of the type parameter the client sends.
	responseFormat = "json"
)

// dateTimeLayouts are tried in order when decoding a date-time; the service
// sends ISO 8601 without a zone (ours), and we accept one with a zone too.
var dateTimeLayouts = []string{
	"2006-01-02T15:04:05",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02",
}

// pubDateLayouts are tried in order when reading NewsItem.pubDate: RFC 1123
// as in RSS feeds (ours), with the variants real feeds carry.
var pubDateLayouts = []string{
	"Mon, 02 Jan 2006 15:04:05 MST",
	"Mon, 02 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"02 Jan 2006 15:04:05 MST",
	"2006-01-02T15:04:05Z07:00",
	"2006-01-02T15:04:05",
}

// Error codes the service sends in the envelope's ErrorCode (ours, except
// that a 403 on an expired key is known).
const (
	CodeInvalidCredentials       = "InvalidCredentials"
	CodeSessionExpired           = "SessionExpired"
	CodeInvalidSessionKey        = "InvalidSessionKey"
	CodeRateLimitExceeded        = "RateLimitExceeded"
	CodeMissingIdentifier        = "MissingIdentifier"
	CodeInvalidParameter         = "InvalidParameter"
	CodeBusinessNotFound         = "BusinessNotFound"
	CodeFolderNotFound           = "FolderNotFound"
	CodeTradeProviderNotSelected = "TradeProviderNotSelected"
	CodeInvalidTradeProvider     = "InvalidTradeProvider"
	CodeInvalidLayout            = "InvalidLayout"
	CodeTwoFactorRequired        = "TwoFactorRequired"
	CodeInvalidTwoFactorKey      = "InvalidTwoFactorKey"
	CodeTwoFactorLocked          = "TwoFactorLocked"
)

// Rate-limit headers (known).
const (
	headerRateLimit     = "X-RateLimit-Limit"
	headerRateRemaining = "X-RateLimit-Remaining"
	headerRateReset     = "X-RateLimit-Reset"
	headerRetryAfter    = "Retry-After"
)

// Sort orders for LatestAnnualStatements (known).
const (
	SortDescending = "D"
	SortAscending  = "A"
)

// Download formats and layouts (ours: the spec names CSV, XML and JSON but not
// the layouts).
const (
	FormatCSV      = "CSV"
	FormatXML      = "XML"
	FormatJSON     = "JSON"
	LayoutStandard = "Standard"
	LayoutScores   = "Scores"
)

// Portfolio score-history defaults of the service (ours), used by callers to
// page through results.
const (
	// DefaultPortfolioRows is how many businesses the service returns when no
	// rows are asked for.
	DefaultPortfolioRows = 50
)

// PeerAnalysis filter values. The codes are known; what each selects is ours.
const (
	// SICPrimary: Y matches peers' main SIC code only, N any of their codes.
	sicPrimaryYes = "Y"

	// RiskLevelFilter: NS none (default), FS the business's own Risk
	// score, F1-F10 that Risk score, FH/FM/FL high (1-4), moderate (5-7) or
	// low (8-10) risk, H1-H5 within that many points of the business's Risk.
	RiskLevelAny  = "NS"
	RiskLevelSame = "FS"
	// ZScoreFilter and PayScoreFilter: N none (default), S the business's
	// own band, H, M, L a high, middle or low score (Z: above 2.60,
	// 1.10-2.60, below 1.10; Pay: 8-10, 5-7, 1-4).
	ScoreFilterAny  = "N"
	ScoreFilterSame = "S"
	// DBTFilter: N none (default), S the business's DBT band, P prompt
	// (0-5), W slow (6-15), D delinquent (over 15), 1-9 the DBT bands 0,
	// 1-5, 6-10, 11-15, 16-30, 31-60, 61-90, 91-120, over 120.
	DBTFilterAny  = "N"
	DBTFilterSame = "S"
)

// Peer ratios (ours): names, and how each is computed from the statement of
// the peer period. Margins and returns are fractions (0.114, not 11.4).
const (
	RatioCurrent                  = "CurrentRatio"             // CurrentAssets / CurrentLiabilities
	RatioCash                     = "CashRatio"                // CashAndEquivalents / CurrentLiabilities
	RatioWorkingCapitalToAssets   = "WorkingCapitalToAssets"   // WorkingCapital / TotalAssets
	RatioLiabilitiesToAssets      = "LiabilitiesToAssets"      // TotalLiabilities / TotalAssets
	RatioDebtToEquity             = "DebtToEquity"             // TotalLiabilities / ShareholdersEquity
	RatioGrossMargin              = "GrossMargin"              // GrossProfit / Sales
	RatioEBITMargin               = "EBITMargin"               // EBIT / Sales
	RatioNetMargin                = "NetMargin"                // NetIncome / Sales
	RatioReturnOnAssets           = "ReturnOnAssets"           // NetIncome / TotalAssets
	RatioReturnOnEquity           = "ReturnOnEquity"           // NetIncome / ShareholdersEquity
	RatioAssetTurnover            = "AssetTurnover"            // Sales / TotalAssets
	RatioRetainedEarningsToAssets = "RetainedEarningsToAssets" // RetainedEarnings / TotalAssets
)

// lowerIsBetter lists the ratios whose rank 1 is the lowest value (ours).
var lowerIsBetter = map[string]bool{RatioLiabilitiesToAssets: true, RatioDebtToEquity: true}
