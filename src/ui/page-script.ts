// The page's only script, inlined (no file to fetch, no build step): it keeps ages current,
// filters and pages the timeline, and on the live page applies the server's updates. It never
// builds markup from state text: every fragment it inserts was rendered and escaped by the
// server (render-page.ts). The page works without it, minus the live parts.

/** The script of the page (plain JavaScript, no dependency). */
export const PAGE_SCRIPT = `(() => {
'use strict';
const $ = (id) => document.getElementById(id);
const live = document.body.dataset.mode === 'live';
const token = new URLSearchParams(location.search).get('token') || '';
const query = (params) => { const q = new URLSearchParams(params); if (token) q.set('token', token); return q.toString(); };
const PAGE = 50;
const ago = (iso, now) => {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 0) return 'in the future';
  if (s < 45) return 'just now';
  if (s < 3600) return Math.round(s / 60) + ' min ago';
  if (s < 86400) return Math.round(s / 3600) + ' h ago';
  return Math.round(s / 86400) + ' d ago';
};
const ages = () => { const now = Date.now(); for (const el of document.querySelectorAll('.ago[data-at]')) el.textContent = ago(el.dataset.at, now); };
const matches = (type, filter) => !filter || (filter.endsWith('*') ? type.startsWith(filter.slice(0, -1)) : type === filter);
// Open <details> survive a re-render: they are found again by their key.
const openKeys = (root) => [...root.querySelectorAll('details[data-key]')].filter((d) => d.open).map((d) => d.dataset.key);
const reopen = (keys) => { for (const d of document.querySelectorAll('details[data-key]')) if (keys.includes(d.dataset.key)) d.open = true; };
let filter = $('timeline-type') ? $('timeline-type').value : '';
let paged = false;
let shown = PAGE;
const info = (text) => { if ($('timeline-info')) $('timeline-info').textContent = text; };

function staticTimeline() {
  let visible = 0, total = 0;
  for (const row of $('timeline-rows').rows) {
    const ok = matches(row.dataset.type, filter);
    if (ok) total++;
    row.hidden = !(ok && visible < shown);
    if (!row.hidden) visible++;
  }
  info(visible + ' of ' + total + ' events in this report');
  $('timeline-older').hidden = visible >= total;
}

async function loadTimeline(older) {
  const rows = $('timeline-rows');
  const params = { limit: String(PAGE) };
  if (filter) params.types = filter;
  if (older) params.before = rows.dataset.oldest;
  const response = await fetch('/api/timeline?' + query(params), { cache: 'no-store' });
  if (!response.ok) { info('could not load events: HTTP ' + response.status); return; }
  const page = await response.json();
  const keys = openKeys(rows);
  if (older) rows.insertAdjacentHTML('beforeend', page.rows); else rows.innerHTML = page.rows;
  rows.dataset.oldest = String(page.oldest);
  rows.dataset.more = page.more ? 'yes' : 'no';
  $('timeline-older').hidden = !page.more;
  if ($('timeline-empty')) $('timeline-empty').hidden = rows.rows.length > 0;
  reopen(keys);
  info(rows.rows.length + ' shown');
  ages();
}

function apply(update) {
  for (const [id, markup] of Object.entries(update.sections)) {
    const element = $(id);
    if (!element) continue;
    const keys = openKeys(element);
    element.outerHTML = markup;
    reopen(keys);
  }
  const rows = $('timeline-rows');
  if (update.timeline && rows && !paged) {
    if (filter) loadTimeline(false);
    else {
      const keys = openKeys(rows);
      rows.innerHTML = update.timeline.rows;
      rows.dataset.oldest = String(update.timeline.oldest);
      $('timeline-older').hidden = !update.timeline.more;
      if ($('timeline-empty')) $('timeline-empty').hidden = rows.rows.length > 0;
      reopen(keys);
    }
  }
  document.body.dataset.seq = String(update.seq);
  document.body.dataset.revision = String(update.revision);
  ages();
}

function connect() {
  const state = $('live');
  const source = new EventSource('/api/stream?' + query({}));
  source.addEventListener('update', (event) => apply(JSON.parse(event.data)));
  source.onopen = () => { state.className = 'on'; state.textContent = 'live'; };
  source.onerror = () => { state.className = 'off'; state.textContent = source.readyState === 2 ? 'disconnected: reload the page' : 'reconnecting…'; };
}

const select = $('timeline-type');
if (select) {
  if (live) {
    select.addEventListener('change', () => { filter = select.value; paged = false; loadTimeline(false); });
    $('timeline-older').addEventListener('click', () => { paged = true; loadTimeline(true); });
  } else {
    select.addEventListener('change', () => { filter = select.value; shown = PAGE; staticTimeline(); });
    $('timeline-older').addEventListener('click', () => { shown += PAGE; staticTimeline(); });
    staticTimeline();
  }
}
// A report keeps the ages of when it was written; the live page keeps them current.
if (live) { connect(); ages(); setInterval(ages, 15000); }
})();`;
