// The Print button of the credit memo and summary: the browser's own
// print dialog (no inline handler under the strict CSP).
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
})();
