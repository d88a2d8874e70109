// agent-state/boot: the boot prompt's parts — levels, rendering, budgets and token counters
// (docs/boot.md). The prompt itself is `boot()` from the main entry.
export { renderBoot, type BootRendering } from '../boot/render-boot.js';
export { bootDocument, type BootDocument } from '../boot/boot-document.js';
export { chooseLevel, contextRecovery, type LevelChoice } from '../boot/choose-level.js';
export { heuristicCounter, heuristicTokens, loadO200kCounter } from '../boot/o200k-counter.js';
export {
  BOOT_FORMATS,
  BOOT_ROLES,
  BOOT_SOURCES,
  LEVEL_NAMES,
  type BootContext,
  type BootEvidence,
  type BootLayer,
  type BootMarker,
  type BootOmission,
  type BootRecovery,
  type BootSection,
  type BootSource,
  type RenderBootOptions,
  type TokenCounter,
} from '../boot/types.js';
export { omittedFact, type OmittedFact } from '../boot/boot-fact.js';
