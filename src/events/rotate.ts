// Log rotation, under the log lock. The fresh log starts with a `log.rotated` event carrying the
// snapshot of everything before it, so the status never needs the rotated files (kept for audit).
// events.jsonl always exists: the fresh file is renamed over it after linking the old one to .1.
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename } from 'node:path';
import { fsyncDirectory, tempPathFor, TEMP_SUFFIX } from '../state/atomic-write.js';
import { rotatedLogPath, type EventLogPaths } from './log-paths.js';
import type { Config } from '../types.js';
import { reduceStatus } from './reduce.js';
import { foldStatus, saveStatusCache } from './status-cache.js';
import type { AgentEvent } from './types.js';

type LogSettings = Config['log'];

// Temp files of a rotation that crashed (the log lock is held, so none is in use).
function sweepTemps(log: EventLogPaths): void {
  const prefix = `.${basename(log.events)}.`;
  for (const name of readdirSync(log.dir))
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX))
      rmSync(`${log.dir}/${name}`, { force: true });
}

/** Rotates the log (the caller holds the log lock); returns the `log.rotated` event written. */
export function rotateLog(log: EventLogPaths, settings: LogSettings, now: Date): AgentEvent {
  sweepTemps(log);
  const status = foldStatus(log);
  const previous = settings.keep > 0 ? basename(rotatedLogPath(log, 1)) : '(discarded)';
  const marker: AgentEvent = {
    seq: status.snapshot.seq + 1,
    at: now.toISOString(),
    type: 'log.rotated',
    actor: 'system',
    previous,
    snapshot: status.snapshot,
  };
  const line = Buffer.from(`${JSON.stringify(marker)}\n`, 'utf8');
  const temp = tempPathFor(log.events);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, line);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (settings.keep > 0) {
    rmSync(rotatedLogPath(log, settings.keep), { force: true });
    for (let g = settings.keep - 1; g >= 1; g--)
      if (existsSync(rotatedLogPath(log, g)))
        renameSync(rotatedLogPath(log, g), rotatedLogPath(log, g + 1));
    linkSync(log.events, rotatedLogPath(log, 1));
  }
  renameSync(temp, log.events);
  fsyncDirectory(log.dir);
  saveStatusCache(log, {
    snapshot: reduceStatus(status.snapshot, [marker]),
    log: { ino: statSync(log.events).ino, offset: line.length },
  });
  return marker;
}
