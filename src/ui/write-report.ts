// `report --html FILE`: the page of `agent-state ui` as one self-contained file (no request to
// any network) for a pull request, a CI artifact or a bug report; artifact links relative to it.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { BaseOptions } from '../types.js';
import { renderPage } from './render-page.js';
import { UiSource } from './ui-source.js';

/** Events a report holds by default (the newest). */
export const REPORT_EVENTS = 500;

export interface HtmlReportOptions extends BaseOptions {
  /** Where to write the report (relative to `cwd`). */
  file: string;
  /** How many of the newest events the timeline holds (default 500). */
  events?: number;
}

export interface HtmlReportResult {
  /** The absolute path written. */
  file: string;
  bytes: number;
  /** Events in the report's timeline, and the seq of the newest. */
  events: number;
  seq: number;
}

/** Writes the HTML report of the task that `cwd` belongs to. */
export async function writeHtmlReport(options: HtmlReportOptions): Promise<HtmlReportResult> {
  const file = resolve(options.cwd ?? process.cwd(), options.file);
  const folder = dirname(file);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`cannot write ${options.file}: ${folder} is not a directory`, {
      hint: 'create the folder first, or write the report somewhere else',
    });
  if (existsSync(file) && statSync(file).isDirectory())
    throw new UsageError(`cannot write ${options.file}: it is a directory`, {
      hint: 'give a file name, such as report.html',
    });
  const source = new UiSource({ ...options, recent: options.events ?? REPORT_EVENTS });
  const model = await source.model();
  const root = source.repo.paths.root;
  const html = renderPage(model, {
    mode: 'static',
    artifactHref: (path) =>
      relative(folder, join(root, path)).split(sep).map(encodeURIComponent).join('/'),
  });
  writeFileAtomic(file, html);
  const events = model.timeline.events.length;
  return { file, bytes: Buffer.byteLength(html), events, seq: model.seq };
}
