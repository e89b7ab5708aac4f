// Draws every chart on the page from its options, which the server rendered
// as JSON next to the chart's container. One static file, so the CSP needs
// no inline script; no option is ever evaluated as code.
//
// A chart is drawn only when it comes near the viewport, and each chart in
// a task of its own, so a page of charts never blocks input for long. Print
// draws the rest first and opens the data tables (details) for the paper.
(function () {
  "use strict";

  // Below this container width a chart gets its phone layout (see narrow).
  var NARROW = 560;
  // How far outside the viewport a chart starts drawing, so it is ready
  // when scrolled to.
  var MARGIN = "200px 0px";

  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var queue = [];
  var pumping = false;
  var observer = null;
  // The drawn charts, for resizing and print.
  var drawn = [];

  function isNarrow(el) {
    return el.clientWidth > 0 && el.clientWidth < NARROW;
  }

  // narrow fits a chart to a phone. The heat map shows its last six months
  // with a slider to the earlier ones (twelve columns leave a phone ~20 px
  // each) and truncates the business names (the table below has them whole).
  function narrow(option) {
    var series = [].concat(option.series || []);
    var heat = series.some(function (s) { return s && s.type === "heatmap"; });
    if (!heat) {
      return;
    }
    var x = [].concat(option.xAxis || [])[0];
    var months = x && x.data ? x.data.length : 0;
    var shown = 6;
    if (months > shown) {
      // A slider only: zooming inside would take the finger that scrolls
      // the page.
      option.dataZoom = [{ type: "slider", xAxisIndex: 0, startValue: months - shown, endValue: months - 1,
        zoomLock: true, brushSelect: false, height: 18, bottom: 36 }];
      var grid = [].concat(option.grid || [{}])[0];
      grid.bottom = 72;
      option.grid = grid;
    }
    [].concat(option.yAxis || []).forEach(function (y) {
      y.axisLabel = Object.assign({}, y.axisLabel || {}, { width: 84, overflow: "truncate" });
    });
  }

  function options(el) {
    var source = document.getElementById(el.getAttribute("data-chart"));
    if (!source) {
      return null;
    }
    var option;
    try {
      option = JSON.parse(source.textContent);
    } catch (e) {
      el.setAttribute("data-chart-error", "bad options");
      return null;
    }
    // HTML tooltips would write inline styles, which the CSP refuses.
    option.tooltip = Object.assign({}, option.tooltip || {}, { renderMode: "richText" });
    if (reducedMotion && reducedMotion.matches) {
      option.animation = false;
    }
    if (isNarrow(el)) {
      narrow(option);
    }
    return option;
  }

  function draw(el) {
    if (el.hasAttribute("data-drawing") || !window.echarts) {
      return;
    }
    var option = options(el);
    if (!option) {
      return;
    }
    el.setAttribute("data-drawing", "true");
    var chart = window.echarts.init(el, null, { renderer: "canvas" });
    chart.on("finished", function () {
      el.setAttribute("data-drawn", "true");
    });
    chart.setOption(option);
    var entry = { el: el, chart: chart, narrow: isNarrow(el) };
    drawn.push(entry);
    if (window.ResizeObserver) {
      new ResizeObserver(function () { resize(entry); }).observe(el);
    }
  }

  // resize redraws a chart that crossed the phone width with the options
  // for its new width, and otherwise only fits it to its container.
  function resize(entry) {
    var now = isNarrow(entry.el);
    if (now !== entry.narrow && entry.el.clientWidth > 0) {
      entry.narrow = now;
      var option = options(entry.el);
      if (option) {
        entry.chart.setOption(option, true);
      }
    }
    entry.chart.resize();
  }

  // pump draws the queued charts one per task.
  function pump() {
    if (pumping || queue.length === 0) {
      return;
    }
    pumping = true;
    setTimeout(function () {
      pumping = false;
      var el = queue.shift();
      if (el) {
        draw(el);
      }
      pump();
    }, 0);
  }

  function enqueue(el) {
    if (queue.indexOf(el) < 0 && !el.hasAttribute("data-drawing")) {
      queue.push(el);
      pump();
    }
  }

  function start() {
    var els = document.querySelectorAll("[data-chart]");
    if (!window.IntersectionObserver) {
      for (var i = 0; i < els.length; i++) {
        enqueue(els[i]);
      }
      return;
    }
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) {
          observer.unobserve(e.target);
          enqueue(e.target);
        }
      });
    }, { rootMargin: MARGIN });
    for (var j = 0; j < els.length; j++) {
      observer.observe(els[j]);
    }
  }

  // Print: every chart drawn (the paper has no scrolling) and every closed
  // data table opened; afterprint closes those again.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    var els = document.querySelectorAll("[data-chart]");
    for (var i = 0; i < els.length; i++) {
      if (observer) {
        observer.unobserve(els[i]);
      }
      draw(els[i]);
    }
    queue = [];
    var details = document.querySelectorAll("details:not([open])");
    for (var j = 0; j < details.length; j++) {
      details[j].open = true;
      opened.push(details[j]);
    }
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });

  // An empty month field would show "--------- ----"; marked, the
  // stylesheet leaves it blank until it has the focus.
  function markEmpty(input) {
    if (input.value) {
      input.removeAttribute("data-empty");
    } else {
      input.setAttribute("data-empty", "");
    }
  }

  function monthFields() {
    var inputs = document.querySelectorAll('input[type="month"]');
    for (var i = 0; i < inputs.length; i++) {
      markEmpty(inputs[i]);
      inputs[i].addEventListener("input", function (e) { markEmpty(e.target); });
      inputs[i].addEventListener("change", function (e) { markEmpty(e.target); });
    }
  }

  function ready() {
    monthFields();
    start();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
