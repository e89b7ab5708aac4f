package upstream

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// pathFolders is the folders' path: the portfolio reads it, and so does the
// start-up check that the service answers (ping.go).
const pathFolders = "/v1/Portfolio/Folders"

// pathTradeProviders lists the trade providers (GET) and chooses one (POST).
const pathTradeProviders = "/v1/Trade/TradeProviders"

// PortfolioQuery selects months and a page of businesses for the portfolio
// score histories; zero fields leave the service's defaults (the last 12
// months, rows 1 to DefaultPortfolioRows).
type PortfolioQuery struct {
	From, To         time.Time // inclusive dates
	StartRow, EndRow int       // 1-based, inclusive
}

func (pq PortfolioQuery) values() query {
	q := make(query, 0, 4)
	setDate(&q, paramStartDate, pq.From)
	setDate(&q, paramEndDate, pq.To)
	if pq.StartRow > 0 {
		q.Set(paramStartRow, strconv.Itoa(pq.StartRow))
	}
	if pq.EndRow > 0 {
		q.Set(paramEndRow, strconv.Itoa(pq.EndRow))
	}
	return q
}

// PayScoreHistory returns monthly Pay scores of the portfolio's businesses.
func (u *User) PayScoreHistory(ctx context.Context, pq PortfolioQuery) (PortfolioScoreHistory, error) {
	var out PortfolioScoreHistory
	return out, u.do(ctx, call{op: "Portfolio/PayScoreHistory", path: "/v1/Portfolio/PayScoreHistory", query: pq.values(), kind: KindPortfolio}, &out)
}

// ZScoreHistory returns monthly Z-Scores of the portfolio's businesses.
func (u *User) ZScoreHistory(ctx context.Context, pq PortfolioQuery) (PortfolioScoreHistory, error) {
	var out PortfolioScoreHistory
	return out, u.do(ctx, call{op: "Portfolio/ZScoreHistory", path: "/v1/Portfolio/ZScoreHistory", query: pq.values(), kind: KindPortfolio}, &out)
}

// Folders returns the user's portfolio folders.
func (u *User) Folders(ctx context.Context) ([]Folder, error) {
	var out []Folder
	return out, u.do(ctx, call{op: "Portfolio/Folders", path: pathFolders, kind: KindPortfolio}, &out)
}

// PortfolioBusinesses lists the businesses of one folder, or of the whole
// portfolio when folderID is 0. A service without this operation answers
// ErrNotFound.
func (u *User) PortfolioBusinesses(ctx context.Context, folderID int) ([]PortfolioBusiness, error) {
	var q query
	if folderID != 0 {
		q.Set(paramFolderID, strconv.Itoa(folderID))
	}
	var out []PortfolioBusiness
	return out, u.do(ctx, call{op: OpPortfolioBusinesses, path: pathPortfolioBusinesses, query: q, kind: KindPortfolio}, &out)
}

// FolderNews returns the news of one folder's businesses, newest first.
func (u *User) FolderNews(ctx context.Context, folderID int) ([]NewsItem, error) {
	var out []NewsItem
	path := fmt.Sprintf("/v1/Portfolio/Folders/%d/News", folderID)
	return out, u.do(ctx, call{op: "Portfolio/Folders/News", path: path, kind: KindNews}, &out)
}

// IndustryNews returns the top stories (at most 20) of the user's industry.
func (u *User) IndustryNews(ctx context.Context) ([]NewsItem, error) {
	var out []NewsItem
	return out, u.do(ctx, call{op: "Industries/News", path: "/v1/Industries/News", kind: KindNews}, &out)
}

// News returns the news of the user's whole portfolio. A service without
// this operation answers ErrNotFound.
func (u *User) News(ctx context.Context) ([]NewsItem, error) {
	var out []NewsItem
	return out, u.do(ctx, call{op: "News", path: pathNews, kind: KindNews}, &out)
}

// TradeProviders returns the account's trade providers and the current one.
func (u *User) TradeProviders(ctx context.Context) (TradeProviders, error) {
	var out TradeProviders
	return out, u.do(ctx, call{op: "Trade/TradeProviders", path: pathTradeProviders, kind: KindAccount}, &out)
}

// SetTradeProvider chooses the trade provider used for CustomerId lookups and
// returns the service's confirmation.
func (c *Client) SetTradeProvider(ctx context.Context, key, providerID string) (string, error) {
	form := url.Values{paramTradeProviderID: {providerID}}
	var out string
	_, err := c.wire(ctx, call{op: "Trade/TradeProviders", path: pathTradeProviders, key: key, form: form}, &out, false)
	return out, err
}
