package simulator

// portfolioRoutes are the portfolio's operations.
func (s *Server) portfolioRoutes() routeTable {
	return routeTable{
		"/v1/Portfolio/PayScoreHistory": getOp(s.payScoreHistory),
		"/v1/Portfolio/ZScoreHistory":   getOp(s.zScoreHistory),
		"/v1/Portfolio/Folders":         getOp(s.folders),
		"/v1/Portfolio/Businesses":      getOp(s.portfolioBusinesses),
	}
}

// folders answers Portfolio/Folders.
func (s *Server) folders(c *call) (any, *apiError) {
	out := make([]wireFolder, 0, len(c.acct.Folders))
	for _, f := range c.acct.Folders {
		out = append(out, wireFolder{
			FolderId: f.FolderID, UserId: c.acct.UserID, FolderName: f.FolderName,
			DateCreated: f.DateCreated, DateUpdated: f.DateUpdated,
		})
	}
	return out, nil
}

// portfolioBusinesses answers Portfolio/Businesses (ours): one entry per
// folder membership, optionally of one folder. It streams, because the bulk
// portfolio is too big to build.
func (s *Server) portfolioBusinesses(c *call) (any, *apiError) {
	var folder *Folder
	if raw := c.q.Get(paramFolderID); raw != "" {
		f, e := findFolder(c.acct, raw)
		if e != nil {
			return nil, e
		}
		folder = f
	}
	return stream{each: func(yield func(any) bool) {
		s.eachMember(c.acct, folder, func(f *Folder, b *Business) bool {
			return yield(wirePortfolioBusiness{BusinessId: b.ID, BusinessName: b.Name, FolderId: f.FolderID})
		})
	}}, nil
}

// payScoreHistory answers Portfolio/PayScoreHistory.
func (s *Server) payScoreHistory(c *call) (any, *apiError) {
	return s.scoreHistory(c, "PayScore", func(sm *ScoreMonth) (float64, bool) {
		if sm.Pay == nil {
			return 0, false
		}
		return float64(*sm.Pay), true
	})
}

// zScoreHistory answers Portfolio/ZScoreHistory.
func (s *Server) zScoreHistory(c *call) (any, *apiError) {
	return s.scoreHistory(c, "ZScore", func(sm *ScoreMonth) (float64, bool) {
		if sm.Z == nil {
			return 0, false
		}
		return *sm.Z, true
	})
}

// scoreHistory pages through the portfolio's distinct businesses ordered by
// name (StartRow..EndRow) with one score over StartDate..EndDate; months
// without that score are left out of Scores.
func (s *Server) scoreHistory(c *call, scoreType string, pick func(*ScoreMonth) (float64, bool)) (any, *apiError) {
	from, to, e := s.monthRange(c.q, 12)
	if e != nil {
		return nil, e
	}
	first, last, e := rowRange(c.q)
	if e != nil {
		return nil, e
	}
	page := s.portfolioRange(c.acct, first, last)
	out := wirePortfolioScoreHistory{
		TotalResults: s.portfolioSize(c.acct),
		ScoreType:    scoreType,
		Businesses:   make([]wirePortfolioBusinessScores, 0, len(page)),
	}
	for _, b := range page {
		row := wirePortfolioBusinessScores{BusinessId: b.ID, BusinessName: b.Name, Scores: []wireMonthlyScore{}}
		scores := sortedScores(b.Scores)
		for i := range scores {
			sm := &scores[i]
			if m := monthOf(sm.Year, sm.Month); m < from || m > to {
				continue
			}
			if v, ok := pick(sm); ok {
				row.Scores = append(row.Scores, wireMonthlyScore{Year: sm.Year, Month: sm.Month, Score: v})
			}
		}
		out.Businesses = append(out.Businesses, row)
	}
	return out, nil
}
