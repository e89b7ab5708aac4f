package upstream

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// PortfolioQuery selects months and a page of businesses for the portfolio
// score histories; zero fields leave the service's defaults (the last 12
// months, rows 1 to DefaultPortfolioRows).
type PortfolioQuery struct {
	From, To         time.Time // inclusive dates
	StartRow, EndRow int       // 1-based, inclusive
}

func (pq PortfolioQuery) values() url.Values {
	q := url.Values{}
	setDate(q, paramStartDate, pq.From)
	setDate(q, paramEndDate, pq.To)
	if pq.StartRow > 0 {
		q.Set(paramStartRow, strconv.Itoa(pq.StartRow))
	}
	if pq.EndRow > 0 {
		q.Set(paramEndRow, strconv.Itoa(pq.EndRow))
	}
	return q
}

// PayScoreHistory returns monthly Pay scores of the portfolio's businesses.
func (c *Client) PayScoreHistory(ctx context.Context, key string, pq PortfolioQuery) (PortfolioScoreHistory, error) {
	var out PortfolioScoreHistory
	return out, c.do(ctx, call{op: "Portfolio/PayScoreHistory", path: pathPayScoreHistory, key: key, query: pq.values()}, &out)
}

// ZScoreHistory returns monthly Z-Scores of the portfolio's businesses.
func (c *Client) ZScoreHistory(ctx context.Context, key string, pq PortfolioQuery) (PortfolioScoreHistory, error) {
	var out PortfolioScoreHistory
	return out, c.do(ctx, call{op: "Portfolio/ZScoreHistory", path: pathZScoreHistory, key: key, query: pq.values()}, &out)
}

// Folders returns the user's portfolio folders.
func (c *Client) Folders(ctx context.Context, key string) ([]Folder, error) {
	var out []Folder
	return out, c.do(ctx, call{op: "Portfolio/Folders", path: pathFolders, key: key}, &out)
}

// PortfolioBusinesses lists the businesses of one folder, or of the whole
// portfolio when folderID is 0. A service without this operation answers
// ErrNotFound.
func (c *Client) PortfolioBusinesses(ctx context.Context, key string, folderID int) ([]PortfolioBusiness, error) {
	q := url.Values{}
	if folderID != 0 {
		q.Set(paramFolderID, strconv.Itoa(folderID))
	}
	var out []PortfolioBusiness
	return out, c.do(ctx, call{op: "Portfolio/Businesses", path: pathPortfolioBusinesses, key: key, query: q}, &out)
}

// FolderNews returns the news of one folder's businesses, newest first.
func (c *Client) FolderNews(ctx context.Context, key string, folderID int) ([]NewsItem, error) {
	var out []NewsItem
	path := fmt.Sprintf(pathFolderNewsFormat, folderID)
	return out, c.do(ctx, call{op: "Portfolio/Folders/News", path: path, key: key}, &out)
}

// IndustryNews returns the top stories (at most 20) of the user's industry.
func (c *Client) IndustryNews(ctx context.Context, key string) ([]NewsItem, error) {
	var out []NewsItem
	return out, c.do(ctx, call{op: "Industries/News", path: pathIndustryNews, key: key}, &out)
}

// News returns the news of the user's whole portfolio. A service without
// this operation answers ErrNotFound.
func (c *Client) News(ctx context.Context, key string) ([]NewsItem, error) {
	var out []NewsItem
	return out, c.do(ctx, call{op: "News", path: pathNews, key: key}, &out)
}

// TradeProviders returns the account's trade providers and the current one.
func (c *Client) TradeProviders(ctx context.Context, key string) (TradeProviders, error) {
	var out TradeProviders
	return out, c.do(ctx, call{op: "Trade/TradeProviders", path: pathTradeProviders, key: key}, &out)
}

// SetTradeProvider chooses the trade provider used for CustomerId lookups and
// returns the service's confirmation.
func (c *Client) SetTradeProvider(ctx context.Context, key, providerID string) (string, error) {
	form := url.Values{paramTradeProviderID: {providerID}}
	var out string
	err := c.do(ctx, call{op: "Trade/TradeProviders", path: pathTradeProviders, key: key, form: form}, &out)
	return out, err
}
