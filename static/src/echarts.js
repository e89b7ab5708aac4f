// The ECharts the dashboard serves: only the chart types and components the
// pages' options use: a little over half the size of the full dist file.
// scripts/build-assets.sh bundles it into static/vendor/echarts.min.js as a
// script that defines the global `echarts` js/charts.js draws with.
//
// A build that lacks a part does not fail: ECharts keeps an option it has
// no component for as a plain setting and draws the chart without it. So
// when a chart in internal/views asks for something new (a toolbox
// feature, another series type), add it here as well;
// internal/browsertest/echarts_test.go compares every chart's options with
// what its live instance built and names what is missing.
//
// This folder is the build's input only: static/static.go embeds named
// folders, not this one, so it is never served.
import { use } from "echarts/core";
// Series types: score and DBT histories, the stacked aging bars, the
// portfolio heat map, the two-signal quadrant's points.
import { BarChart, HeatmapChart, LineChart, ScatterChart } from "echarts/charts";
import {
  // aria.decal: patterns on the aging bars, so colour is not the only cue.
  AriaComponent,
  // Zoom into a stretch of months: inside (wheel, drag) and the slider.
  DataZoomComponent,
  // The cartesian grid and its axes; includes the axis pointer the axis
  // tooltips use.
  GridComponent,
  // Plain legends on the score charts, scrolling ones on the payments tab.
  LegendComponent,
  // The Z″ zone lines.
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
  // The heat map colours cells by zone: piecewise only, no continuous scale.
  VisualMapPiecewiseComponent,
} from "echarts/components";
// js/charts.js asks for the canvas renderer; no SVG.
import { CanvasRenderer } from "echarts/renderers";

// Not here on purpose: ToolboxComponent (go-echarts sends an empty
// `toolbox: {}`, which draws nothing).
use([
  LineChart,
  BarChart,
  HeatmapChart,
  ScatterChart,
  TitleComponent,
  LegendComponent,
  TooltipComponent,
  GridComponent,
  DataZoomComponent,
  MarkLineComponent,
  VisualMapPiecewiseComponent,
  AriaComponent,
  CanvasRenderer,
]);

// init, getInstanceByDom and the rest of the core API become the global
// `echarts` (the bundle's IIFE global name).
export * from "echarts/core";
