package handlers

import (
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"
	"github.com/xuri/excelize/v2"

	"creditdash/internal/views"
)

// exportAccountsXLSX downloads the same rows as accounts.csv (next_review
// included) as a
// workbook, written with excelize's stream writer. Numbers are number
// cells; text is written as text cells, which a spreadsheet never runs as
// a formula.
func (h *Handler) exportAccountsXLSX(c *echo.Context) error {
	records, err := h.accountRecords(c)
	if err != nil {
		return err
	}
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		return err
	}
	head := make([]any, len(views.AccountsCSVHeader))
	for i, hd := range views.AccountsCSVHeader {
		head[i] = hd
	}
	if err := sw.SetRow("A1", head); err != nil {
		return err
	}
	for i, rec := range records {
		row := make([]any, len(rec))
		for j, v := range rec {
			row[j] = xlsxValue(j, v)
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := sw.SetRow(cell, row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return err
	}
	file := "creditdash-accounts-" + h.now().UTC().Format("2006-01-02") + ".xlsx"
	hd := c.Response().Header()
	ctype := "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	return c.Blob(http.StatusOK, ctype, buf.Bytes())
}

// xlsxValue is a CSV field as a cell: the text columns (account, name,
// owner, next_review) as text with the CSV's defusing apostrophe taken
// off (a text cell needs none), the rest as numbers.
func xlsxValue(col int, v string) any {
	switch views.AccountsCSVHeader[col] {
	case "account", "name", "owner", "next_review":
		if len(v) > 1 && v[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(v[1])) {
			return v[1:]
		}
		return v
	}
	if v == "" {
		return nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return v
	}
	return n
}
