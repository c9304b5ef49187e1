/**
 * The page's frame and style: one static template, no framework, no script, no external font or image.
 * The filter ("only commits with findings") is a checkbox and a CSS `:has()` rule, so the page needs no
 * JavaScript at all; folding is `<details>`.
 */
export const STYLE = `
:root{--fail:#c62828;--warn:#b26a00;--pass:#2e7d32;--skip:#757575;--line:#d0d7de;--bg:#fff;--fg:#1f2328;--muted:#59636e}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:16px 20px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.verdict{font-weight:600}.verdict.ok{color:var(--pass)}.verdict.failed{color:var(--fail)}
.muted,.meta{color:var(--muted)}
dl.summary{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:8px;margin:0}
dl.summary div{border:1px solid var(--line);border-radius:6px;padding:8px 10px}
dl.summary dt{color:var(--muted);font-size:12px}dl.summary dd{margin:2px 0 0;font-size:18px;font-weight:600}
dl.summary div.bad dd{color:var(--fail)}dl.summary div.warnish dd{color:var(--warn)}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{text-align:left;vertical-align:top;padding:3px 6px;border-bottom:1px solid var(--line)}
th{font-size:12px;color:var(--muted);font-weight:600}
td.st{font-weight:600;white-space:nowrap}.st.fail,.mark.fail{color:var(--fail)}.st.warn,.mark.warn{color:var(--warn)}.st.pass,.mark.pass{color:var(--pass)}.st.skip{color:var(--skip)}
table.verdicts td:first-child{white-space:nowrap}td.msg{word-break:break-word}td.clause{color:var(--muted);font-size:12px}
section.commit{border:1px solid var(--line);border-left:4px solid var(--pass);border-radius:4px;margin:6px 0;padding:4px 10px}
section.commit[data-status=fail]{border-left-color:var(--fail)}section.commit[data-status=warn]{border-left-color:var(--warn)}
summary{cursor:pointer}p.facts{margin:4px 0;color:var(--muted)}
body:has(#only-findings:checked) section.commit[data-status=pass],body:has(#only-findings:checked) table.compact-list tr[data-status=pass]{display:none}
.timeline-box{overflow-x:auto}svg.timeline{font:11px system-ui,sans-serif;background:#fafbfc;border:1px solid var(--line)}
svg .tick{stroke:#e6e8eb}svg .axis{fill:var(--muted)}svg .lane-line{stroke:#c9d1d9}svg .lane-label{fill:var(--fg)}svg .gap{fill:#eaeef2}
svg .c-pass{fill:var(--pass)}svg .c-warn{fill:var(--warn)}svg .c-fail{fill:var(--fail)}
svg .merge path,svg .squash rect{stroke:#1f2328;stroke-width:1.5}svg .bucket{opacity:.75}
svg .clock-in{fill:#0969da}svg .anchor line{stroke:#8250df;stroke-width:2}svg .anchor path{fill:#8250df}
svg .ack{fill:#1a7f37}svg .reset{fill:var(--fail)}svg .refresh{fill:#0969da}
.legend span{margin-right:14px}
@media print{details{display:block}.filter{display:none}}
`;

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
