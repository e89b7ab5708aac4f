// Draws every chart on the page from its options, which the server rendered
// as JSON next to the chart's container. One static file, so the CSP needs
// no inline script; no option is ever evaluated as code.
//
// ECharts itself (its URL is this script's data-echarts) is fetched when the
// first chart comes near the viewport, or once the page is idle after
// loading, so it is never in the way of the page's first paint and is there
// for scrolling and printing. Charts are drawn when they come near the
// viewport, one at a time, each in short steps that are tasks of their own:
// the instance; a sketch (axes, legend, titles: the series without their
// data) rendered in the next animation frame; then the data, rendered in
// the frame after, a heat map's cells a chunk per frame (ECharts'
// progressive rendering). So a page of charts never blocks input for long:
// under Lighthouse's mobile throttling the first chart's one render was a
// 300-500 ms task. Print draws the rest at once, whole, and opens the data
// tables (details) for the paper.
//
// On a phone (PHONE) charts start as they come into view, not before. A
// heat map there (inside .heat-chart) is not drawn at all: the coloured
// table below it has the same numbers, and its first render was the page's
// longest task. app.css hides it for the same width, so the page does not
// move; its "Show as chart" button draws it, and a screen that turns wide
// draws it too. With every chart of the page waiting so, ECharts is not
// fetched either; paper prints those heat maps as their tables.
(function () {
  "use strict";

  // Below this container width a chart gets its phone layout (see narrow).
  var NARROW = 560;
  // How far outside the viewport a chart starts drawing, so it is ready
  // when scrolled to. On a phone (PHONE) a chart starts as it comes into
  // view: its first drawing is a phone's 100-150 ms of work, which a chart
  // just below the first screen (the payments tab's aging chart, 120 px
  // under a 412x823 phone's) took while the page itself was still loading.
  var MARGIN = "200px 0px";
  var PHONE_MARGIN = "0px";
  // How long the next chart waits for one whose frame does not come (a
  // hidden tab renders nothing until it is shown).
  var STALL = 3000;
  // A heat map's cells drawn per frame, above a threshold of cells.
  var CHUNK = 60;
  // The characters of a row name a phone's heat map shows.
  var LABEL = 13;
  // Canvas pixels per CSS pixel at most: a phone's 2.6 or 3 paints up to
  // twice the pixels of 2 for no sharper a chart at its size.
  var MAX_DPR = 2;
  // The screens on which a heat map waits for its button: app.css hides
  // .heat-chart's chart at the same width.
  var PHONE = "screen and (max-width: 700px)";

  var script = document.currentScript;
  var source = script ? script.getAttribute("data-echarts") : null;
  var requested = false;
  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var phone = window.matchMedia ? window.matchMedia(PHONE) : null;
  // Charts waiting to be drawn, in the order they came into view.
  var queue = [];
  var busy = false;
  var observer = null;
  // The charts begun: { el, chart, option, narrow, width, height, set, rendered }.
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
    // Names cut to a length here, not by ECharts' "truncate", which
    // measures each name letter by letter on the canvas: for a page of
    // fifty businesses that text measuring was the longest part of the
    // first render on a phone.
    [].concat(option.yAxis || []).forEach(function (y) {
      y.axisLabel = Object.assign({}, y.axisLabel || {}, { formatter: shorten });
    });
  }

  // shorten cuts a heat map's row name to what a phone's 84 px column
  // holds at ECharts' 12 px type.
  function shorten(name) {
    var s = String(name);
    return s.length > LABEL ? s.slice(0, LABEL - 1) + "\u2026" : s;
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
    [].concat(option.series || []).forEach(function (s) {
      if (s && s.type === "heatmap" && s.progressive === undefined) {
        s.progressive = CHUNK;
        s.progressiveThreshold = CHUNK * 2;
      }
    });
    return option;
  }

  // sketch is a chart's options without its data: the axes, legend and
  // titles render in a short task of their own before the series do.
  function sketch(option) {
    var s = Object.assign({}, option);
    if (Array.isArray(option.series)) {
      s.series = option.series.map(function (x) { return Object.assign({}, x, { data: [] }); });
    } else if (option.series) {
      s.series = Object.assign({}, option.series, { data: [] });
    }
    return s;
  }

  // requestECharts adds ECharts' script to the page, once; the queue moves
  // on when it has run.
  function requestECharts() {
    if (requested || !source) {
      return;
    }
    requested = true;
    var s = document.createElement("script");
    s.src = source;
    s.addEventListener("load", next);
    s.addEventListener("error", function () {
      queue.forEach(function (el) { el.setAttribute("data-chart-error", "ECharts did not load"); });
      queue = [];
    });
    document.head.appendChild(s);
  }

  // begin creates a chart's instance with its options read, but not set.
  function begin(el) {
    if (el.hasAttribute("data-drawing")) {
      return null;
    }
    var option = options(el);
    if (!option) {
      return null;
    }
    el.setAttribute("data-drawing", "true");
    var chart = window.echarts.init(el, null, { renderer: "canvas",
      devicePixelRatio: Math.min(window.devicePixelRatio || 1, MAX_DPR) });
    var entry = { el: el, chart: chart, option: option, narrow: isNarrow(el),
      width: el.clientWidth, height: el.clientHeight, set: false, rendered: false };
    drawn.push(entry);
    if (window.ResizeObserver) {
      new ResizeObserver(function () { resize(entry); }).observe(el);
    }
    return entry;
  }

  // set gives a begun chart its options, rendered in the next animation
  // frame when lazy, else at once. Only from here on does "finished" mean
  // the chart is drawn: an instance without options finishes too.
  function set(entry, lazy) {
    entry.set = true;
    entry.chart.on("finished", function () {
      entry.el.setAttribute("data-drawn", "true");
    });
    entry.chart.setOption(entry.option, { lazyUpdate: lazy });
  }

  // now sets a begun chart's options and renders them at once (print).
  function now(entry) {
    if (!entry.set) {
      set(entry, false);
    } else if (!entry.rendered) {
      // Set lazily and waiting for its frame: render it now.
      entry.chart.setOption(entry.option);
    }
    entry.rendered = true;
  }

  // resize redraws a chart that crossed the phone width with the options
  // for its new width, and otherwise only fits it to its container. The
  // observer's first report, of the size the chart was begun at, is no
  // change.
  function resize(entry) {
    var el = entry.el;
    if (el.clientWidth === entry.width && el.clientHeight === entry.height) {
      return;
    }
    if (el.clientWidth === 0 || el.clientHeight === 0) {
      // Hidden (a phone's heat map put away): nothing to fit until shown.
      return;
    }
    entry.width = el.clientWidth;
    entry.height = el.clientHeight;
    var narrowNow = isNarrow(el);
    if (narrowNow !== entry.narrow && el.clientWidth > 0) {
      entry.narrow = narrowNow;
      var option = options(el);
      if (option) {
        entry.option = option;
        if (entry.set) {
          entry.chart.setOption(option, true);
        }
      }
    }
    entry.chart.resize();
  }

  // next draws the first queued chart in three tasks (the instance, the
  // options, ECharts' render in the next frame), then the one after it.
  function next() {
    if (busy || queue.length === 0) {
      return;
    }
    if (!window.echarts) {
      requestECharts();
      return;
    }
    busy = true;
    var el = queue.shift();
    var over = false;
    var done = function () {
      if (!over) {
        over = true;
        busy = false;
        next();
      }
    };
    setTimeout(function () {
      var entry = begin(el);
      if (!entry) {
        done();
        return;
      }
      // step runs fn in a task of its own once the frame before it has
      // rendered, or moves on to the next chart if the frame never comes.
      var step = function (fn) {
        setTimeout(function () {
          if (entry.set) {
            done(); // print drew it meanwhile
            return;
          }
          fn();
        }, 0);
      };
      var whenRendered = function (then) {
        var stall = setTimeout(done, STALL);
        var rendered = function () {
          entry.chart.off("rendered", rendered);
          clearTimeout(stall);
          then();
        };
        entry.chart.on("rendered", rendered);
      };
      step(function () {
        whenRendered(function () {
          step(function () {
            whenRendered(function () {
              entry.rendered = true;
              setTimeout(done, 0);
            });
            set(entry, true);
          });
        });
        entry.chart.setOption(sketch(entry.option), { lazyUpdate: true });
      });
    }, 0);
  }

  function enqueue(el) {
    if (queue.indexOf(el) < 0 && !el.hasAttribute("data-drawing")) {
      queue.push(el);
      next();
    }
  }

  // watch draws a chart when it comes near the viewport.
  function watch(el) {
    if (observer) {
      observer.observe(el);
    } else {
      enqueue(el);
    }
  }

  // deferred says a chart waits for its button: a heat map on a phone
  // that has not asked for it.
  function deferred(el) {
    var box = el.parentNode;
    return !!(phone && phone.matches && box && box.classList &&
      box.classList.contains("heat-chart") && !box.classList.contains("shown"));
  }

  // toggle shows or puts away a heat map on a phone; the first show draws
  // it (fetching ECharts if need be).
  function toggle(button) {
    var el = document.getElementById(button.getAttribute("data-show-chart"));
    if (!el || !el.parentNode || !el.parentNode.classList) {
      return;
    }
    var show = !el.parentNode.classList.contains("shown");
    el.parentNode.classList.toggle("shown", show);
    button.setAttribute("aria-expanded", show ? "true" : "false");
    button.textContent = show ? "Hide chart" : "Show as chart";
    if (show && el.hasAttribute("data-chart-deferred")) {
      el.removeAttribute("data-chart-deferred");
      enqueue(el);
    }
  }

  // widened draws the heat maps a phone left waiting once the screen is
  // wide enough to show them (a tablet turned, a window made wider).
  // Paper is not a wider screen: printing leaves "screen" for "print" and
  // prints a waiting heat map as its table.
  function widened() {
    if (phone.matches || window.matchMedia("print").matches) {
      return;
    }
    var els = document.querySelectorAll("[data-chart-deferred]");
    for (var i = 0; i < els.length; i++) {
      els[i].removeAttribute("data-chart-deferred");
      watch(els[i]);
    }
  }

  function start() {
    var els = document.querySelectorAll("[data-chart]");
    var buttons = document.querySelectorAll("[data-show-chart]");
    for (var b = 0; b < buttons.length; b++) {
      buttons[b].addEventListener("click", function (e) { toggle(e.currentTarget); });
    }
    if (phone && phone.addEventListener) {
      phone.addEventListener("change", widened);
    }
    if (window.IntersectionObserver) {
      observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) {
            observer.unobserve(e.target);
            enqueue(e.target);
          }
        });
      }, { rootMargin: phone && phone.matches ? PHONE_MARGIN : MARGIN });
    }
    for (var j = 0; j < els.length; j++) {
      if (deferred(els[j])) {
        els[j].setAttribute("data-chart-deferred", "true");
      } else {
        watch(els[j]);
      }
    }
  }

  // paper is a chart's options for print: a legend that shows every entry
  // at once, not a page of it to scroll, and no zoom slider (paper shows
  // the whole range and cannot slide).
  function paper(option) {
    var p = Object.assign({}, option);
    var series = [].concat(p.series || []);
    // A whole legend of many entries may take a second row: the plot starts
    // below it. One or two entries share the title's row, as on screen.
    var legendRow = p.legend && series.length > 2 ? 24 : 0;
    if (p.legend) {
      p.legend = [].concat(p.legend).map(function (l) { return Object.assign({}, l, { type: "plain" }); });
    }
    // The room the slider had below the plot goes to the plot: a chart
    // sized for paper is short, and its months must still read.
    var sliderRoom = 0;
    if (p.dataZoom) {
      var zooms = [].concat(p.dataZoom);
      p.dataZoom = zooms.filter(function (z) { return z.type !== "slider"; });
      sliderRoom = p.dataZoom.length < zooms.length ? 40 : 0;
    }
    if (legendRow || sliderRoom) {
      p.grid = [].concat(p.grid || [{}]).map(function (g) {
        var top = parseInt(g.top, 10);
        var bottom = parseInt(g.bottom, 10);
        var out = Object.assign({}, g);
        if (legendRow) {
          out.top = (isNaN(top) ? 60 : top) + legendRow;
        }
        if (sliderRoom && !isNaN(bottom)) {
          out.bottom = Math.max(8, bottom - sliderRoom);
        }
        return out;
      });
    }
    // Paper is printed at once: no cells left for later frames.
    if (p.series) {
      p.series = [].concat(p.series).map(function (x) {
        return x && x.type === "heatmap" ? Object.assign({}, x, { progressive: 0 }) : x;
      });
    }
    return p;
  }

  // Print: every chart drawn (the paper has no scrolling) in its paper
  // form and every closed data table opened; afterprint puts both back.
  // The charts fit the paper's width once the print layout applies.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    if (window.echarts) {
      var els = document.querySelectorAll("[data-chart]:not([data-drawing]):not([data-chart-deferred])");
      for (var i = 0; i < els.length; i++) {
        if (observer) {
          observer.unobserve(els[i]);
        }
        begin(els[i]);
      }
      queue = [];
      drawn.forEach(function (entry) {
        now(entry);
        entry.chart.setOption(paper(entry.option), true);
      });
    } else {
      requestECharts();
    }
    var details = document.querySelectorAll("details:not([open])");
    for (var j = 0; j < details.length; j++) {
      details[j].open = true;
      opened.push(details[j]);
    }
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
    drawn.forEach(function (entry) {
      if (entry.rendered) {
        entry.chart.setOption(entry.option, true);
        entry.chart.resize();
      }
    });
  });
  if (window.matchMedia) {
    var printing = window.matchMedia("print");
    var fit = function () { drawn.forEach(function (entry) { entry.chart.resize(); }); };
    if (printing.addEventListener) {
      printing.addEventListener("change", fit);
    }
  }

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

  // Once the page has loaded and the browser is idle, ECharts comes anyway:
  // a print draws every chart at once and cannot wait for a download. Not
  // when every chart waits for its button (a phone's score grid): paper
  // prints those as their tables.
  window.addEventListener("load", function () {
    if (!document.querySelector("[data-chart]:not([data-chart-deferred])")) {
      return;
    }
    if (window.requestIdleCallback) {
      window.requestIdleCallback(requestECharts, { timeout: 3000 });
    } else {
      setTimeout(requestECharts, 500);
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
