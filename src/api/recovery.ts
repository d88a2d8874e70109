// agent-state/recovery: what a boot, progress, a restart loop, own or foreign drift and a
// compaction are, as pure rules (docs/boot.md), and the local recovery record.
export {
  NO_OWN_FACTS,
  PROGRESS_PARTS,
  countBoot,
  digestProgress,
  inRestartLoop,
  judgeDrift,
  judgePath,
  judgeStale,
  loopHolds,
  progressMoved,
  UNRECORDED,
  type BootCount,
  type DriftVerdict,
  type LastBoot,
  type OwnFacts,
  type PathVerdict,
  type ProgressDigest,
  type ProgressExtras,
  type ProgressPart,
  type StaleVerdict,
  type TreeNow,
} from '../recovery/rules.js';
export {
  confirmCompaction,
  expireNote,
  noteCompaction,
  type CompactionNote,
  type CompactionState,
  type ConfirmedBy,
} from '../recovery/compaction.js';
export { readRecovery, recoveryPath } from '../recovery/record-store.js';
export type { RecoveryRecord } from '../recovery/record.js';
