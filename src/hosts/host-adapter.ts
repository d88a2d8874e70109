// What an integration intends: the files it edits and what the user should know afterwards.
import type { FileEdit } from './install/file-edits.js';

/** The edits of one integration and the notes to print with its result. */
export interface IntegrationPlan {
  edits: FileEdit[];
  /** Sentences for the user (trust prompts, manual steps, things left alone). */
  notes: string[];
}
