// The worklist's keyboard (issue 27): j moves to the next line, k to the
// previous one, Enter opens the line's account. Keys typed into a field,
// or with a modifier, are left to the browser. The current line is marked
// with a class for the eye and its link takes the focus, so a screen
// reader reads it and Enter follows it as any focused link does.
(function () {
  "use strict";
  var table = document.getElementById("worklist");
  if (!table) {
    return;
  }
  var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr"));
  var current = -1;
  function move(to) {
    if (rows.length === 0) {
      return;
    }
    to = Math.max(0, Math.min(rows.length - 1, to));
    if (current >= 0) {
      rows[current].classList.remove("current");
    }
    current = to;
    var row = rows[current];
    row.classList.add("current");
    var link = row.querySelector("a.work-open");
    if (link) {
      link.focus();
    }
    row.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) {
      return;
    }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(t.tagName))) {
      return;
    }
    if (e.key === "j") {
      e.preventDefault();
      move(current + 1);
    } else if (e.key === "k") {
      e.preventDefault();
      move(current < 0 ? 0 : current - 1);
    } else if (e.key === "Enter" && current >= 0 && t === document.body) {
      // The focus left the line's link (a click elsewhere on the page):
      // Enter still opens the line that is marked.
      var link = rows[current].querySelector("a.work-open");
      if (link) {
        e.preventDefault();
        window.location.assign(link.href);
      }
    }
  });
  // A click on a line's link or box makes it the current line.
  table.addEventListener("focusin", function (e) {
    var row = e.target.closest("tbody tr");
    var i = rows.indexOf(row);
    if (i >= 0 && i !== current) {
      if (current >= 0) {
        rows[current].classList.remove("current");
      }
      current = i;
      row.classList.add("current");
    }
  });
})();
