// The boot prompt (pure): state and live state in, text and everything known about it out. The
// same context at the same time always gives the same bytes.
import { redactSecrets } from '../text/redact.js';
import { markdownData, safeText } from '../text/safe-text.js';
import { chooseLevel, contextRecovery, type LevelChoice } from './choose-level.js';
import { evidenceSections } from './evidence-sections.js';
import { fitBudget, scaled, type HeaderValues } from './fit-budget.js';
import { renderHeader, renderSection, type TextFormat } from './format.js';
import { boundarySections, goalDetailSections } from './goals-sections.js';
import { MUST_KEEP, tallyOmissions, type OmissionTally, type Section } from './model.js';
import { instructionSection } from './other-sections.js';
import {
  agentsSection,
  lastVerificationSection,
  memorySection,
  nextSections,
  planSection,
  reminderSection,
  restartLoopSection,
} from './progress-sections.js';
import {
  foreignDriftSection,
  ownChangesSection,
  stashSection,
  staleSection,
  unrecordedChangesSection,
} from './recovery-sections.js';
import {
  LEVEL_NAMES,
  OMISSION_WORDS,
  type BootContext,
  type BootLayer,
  type BootOmission,
  type BootRecovery,
  type BootSection,
  type BootRole,
  type BootSource,
  type RenderBootOptions,
} from './types.js';

/** Every section of the prompt, most important first, before any budget is applied. */
export function bootSections(
  context: BootContext,
  choice: LevelChoice,
  role: BootRole,
  source: BootSource | null,
  recovery: BootRecovery = contextRecovery(context),
): Section[] {
  const { goals, progress, now } = context;
  const level = choice.level;
  const sections: (Section | null)[] = [
    ...boundarySections(goals),
    ...nextSections(progress),
    agentsSection(context.agents, now),
    choice.restartLoop
      ? restartLoopSection(progress, choice.stalled, context.config.boot.stall_threshold, now)
      : null,
    instructionSection(choice, role, source),
    reminderSection(context.reminders, now),
    stashSection(context.stashed),
    ownChangesSection(recovery),
    unrecordedChangesSection(recovery),
    staleSection(recovery),
    foreignDriftSection(recovery, context.drift, level),
    planSection(progress, context.markers, level),
    lastVerificationSection(progress, context.evidence, recovery.boots, now),
    ...goalDetailSections(goals, level, role),
    memorySection(progress, level),
    ...evidenceSections(context.evidence, level, now),
  ];
  return sections.filter((s): s is Section => s !== null);
}

// The state as shown (hand edits and a git pull can fill it): secrets redacted, control characters
// visible; in Markdown quoted as data (the tool's own headings stay the only ones) but for a
// block's own heading. Done before the budget, so that the budget counts what is shown.
function shown(text: string): string {
  return safeText(redactSecrets(text).text);
}

function shownSection(section: Section, format: TextFormat): Section {
  const data = (text: string) => (format === 'xml' ? shown(text) : markdownData(shown(text)));
  const block = (text: string, head: boolean | undefined) => {
    const own = head ? (/^#+ /.exec(text)?.[0] ?? '') : '';
    return own + data(text.slice(own.length));
  };
  return {
    ...section,
    title: data(section.title),
    blocks: section.blocks.map((b) => ({ ...b, text: block(b.text, b.head) })),
    ...(section.xmlAttrs && {
      xmlAttrs: Object.fromEntries(Object.entries(section.xmlAttrs).map(([k, v]) => [k, shown(v)])),
    }),
  };
}

// The order omissions are named in: the table's own.
const OMISSION_ORDER = Object.keys(OMISSION_WORDS) as BootOmission['kind'][];

function ordered(tally: OmissionTally): BootOmission[] {
  return OMISSION_ORDER.filter((k) => tally.has(k)).map((kind) => {
    const { ids, blocks, how } = tally.get(kind)!;
    return { kind, count: ids.size || blocks, ids: [...ids], how };
  });
}

function headerLine(
  facts: HeaderValues,
  meta: { level: 1 | 2 | 3; role: BootRole; budget: number },
): string {
  let line = `agent-state boot · level ${meta.level} (${LEVEL_NAMES[meta.level]}) · role ${meta.role} · ${facts.tokens}/${meta.budget} tokens`;
  const omitted = ordered(facts.omitted);
  if (omitted.length > 0) {
    const what = omitted.map((o) => `${o.count} ${OMISSION_WORDS[o.kind][o.count === 1 ? 0 : 1]}`);
    const how = [...new Set(omitted.map((o) => o.how))];
    line += ` · omitted ${what.join(', ')} (see ${how.join('; ')})`;
  }
  if (facts.overBudget)
    line += ' · OVER BUDGET: the parts that are never cut need more than the budget';
  return line;
}

/** The rendered prompt and everything known about it. */
export type BootRendering = ReturnType<typeof renderBoot>;

/** Renders the boot prompt and everything known about it. */
export function renderBoot(context: BootContext, options: RenderBootOptions) {
  const { config } = context;
  const role = options.role ?? 'execution';
  const format = options.format ?? 'markdown';
  const source = options.source ?? null;
  const budget = options.budget ?? config.budget.total;
  const multiplier = config.budget.multiplier;
  const textFormat: TextFormat = format === 'xml' ? 'xml' : 'markdown';
  const recovery = contextRecovery(context);
  const requested = options.level ?? config.boot.level;
  const choice = chooseLevel(requested, recovery, config.boot.stall_threshold, source);
  const sections = bootSections(context, choice, role, source, recovery).map((s) =>
    shownSection(s, textFormat),
  );
  const meta = { level: choice.level, role, budget };
  const fit = fitBudget({
    sections,
    format: textFormat,
    meta,
    counter: options.counter,
    multiplier,
    budget,
    // Its goals, progress and evidence figures: the layers fitBudget reads.
    layerBudgets: config.budget,
    header: (facts) => headerLine(facts, meta),
  });
  const count = (text: string) => scaled(options.counter.count(text), multiplier);
  const byLayer: Record<BootLayer, number> = { goals: 0, progress: 0, evidence: 0, other: 0 };
  const header = renderHeader(fit.header, textFormat);
  const rendered: BootSection[] = [
    { key: 'header', title: 'Header', layer: 'other' as const, text: header, must_keep: true },
    ...fit.visible.map((v) => ({
      key: v.section.key,
      title: v.section.title,
      layer: v.section.layer,
      text: renderSection(v, textFormat),
      must_keep: v.section.blocks.every((b) => b.rank === MUST_KEEP),
    })),
  ].map((s) => {
    const tokens = count(s.text);
    byLayer[s.layer] += tokens;
    return { ...s, tokens };
  });
  return {
    level: choice.level,
    levelName: LEVEL_NAMES[choice.level],
    choice,
    role,
    source,
    format,
    // The prompt: Markdown or XML (for the json format: the Markdown the sections join into).
    text: fit.text,
    tokens: {
      // Tokens of `text` × multiplier, rounded up.
      total: scaled(fit.raw, multiplier),
      budget,
      multiplier,
      counter: options.counter.name,
      // Tokens of the parts that are never cut (the floor below which the budget cannot go).
      mustKeep: scaled(fit.mustKeepRaw, multiplier),
      // Whether the must-keep parts alone exceed the budget (then they are printed whole).
      overBudget: fit.overBudget,
      byLayer,
    },
    sections: rendered,
    omitted: ordered(tallyOmissions(sections, fit.removed)),
    reminders: context.reminders,
  };
}
