// Draws every chart on the page from its options, which the server rendered
// as JSON next to the chart's container. One static file, so the CSP needs
// no inline script; no option is ever evaluated as code.
(function () {
  "use strict";

  function draw(el) {
    var source = document.getElementById(el.getAttribute("data-chart"));
    if (!source || !window.echarts) {
      return;
    }
    var option;
    try {
      option = JSON.parse(source.textContent);
    } catch (e) {
      el.setAttribute("data-chart-error", "bad options");
      return;
    }
    // HTML tooltips would write inline styles, which the CSP refuses.
    option.tooltip = Object.assign({}, option.tooltip || {}, { renderMode: "richText" });
    var chart = window.echarts.init(el, null, { renderer: "canvas" });
    chart.on("finished", function () {
      el.setAttribute("data-drawn", "true");
    });
    chart.setOption(option);
    if (window.ResizeObserver) {
      new ResizeObserver(function () { chart.resize(); }).observe(el);
    }
  }

  function drawAll() {
    var els = document.querySelectorAll("[data-chart]");
    for (var i = 0; i < els.length; i++) {
      draw(els[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
