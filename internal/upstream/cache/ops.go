package cache

import (
	"context"
	"fmt"

	"strconv"
	"time"

	"creditdash/internal/upstream"
)

// The methods below mirror upstream.Client. Each key names the operation and
// every argument that changes the answer; the user is added by get.

func refKey(op string, ref upstream.BusinessRef) string { return op + "|" + ref.String() }

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02")
}

// Login is never cached.
func (c *Cache) Login(ctx context.Context, username, password string) (upstream.LoginResult, error) {
	return c.client.Login(ctx, username, password)
}

// LatestAnnualStatements is cached as report data.
func (c *Cache) LatestAnnualStatements(ctx context.Context, key string, ref upstream.BusinessRef, q upstream.StatementsQuery) ([]upstream.AnnualFinancials, error) {
	k := fmt.Sprintf("%s|%d|%d|%s", refKey("statements", ref), q.Count, q.StandardYear, q.SortOrder)
	return get(ctx, c, KindReport, k, key, func(ctx context.Context) ([]upstream.AnnualFinancials, error) {
		return c.client.LatestAnnualStatements(ctx, key, ref, q)
	})
}

// PaymentSummaryMonthly is cached as report data.
func (c *Cache) PaymentSummaryMonthly(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error) {
	return get(ctx, c, KindReport, refKey("monthly", ref), key, func(ctx context.Context) ([]upstream.PaymentSummaryRow, error) {
		return c.client.PaymentSummaryMonthly(ctx, key, ref)
	})
}

// PaymentSummarySIC is cached as report data.
func (c *Cache) PaymentSummarySIC(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error) {
	return get(ctx, c, KindReport, refKey("sic", ref), key, func(ctx context.Context) ([]upstream.PaymentSummaryRow, error) {
		return c.client.PaymentSummarySIC(ctx, key, ref)
	})
}

// CreditScoreHistory is cached as report data, per time frame.
func (c *Cache) CreditScoreHistory(ctx context.Context, key string, ref upstream.BusinessRef, from, to time.Time) ([]upstream.CreditScoreHistoryRow, error) {
	k := refKey("scores", ref) + "|" + day(from) + "|" + day(to)
	return get(ctx, c, KindReport, k, key, func(ctx context.Context) ([]upstream.CreditScoreHistoryRow, error) {
		return c.client.CreditScoreHistory(ctx, key, ref, from, to)
	})
}

// RiskHistory is cached as report data.
func (c *Cache) RiskHistory(ctx context.Context, key string, ref upstream.BusinessRef, count int) ([]upstream.RiskHistoryRow, error) {
	k := refKey("risk", ref) + "|" + strconv.Itoa(count)
	return get(ctx, c, KindReport, k, key, func(ctx context.Context) ([]upstream.RiskHistoryRow, error) {
		return c.client.RiskHistory(ctx, key, ref, count)
	})
}

// Officers is cached as report data.
func (c *Cache) Officers(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.Officer, error) {
	return get(ctx, c, KindReport, refKey("officers", ref), key, func(ctx context.Context) ([]upstream.Officer, error) {
		return c.client.Officers(ctx, key, ref)
	})
}

// NAICSCodes is cached as report data.
func (c *Cache) NAICSCodes(ctx context.Context, key string, ref upstream.BusinessRef) ([]upstream.NAICSCode, error) {
	return get(ctx, c, KindReport, refKey("naics", ref), key, func(ctx context.Context) ([]upstream.NAICSCode, error) {
		return c.client.NAICSCodes(ctx, key, ref)
	})
}

// Summary is cached as report data.
func (c *Cache) Summary(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.BusinessSummary, error) {
	return get(ctx, c, KindReport, refKey("summary", ref), key, func(ctx context.Context) (upstream.BusinessSummary, error) {
		return c.client.Summary(ctx, key, ref)
	})
}

// WordFill is cached as report data.
func (c *Cache) WordFill(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.WordFill, error) {
	return get(ctx, c, KindReport, refKey("wordfill", ref), key, func(ctx context.Context) (upstream.WordFill, error) {
		return c.client.WordFill(ctx, key, ref)
	})
}

// IdentificationGroup is cached as report data: every tab's header uses it.
func (c *Cache) IdentificationGroup(ctx context.Context, key string, ref upstream.BusinessRef) (upstream.Identification, error) {
	return get(ctx, c, KindReport, refKey("ident", ref), key, func(ctx context.Context) (upstream.Identification, error) {
		return c.client.IdentificationGroup(ctx, key, ref)
	})
}

// Search is cached briefly.
func (c *Cache) Search(ctx context.Context, key, text string, count int) ([]upstream.SearchResult, error) {
	k := "search|" + strconv.Itoa(count) + "|" + text
	return get(ctx, c, KindSearch, k, key, func(ctx context.Context) ([]upstream.SearchResult, error) {
		return c.client.Search(ctx, key, text, count)
	})
}

func portfolioKey(op string, q upstream.PortfolioQuery) string {
	return fmt.Sprintf("%s|%s|%s|%d|%d", op, day(q.From), day(q.To), q.StartRow, q.EndRow)
}

// PayScoreHistory is cached as portfolio data, per page and time frame.
func (c *Cache) PayScoreHistory(ctx context.Context, key string, q upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error) {
	return get(ctx, c, KindPortfolio, portfolioKey("pay", q), key, func(ctx context.Context) (upstream.PortfolioScoreHistory, error) {
		return c.client.PayScoreHistory(ctx, key, q)
	})
}

// ZScoreHistory is cached as portfolio data, per page and time frame.
func (c *Cache) ZScoreHistory(ctx context.Context, key string, q upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error) {
	return get(ctx, c, KindPortfolio, portfolioKey("z", q), key, func(ctx context.Context) (upstream.PortfolioScoreHistory, error) {
		return c.client.ZScoreHistory(ctx, key, q)
	})
}

// Folders is cached as portfolio data.
func (c *Cache) Folders(ctx context.Context, key string) ([]upstream.Folder, error) {
	return get(ctx, c, KindPortfolio, "folders", key, func(ctx context.Context) ([]upstream.Folder, error) {
		return c.client.Folders(ctx, key)
	})
}

// PortfolioBusinesses is cached as portfolio data.
func (c *Cache) PortfolioBusinesses(ctx context.Context, key string, folderID int) ([]upstream.PortfolioBusiness, error) {
	return get(ctx, c, KindPortfolio, "businesses|"+strconv.Itoa(folderID), key, func(ctx context.Context) ([]upstream.PortfolioBusiness, error) {
		return c.client.PortfolioBusinesses(ctx, key, folderID)
	})
}

// FolderNews is cached as news.
func (c *Cache) FolderNews(ctx context.Context, key string, folderID int) ([]upstream.NewsItem, error) {
	return get(ctx, c, KindNews, "foldernews|"+strconv.Itoa(folderID), key, func(ctx context.Context) ([]upstream.NewsItem, error) {
		return c.client.FolderNews(ctx, key, folderID)
	})
}

// IndustryNews is cached as news.
func (c *Cache) IndustryNews(ctx context.Context, key string) ([]upstream.NewsItem, error) {
	return get(ctx, c, KindNews, "industrynews", key, func(ctx context.Context) ([]upstream.NewsItem, error) {
		return c.client.IndustryNews(ctx, key)
	})
}

// News is cached as news.
func (c *Cache) News(ctx context.Context, key string) ([]upstream.NewsItem, error) {
	return get(ctx, c, KindNews, "news", key, func(ctx context.Context) ([]upstream.NewsItem, error) {
		return c.client.News(ctx, key)
	})
}

// TradeProviders is cached as account data until the choice changes.
func (c *Cache) TradeProviders(ctx context.Context, key string) (upstream.TradeProviders, error) {
	return get(ctx, c, KindAccount, "tradeproviders", key, func(ctx context.Context) (upstream.TradeProviders, error) {
		return c.client.TradeProviders(ctx, key)
	})
}

// SetTradeProvider is never cached, and forgets the user's copies: after
// the change the same CustomerId may name another business.
func (c *Cache) SetTradeProvider(ctx context.Context, key, providerID string) (string, error) {
	msg, err := c.client.SetTradeProvider(ctx, key, providerID)
	if err == nil {
		c.Forget(ctx, key)
	}
	return msg, err
}

// Download streams straight through: an export is never cached.
func (c *Cache) Download(ctx context.Context, key string, q upstream.DownloadQuery) (*upstream.Download, error) {
	u := userOf(ctx, key)
	ctx = upstream.WithRateLimitObserver(ctx, func(r upstream.RateLimit) { c.quotas.set(u, r) })
	d, err := c.client.Download(ctx, key, q)
	c.noteRateLimit(u, err)
	return d, err
}
