package simulator

import (
	"net/http"
)

const (
	paramTradeProviderID = "TradeProviderId"
)

// tradeRoutes are the trade providers' operations: the list and the
// choice.
func (s *Server) tradeRoutes() routeTable {
	return routeTable{"/v1/Trade/TradeProviders": {
		http.MethodGet:  {data: s.tradeProviders},
		http.MethodPost: {data: s.chooseTradeProvider},
	}}
}

// tradeProviders answers GET Trade/TradeProviders (shape is ours).
func (s *Server) tradeProviders(c *call) (any, *apiError) {
	out := wireTradeProviders{TradeProviders: make([]wireTradeProvider, 0, len(c.acct.TradeProviders))}
	if tp := s.chosenProvider(c.acct); tp != nil {
		out.Current = tp.ID
	}
	for _, tp := range c.acct.TradeProviders {
		out.TradeProviders = append(out.TradeProviders, wireTradeProvider{TradeProviderId: tp.ID, Name: tp.Name})
	}
	return out, nil
}

// chooseTradeProvider answers POST Trade/TradeProviders. The choice belongs
// to the account, so it outlives the session that made it.
func (s *Server) chooseTradeProvider(c *call) (any, *apiError) {
	id := c.r.PostForm.Get(paramTradeProviderID)
	if id == "" {
		return nil, errf(http.StatusBadRequest, CodeMissingParameter, "TradeProviderId is required.")
	}
	for _, tp := range c.acct.TradeProviders {
		if tp.ID == id {
			s.mu.Lock()
			s.chosen[c.acct.Username] = id
			s.mu.Unlock()
			return "Trade provider " + id + " is now used for CustomerId lookups.", nil
		}
	}
	return nil, errf(http.StatusBadRequest, CodeInvalidTradeProvider,
		"%q is not a trade provider of this account.", id)
}

// chosenProvider is the trade provider the account chose, or nil.
func (s *Server) chosenProvider(acct *account) *TradeProvider {
	s.mu.Lock()
	id := s.chosen[acct.Username]
	s.mu.Unlock()
	for i := range acct.TradeProviders {
		if acct.TradeProviders[i].ID == id {
			return &acct.TradeProviders[i]
		}
	}
	return nil
}
