// A line chart drawn as SVG by the room's own code (no library, nothing from another
// site): axes with round ticks, one line per series with its name at its end, a legend,
// and, for a screen reader or a closer look, the same numbers as a table. It decides no
// figure: it draws the points it is given.

import { element } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 640;
const HEIGHT = 280;
const MARGIN = { top: 16, right: 90, bottom: 44, left: 68 }; // the right margin holds the names
const COLOURS = 8; // .series-0 ... .series-7 in stats.css
let charts = 0; // to give each chart its own ids

function svgElement(tag, attributes = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text) node.textContent = text;
  return node;
}

/** About `count` round values from `low` to `high` (1, 2 or 5 times a power of ten apart). */
function ticks(low, high, count = 5) {
  if (high <= low) return [low];
  const rough = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const values = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step / 1e6; value += step) {
    values.push(Math.round(value * 1e6) / 1e6);
  }
  return values;
}

// The y axis: from a round value at or below `low` to one at or above `high`, and its ticks.
function niceRange(low, high) {
  const [from, to] = low === high ? [low - 1, high + 1] : [low, high];
  const inside = ticks(from, to);
  const step = inside.length > 1 ? inside[1] - inside[0] : 1;
  const bottom = Math.floor(from / step) * step;
  const top = Math.ceil(to / step) * step;
  return [bottom, top, ticks(bottom, top)];
}

// The y of each line's name at its end, moved apart so that no two overlap.
function nameHeights(ends, gap = 22) {
  const order = ends.map((y, index) => [y, index]).sort((a, b) => a[0] - b[0]);
  const placed = new Array(ends.length);
  let last = -Infinity;
  for (const [y, index] of order) {
    last = Math.max(y, last + gap);
    placed[index] = last;
  }
  return placed;
}

/**
 * A figure holding the chart of `series` ([{key, name, points: [[x, y], ...]}]), titled
 * `title`, described by `description`, its axes named `xLabel` and `yLabel`; the table
 * beside it lists every x with each series' y at it.
 */
export function lineChart({ title, description, xLabel, yLabel, series }) {
  charts += 1;
  const ids = { title: `chart${charts}-title`, desc: `chart${charts}-desc` };
  const figure = element("figure", "chart");
  const caption = element("figcaption", "chart-title", title);
  caption.id = ids.title;
  const xs = series.flatMap((s) => s.points.map(([x]) => x));
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  const [xLow, xHigh] = [Math.min(...xs), Math.max(...xs)];
  const [yLow, yHigh, yTicks] = niceRange(Math.min(...ys), Math.max(...ys));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (value) => MARGIN.left + (xHigh === xLow ? plotWidth / 2 : ((value - xLow) / (xHigh - xLow)) * plotWidth);
  const y = (value) => MARGIN.top + plotHeight - (yHigh === yLow ? plotHeight / 2 : ((value - yLow) / (yHigh - yLow)) * plotHeight);

  const svg = svgElement("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-labelledby": `${ids.title} ${ids.desc}`, class: "chart-plot" });
  svg.append(svgElement("title", {}, title), svgElement("desc", { id: ids.desc }, description));
  const axes = svgElement("g", { class: "chart-axes", "aria-hidden": "true" });
  for (const value of yTicks) {
    axes.append(
      svgElement("line", { x1: MARGIN.left, x2: MARGIN.left + plotWidth, y1: y(value), y2: y(value), class: value === 0 ? "chart-zero" : "chart-grid" }),
      svgElement("text", { x: MARGIN.left - 6, y: y(value) + 4, "text-anchor": "end" }, formatNumber(value)),
    );
  }
  for (const value of ticks(xLow, xHigh, 6).filter(Number.isInteger)) {
    axes.append(svgElement("text", { x: x(value), y: HEIGHT - MARGIN.bottom + 20, "text-anchor": "middle" }, formatNumber(value)));
  }
  axes.append(
    svgElement("line", { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top, y2: MARGIN.top + plotHeight, class: "chart-axis" }),
    svgElement("line", { x1: MARGIN.left, x2: MARGIN.left + plotWidth, y1: MARGIN.top + plotHeight, y2: MARGIN.top + plotHeight, class: "chart-axis" }),
    svgElement("text", { x: MARGIN.left + plotWidth / 2, y: HEIGHT - 4, "text-anchor": "middle", class: "chart-label" }, xLabel),
    svgElement("text", { x: 12, y: MARGIN.top + plotHeight / 2, "text-anchor": "middle", class: "chart-label", transform: `rotate(-90 12 ${MARGIN.top + plotHeight / 2})` }, yLabel),
  );
  svg.append(axes);
  const legend = element("ul", "chart-legend");
  const names = nameHeights(series.map((line) => y(line.points[line.points.length - 1][1])));
  series.forEach((line, index) => {
    const colour = `series-${index % COLOURS}`;
    const points = line.points.map(([px, py]) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`).join(" ");
    const group = svgElement("g", { class: `chart-line ${colour}`, "data-series": line.key });
    group.append(svgElement("polyline", { points, fill: "none" }));
    for (const [px, py] of line.points) group.append(svgElement("circle", { cx: x(px).toFixed(1), cy: y(py).toFixed(1), r: 2.5 }));
    const [lastX] = line.points[line.points.length - 1];
    group.append(svgElement("text", { x: x(lastX) + 6, y: names[index] + 4, class: "chart-name" }, line.name));
    svg.append(group);
    const item = element("li", colour);
    item.append(element("span", "chart-swatch"), element("span", "", line.name));
    legend.append(item);
  });
  figure.append(caption, svg, legend, dataTable(title, xLabel, series));
  return figure;
}

// The chart's numbers as a table: a row per x, a column per series ("–": no point there).
function dataTable(title, xLabel, series) {
  const details = element("details", "chart-data");
  details.append(element("summary", "", t("The chart as a table")));
  const table = element("table", "figures-table");
  table.append(element("caption", "visually-hidden", title));
  const head = element("tr");
  for (const label of [xLabel, ...series.map((s) => s.name)]) {
    const th = element("th", "num", label);
    th.scope = "col";
    head.append(th);
  }
  const thead = element("thead");
  thead.append(head);
  const body = element("tbody");
  const xs = [...new Set(series.flatMap((s) => s.points.map(([px]) => px)))].sort((a, b) => a - b);
  const at = series.map((s) => new Map(s.points));
  for (const px of xs) {
    const row = element("tr");
    const th = element("th", "num", formatNumber(px));
    th.scope = "row";
    row.append(th, ...at.map((points) => element("td", "num", points.has(px) ? formatNumber(points.get(px)) : "–")));
    body.append(row);
  }
  table.append(thead, body);
  details.append(table);
  return details;
}
