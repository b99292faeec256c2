import { escapeHtml, renderHtml, type HtmlValue } from "./html.ts";
import type { ReportLanguage } from "./report-messages.ts";
import { sha256Base64 } from "./sha256.ts";

/**
 * The page around a report: stylesheet, the legend script and a Content-Security-Policy that lets
 * exactly these two run (and, in a Chinese report, the font faces and their inline fonts). They
 * are allowed by hash rather than by 'unsafe-inline', so even markup that slipped past escaping
 * could neither run script nor restyle the page; nothing is fetched.
 */

/**
 * The app's CJK font (Noto Sans SC cut down to the characters the UI and the reports use,
 * assets/fonts/taillab-cjk-{400,700}.woff2), as base64 WOFF2, for a Chinese report to carry:
 * a lab PC without CJK fonts would show boxes.
 */
export interface CjkFont {
  regular: string;
  bold: string;
}

/**
 * The code points the CJK font is for (as the app's theme.css declares it). It comes first in the
 * page's fonts, for these only: after system-ui, Chromium on Linux draws Chinese with whatever
 * fontconfig offers for system-ui, boxes where that has no glyph, and never tries the next font.
 */
const CJK_RANGE =
  "U+2E80-2FDF,U+3000-303F,U+3400-4DBF,U+4E00-9FFF,U+F900-FAFF,U+FE30-FE4F,U+FF00-FFEF";

function fontFaces(font: CjkFont): string {
  const face = (base64: string, weights: string) =>
    `@font-face{font-family:"TailLab CJK";src:url(data:font/woff2;base64,${base64}) format("woff2");font-weight:${weights};unicode-range:${CJK_RANGE}}`;
  return face(font.regular, "100 500") + face(font.bold, "600 900");
}

export const REPORT_STYLES = `
:root{color-scheme:light;--ink:#15202b;--muted:#4d5965;--line:#d6dce2;--accent:#1f5fa6;--panel:#f3f6f9;--good:#16794a;--bad:#b3261e}
*{box-sizing:border-box}
html{font-size:18px;-webkit-text-size-adjust:100%}
body{margin:0;background:#fff;color:var(--ink);line-height:1.55;font-family:"TailLab CJK",system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC","Source Han Sans SC","WenQuanYi Micro Hei",sans-serif}
main{max-width:1320px;margin:0 auto;padding:2.5rem 2.25rem 3rem}
.report-header{border-bottom:5px solid var(--accent);padding-bottom:1.25rem;margin-bottom:1.5rem}
.eyebrow{margin:0 0 .35rem;color:var(--accent);font-weight:700;font-size:.85rem;letter-spacing:.08em;text-transform:uppercase}
h1{margin:0 0 .5rem;font-size:2.35rem;line-height:1.2;overflow-wrap:anywhere}
h2{margin:3rem 0 1rem;padding-bottom:.35rem;font-size:1.65rem;border-bottom:2px solid var(--line)}
h3{margin:2.2rem 0 .8rem;font-size:1.3rem}
p{margin:.6rem 0;max-width:62rem}
.subtitle{margin:0;color:var(--muted);font-size:1.05rem}
.mono,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
.tags{display:flex;flex-wrap:wrap;gap:.4rem;margin:.8rem 0 0;padding:0;list-style:none}
.tag{padding:.1rem .65rem;border-radius:999px;background:var(--panel);border:1px solid var(--line);font-size:.9rem}
.badge{display:inline-block;margin-left:.4rem;padding:.05rem .5rem;border-radius:4px;background:var(--accent);color:#fff;font-size:.75rem;font-weight:700;vertical-align:middle}
.callout{margin:1rem 0;padding:.8rem 1.1rem;border-left:6px solid #d97706;background:#fff7e8}
.callout.error{border-color:var(--bad);background:#fdeeee}
.note{color:var(--muted)}
.pre-wrap{white-space:pre-wrap;overflow-wrap:anywhere}
nav.toc{margin:1rem 0 0;padding:.8rem 1.1rem;background:var(--panel);border-radius:8px}
nav.toc ol{margin:.2rem 0 0;padding-left:1.4rem;columns:2;column-gap:2.5rem}
nav.toc a{color:var(--accent);text-decoration:none}
nav.toc a:hover{text-decoration:underline}
.table-wrap{overflow-x:auto;margin:.6rem 0 1.6rem}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.97rem;max-width:100%}
th,td{padding:.45rem .8rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--panel);border-bottom:2px solid #a9b4bf;font-weight:650;vertical-align:bottom}
td.nowrap{white-space:nowrap}
tbody tr:nth-child(even){background:#fafbfc}
th.num,td.num{text-align:right}
td.num{white-space:nowrap}
table.kv th{min-width:13rem;color:var(--muted);font-weight:600;background:none}
table.kv td{overflow-wrap:anywhere}
table.results tbody th{font-weight:600;white-space:nowrap}
table.results th,table.results td{padding:.4rem .6rem}
tr.group-start th,tr.group-start td{border-top:2px solid #a9b4bf}
td.delta-better,span.delta-better{color:var(--good)}
td.delta-worse,span.delta-worse{color:var(--bad)}
.delta{display:block;font-size:.85rem}
.significance{display:block;font-size:.8rem;color:var(--muted)}
tr.differs th{color:var(--accent)}
details.fold>summary{cursor:pointer;list-style-position:outside;margin-left:1.2rem}
details.fold>summary h2{display:inline-block;width:calc(100% - 1rem);margin-top:2rem}
.chart-figure{margin:1.4rem 0 2.6rem;break-inside:avoid}
.chart-title{margin:0 0 .45rem;font-weight:650;font-size:1.15rem}
svg.chart{display:block;width:100%;height:auto;background:#fff}
svg.chart text{font-family:inherit;fill:#26313c}
svg.chart .plot-bg{fill:#fcfdfe}
svg.chart .grid{stroke:#e2e7ec;stroke-width:1}
svg.chart .axis{stroke:#56626d;stroke-width:1.5}
svg.chart .tick{font-size:15px;fill:#36414c}
svg.chart .axis-label{font-size:17px;font-weight:600}
svg.chart .marker-label{font-size:15px;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:5px;stroke-linejoin:round}
svg.chart .is-hidden{display:none}
.legend{display:flex;flex-wrap:wrap;gap:.45rem .6rem;margin:.55rem 0 0}
.legend-entry{display:inline-flex;align-items:center;gap:.45rem;padding:.28rem .85rem .28rem .55rem;border:1px solid var(--line);border-radius:999px;background:#fff;color:var(--ink);font:inherit;font-size:.95rem;cursor:pointer}
.legend-entry:hover{border-color:#8693a0}
.legend-entry:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.legend-entry[aria-pressed="false"]{opacity:.45;text-decoration:line-through}
.swatch{flex:none}
.chart-caption{margin:.55rem 0 0;color:var(--muted);font-size:.95rem}
.fit{margin:.3rem 0;padding:.6rem 1rem;background:var(--panel);border-radius:6px;font-size:.98rem}
.fit p{margin:.25rem 0}
footer{margin-top:3.5rem;padding-top:1rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
@media (max-width:700px){html{font-size:16px}main{padding:1.2rem}nav.toc ol{columns:1}}
@media print{
@page{size:A4;margin:14mm}
html{font-size:10.5pt}
main{max-width:none;padding:0}
h2{margin-top:1.8rem;break-after:avoid}
h3{break-after:avoid}
.chart-figure,.table-wrap,.fit{break-inside:avoid}
.legend-entry{border:none;padding:0 .7rem 0 0}
.legend-hint,nav.toc{display:none}
tbody tr:nth-child(even){background:none}
a{color:inherit;text-decoration:none}
}
`.trim();

/** Legend toggling: the only script in a report (no data, no network, no storage). */
export const LEGEND_SCRIPT = `
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof Element)) return;
  var button = target.closest("button[data-series]");
  if (!button) return;
  var figure = button.closest("figure");
  if (!figure) return;
  var shown = button.getAttribute("aria-pressed") === "false";
  button.setAttribute("aria-pressed", shown ? "true" : "false");
  var id = button.getAttribute("data-series");
  figure.querySelectorAll("svg [data-series]").forEach(function (node) {
    if (node.getAttribute("data-series") === id) node.classList.toggle("is-hidden", !shown);
  });
});
`.trim();

/** The policy of a page with these style sheets: each by its hash, fonts only inline. */
function reportCsp(styles: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${sha256Base64(LEGEND_SCRIPT)}'`,
    `style-src ${styles.map((style) => `'sha256-${sha256Base64(style)}'`).join(" ")}`,
    "img-src data:",
    ...(styles.length > 1 ? ["font-src data:"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function renderPage(options: {
  language: ReportLanguage;
  title: string;
  body: HtmlValue;
  /** Carried in the page (a Chinese report's), for machines without CJK fonts. */
  cjkFont?: CjkFont | undefined;
}): string {
  const styles = [REPORT_STYLES, ...(options.cjkFont ? [fontFaces(options.cjkFont)] : [])];
  // Plain concatenation: the style and script text must reach the page byte for byte, or their
  // hashes in the policy no longer match.
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(options.language)}">`,
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(reportCsp(styles))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="generator" content="TailLab">',
    `<title>${escapeHtml(options.title)}</title>`,
    ...styles.map((style) => `<style>${style}</style>`),
    "</head>",
    "<body>",
    `<main>${renderHtml(options.body)}</main>`,
    `<script>${LEGEND_SCRIPT}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
