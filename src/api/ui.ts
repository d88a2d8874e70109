// agent-state/ui: the page of the Task Context, as a model and as HTML (docs/ui.md).
export type * from '../ui/model.js';
export { UiSource, type TimelineQuery } from '../ui/ui-source.js';
export { buildUiModel, restoreCommands, type UiInput } from '../ui/build-model.js';
export {
  renderPage as renderUiPage,
  renderSections as renderUiSections,
  contentSecurityPolicy,
  SECTION_IDS as UI_SECTION_IDS,
  type RenderOptions as UiRenderOptions,
} from '../ui/render-page.js';
export type { HtmlReportResult } from '../ui/write-report.js';
