// The page's style sheet, inlined into every page and report (no file to fetch, no network).
// Colours follow the reader's light or dark preference; status colours mean the same everywhere:
// red stop / failure / STALE / Forbidden, amber warn / running, green done / verified.

/** The CSS of the page. */
export const PAGE_STYLE = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--accent:#0969da;
--red:#cf222e;--red-bg:#ffebe9;--amber:#9a6700;--amber-bg:#fff8c5;--green:#1a7f37;--green-bg:#dafbe1;
--blue-bg:#ddf4ff;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;
--card:#151b23;--accent:#4493f8;--red:#ff7b72;--red-bg:#3c1618;--amber:#d29922;--amber-bg:#3a2e0a;
--green:#3fb950;--green-bg:#12361d;--blue-bg:#0c2d4a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1200px;margin:0 auto;padding:0 16px 48px}
h1{font-size:20px;margin:0}h2{font-size:16px;margin:0 0 8px;display:flex;gap:8px;align-items:baseline}
h2 .count{color:var(--muted);font-weight:400;font-size:13px}h3{font-size:13px;margin:12px 0 4px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
code,pre,.mono{font-family:var(--mono);font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-word;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px;margin:6px 0;max-height:480px;overflow:auto}
a{color:var(--accent)}ul{margin:4px 0;padding-left:20px}
#goal{border-bottom:2px solid var(--line);padding:12px 0 8px}
.anchor{font-size:18px;font-weight:600;margin:4px 0 8px}
.limits{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:4px 24px}
.limits h3{margin-top:4px}.limits ul{max-height:8.5em;overflow:auto}
section{margin-top:20px;border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:8px 24px}
.next-action{font-size:16px;font-weight:600;background:var(--blue-bg);border-radius:6px;padding:6px 10px;margin:4px 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}dt{color:var(--muted)}dd{margin:0}
.chip{display:inline-block;font-family:var(--mono);font-size:12px;border-radius:10px;padding:0 8px;margin:1px 2px;border:1px solid var(--line);background:var(--card)}
.chip.allow{background:var(--green-bg);border-color:var(--green)}.chip.deny{background:var(--red-bg);border-color:var(--red)}
.forbidden-glob{background:var(--red-bg);color:var(--red);border-radius:4px;padding:0 4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:4px 8px;border-top:1px solid var(--line)}
th{color:var(--muted);font-weight:500;font-size:12px}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;white-space:nowrap;background:var(--card);border:1px solid var(--line)}
.s-done,.m-valid,.k-checkpoint,.k-test{background:var(--green-bg);color:var(--green);border-color:var(--green)}
.s-running,.warn,.k-boot,.k-compaction{background:var(--amber-bg);color:var(--amber);border-color:var(--amber)}
.s-blocked,.s-failed,.stop,.m-stale,.k-failure,.k-forbidden,.k-denied{background:var(--red-bg);color:var(--red);border-color:var(--red)}
.s-skipped,.m-unverifiable{color:var(--muted)}
tr.current td{background:var(--blue-bg)}
.signal{display:flex;gap:8px;align-items:baseline;padding:4px 0}
.muted,.ago{color:var(--muted)}.ago{font-size:12px}
.problems{border-color:var(--red);background:var(--red-bg)}
.controls{display:flex;gap:8px;align-items:center;margin-bottom:6px;flex-wrap:wrap}
select,button{font:inherit;padding:2px 8px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg)}
button{cursor:pointer}
details>summary{cursor:pointer}details pre{margin-left:12px}
.event td:first-child{white-space:nowrap}.event .raw{font-size:12px}
#live{font-size:12px;margin-left:auto;color:var(--muted)}#live.on::before{content:"● ";color:var(--green)}#live.off::before{content:"● ";color:var(--red)}
.cmd{font-family:var(--mono);font-size:12.5px;background:var(--card);border:1px solid var(--line);border-radius:4px;padding:1px 6px;user-select:all}
footer{margin-top:24px;color:var(--muted);font-size:12px}
`;
