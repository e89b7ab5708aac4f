package cache

import (
	"context"
	"fmt"

	"strconv"
	"time"

	"creditdash/internal/upstream"
)

// The methods below mirror upstream.Client without the session key, which
// the Reader holds. Each key names the operation and every argument that
// changes the answer; the user is added by get.

func refKey(op string, ref upstream.BusinessRef) string { return op + "|" + ref.String() }

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02")
}

// LatestAnnualStatements is cached as report data.
func (r *Reader) LatestAnnualStatements(ctx context.Context, ref upstream.BusinessRef, q upstream.StatementsQuery) ([]upstream.AnnualFinancials, error) {
	k := fmt.Sprintf("%s|%d|%d|%s", refKey("statements", ref), q.Count, q.StandardYear, q.SortOrder)
	return get(ctx, r, KindReport, k, func(ctx context.Context, key string) ([]upstream.AnnualFinancials, error) {
		return r.c.svc.LatestAnnualStatements(ctx, key, ref, q)
	})
}

// PeerAnalysis is cached as report data, per period and filters.
func (r *Reader) PeerAnalysis(ctx context.Context, ref upstream.BusinessRef, q upstream.PeerQuery) (upstream.PeerAnalysis, error) {
	k := fmt.Sprintf("%s|%d|%d|%q|%t|%d|%q|%q|%q|%q|%q", refKey("peers", ref), q.Year, q.Quarter, q.SICCode, q.SICPrimary,
		q.FolderID, q.TargetCountry, q.RiskLevel, q.ZScore, q.PayScore, q.DBT)
	return get(ctx, r, KindReport, k, func(ctx context.Context, key string) (upstream.PeerAnalysis, error) {
		return r.c.svc.PeerAnalysis(ctx, key, ref, q)
	})
}

// PaymentSummaryMonthly is cached as report data.
func (r *Reader) PaymentSummaryMonthly(ctx context.Context, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error) {
	return get(ctx, r, KindReport, refKey("monthly", ref), func(ctx context.Context, key string) ([]upstream.PaymentSummaryRow, error) {
		return r.c.svc.PaymentSummaryMonthly(ctx, key, ref)
	})
}

// PaymentSummarySIC is cached as report data.
func (r *Reader) PaymentSummarySIC(ctx context.Context, ref upstream.BusinessRef) ([]upstream.PaymentSummaryRow, error) {
	return get(ctx, r, KindReport, refKey("sic", ref), func(ctx context.Context, key string) ([]upstream.PaymentSummaryRow, error) {
		return r.c.svc.PaymentSummarySIC(ctx, key, ref)
	})
}

// CreditScoreHistory is cached as report data, per time frame.
func (r *Reader) CreditScoreHistory(ctx context.Context, ref upstream.BusinessRef, from, to time.Time) ([]upstream.CreditScoreHistoryRow, error) {
	k := refKey("scores", ref) + "|" + day(from) + "|" + day(to)
	return get(ctx, r, KindReport, k, func(ctx context.Context, key string) ([]upstream.CreditScoreHistoryRow, error) {
		return r.c.svc.CreditScoreHistory(ctx, key, ref, from, to)
	})
}

// RiskHistory is cached as report data.
func (r *Reader) RiskHistory(ctx context.Context, ref upstream.BusinessRef, count int) ([]upstream.RiskHistoryRow, error) {
	k := refKey("risk", ref) + "|" + strconv.Itoa(count)
	return get(ctx, r, KindReport, k, func(ctx context.Context, key string) ([]upstream.RiskHistoryRow, error) {
		return r.c.svc.RiskHistory(ctx, key, ref, count)
	})
}

// Officers is cached as report data.
func (r *Reader) Officers(ctx context.Context, ref upstream.BusinessRef) ([]upstream.Officer, error) {
	return get(ctx, r, KindReport, refKey("officers", ref), func(ctx context.Context, key string) ([]upstream.Officer, error) {
		return r.c.svc.Officers(ctx, key, ref)
	})
}

// NAICSCodes is cached as report data.
func (r *Reader) NAICSCodes(ctx context.Context, ref upstream.BusinessRef) ([]upstream.NAICSCode, error) {
	return get(ctx, r, KindReport, refKey("naics", ref), func(ctx context.Context, key string) ([]upstream.NAICSCode, error) {
		return r.c.svc.NAICSCodes(ctx, key, ref)
	})
}

// Summary is cached as report data.
func (r *Reader) Summary(ctx context.Context, ref upstream.BusinessRef) (upstream.BusinessSummary, error) {
	return get(ctx, r, KindReport, refKey("summary", ref), func(ctx context.Context, key string) (upstream.BusinessSummary, error) {
		return r.c.svc.Summary(ctx, key, ref)
	})
}

// WordFill is cached as report data.
func (r *Reader) WordFill(ctx context.Context, ref upstream.BusinessRef) (upstream.WordFill, error) {
	return get(ctx, r, KindReport, refKey("wordfill", ref), func(ctx context.Context, key string) (upstream.WordFill, error) {
		return r.c.svc.WordFill(ctx, key, ref)
	})
}

// IdentificationGroup is cached as report data: every tab's header uses it.
func (r *Reader) IdentificationGroup(ctx context.Context, ref upstream.BusinessRef) (upstream.Identification, error) {
	return get(ctx, r, KindReport, refKey("ident", ref), func(ctx context.Context, key string) (upstream.Identification, error) {
		return r.c.svc.IdentificationGroup(ctx, key, ref)
	})
}

// Search is cached briefly.
func (r *Reader) Search(ctx context.Context, text string, count int) ([]upstream.SearchResult, error) {
	k := "search|" + strconv.Itoa(count) + "|" + text
	return get(ctx, r, KindSearch, k, func(ctx context.Context, key string) ([]upstream.SearchResult, error) {
		return r.c.svc.Search(ctx, key, text, count)
	})
}

func portfolioKey(op string, q upstream.PortfolioQuery) string {
	return fmt.Sprintf("%s|%s|%s|%d|%d", op, day(q.From), day(q.To), q.StartRow, q.EndRow)
}

// PayScoreHistory is cached as portfolio data, per page and time frame.
func (r *Reader) PayScoreHistory(ctx context.Context, q upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error) {
	return get(ctx, r, KindPortfolio, portfolioKey("pay", q), func(ctx context.Context, key string) (upstream.PortfolioScoreHistory, error) {
		return r.c.svc.PayScoreHistory(ctx, key, q)
	})
}

// ZScoreHistory is cached as portfolio data, per page and time frame.
func (r *Reader) ZScoreHistory(ctx context.Context, q upstream.PortfolioQuery) (upstream.PortfolioScoreHistory, error) {
	return get(ctx, r, KindPortfolio, portfolioKey("z", q), func(ctx context.Context, key string) (upstream.PortfolioScoreHistory, error) {
		return r.c.svc.ZScoreHistory(ctx, key, q)
	})
}

// Folders is cached as portfolio data.
func (r *Reader) Folders(ctx context.Context) ([]upstream.Folder, error) {
	return get(ctx, r, KindPortfolio, "folders", func(ctx context.Context, key string) ([]upstream.Folder, error) {
		return r.c.svc.Folders(ctx, key)
	})
}

// PortfolioBusinesses is cached as portfolio data.
func (r *Reader) PortfolioBusinesses(ctx context.Context, folderID int) ([]upstream.PortfolioBusiness, error) {
	return get(ctx, r, KindPortfolio, "businesses|"+strconv.Itoa(folderID), func(ctx context.Context, key string) ([]upstream.PortfolioBusiness, error) {
		return r.c.svc.PortfolioBusinesses(ctx, key, folderID)
	})
}

// FolderNews is cached as news.
func (r *Reader) FolderNews(ctx context.Context, folderID int) ([]upstream.NewsItem, error) {
	return get(ctx, r, KindNews, "foldernews|"+strconv.Itoa(folderID), func(ctx context.Context, key string) ([]upstream.NewsItem, error) {
		return r.c.svc.FolderNews(ctx, key, folderID)
	})
}

// IndustryNews is cached as news.
func (r *Reader) IndustryNews(ctx context.Context) ([]upstream.NewsItem, error) {
	return get(ctx, r, KindNews, "industrynews", func(ctx context.Context, key string) ([]upstream.NewsItem, error) {
		return r.c.svc.IndustryNews(ctx, key)
	})
}

// TradeProviders is cached as account data until the choice changes.
func (r *Reader) TradeProviders(ctx context.Context) (upstream.TradeProviders, error) {
	return get(ctx, r, KindAccount, "tradeproviders", func(ctx context.Context, key string) (upstream.TradeProviders, error) {
		return r.c.svc.TradeProviders(ctx, key)
	})
}
